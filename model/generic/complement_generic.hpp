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

#include "small_vector.hpp"

namespace cuteref {

// Vec: std::vector or SmallVector of leaves.
template <class Vec>
struct ComplementModes {
  Vec shapes, strides;
};

// One mode of A in the walk: the gap below it, (stride / extent) at stride `extent` (the
// offsets between A's smaller-stride modes and this one), then `extent` grows to
// stride * shape. The step reads nothing but its arguments: the law
// complement_injective_every_rank proves, by induction over the walk, that A's modes and
// the gaps form an injective layout for every rank, running this function on symbolic
// values. Returns the gap's shape.
template <class Leaf, class Ops>
Leaf complement_gap_step(const Leaf& shape, const Leaf& stride, Leaf& extent, const Ops& ops) {
  Leaf gap = ops.div(stride, extent);
  ops.check_gap(gap, shape, stride, extent);
  extent = ops.mul(stride, shape);
  return gap;
}

// One cotarget leaf c: the repetitions of what came before (at stride `running`) up to c,
// ceil_div(c, divisor); the divisor absorbs c, `running` grows by the repetitions.
// Returns the repetitions' shape.
template <class Leaf, class Ops>
Leaf complement_rest_step(const Leaf& c, Leaf& divisor, Leaf& running, const Ops& ops) {
  Leaf rest = ops.ceil_div(c, divisor);
  divisor = ops.ceil_div(divisor, c);
  running = ops.mul(running, rest);
  return rest;
}

// Appends R's modes (before coalescing) to out.shapes / out.strides (Out: any type with
// those two vectors, e.g. ComplementModes<Vec>).
// @pre shapes.size() == strides.size() >= 1; cotarget has >= 1 leaf.
template <class Vec, class CotargetLeaves, class Ops, class Out>
void complement_modes(const Vec& shapes, const Vec& strides, const CotargetLeaves& cotarget, const Ops& ops,
                      Out& out) {
  using Leaf = typename Vec::value_type;
  const std::size_t n = shapes.size();
  for (std::size_t k = 0; k < n; ++k) ops.check_stride(shapes[k], strides[k]);
  out.shapes.reserve(out.shapes.size() + n + cotarget.size());
  out.strides.reserve(out.strides.size() + n + cotarget.size());
  // Modes already taken; the others keep their order, so the selection below compares the
  // same pairs in the same order as repeatedly taking the smallest out of a shrinking list.
  SmallVector<bool, 16> taken;
  for (std::size_t k = 0; k < n; ++k) taken.push_back(false);  // (resize would call memset)
  Leaf extent = ops.one();
  for (std::size_t step = 0; step < n; ++step) {
    // The mode of smallest stride, the first one among equals.
    std::size_t k = n;
    for (std::size_t j = 0; j < n; ++j) {
      if (taken[j]) continue;
      if (k == n || ops.less(strides[j], strides[k])) k = j;
    }
    taken[k] = true;
    out.strides.push_back(extent);
    out.shapes.push_back(complement_gap_step(shapes[k], strides[k], extent, ops));
  }
  // The repetitions past A's extent, up to the cotarget.
  Leaf divisor = extent, running = extent;
  for (const Leaf& c : cotarget) {
    out.strides.push_back(running);
    out.shapes.push_back(complement_rest_step(c, divisor, running, ops));
  }
}

}  // namespace cuteref
