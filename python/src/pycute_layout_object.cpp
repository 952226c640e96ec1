// cuteref.pycute.Layout's objects (pycute_layout_object.hpp): allocation, the free list,
// deallocation and the type object itself.
#include "pycute_layout_object.hpp"

#include <memory>
#include <string>
#include <utility>

namespace cuteref::python {

PyTypeObject* pycute_layout_type = nullptr;

namespace {

// Freed objects of the exact type, kept for the next result: an operation's result is
// usually freed before the next one is made, so one entry is reused over and over. The
// entries hold no layout. The GIL guards the list; a build without it allocates and frees
// every object.
#ifndef Py_GIL_DISABLED
constexpr int kFreeListCapacity = 64;
PycuteLayoutObject* free_list[kFreeListCapacity];
int free_count = 0;

// Whether a reused entry needs only its count set (it keeps its type and its reference to the
// type while listed): about 8% of a coalesce through Python (bench/README.md) was PyObject_Init
// and that reference. Where the interpreter's own new-reference hook does more than set the count
// (debug builds count and list every object; 3.13 adds reference tracers), the entry drops
// the type's reference and is initialized as a new object. (Left out in 3.11-3.12:
// tracemalloc, when tracing, keeps a reused entry's first allocation as its traceback.)
#if defined(Py_REF_DEBUG) || defined(Py_TRACE_REFS) || PY_VERSION_HEX >= 0x030D0000
constexpr bool kReuseByCountAlone = false;
#else
constexpr bool kReuseByCountAlone = true;
#endif
#endif  // Py_GIL_DISABLED

// tp_new: an object without a layout (Layout.__init__ gives it one).
PyObject* layout_new(PyTypeObject* type, PyObject*, PyObject*) {
  PyObject* o = type->tp_alloc(type, 0);
  if (o != nullptr) reinterpret_cast<PycuteLayoutObject*>(o)->initialized = false;
  return o;
}

void layout_dealloc(PyObject* o) {
  auto* self = reinterpret_cast<PycuteLayoutObject*>(o);
  if (self->initialized) std::destroy_at(self->payload());
  self->initialized = false;
  PyTypeObject* type = Py_TYPE(o);
#ifndef Py_GIL_DISABLED
  if (type == pycute_layout_type && free_count < kFreeListCapacity) {
    free_list[free_count++] = self;
    if (!kReuseByCountAlone) Py_DECREF(type);  // each object of a heap type holds a reference to it
    return;
  }
#endif
  type->tp_free(o);
  Py_DECREF(type);
}

[[noreturn]] void throw_uninitialized(nb::handle h) {
  throw nb::type_error((std::string(Py_TYPE(h.ptr())->tp_name) +
                        " object holds no layout: its Layout.__init__(shape, stride) was not called")
                           .c_str());
}

}  // namespace

const Layout& layout_of(nb::handle h) {
  const Layout* l = held_layout(h.ptr());
  if (l == nullptr) throw_uninitialized(h);
  return *l;
}

void set_layout(nb::handle h, Layout l) noexcept {
  auto* self = reinterpret_cast<PycuteLayoutObject*>(h.ptr());
  if (self->initialized) {
    self->payload()->layout = std::move(l);
  } else {
    new (self->storage) PycuteLayout{std::move(l)};
    self->initialized = true;
  }
}

PyObject* allocate_pycute_layout() noexcept {
  PycuteLayoutObject* self = nullptr;
#ifndef Py_GIL_DISABLED
  if (free_count > 0) {
    self = free_list[--free_count];
    if (kReuseByCountAlone) {
      self->initialized = false;
      Py_SET_REFCNT(reinterpret_cast<PyObject*>(self), 1);
      return reinterpret_cast<PyObject*>(self);
    }
  }
#endif
  if (self == nullptr) {
    // As tp_alloc (PyType_GenericAlloc) allocates an object of this non-GC type, so that
    // tp_free and the free list take either kind of object.
    self = static_cast<PycuteLayoutObject*>(PyObject_Malloc(sizeof(PycuteLayoutObject)));
    if (self == nullptr) return PyErr_NoMemory();
  }
  self->initialized = false;
  return PyObject_Init(reinterpret_cast<PyObject*>(self), pycute_layout_type);
}

PyObject* new_pycute_layout(Layout&& l) noexcept {
  PyObject* o = allocate_pycute_layout();
  if (o != nullptr) set_layout(nb::handle(o), std::move(l));
  return o;
}

nb::object wrap(Layout l) {
  PyObject* o = new_pycute_layout(std::move(l));
  if (o == nullptr) throw nb::python_error();
  return nb::steal(o);
}

void bind_pycute_layout_type(nb::module_& m) {
  static PyType_Slot slots[] = {
      {Py_tp_new, reinterpret_cast<void*>(&layout_new)},
      {Py_tp_dealloc, reinterpret_cast<void*>(&layout_dealloc)},
      {Py_tp_doc, const_cast<char*>("pycute's Layout(shape, stride=None), backed by the model's layout")},
      {0, nullptr},
  };
  static PyType_Spec spec = {
      "cuteref._cuteref.pycute_core.Layout", static_cast<int>(sizeof(PycuteLayoutObject)), 0,
      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots,
  };
  PyObject* type = PyType_FromSpec(&spec);
  if (type == nullptr) throw nb::python_error();
  pycute_layout_type = reinterpret_cast<PyTypeObject*>(type);  // kept for the interpreter's lifetime
  // Python's messages name a type by tp_name ("cannot pickle 'Layout' object"): the bare name,
  // as for a class statement's type (__module__ and __qualname__ come from the spec's name).
  pycute_layout_type->tp_name = "Layout";
  m.attr("Layout") = nb::handle(type);
}

}  // namespace cuteref::python
