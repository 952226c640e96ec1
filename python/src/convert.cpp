#include "convert.hpp"

#include <cctype>
#include <string>
#include <vector>

#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "pycute_layout_object.hpp"

namespace cuteref::python {

void throw_type_error(const char* what, nb::handle h) {
  const std::string type = nb::type_name(h.type()).c_str();
  std::string shown;
  try {
    shown = nb::repr(h).c_str();
  } catch (const nb::python_error&) {
    shown = "<unprintable>";
  }
  if (shown.size() > 80) shown = shown.substr(0, 77) + "...";
  throw nb::type_error((std::string(what) + ": expected an int, a tuple of ints or a layout, got " + type + " " +
                        shown).c_str());
}

IntTuple integer_from_python(nb::handle h) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (overflow != 0) {
    throw Error("integer " + std::string(nb::str(h).c_str()) + " does not fit in 64 bits");
  }
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return IntTuple::integer(static_cast<std::int64_t>(v));
}

namespace {

// A bare name (an atom or enum word, with CuTe's template arguments: `K`,
// `SM90_64x64x16_F16F16F16_SS<MN,MN>`) that names no function: the parser makes it a Symbol
// only as a call's argument, so a lone one is made here, blanks dropped as the parser does.
bool bare_name(const std::string& text, std::string& name) {
  name.clear();
  for (char c : text)
    if (c != ' ' && c != '\t') name += c;
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  std::size_t k = 0;
  while (k < name.size() && (std::isalnum(static_cast<unsigned char>(name[k])) || name[k] == '_')) ++k;
  const std::string word = name.substr(0, k);
  if (word == "LayoutLeft" || word == "LayoutRight" || word == "Sw" || word == "descriptor" ||
      standard_functions().find(word) != nullptr)
    return false;
  if (k == name.size()) return true;
  if (name[k] != '<' || name.back() != '>') return false;
  for (std::size_t j = k + 1; j + 1 < name.size(); ++j)
    if (!(std::isalnum(static_cast<unsigned char>(name[j])) || name[j] == '_' || name[j] == ',')) return false;
  return true;
}

Value value_from_text(const std::string& text) {
  std::string name;
  if (bare_name(text, name) && name != "_") return Value(Symbol{name});
  return parse_and_evaluate(text, &standard_functions());
}

}  // namespace

bool is_int(nb::handle h) { return PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr()); }
bool is_sequence(nb::handle h) { return PyTuple_Check(h.ptr()) || PyList_Check(h.ptr()); }

IntTuple int_tuple_from_python(nb::handle h, const char* what) {
  if (is_int(h)) return integer_from_python(h);
  if (h.is_none()) return IntTuple::underscore();
  if (is_sequence(h)) {
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(h.ptr());
    PyObject** items = PySequence_Fast_ITEMS(h.ptr());
    std::vector<IntTuple> elements;  // not tuple_made: a conversion may throw
    elements.reserve(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) elements.push_back(int_tuple_from_python(nb::handle(items[i]), what));
    return IntTuple::tuple(std::move(elements));
  }
  if (nb::isinstance<Value>(h)) {
    const Value& v = nb::cast<const Value&>(h);
    if (v.is_int_tuple()) return std::get<IntTuple>(v.data);
  }
  throw_type_error(what, h);
}

Value value_from_python(nb::handle h) {
  if (nb::isinstance<Value>(h)) return nb::cast<const Value&>(h);
  if (is_pycute_layout(h)) return Value(layout_of(h));
  if (is_int(h)) return Value(integer_from_python(h));
  if (h.is_none()) return Value(IntTuple::underscore());
  if (PyUnicode_Check(h.ptr())) return value_from_text(nb::cast<std::string>(h));
  if (is_sequence(h)) {
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(h.ptr());
    PyObject** items = PySequence_Fast_ITEMS(h.ptr());
    std::vector<Value> elements;
    elements.reserve(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) elements.push_back(value_from_python(nb::handle(items[i])));
    return make_tuple_value(std::move(elements));
  }
  if (nb::hasattr(h, "__cuteref_value__")) {
    nb::object v = h.attr("__cuteref_value__")();
    if (nb::isinstance<Value>(v)) return nb::cast<const Value&>(v);
  }
  throw_type_error("cuteref", h);
}

nb::object int_tuple_to_python(const IntTuple& t) {
  switch (t.kind()) {
    case IntTuple::Kind::Integer:
      return nb::steal(PyLong_FromLongLong(t.value()));
    case IntTuple::Kind::Underscore:
      return nb::none();
    case IntTuple::Kind::Basis:
      return nb::cast(Value(t));
    case IntTuple::Kind::Tuple: {
      const auto elements = t.elements();
      nb::object out = nb::steal(PyTuple_New(static_cast<Py_ssize_t>(elements.size())));
      for (std::size_t i = 0; i < elements.size(); ++i)
        PyTuple_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), int_tuple_to_python(elements[i]).release().ptr());
      return out;
    }
  }
  return nb::none();
}

}  // namespace cuteref::python
