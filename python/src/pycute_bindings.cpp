// The core of cuteref.pycute (python/cuteref/pycute.py): pycute's Layout and layout
// functions, with pycute's names, signatures and Python forms (plain ints and tuples,
// None for `_`), computed by the model. Each function converts its Python operands, calls
// the model's operation of the same name, and wraps the result; the per-call dispatch on
// pycute's operand forms (None, int, tuple of tilers, layout) is done here, in C++, so a
// call costs one crossing of the language boundary (bench/pycute_python.py measures it).
//
// Where the model (CuTe C++) and pycute differ, the model's answer is given: results are
// equal as functions except for pycute's known defects (oracles/known_defects.py), e.g.
// pycute's logical_product(A, n) divides instead of multiplying.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "coalesce.hpp"
#include "coalesce_z.hpp"
#include "common_shape.hpp"
#include "complement.hpp"
#include "composition.hpp"
#include "convert.hpp"
#include "coordinates.hpp"
#include "divide.hpp"
#include "error.hpp"
#include "greatest_common_domain.hpp"
#include "inverse.hpp"
#include "layout_add.hpp"
#include "make_layout.hpp"
#include "product.hpp"
#include "pycute_layout_object.hpp"
#include "swizzle.hpp"

namespace cuteref::python {

namespace {

// Runs f, turning a model diagnostic into PycuteFailure (Python: PycuteError).
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const PycuteFailure&) {
    throw;
  } catch (const Error& e) {
    throw PycuteFailure(e.what());
  }
}

// A shape operand: an int or tuple of ints, or a pycute layout standing for its shape (PyCuTe's
// shape functions accept anything with a shape).
IntTuple shape_operand(nb::handle h, const char* fn) {
  if (is_pycute_layout(h)) return layout_of(h).shape();
  return int_tuple_from_python(h, fn);
}

// A layout operand: a pycute layout, or (as pycute's functions accept) an int n for n:1.
Layout layout_operand(nb::handle h, const char* fn) {
  if (is_pycute_layout(h)) return layout_of(h);
  if (is_int(h)) return guarded([&] { return make_layout(integer_from_python(h)); });
  if (nb::isinstance<Value>(h)) {
    const Value& v = nb::cast<const Value&>(h);
    if (v.is_layout()) return std::get<Layout>(v.data);
  }
  throw_type_error(fn, h);
}

// A tiler in pycute's forms: None (leave the mode), an int n (n:1), a layout, or a tuple of
// tilers applied by mode (tiler.hpp).
Value tiler_from_python(nb::handle h, const char* fn) {
  if (is_pycute_layout(h)) return Value(layout_of(h));
  if (h.is_none()) return Value(IntTuple::underscore());
  if (is_int(h)) return Value(integer_from_python(h));
  if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr())) {
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(h.ptr());
    PyObject** items = PySequence_Fast_ITEMS(h.ptr());
    std::vector<Value> elements;
    elements.reserve(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) elements.push_back(tiler_from_python(nb::handle(items[i]), fn));
    return make_tuple_value(std::move(elements));
  }
  if (nb::isinstance<Value>(h)) return nb::cast<const Value&>(h);
  throw_type_error(fn, h);
}

// pycute's composition keeps A's modes past a tuple tiler's rank, at every level (CuTe 4.2
// and the model's composition drop them: corpus/vendor/pycute_defects.txt case 5): the
// tiler padded with `_` asks the model pycute's question.
Value padded_tiler_from_python(nb::handle h, const Layout& a) {
  if (!(PyTuple_Check(h.ptr()) || PyList_Check(h.ptr()))) return tiler_from_python(h, "composition");
  const std::size_t n = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(h.ptr()));
  PyObject** items = PySequence_Fast_ITEMS(h.ptr());
  const std::size_t modes = a.shape().is_tuple() ? a.shape().rank() : 1;
  std::vector<Value> elements;
  for (std::size_t i = 0; i < n; ++i)
    elements.push_back(i < modes ? padded_tiler_from_python(nb::handle(items[i]), mode(a, i))
                                 : tiler_from_python(nb::handle(items[i]), "composition"));
  for (std::size_t i = n; i < modes; ++i) elements.push_back(Value(IntTuple::underscore()));
  return make_tuple_value(std::move(elements));
}

// f(A, B) for pycute's (layout, tiler) functions: B None returns A itself, as pycute does.
template <class LayoutOp, class TilerOp>
nb::object layout_tiler_call(nb::handle a, nb::handle b, const char* fn, LayoutOp on_layout, TilerOp on_tiler) {
  if (!is_pycute_layout(a)) throw_type_error(fn, a);
  if (is_pycute_layout(b)) return wrap(guarded([&] { return on_layout(layout_of(a), layout_of(b)); }));
  if (b.is_none()) return nb::borrow(a);
  const Value tiler = tiler_from_python(b, fn);
  return wrap(guarded([&] { return on_tiler(layout_of(a), tiler); }));
}

// A profile in pycute's forms (coalesce / filter): None or an int is "the whole layout";
// a tuple applies by mode, its None and int leaves each meaning "that whole mode".
IntTuple profile_from_python(nb::handle h) {
  if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr())) {
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(h.ptr());
    PyObject** items = PySequence_Fast_ITEMS(h.ptr());
    std::vector<IntTuple> elements;
    for (Py_ssize_t i = 0; i < n; ++i) elements.push_back(profile_from_python(nb::handle(items[i])));
    return IntTuple::tuple(std::move(elements));
  }
  return IntTuple::integer(1);
}

// filter(L, profile) by mode: the model's filter on each mode the profile names, the other
// modes kept (pycute's and CuTe's by-mode application of a profile).
Layout filter_by_profile(const Layout& l, const IntTuple& profile) {
  if (!profile.is_tuple()) return filter(l);
  if (profile.rank() > rank(l))
    throw Error("filter: the profile " + profile.to_string() + " has more modes than the layout " + l.to_string());
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < rank(l); ++i)
    modes.push_back(i < profile.rank() ? filter_by_profile(mode(l, i), profile[i]) : mode(l, i));
  return make_layout_from_modes(modes);
}

// Binds f as the method `name` of the Layout type, as nanobind's class_::def would: f's
// first parameter is the object (`const PycuteLayout&`, pycute_layout_object.hpp's caster).
template <class F, class... Extra>
void def_layout_method(const char* name, F&& f, const Extra&... extra) {
  nb::cpp_function_def(std::forward<F>(f), nb::scope(nb::handle(reinterpret_cast<PyObject*>(pycute_layout_type))),
                       nb::name(name), nb::is_method(), extra...);
}

// A read-write property of the Layout type, as class_::def_prop_rw.
template <class Getter, class Setter>
void def_layout_property(const char* name, Getter&& getter, Setter&& setter) {
  nb::object get = nb::cpp_function(std::forward<Getter>(getter), nb::is_method(), nb::is_getter(),
                                    nb::rv_policy::reference_internal);
  nb::object set = nb::cpp_function(std::forward<Setter>(setter), nb::is_method());
  nb::detail::property_install(reinterpret_cast<PyObject*>(pycute_layout_type), name, get.ptr(), set.ptr());
}

nb::object pycute_layout_eq(const PycuteLayout& a, nb::handle b) {
  if (!is_pycute_layout(b)) return nb::borrow(Py_NotImplemented);
  const Layout& lb = layout_of(b);
  return nb::bool_(a.layout.shape().same_values(lb.shape()) && a.layout.stride().same_values(lb.stride()));
}

// L(*args): pycute's Layout.__call__: a coordinate (ints, tuples) gives the offset; one
// containing None slices.
nb::object pycute_layout_call(const PycuteLayout& self, nb::args args) {
  if (args.size() == 1 && is_int(args[0]) && !self.layout.has_basis_strides()) {
    const IntTuple i = integer_from_python(args[0]);
    return nb::int_(guarded([&] { return apply(self.layout, i).value(); }));
  }
  const IntTuple coord = args.size() == 1 ? int_tuple_from_python(args[0], "Layout coordinate")
                                          : int_tuple_from_python(args, "Layout coordinate");
  if (coord.has_underscore()) return wrap(guarded([&] { return slice(coord, self.layout); }));
  return int_tuple_to_python(guarded([&] { return apply(self.layout, coord); }));
}

nb::object pycute_layout_getitem(const PycuteLayout& self, nb::handle index) {
  const Layout& l = self.layout;
  const bool tuple_shape = l.shape().is_tuple();
  const Py_ssize_t n = tuple_shape ? static_cast<Py_ssize_t>(l.shape().rank()) : 1;
  if (PySlice_Check(index.ptr())) {
    if (!tuple_shape) throw PycuteFailure("Layout[" + std::string(nb::repr(index).c_str()) + "]: a rank-1 layout with a leaf shape has only mode 0");
    Py_ssize_t start, stop, step, length;
    if (PySlice_GetIndicesEx(index.ptr(), n, &start, &stop, &step, &length) != 0) throw nb::python_error();
    std::vector<IntTuple> shapes, strides;
    for (Py_ssize_t k = 0, i = start; k < length; ++k, i += step) {
      shapes.push_back(l.shape()[static_cast<std::size_t>(i)]);
      strides.push_back(l.stride()[static_cast<std::size_t>(i)]);
    }
    return wrap(Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides))));
  }
  if (!is_int(index)) throw_type_error("Layout index", index);
  Py_ssize_t i = PyLong_AsSsize_t(index.ptr());
  if (i == -1 && PyErr_Occurred()) throw nb::python_error();
  if (!tuple_shape) {
    // pycute: `assert i == 0` for a layout whose shape is an int.
    if (i != 0) throw PycuteFailure("Layout[" + std::to_string(i) + "]: a layout with the leaf shape " + l.shape().to_string() + " has only mode 0");
    return wrap(l);
  }
  if (i < 0) i += n;
  if (i < 0 || i >= n) throw nb::index_error(("Layout index out of range for rank " + std::to_string(n)).c_str());
  return wrap(mode(l, static_cast<std::size_t>(i)));
}

nb::object pycute_make_layout(nb::args args) {
  // pycute: make_layout(L0, L1, ...) or make_layout(iterable of layouts).
  std::vector<nb::object> layouts;
  if (args.size() == 1 && !is_pycute_layout(args[0])) {
    for (nb::handle h : nb::iter(args[0])) layouts.push_back(nb::borrow(h));
  } else {
    for (nb::handle h : args) layouts.push_back(nb::borrow(h));
  }
  std::vector<IntTuple> shapes, strides;
  shapes.reserve(layouts.size());
  strides.reserve(layouts.size());
  for (const nb::object& h : layouts) {
    const Layout l = layout_operand(h, "make_layout");
    shapes.push_back(l.shape());
    strides.push_back(l.stride());
  }
  return wrap(guarded([&] { return Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides))); }));
}

// size(x): a layout's domain size, or the product of an int tuple (pycute's size).
nb::object pycute_size(nb::handle h) {
  if (is_pycute_layout(h)) return nb::int_(guarded([&] { return size_value(layout_of(h)); }));
  if (is_int(h) || is_sequence(h)) {
    const IntTuple t = int_tuple_from_python(h, "size");
    return nb::int_(guarded([&] { return product(t).value(); }));
  }
  return h.attr("size")();  // a composed layout, a swizzle
}

nb::object pycute_cosize(nb::handle h) {
  if (is_pycute_layout(h)) return nb::int_(guarded([&] { return cosize(layout_of(h)).value(); }));
  return h.attr("cosize")();
}

}  // namespace

void bind_pycute(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("pycute_core", "the model-backed core of cuteref.pycute");

  bind_pycute_layout_type(m);
  def_layout_method("__init__", [](nb::handle self, nb::handle shape, nb::handle stride) {
    // Reached with another object only through Layout.__init__(obj, ...).
    if (!is_pycute_layout(self)) throw nb::type_error("Layout.__init__: self must be a Layout object");
    const IntTuple s = int_tuple_from_python(shape, "Layout shape");
    if (stride.is_none()) {
      set_layout(self, guarded([&] { return make_layout(s); }));
    } else {
      const IntTuple d = int_tuple_from_python(stride, "Layout stride");
      set_layout(self, guarded([&] { return Layout(s, d); }));
    }
  }, nb::arg("_shape"), nb::arg("_stride").none() = nb::none());
  def_layout_property("shape", [](const PycuteLayout& l) { return int_tuple_to_python(l.layout.shape()); },
                      [](PycuteLayout& l, nb::handle s) {
                        const IntTuple shape = int_tuple_from_python(s, "Layout shape");
                        l.layout = guarded([&] { return Layout(shape, l.layout.stride()); });
                      });
  def_layout_property("stride", [](const PycuteLayout& l) { return int_tuple_to_python(l.layout.stride()); },
                      [](PycuteLayout& l, nb::handle d) {
                        const IntTuple stride = int_tuple_from_python(d, "Layout stride");
                        l.layout = guarded([&] { return Layout(l.layout.shape(), stride); });
                      });
  def_layout_method("__eq__", &pycute_layout_eq, nb::arg("other").none(), nb::is_operator());
  def_layout_method("__ne__", [](const PycuteLayout& a, nb::handle b) -> nb::object {
    nb::object r = pycute_layout_eq(a, b);
    if (r.is(nb::handle(Py_NotImplemented))) return r;
    return nb::bool_(!nb::cast<bool>(r));
  }, nb::arg("other").none(), nb::is_operator());
  def_layout_method("__hash__", [](const PycuteLayout& l) {
    return nb::hash(nb::make_tuple(int_tuple_to_python(l.layout.shape()), int_tuple_to_python(l.layout.stride())));
  });
  def_layout_method("__len__", [](const PycuteLayout& l) { return l.layout.shape().is_tuple() ? l.layout.shape().rank() : 1; });
  def_layout_method("__call__", &pycute_layout_call);
  def_layout_method("__getitem__", &pycute_layout_getitem);
  def_layout_method("size", [](const PycuteLayout& l) { return guarded([&] { return size_value(l.layout); }); });
  def_layout_method("cosize", [](const PycuteLayout& l) { return guarded([&] { return cosize(l.layout).value(); }); });
  def_layout_method("__str__", [](const PycuteLayout& l) {
    return nb::str("{}:{}").format(int_tuple_to_python(l.layout.shape()), int_tuple_to_python(l.layout.stride()));
  });
  def_layout_method("__repr__", [](const PycuteLayout& l) {
    return nb::str("Layout({},{})").format(int_tuple_to_python(l.layout.shape()), int_tuple_to_python(l.layout.stride()));
  });
  def_layout_method("__cuteref_value__", [](const PycuteLayout& l) { return Value(l.layout); },
                    "The layout as a cuteref.Value (CuTe notation, the whole EXPR language).");

  m.def("make_layout", &pycute_make_layout);
  m.def("size", &pycute_size, nb::arg("layout"));
  m.def("cosize", &pycute_cosize, nb::arg("layout"));
  m.def("coalesce", [](nb::handle layout, nb::handle profile) {
    if (!is_pycute_layout(layout)) throw_type_error("coalesce", layout);
    if (is_sequence(profile)) {
      const IntTuple p = profile_from_python(profile);
      return wrap(guarded([&] { return coalesce(layout_of(layout), p); }));
    }
    return wrap(guarded([&] { return coalesce(layout_of(layout)); }));
  }, nb::arg("layout"), nb::arg("profile").none() = nb::none());
  m.def("filter", [](nb::handle layout, nb::handle profile) {
    if (!is_pycute_layout(layout)) throw_type_error("filter", layout);
    const IntTuple p = is_sequence(profile) ? profile_from_python(profile) : IntTuple::integer(1);
    return wrap(guarded([&] { return filter_by_profile(layout_of(layout), p); }));
  }, nb::arg("layout"), nb::arg("profile").none() = nb::none());
  m.def("composition", [](nb::handle a, nb::handle b) {
    if (is_pycute_layout(a) && is_sequence(b)) {
      const Layout& x = layout_of(a);
      const Value tiler = guarded([&] { return padded_tiler_from_python(b, x); });
      return wrap(guarded([&] { return composition(x, tiler); }));
    }
    return layout_tiler_call(a, b, "composition",
                             [](const Layout& x, const Layout& y) { return composition(x, y); },
                             [](const Layout& x, const Value& t) { return composition(x, t); });
  }, nb::arg("layoutA"), nb::arg("layoutB").none());
  m.def("complement", [](nb::handle layout, nb::handle max_idx) {
    const Layout a = layout_operand(layout, "complement");
    if (!is_int(max_idx) && !is_sequence(max_idx)) throw_type_error("complement max_idx", max_idx);
    const IntTuple cotarget = int_tuple_from_python(max_idx, "complement max_idx");
    return wrap(guarded([&] { return complement(a, cotarget); }));
  }, nb::arg("layout"), nb::arg("max_idx") = 1);
  m.def("right_inverse", [](nb::handle layout) -> nb::object {
    if (layout.is_none()) return nb::none();
    const Layout a = layout_operand(layout, "right_inverse");
    // pycute has no static integers and follows every stride: right_inverse_full (the model's
    // right_inverse follows CuTe C++, static strides only, which a Python int never is).
    return wrap(guarded([&] { return right_inverse_full(a); }));
  }, nb::arg("layout").none());
  m.def("left_inverse", [](nb::handle layout) -> nb::object {
    if (layout.is_none()) return nb::none();
    const Layout a = layout_operand(layout, "left_inverse");
    return wrap(guarded([&] { return left_inverse(a); }));
  }, nb::arg("layout").none());

  // PyCuTe's operations (the NVlabs/CuTe reference, package pycute) that pycute 4.2 lacks.
  m.def("layout_add", [](nb::handle a, nb::handle b) -> nb::object {
    if (b.is_none()) return nb::borrow(a);
    if (a.is_none()) return nb::borrow(b);
    const Layout x = layout_operand(a, "layout_add"), y = layout_operand(b, "layout_add");
    return wrap(guarded([&] { return layout_add(x, y); }));
  }, nb::arg("A").none(), nb::arg("B").none());
  m.def("greatest_common_domain", [](nb::handle a, nb::handle b) {
    const IntTuple x = shape_operand(a, "greatest_common_domain"), y = shape_operand(b, "greatest_common_domain");
    return wrap(guarded([&] { return greatest_common_domain(x, y); }));
  }, nb::arg("A"), nb::arg("B"));
  m.def("common_refinement", [](nb::handle a, nb::handle b) {
    const IntTuple x = shape_operand(a, "common_refinement"), y = shape_operand(b, "common_refinement");
    return int_tuple_to_python(guarded([&] { return common_refinement(x, y); }));
  }, nb::arg("a"), nb::arg("b"));
  m.def("common_coarsening", [](nb::handle a, nb::handle b) {
    const IntTuple x = shape_operand(a, "common_coarsening"), y = shape_operand(b, "common_coarsening");
    return int_tuple_to_python(guarded([&] { return common_coarsening(x, y); }));
  }, nb::arg("a"), nb::arg("b"));
  m.def("coalesce_z", [](nb::handle layout, nb::handle profile) {
    const Layout a = layout_operand(layout, "coalesce_z");
    if (is_sequence(profile)) {
      const IntTuple p = profile_from_python(profile);
      return wrap(guarded([&] { return coalesce_z(a, p); }));
    }
    return wrap(guarded([&] { return coalesce_z(a); }));
  }, nb::arg("A"), nb::arg("profile").none() = nb::none());

#define CUTEREF_PYCUTE_TILER_FUNCTION(NAME)                                                             \
  m.def(#NAME, [](nb::handle a, nb::handle b) {                                                        \
    return layout_tiler_call(a, b, #NAME, [](const Layout& x, const Layout& y) { return NAME(x, Value(y)); }, \
                             [](const Layout& x, const Value& t) { return NAME(x, t); });               \
  }, nb::arg("layoutA"), nb::arg("layoutB").none())
  CUTEREF_PYCUTE_TILER_FUNCTION(zipped_divide);
  CUTEREF_PYCUTE_TILER_FUNCTION(tiled_divide);
  CUTEREF_PYCUTE_TILER_FUNCTION(zipped_product);
  CUTEREF_PYCUTE_TILER_FUNCTION(tiled_product);
#undef CUTEREF_PYCUTE_TILER_FUNCTION
  m.def("logical_divide", [](nb::handle a, nb::handle b) {
    return layout_tiler_call(a, b, "logical_divide",
                             [](const Layout& x, const Layout& y) { return logical_divide(x, y); },
                             [](const Layout& x, const Value& t) { return logical_divide(x, t); });
  }, nb::arg("layoutA"), nb::arg("layoutB").none());
  m.def("logical_product", [](nb::handle a, nb::handle b) {
    return layout_tiler_call(a, b, "logical_product",
                             [](const Layout& x, const Layout& y) { return logical_product(x, y); },
                             [](const Layout& x, const Value& t) { return logical_product(x, t); });
  }, nb::arg("layoutA"), nb::arg("layoutB").none());
  m.def("slice_and_offset", [](nb::handle crd, nb::handle layout) {
    if (!is_pycute_layout(layout)) throw_type_error("slice_and_offset", layout);
    const IntTuple c = int_tuple_from_python(crd, "slice_and_offset coordinate");
    auto [l, offset] = guarded([&] { return slice_and_offset(c, layout_of(layout)); });
    return nb::make_tuple(wrap(std::move(l)), int_tuple_to_python(offset));
  }, nb::arg("crd"), nb::arg("layout"));

  // Integer-tuple helpers the model has (pycute's crd2idx, idx2crd, product, prefix_product).
  m.def("crd2idx", [](nb::handle crd, nb::handle shape, nb::handle stride) {
    const IntTuple c = int_tuple_from_python(crd, "crd2idx coordinate");
    const IntTuple s = int_tuple_from_python(shape, "crd2idx shape");
    return int_tuple_to_python(guarded([&] {
      const IntTuple d = stride.is_none() ? make_layout(s).stride() : int_tuple_from_python(stride, "crd2idx stride");
      return crd2idx(c, s, d);
    }));
  }, nb::arg("crd").none(), nb::arg("shape"), nb::arg("stride").none() = nb::none());
  m.def("idx2crd", [](nb::handle idx, nb::handle shape) {
    const IntTuple i = int_tuple_from_python(idx, "idx2crd index");
    const IntTuple s = int_tuple_from_python(shape, "idx2crd shape");
    return int_tuple_to_python(guarded([&] { return idx2crd(i, s); }));
  }, nb::arg("idx"), nb::arg("shape"));
  m.def("product", [](nb::handle a) {
    const IntTuple t = int_tuple_from_python(a, "product");
    return int_tuple_to_python(guarded([&] { return product(t); }));
  }, nb::arg("a"));
  m.def("prefix_product", [](nb::handle a, nb::handle init) {
    const IntTuple t = int_tuple_from_python(a, "prefix_product");
    const IntTuple start = int_tuple_from_python(init, "prefix_product init");
    return int_tuple_to_python(guarded([&] { return compact_col_major(t, start); }));
  }, nb::arg("a"), nb::arg("init") = 1);

  nb::class_<Swizzle>(m, "Swizzle", "pycute's Swizzle(bits, base, shift), backed by the model's swizzle")
      .def("__init__", [](Swizzle* self, int bits, int base, int shift) {
             new (self) Swizzle(guarded([&] { return Swizzle(bits, base, shift); }));
           }, nb::arg("bits"), nb::arg("base"), nb::arg("shift"))
      .def_prop_ro("bits", &Swizzle::bits)
      .def_prop_ro("base", &Swizzle::base)
      .def_prop_ro("shift", &Swizzle::shift)
      .def_prop_ro("yyy_msk", &Swizzle::source_mask)
      .def_prop_ro("zzz_msk", &Swizzle::destination_mask)
      .def("__call__", [](const Swizzle& s, nb::handle offset) {
             if (!is_int(offset)) throw_type_error("Swizzle offset", offset);
             const std::int64_t x = integer_from_python(offset).value();
             return s(x);
           }, nb::arg("offset"))
      .def("__eq__", [](const Swizzle& a, nb::handle b) -> nb::object {
             if (!nb::isinstance<Swizzle>(b)) return nb::borrow(Py_NotImplemented);
             return nb::bool_(a == nb::cast<const Swizzle&>(b));
           }, nb::arg("other").none(), nb::is_operator())
      .def("__hash__", [](const Swizzle& s) { return nb::hash(nb::make_tuple(s.bits(), s.base(), s.shift())); })
      .def("__cuteref_value__", [](const Swizzle& s) { return Value(s); });
  m.def("make_composed", [](const Swizzle& s, nb::handle offset, nb::handle layout) {
    if (!is_pycute_layout(layout)) throw_type_error("ComposedLayout", layout);
    const IntTuple o = int_tuple_from_python(offset, "ComposedLayout offset");
    return Value(ComposedLayout{s, ComposedOffset{o, "", 0}, layout_of(layout)});
  });

  bind_pycute_fast_calls(m);
}

}  // namespace cuteref::python
