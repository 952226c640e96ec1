// The fast entry points of cuteref.pycute's most called functions (coalesce, composition,
// complement, logical_divide, logical_product): plain CPython vectorcall functions that take
// the common operand forms (pycute layouts, an int) straight to the model and wrap its result,
// without nanobind's argument dispatch and per-call type lookups.
//
// Every other call (keywords, None, tuples, ints as layouts, a wrong type) and every call
// the model refuses goes, unchanged, to the general binding of the same name
// (pycute_bindings.cpp), which is the one place where pycute's operand forms and errors are
// decided: a fast entry point either returns what that binding would return or calls it.
#include <Python.h>

#include <cstdint>
#include <exception>
#include <utility>

#include <nanobind/nanobind.h>

#include "bindings.hpp"
#include "coalesce.hpp"
#include "complement.hpp"
#include "composition.hpp"
#include "convert.hpp"
#include "divide.hpp"
#include "product.hpp"

namespace cuteref::python {

namespace {

PyTypeObject* layout_type = nullptr;  // cuteref.pycute.Layout, set by bind_pycute_fast_calls

// A pycute layout (the class or a subclass of it).
bool is_layout(PyObject* o) { return Py_TYPE(o) == layout_type || PyType_IsSubtype(Py_TYPE(o), layout_type); }
const Layout& layout_in(PyObject* o) { return nb::inst_ptr<PycuteLayout>(o)->layout; }

// A new cuteref.pycute.Layout holding l, or nullptr with a Python error set.
PyObject* new_layout(Layout&& l) noexcept {
  PyObject* o = nb::detail::nb_inst_alloc(layout_type);
  if (o == nullptr) return nullptr;
  new (nb::inst_ptr<PycuteLayout>(o)) PycuteLayout{std::move(l)};
  nb::inst_mark_ready(o);
  return o;
}

// What the general binding (`self`: the nanobind function) answers for these arguments.
PyObject* general(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  return PyObject_Vectorcall(self, args, nargsf, kwnames);
}

// Runs op (the model's operation, returning a Layout) and wraps its result; any exception
// (a precondition the model refuses, memory) hands the call to the general binding, which
// raises the binding's error for it.
template <class Op>
PyObject* fast_or_general(Op&& op, PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  try {
    return new_layout(op());
  } catch (...) {
    return general(self, args, nargsf, kwnames);
  }
}

// coalesce(L) and coalesce(L, None).
PyObject* fast_coalesce(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  if (kwnames == nullptr && (n == 1 || (n == 2 && args[1] == Py_None)) && is_layout(args[0]))
    return fast_or_general([&] { return coalesce(layout_in(args[0])); }, self, args, nargsf, kwnames);
  return general(self, args, nargsf, kwnames);
}

// complement(L, n) for an int n (pycute's max_idx) and complement(L) (max_idx 1).
PyObject* fast_complement(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  if (kwnames == nullptr && (n == 1 || (n == 2 && PyLong_CheckExact(args[1]))) && is_layout(args[0])) {
    std::int64_t max_idx = 1;
    if (n == 2) {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(args[1], &overflow);
      if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return general(self, args, nargsf, kwnames);
      }
      max_idx = v;
    }
    return fast_or_general([&] { return complement(layout_in(args[0]), IntTuple::integer(max_idx)); }, self, args,
                           nargsf, kwnames);
  }
  return general(self, args, nargsf, kwnames);
}

// f(A, B) for two pycute layouts.
template <Layout (*Op)(const Layout&, const Layout&)>
PyObject* fast_layout_pair(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  if (kwnames == nullptr && PyVectorcall_NARGS(nargsf) == 2 && is_layout(args[0]) && is_layout(args[1]))
    return fast_or_general([&] { return Op(layout_in(args[0]), layout_in(args[1])); }, self, args, nargsf, kwnames);
  return general(self, args, nargsf, kwnames);
}

Layout composition_of(const Layout& a, const Layout& b) { return composition(a, b); }
Layout logical_divide_of(const Layout& a, const Layout& b) { return logical_divide(a, b); }
Layout logical_product_of(const Layout& a, const Layout& b) { return logical_product(a, b); }

template <class F>
PyCFunction as_method(F* f) {
  return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f));  // via void(*)(): CPython's cast
}

// The PyMethodDef of each entry point (static: CPython keeps pointers to them); the docs
// carry pycute's signatures for inspect.signature.
PyMethodDef fast_defs[] = {
    {"coalesce", as_method(&fast_coalesce), METH_FASTCALL | METH_KEYWORDS,
     "coalesce($module, layout, profile=None)\n--\n\npycute's coalesce, by the model."},
    {"composition", as_method(&fast_layout_pair<composition_of>), METH_FASTCALL | METH_KEYWORDS,
     "composition($module, layoutA, layoutB)\n--\n\npycute's composition, by the model."},
    {"complement", as_method(&fast_complement), METH_FASTCALL | METH_KEYWORDS,
     "complement($module, layout, max_idx=1)\n--\n\npycute's complement, by the model."},
    {"logical_divide", as_method(&fast_layout_pair<logical_divide_of>), METH_FASTCALL | METH_KEYWORDS,
     "logical_divide($module, layoutA, layoutB)\n--\n\npycute's logical_divide, by the model."},
    {"logical_product", as_method(&fast_layout_pair<logical_product_of>), METH_FASTCALL | METH_KEYWORDS,
     "logical_product($module, layoutA, layoutB)\n--\n\npycute's logical_product, by the model."},
};

}  // namespace

void bind_pycute_fast_calls(nb::module_& m) {
  layout_type = reinterpret_cast<PyTypeObject*>(m.attr("Layout").ptr());
  for (PyMethodDef& def : fast_defs) {
    nb::object general_binding = m.attr(def.ml_name);
    nb::object fast = nb::steal(PyCMethod_New(&def, general_binding.ptr(), m.attr("__name__").ptr(), nullptr));
    if (!fast.is_valid()) throw nb::python_error();
    m.attr(def.ml_name) = fast;
  }
}

}  // namespace cuteref::python
