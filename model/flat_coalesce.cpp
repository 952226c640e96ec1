#include "flat_coalesce.hpp"

#include <utility>

#include "coalesce_generic.hpp"

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

}  // namespace

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
  if (m.shapes.empty()) return Layout(IntTuple::static_int(1), IntTuple::static_int(0));
  if (m.shapes.size() == 1) return Layout(std::move(m.shapes[0]), std::move(m.strides[0]));
  return Layout(IntTuple::tuple_moved(m.shapes.data(), m.shapes.size()),
                IntTuple::tuple_moved(m.strides.data(), m.strides.size()));
}

}  // namespace cuteref
