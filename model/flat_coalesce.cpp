#include "flat_coalesce.hpp"

#include <utility>

namespace cuteref {

namespace {

// coalesce's rule in place on flat modes (see coalesce.hpp): size-1 modes (and, for
// filter, stride-0 modes, which filter_zeros turns into size-1 modes) are dropped; a mode
// whose stride is the previous kept mode's shape times stride merges into it.
void merge_modes(FlatModes& m, bool drop_zero_strides) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < m.shapes.size(); ++i) {
    if (drop_zero_strides && m.strides[i].value() == 0) continue;
    if (m.shapes[i].value() == 1) continue;
    if (kept > 0 && scale_stride_leaf(m.shapes[kept - 1], m.strides[kept - 1]).same_values(m.strides[i])) {
      m.shapes[kept - 1] = leaf_mul(m.shapes[kept - 1], m.shapes[i]);
      continue;
    }
    if (kept != i) {
      m.shapes[kept] = std::move(m.shapes[i]);
      m.strides[kept] = std::move(m.strides[i]);
    }
    ++kept;
  }
  m.shapes.resize(kept);
  m.strides.resize(kept);
  if (kept == 0) {
    m.shapes.push_back(IntTuple::static_int(1));
    m.strides.push_back(IntTuple::static_int(0));
  }
}

}  // namespace

FlatModes filtered_flat_modes(const Layout& l) {
  FlatModes m = flat_modes(l.shape(), l.stride());
  merge_modes(m, true);
  return m;
}

Layout coalesce_flat(FlatModes m) {
  merge_modes(m, false);
  if (m.shapes.size() == 1) return Layout(std::move(m.shapes[0]), std::move(m.strides[0]));
  return Layout(IntTuple::tuple(std::move(m.shapes)), IntTuple::tuple(std::move(m.strides)));
}

}  // namespace cuteref
