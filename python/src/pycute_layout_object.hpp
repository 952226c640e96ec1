// cuteref.pycute.Layout as a plain CPython type: the model's Layout held inline in the Python
// object, so that an operation's result is constructed in a new object, and freed objects kept
// on a free list for the next result. Its methods (pycute's Layout interface) are bound in
// pycute_bindings.cpp; this file owns the object: creating, reading, replacing, freeing.
//
// An object made by Layout.__new__ holds no layout until Layout.__init__ runs (a subclass's
// __init__ may never call it): reading it then is a TypeError, never a default layout.
#pragma once

#include <Python.h>

#include <new>
#include <utility>

#include <nanobind/nanobind.h>

#include "layout.hpp"

namespace cuteref::python {

namespace nb = nanobind;

// What a Layout object holds: the parameter type of its methods' bindings (`const
// PycuteLayout&` is the object itself, through the type caster below).
struct PycuteLayout {
  Layout layout;
};

struct PycuteLayoutObject {
  PyObject_HEAD
  bool initialized;  // storage holds a constructed PycuteLayout
  alignas(PycuteLayout) unsigned char storage[sizeof(PycuteLayout)];

  PycuteLayout* payload() noexcept { return std::launder(reinterpret_cast<PycuteLayout*>(storage)); }
};

// The type object, set by bind_pycute_layout_type (nullptr before).
extern PyTypeObject* pycute_layout_type;

// True for a Layout or an instance of a subclass of it (initialized or not).
inline bool is_pycute_layout(PyObject* o) noexcept {
  return Py_TYPE(o) == pycute_layout_type || PyType_IsSubtype(Py_TYPE(o), pycute_layout_type);
}
inline bool is_pycute_layout(nb::handle h) noexcept { return is_pycute_layout(h.ptr()); }

// The layout o holds, or nullptr where __init__ has not run. @pre is_pycute_layout(o).
inline const Layout* held_layout(PyObject* o) noexcept {
  auto* self = reinterpret_cast<PycuteLayoutObject*>(o);
  return self->initialized ? &self->payload()->layout : nullptr;
}

// The layout h holds. @pre is_pycute_layout(h); an object without one is a TypeError.
const Layout& layout_of(nb::handle h);

// Replaces (or, on an object without one, sets) the layout h holds. @pre is_pycute_layout(h).
void set_layout(nb::handle h, Layout l) noexcept;

// A new Layout object that holds no layout yet (from the free list, or allocated), or nullptr
// with MemoryError set.
PyObject* allocate_pycute_layout() noexcept;

// A new Layout object holding l (moved in), or nullptr with MemoryError set.
PyObject* new_pycute_layout(Layout&& l) noexcept;

// A new Layout object holding make()'s result, constructed in the object itself (no move), or
// nullptr with MemoryError set. An exception of make() propagates; the object is freed.
template <class Make>
PyObject* new_pycute_layout_of(Make&& make) {
  PyObject* o = allocate_pycute_layout();
  if (o == nullptr) return nullptr;
  auto* self = reinterpret_cast<PycuteLayoutObject*>(o);
  try {
    new (self->storage) PycuteLayout{make()};
  } catch (...) {
    Py_DECREF(o);
    throw;
  }
  self->initialized = true;
  return o;
}

// new_pycute_layout as an nb::object; a failed allocation throws nb::python_error.
nb::object wrap(Layout l);

// Creates the type as `Layout` in module m (pycute_core) and sets pycute_layout_type.
void bind_pycute_layout_type(nb::module_& m);

}  // namespace cuteref::python

namespace nanobind::detail {

// PycuteLayout in bindings: a parameter `const PycuteLayout&` / `PycuteLayout&` is the Layout
// object's own (an object without a layout does not match, so the call is nanobind's "incompatible
// function arguments" TypeError); a returned PycuteLayout is moved into a new Layout object.
template <>
struct type_caster<cuteref::python::PycuteLayout> {
  using Value = cuteref::python::PycuteLayout;
  static constexpr auto Name = const_name("Layout");
  template <typename T>
  using Cast = movable_cast_t<T>;
  template <typename T>
  static constexpr bool can_cast() { return true; }

  Value* value = nullptr;

  bool from_python(handle src, uint8_t, cleanup_list*) noexcept {
    if (!cuteref::python::is_pycute_layout(src.ptr())) return false;
    auto* self = reinterpret_cast<cuteref::python::PycuteLayoutObject*>(src.ptr());
    value = self->initialized ? self->payload() : nullptr;
    return value != nullptr;
  }
  static handle from_cpp(Value&& v, rv_policy, cleanup_list*) noexcept {
    return cuteref::python::new_pycute_layout(std::move(v.layout));
  }
  static handle from_cpp(const Value& v, rv_policy, cleanup_list*) noexcept {
    return cuteref::python::new_pycute_layout(cuteref::Layout(v.layout));
  }

  explicit operator Value*() { return value; }
  explicit operator Value&() { return *value; }
  explicit operator Value&&() { return std::move(*value); }
};

}  // namespace nanobind::detail
