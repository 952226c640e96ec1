#include "flat_coalesce.hpp"

#include <utility>

#include "coalesce_generic.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

// coalesce_modes's decisions on the model's leaves: on the run-time values (static flags
// only propagate); a stride continues a mode when it equals shape * stride, basis included.
struct IntTupleCoalesceOps {
  bool is_unit(const IntTuple& s) const { return s.value() == 1; }
  bool continues(const IntTuple& prev_shape, const IntTuple& prev_stride, const IntTuple& stride) const {
    return scale_stride_leaf(prev_shape, prev_stride).same_values(stride);
  }
  IntTuple merge(const IntTuple& a, const IntTuple& b) const { return leaf_mul(a, b); }
};

// The same decisions on plain values (integer strides only).
struct FlatIntCoalesceOps {
  bool is_unit(FlatInt s) const { return s.v == 1; }
  bool continues(FlatInt prev_shape, FlatInt prev_stride, FlatInt stride) const {
    return checked_mul(prev_shape.v, prev_stride.v) == stride.v;
  }
  FlatInt merge(FlatInt a, FlatInt b) const { return flat_mul(a, b); }
};

}  // namespace

bool flat_int_modes(const Layout& l, FlatModesOfInts& m) {
  m.shapes.clear();
  m.strides.clear();
  append_flat_ints(l.shape(), m.shapes);  // shape leaves are integers: a layout invariant
  return append_flat_ints(l.stride(), m.strides);
}

Layout FlatModesOfInts::layout() const {
  // Valid by the precondition.
  return detail::LayoutFromValidParts::make(tuple_of_flat(shapes.data(), shapes.size()),
                                            tuple_of_flat(strides.data(), strides.size()));
}

void filter_flat_ints_in_place(FlatModesOfInts& m) {
  for (std::size_t i = 0; i < m.shapes.size(); ++i)
    if (m.strides[i].v == 0) m.shapes[i] = FlatInt{1, true};
  coalesce_modes(m.shapes, m.strides, FlatIntCoalesceOps{});
  if (m.shapes.empty()) {
    m.shapes.push_back(FlatInt{1, true});
    m.strides.push_back(FlatInt{0, true});
  }
}

void coalesce_flat_ints_in_place(FlatInts& shapes, FlatInts& strides) {
  coalesce_modes(shapes, strides, FlatIntCoalesceOps{});
  if (shapes.empty()) {  // coalesce_flat's _1:_0
    shapes.push_back(FlatInt{1, true});
    strides.push_back(FlatInt{0, true});
  }
}

Layout coalesce_flat_ints(FlatInts& shapes, FlatInts& strides) {
  coalesce_flat_ints_in_place(shapes, strides);
  // Valid by the precondition, as coalesce_flat's result.
  return detail::LayoutFromValidParts::make(tuple_of_flat(shapes.data(), shapes.size()),
                                            tuple_of_flat(strides.data(), strides.size()));
}

FlatModes filtered_flat_modes(const Layout& l) {
  FlatModes m = flat_modes(l.shape(), l.stride());
  // filter = coalesce o filter_zeros: a stride-0 mode gets shape _1, then coalesce drops it.
  for (std::size_t i = 0; i < m.shapes.size(); ++i)
    if (m.strides[i].value() == 0) m.shapes[i] = IntTuple::static_int(1);
  coalesce_modes(m.shapes, m.strides, IntTupleCoalesceOps{});
  if (m.shapes.empty()) {
    m.shapes.push_back(IntTuple::static_int(1));
    m.strides.push_back(IntTuple::static_int(0));
  }
  return m;
}

Layout coalesce_flat(FlatModes m) {
  coalesce_modes(m.shapes, m.strides, IntTupleCoalesceOps{});
  // Valid by the precondition: kept leaves are input leaves, merged shapes products of
  // shapes >= 1 (checked), strides unchanged.
  using detail::LayoutFromValidParts;
  if (m.shapes.empty()) return LayoutFromValidParts::make(IntTuple::static_int(1), IntTuple::static_int(0));
  if (m.shapes.size() == 1) return LayoutFromValidParts::make(std::move(m.shapes[0]), std::move(m.strides[0]));
  return LayoutFromValidParts::make(IntTuple::tuple_moved(m.shapes.data(), m.shapes.size()),
                                    IntTuple::tuple_moved(m.strides.data(), m.strides.size()));
}

}  // namespace cuteref
