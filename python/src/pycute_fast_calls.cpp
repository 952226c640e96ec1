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
#include "pycute_layout_object.hpp"

namespace cuteref::python {

namespace {

// The layout of an operand that is an initialized pycute layout (the class or a subclass of
// it), or nullptr (any other operand: the general binding decides).
const Layout* layout_operand(PyObject* o) noexcept { return is_pycute_layout(o) ? held_layout(o) : nullptr; }

// What the general binding (`self`: the nanobind function) answers for these arguments.
PyObject* general(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  return PyObject_Vectorcall(self, args, nargsf, kwnames);
}

// Runs op (the model's operation, returning a Layout) into a new Layout object; any exception
// (a precondition the model refuses, memory) hands the call to the general binding, which
// raises the binding's error for it.
template <class Op>
PyObject* fast_or_general(Op&& op, PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  try {
    return new_pycute_layout_of(op);
  } catch (...) {
    return general(self, args, nargsf, kwnames);
  }
}

// coalesce(L) and coalesce(L, None).
PyObject* fast_coalesce(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  const Layout* a = kwnames == nullptr && (n == 1 || (n == 2 && args[1] == Py_None)) ? layout_operand(args[0]) : nullptr;
  if (a != nullptr) return fast_or_general([&] { return coalesce(*a); }, self, args, nargsf, kwnames);
  return general(self, args, nargsf, kwnames);
}

// complement(L, n) for an int n (pycute's max_idx) and complement(L) (max_idx 1).
PyObject* fast_complement(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  const Layout* a = kwnames == nullptr && (n == 1 || (n == 2 && PyLong_CheckExact(args[1]))) ? layout_operand(args[0]) : nullptr;
  if (a != nullptr) {
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
    return fast_or_general([&] { return complement(*a, IntTuple::integer(max_idx)); }, self, args, nargsf, kwnames);
  }
  return general(self, args, nargsf, kwnames);
}

// f(A, B) for two pycute layouts.
template <Layout (*Op)(const Layout&, const Layout&)>
PyObject* fast_layout_pair(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  if (kwnames == nullptr && PyVectorcall_NARGS(nargsf) == 2) {
    const Layout* a = layout_operand(args[0]);
    const Layout* b = a != nullptr ? layout_operand(args[1]) : nullptr;
    if (b != nullptr) return fast_or_general([&] { return Op(*a, *b); }, self, args, nargsf, kwnames);
  }
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
  for (PyMethodDef& def : fast_defs) {
    nb::object general_binding = m.attr(def.ml_name);
    nb::object fast = nb::steal(PyCMethod_New(&def, general_binding.ptr(), m.attr("__name__").ptr(), nullptr));
    if (!fast.is_valid()) throw nb::python_error();
    m.attr(def.ml_name) = fast;
  }
}

}  // namespace cuteref::python
