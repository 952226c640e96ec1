// The EXPR language as Python: cuteref.Value (any value of the language: integer tuples,
// layouts, swizzles, composed layouts, verdicts, tuples of layouts, atom names), the
// evaluator, the literal parser, every function of the model's table, and `prove`.
// Nothing is computed here: each operation is the model's (notation.hpp, function_table.hpp,
// equality.hpp, evaluate.hpp) or the proof command's (claim.hpp).
#include <cstdint>
#include <exception>
#include <new>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "claim.hpp"
#include "convert.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "notation.hpp"

namespace cuteref::python {

namespace {

// A short, stable name of the value's kind (Value.kind).
const char* kind_of(const Value& v) {
  struct Visitor {
    const char* operator()(const IntTuple& t) const {
      if (t.is_integer()) return "integer";
      if (t.is_underscore()) return "underscore";
      if (t.is_basis()) return "basis";
      return "tuple";
    }
    const char* operator()(const Layout&) const { return "layout"; }
    const char* operator()(const Swizzle&) const { return "swizzle"; }
    const char* operator()(const ComposedLayout&) const { return "composed_layout"; }
    const char* operator()(const Verdict&) const { return "verdict"; }
    const char* operator()(const MixedTuple&) const { return "mixed_tuple"; }
    const char* operator()(const MajorTag&) const { return "major_tag"; }
    const char* operator()(const Symbol&) const { return "symbol"; }
    const char* operator()(const F2Layout&) const { return "f2_layout"; }
  };
  return std::visit(Visitor{}, v.data);
}

bool layout_like(const Value& v) { return v.is_layout() || v.is_composed() || v.is_f2_layout(); }

// The argument of an application X(args...): one argument as it is, several as a tuple
// (as the EXPR parser does for `L(_,2)`).
Value application_argument(const nb::args& args) {
  if (args.size() == 1) return value_from_python(args[0]);
  std::vector<Value> elements;
  for (nb::handle a : args) elements.push_back(value_from_python(a));
  return make_tuple_value(std::move(elements));
}

Value apply_value(const Value& target, const Value& argument) {
  return standard_functions().find("__apply__")->call({target, argument});
}

// The call of a named function of the model's table, with the parser's arity diagnostic.
Value call_function(const std::string& name, const std::vector<Value>& values) {
  const FunctionSpec* spec = name.rfind("__", 0) == 0 ? nullptr : standard_functions().find(name);
  if (spec == nullptr) throw Error("unknown function '" + name + "'");
  if (values.size() < spec->min_args || values.size() > spec->max_args)
    throw Error(name + ": wrong number of arguments: got " + std::to_string(values.size()) + ", expected " +
                spec->signature);
  return spec->call(values);
}

Value call_function(const std::string& name, const nb::args& args) {
  std::vector<Value> values;
  values.reserve(args.size());
  for (nb::handle a : args) values.push_back(value_from_python(a));
  return call_function(name, values);
}

// A hash consistent with ==: equal functions have equal sizes and equal values at 0 and
// size-1; equal integer tuples have equal Python forms (static flags are not part of them).
Py_hash_t value_hash(const Value& v) {
  if (v.is_int_tuple()) {
    const IntTuple& t = std::get<IntTuple>(v.data);
    if (t.is_basis() || t.has_basis()) return nb::hash(nb::str(v.to_string().c_str()));
    return nb::hash(int_tuple_to_python(t));
  }
  if (layout_like(v)) {
    const std::int64_t n = layout_like_size(v);
    nb::object key = nb::make_tuple(n, int_tuple_to_python(evaluate_at(v, 0)), int_tuple_to_python(evaluate_at(v, n - 1)));
    return nb::hash(key);
  }
  if (std::holds_alternative<Verdict>(v.data)) return std::get<Verdict>(v.data).holds ? 1 : 0;
  return nb::hash(nb::str(v.to_string().c_str()));
}

nb::object value_equals(const Value& a, nb::handle other) {
  if (std::holds_alternative<Verdict>(a.data) && PyBool_Check(other.ptr()))
    return nb::bool_(std::get<Verdict>(a.data).holds == (other.ptr() == Py_True));
  Value b = IntTuple();
  try {
    b = value_from_python(other);
  } catch (const nb::builtin_exception& e) {
    if (e.type() != nb::exception_type::type_error) throw;
    return nb::borrow(Py_NotImplemented);
  }
  return nb::bool_(functional_equal(a, b).holds);
}

const Layout& layout_value_of(const Value& v, const char* what) {
  if (v.is_layout()) return std::get<Layout>(v.data);
  if (v.is_composed()) return std::get<ComposedLayout>(v.data).layout;
  throw Error(std::string(what) + ": " + v.kind_name() + " `" + v.to_string() + "` has no " + what);
}

// Python's form of a value: integer tuples as ints and tuples, layouts as (shape, stride),
// tuples of values element by element; other values stay cuteref.Value.
nb::object to_python(const Value& v) {
  if (v.is_int_tuple()) return int_tuple_to_python(std::get<IntTuple>(v.data));
  if (v.is_layout()) {
    const Layout& l = std::get<Layout>(v.data);
    return nb::make_tuple(int_tuple_to_python(l.shape()), int_tuple_to_python(l.stride()));
  }
  if (v.is_mixed_tuple()) {
    const auto& elements = std::get<MixedTuple>(v.data).elements;
    nb::list out;
    for (const Value& e : elements) out.append(to_python(e));
    return nb::tuple(out);
  }
  if (std::holds_alternative<Verdict>(v.data)) return nb::bool_(std::get<Verdict>(v.data).holds);
  return nb::cast(v);
}

// cuteref.batch's core: the value of each EXPR in `exprs` (a list or tuple of str), in one
// call. A diagnostic does not stop the others, as in `cuteref batch`: its place in the list
// of values holds None, and (index, message, column or None) is listed in the second
// element of the result, from which cuteref.batch makes cuteref.Error objects.
// @pre every element is a str (else TypeError naming the index, before any evaluation).
nb::tuple evaluate_batch(nb::handle exprs) {
  if (!PyList_Check(exprs.ptr()) && !PyTuple_Check(exprs.ptr()))
    throw nb::type_error(("batch: expected a list or tuple of EXPR strings, got " +
                          std::string(nb::type_name(exprs.type()).c_str())).c_str());
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(exprs.ptr());
  PyObject** items = PySequence_Fast_ITEMS(exprs.ptr());
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!PyUnicode_Check(items[i]))
      throw nb::type_error(("batch: element " + std::to_string(i) + " is not an EXPR string but a " +
                            std::string(nb::type_name(nb::handle(items[i]).type()).c_str()) + " object")
                               .c_str());
  nb::list values = nb::steal<nb::list>(PyList_New(n));
  nb::list errors;
  const FunctionTable* functions = &standard_functions();
  for (Py_ssize_t i = 0; i < n; ++i) {
    Py_ssize_t length = 0;
    const char* text = PyUnicode_AsUTF8AndSize(items[i], &length);
    if (text == nullptr) throw nb::python_error();  // a str that is not valid UTF-8 (lone surrogates)
    std::string message;
    long column = -1;
    try {
      nb::object v = nb::cast(parse_and_evaluate(std::string_view(text, static_cast<std::size_t>(length)), functions));
      PyList_SET_ITEM(values.ptr(), i, v.release().ptr());
      continue;
    } catch (const ParseError& e) {
      message = e.what();
      column = static_cast<long>(e.column());
    } catch (const Error& e) {
      message = e.what();
      column = column_of(message);
    } catch (const std::bad_alloc&) {
      message = "out of memory evaluating this expression";
    } catch (const std::exception& e) {
      message = std::string("internal error: ") + e.what();
    }
    PyList_SET_ITEM(values.ptr(), i, nb::none().release().ptr());
    errors.append(nb::make_tuple(i, message, column >= 0 ? nb::object(nb::int_(column)) : nb::none()));
  }
  return nb::make_tuple(values, errors);
}

std::int64_t integer_of(const Value& v) {
  if (v.is_int_tuple() && std::get<IntTuple>(v.data).is_integer()) return std::get<IntTuple>(v.data).value();
  throw nb::type_error(("cuteref: " + v.kind_name() + " `" + v.to_string() + "` is not an integer").c_str());
}

}  // namespace

void bind_core(nb::module_& m) {
  nb::class_<Value>(m, "Value",
                    "A value of cuteref's EXPR language (CuTe's notation): integer tuple, layout, swizzle, "
                    "composed layout, verdict of ==, tuple of layouts or a name.")
      .def("__init__", [](Value* self, nb::handle h) { new (self) Value(value_from_python(h)); }, nb::arg("value").none(),
           "Convert a Python int, tuple, None (`_`), EXPR string or cuteref value.")
      .def("__str__", &Value::to_string)
      .def("__repr__", [](const Value& v) { return "cuteref.eval('" + v.to_string() + "')"; })
      .def_prop_ro("kind", [](const Value& v) { return kind_of(v); },
                   "integer, tuple, underscore, basis, layout, swizzle, composed_layout, verdict, "
                   "mixed_tuple, major_tag or symbol")
      .def("__eq__", &value_equals, nb::arg("other").none(), nb::is_operator())
      .def("__ne__", [](const Value& a, nb::handle b) -> nb::object {
             nb::object r = value_equals(a, b);
             if (r.is(nb::handle(Py_NotImplemented))) return r;
             return nb::bool_(!nb::cast<bool>(r));
           }, nb::arg("other").none(), nb::is_operator())
      .def("__hash__", &value_hash)
      .def("equal", [](const Value& a, nb::handle b) { return Value(functional_equal(a, value_from_python(b))); }, nb::arg("other").none(),
           "The verdict of a == b: true, or false with the first differing index (str() shows it).")
      .def("__call__", [](const Value& v, nb::args args) { return apply_value(v, application_argument(args)); },
           "Application L(i), L((i,j)), slicing L(None, j) (None is `_`), swizzle and composed application.")
      .def("__bool__", [](const Value& v) {
             if (std::holds_alternative<Verdict>(v.data)) return std::get<Verdict>(v.data).holds;
             if (v.is_int_tuple() && std::get<IntTuple>(v.data).is_integer())
               return std::get<IntTuple>(v.data).value() != 0;
             return true;
           })
      .def("__int__", &integer_of)
      .def("__index__", &integer_of)
      .def("__len__", [](const Value& v) -> std::size_t {
             if (v.is_int_tuple()) return std::get<IntTuple>(v.data).rank();
             if (v.is_mixed_tuple()) return std::get<MixedTuple>(v.data).elements.size();
             return rank(layout_value_of(v, "rank"));
           })
      .def("__getitem__", [](const Value& v, std::int64_t i) -> Value {
             const std::int64_t n = static_cast<std::int64_t>(
                 v.is_mixed_tuple() ? std::get<MixedTuple>(v.data).elements.size()
                                    : v.is_int_tuple() ? std::get<IntTuple>(v.data).rank() : rank(layout_value_of(v, "modes")));
             if (i < 0) i += n;
             if (i < 0 || i >= n) throw nb::index_error(("index out of range for rank " + std::to_string(n)).c_str());
             if (v.is_mixed_tuple()) return std::get<MixedTuple>(v.data).elements[static_cast<std::size_t>(i)];
             if (v.is_int_tuple()) return Value(std::get<IntTuple>(v.data)[static_cast<std::size_t>(i)]);
             return call_function("mode", std::vector<Value>{v, Value(IntTuple::integer(i))});
           })
      .def_prop_ro("reason", [](const Value& v) -> std::string {
             if (!std::holds_alternative<Verdict>(v.data)) throw nb::attribute_error("only a verdict has a reason");
             return std::get<Verdict>(v.data).reason;
           }, "Why a verdict of == is false: the first differing index and both values (empty when true).")
      .def_prop_ro("shape", [](const Value& v) {
             if (v.is_f2_layout()) return Value(std::get<F2Layout>(v.data).shape());
             return Value(layout_value_of(v, "shape").shape());
           })
      .def_prop_ro("stride", [](const Value& v) {
             if (v.is_composed()) return call_function("stride", std::vector<Value>{v});
             return Value(layout_value_of(v, "stride").stride());
           })
      .def("to_python", &to_python,
           "Integer tuples as ints and tuples (`_` as None), layouts as (shape, stride), verdicts as bool.");

  m.def("evaluate", [](const std::string& text) { return parse_and_evaluate(text, &standard_functions()); },
        nb::arg("expr"), "Evaluate an EXPR (CuTe notation plus CuTe's function names).");
  m.def("evaluate_batch", &evaluate_batch, nb::arg("exprs"),
        "The value of each EXPR of a list, in one call: (values with None at errors, [(index, message, column)]).");
  m.def("parse", [](const std::string& text) { return parse_and_evaluate(text, nullptr); }, nb::arg("text"),
        "Parse a literal in CuTe's printed notation (no function calls).");
  m.def("call", [](const std::string& name, nb::args args) { return call_function(name, args); }, nb::arg("name"),
        nb::arg("args"), "Call the model's function NAME on the arguments.");
  m.def("functions", [] {
    std::vector<std::tuple<std::string, std::string>> out;
    for (const auto& [name, spec] : standard_functions().all())
      if (name.rfind("__", 0) != 0) out.emplace_back(name, spec.signature);
    return out;
  }, "(name, signature) of every function of the EXPR language.");
  m.def("prove_command", [](const std::string& claim, const std::vector<std::string>& where, double timeout_s,
                            const std::string& smt2_file, const std::vector<std::string>& assume) {
    proofs::ProveRequest request;
    request.claim = claim;
    request.where = where;
    request.assume = assume;
    request.timeout_s = timeout_s;
    request.smt2_file = smt2_file;
    std::ostringstream out, err;
    int rc;
    {
      nb::gil_scoped_release released;
      rc = proofs::prove_command(request, out, err);
    }
    return std::make_tuple(rc, out.str(), err.str());
  }, nb::arg("claim"), nb::arg("where"), nb::arg("timeout_s"), nb::arg("smt2_file"), nb::arg("assume"),
        "`cuteref prove`: (exit status 0 proved / 1 refuted / 2 unknown / 3 vacuous / 64 malformed / 70 failure, stdout, stderr).");
}

}  // namespace cuteref::python
