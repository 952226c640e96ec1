// The one definition of complement's algorithm on flat modes, generic over the leaf (as
// coalesce_generic.hpp), so the model runs it on IntTuple leaves (complement.cpp) and the
// proofs on symbolic ScalarTuple leaves (proofs/symbolic_algebra.*).
//
// Input: the modes of filter(A) (flattened, no stride-0 or size-1 modes, merged), not the
// single mode _1:_0, and the cotarget's leaves, left to right. Output: the modes of R before
// coalescing: one gap mode per mode of A, taken in increasing stride order (the first among
// equals), then one rest mode per cotarget leaf (CuTe's ceil_div of the cotarget by A's
// extent, its elements absorbing the divisor left to right, with compact column-major
// strides from the extent). The caller coalesces them.
//
// Data-dependent steps are asked of `ops`:
//   bool less(a, b)                 the sort (a case split when symbolic);
//   void check_stride(shape, stride)  precondition stride >= 0;
//   void check_gap(gap, shape, stride, extent)  precondition gap != 0 (A injective and
//                                   non-interleaved);
//   Leaf div(a, b), mul(a, b), ceil_div(a, b), one().
// For concrete leaves the checks throw; for symbolic ones they are proof obligations.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace cuteref {

// Vec: std::vector or SmallVector of leaves.
template <class Vec>
struct ComplementModes {
  Vec shapes, strides;
};

// `shapes` and `strides` are consumed (left unspecified): the modes are taken out one by one.
// @pre shapes.size() == strides.size() >= 1; cotarget has >= 1 leaf.
template <class Vec, class CotargetLeaves, class Ops>
ComplementModes<Vec> complement_modes(Vec& shapes, Vec& strides, const CotargetLeaves& cotarget, const Ops& ops) {
  using Leaf = typename Vec::value_type;
  for (std::size_t k = 0; k < strides.size(); ++k) ops.check_stride(shapes[k], strides[k]);
  ComplementModes<Vec> out;
  out.shapes.reserve(shapes.size() + cotarget.size());
  out.strides.reserve(shapes.size() + cotarget.size());
  Leaf extent = ops.one();
  while (!shapes.empty()) {
    // The mode of smallest stride, the first one among equals.
    std::size_t k = 0;
    for (std::size_t j = 1; j < strides.size(); ++j)
      if (ops.less(strides[j], strides[k])) k = j;
    Leaf gap = ops.div(strides[k], extent);
    ops.check_gap(gap, shapes[k], strides[k], extent);
    out.shapes.push_back(std::move(gap));
    out.strides.push_back(extent);
    extent = ops.mul(strides[k], shapes[k]);
    shapes.erase(shapes.begin() + static_cast<std::ptrdiff_t>(k));
    strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(k));
  }
  // The repetitions past A's extent, up to the cotarget.
  Leaf divisor = extent, running = extent;
  for (const Leaf& c : cotarget) {
    Leaf rest = ops.ceil_div(c, divisor);
    divisor = ops.ceil_div(divisor, c);
    out.strides.push_back(running);
    running = ops.mul(running, rest);
    out.shapes.push_back(std::move(rest));
  }
  return out;
}

}  // namespace cuteref
