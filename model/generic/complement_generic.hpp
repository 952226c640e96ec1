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
// ComplementOps below is that `ops` for every leaf; complement_flat_modes is complement
// whole on flat modes (filter, the _1:_0 case, the modes, the final coalesce).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "coalesce_generic.hpp"
#include "leaf_ops.hpp"
#include "small_vector.hpp"

namespace cuteref {

// Vec: std::vector or SmallVector of leaves.
template <class Vec>
struct ComplementModes {
  Vec shapes, strides;
};

// Which of n modes complement_modes' selection has taken: bits of one word for up to 64
// modes (every layout the algebra usually meets), a block of words past that. Bookkeeping
// only: it makes no decision, so the symbolic walk is the same.
class TakenModes {
 public:
  explicit TakenModes(std::size_t n) {
    if (n > kWordBits) {
      spill_ = std::make_unique<std::uint64_t[]>((n + kWordBits - 1) / kWordBits);  // zeroed
      words_ = spill_.get();
    }
  }
  TakenModes(const TakenModes&) = delete;  // words_ may point into the object
  TakenModes& operator=(const TakenModes&) = delete;
  bool test(std::size_t j) const { return (words_[j / kWordBits] >> (j % kWordBits) & 1u) != 0; }
  void set(std::size_t j) { words_[j / kWordBits] |= std::uint64_t{1} << (j % kWordBits); }

 private:
  static constexpr std::size_t kWordBits = 64;
  std::uint64_t word_ = 0;
  std::uint64_t* words_ = &word_;
  std::unique_ptr<std::uint64_t[]> spill_;
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

// Gives R's modes (before coalescing) to out.push(shape, stride), in order (Out: a
// coalesce_generic.hpp CoalescingWalk, which coalesces them as they come, or a ModesOut).
// @pre shapes.size() == strides.size() >= 1; cotarget has >= 1 leaf.
template <class Vec, class CotargetLeaves, class Ops, class Out>
void complement_modes(const Vec& shapes, const Vec& strides, const CotargetLeaves& cotarget, const Ops& ops,
                      Out& out) {
  using Leaf = typename Vec::value_type;
  const std::size_t n = shapes.size();
  for (std::size_t k = 0; k < n; ++k) ops.check_stride(shapes[k], strides[k]);
  // Modes already taken; the others keep their order, so the selection below compares the
  // same pairs in the same order as repeatedly taking the smallest out of a shrinking list.
  TakenModes taken(n);
  Leaf extent = ops.one();
  for (std::size_t step = 0; step < n; ++step) {
    // The mode of smallest stride, the first one among equals.
    std::size_t k = n;
    for (std::size_t j = 0; j < n; ++j) {
      if (taken.test(j)) continue;
      if (k == n || ops.less(strides[j], strides[k])) k = j;
    }
    taken.set(k);
    const Leaf gap_stride = extent;
    out.push(complement_gap_step(shapes[k], strides[k], extent, ops), gap_stride);
  }
  // The repetitions past A's extent, up to the cotarget.
  Leaf divisor = extent, running = extent;
  for (const Leaf& c : cotarget) {
    const Leaf rest_stride = running;
    out.push(complement_rest_step(c, divisor, running, ops), rest_stride);
  }
}

// complement's decisions, checks and leaf arithmetic, written once over a leaf policy P
// (leaf_ops.hpp). Diag words the failed preconditions: the model's names A and the cotarget,
// ComplementConditions (the proofs') names the condition only.
//   std::string negative_stride(shape, stride), interleaved(shape, stride, extent),
//               bad_cotarget(leaf).
template <class P, class Diag>
struct ComplementOps {
  using Leaf = typename P::Leaf;
  using A = LeafArith<P>;
  using Ops = ScalarOps<typename P::Scalar>;
  Diag diag{};
  bool less(const Leaf& a, const Leaf& b) const { return A::less(a, b); }
  void check_stride(const Leaf& shape, const Leaf& stride) const {
    Ops::require(A::value(stride) >= A::k(0), [&] { return diag.negative_stride(shape, stride); });
  }
  void check_gap(const Leaf& gap, const Leaf& shape, const Leaf& stride, const Leaf& extent) const {
    Ops::require(!(A::value(gap) == A::k(0)), [&] { return diag.interleaved(shape, stride, extent); });
  }
  void check_cotarget(const Leaf& c) const {
    Ops::require(A::value(c) >= A::k(1), [&] { return diag.bad_cotarget(c); });
  }
  Leaf div(const Leaf& a, const Leaf& b) const { return A::div(a, b); }
  Leaf mul(const Leaf& a, const Leaf& b) const { return A::mul(a, b); }
  Leaf ceil_div(const Leaf& a, const Leaf& b) const { return A::ceil_div(a, b); }
  Leaf one() const { return P::constant(1); }
};

// The preconditions as conditions only (symbolic leaves are not printed).
struct ComplementConditions {
  template <class Leaf>
  std::string negative_stride(const Leaf&, const Leaf&) const {
    return "complement: A's strides must be >= 0";
  }
  template <class Leaf>
  std::string interleaved(const Leaf&, const Leaf&, const Leaf&) const {
    return "complement: A must be injective with non-interleaved modes";
  }
  template <class Leaf>
  std::string bad_cotarget(const Leaf&) const {
    return "complement: the cotarget's leaves must be >= 1";
  }
};

// complement(A, M) on flat modes: A's flattened modes are read from a_shapes[i], a_strides[i]
// (In: size() and operator[]; a vector, or a view of A's form), filter(A)'s modes are kept
// by `filtered` (an Out as coalesce_generic.hpp's CoalescingWalk takes, empty, whose finish()
// leaves them in the vectors f_shapes, f_strides), `cotarget` is M's leaves. The cotarget is
// checked first, whatever A is; filter(A) (coalesce_generic.hpp); when that is the single
// mode _1:_0 (no mode of size > 1 and non-zero stride) R is M's compact column-major layout,
// else complement_modes; R's modes are coalesced as they are made, into `out` (empty; an Out
// as CoalescingWalk takes: ModesOut, or the model's form of the result, which the caller
// finishes).
// P: the leaf policy of Ops (ComplementOps<P, ...> or one derived from it).
// @pre a_shapes.size() == a_strides.size(); cotarget has >= 1 leaf.
template <class P, class InShapes, class InStrides, class FilteredOut, class Vec, class CotargetLeaves, class Ops,
          class Out>
void complement_flat_modes(const InShapes& a_shapes, const InStrides& a_strides, FilteredOut& filtered,
                           const Vec& f_shapes, const Vec& f_strides, const CotargetLeaves& cotarget, const Ops& ops,
                           Out& out) {
  for (const auto& c : cotarget) ops.check_cotarget(c);
  filter_flat_modes_to<P>(a_shapes, a_strides, filtered);
  filtered.finish();
  const CoalesceOps<P> coalesce_ops{};
  CoalescingWalk<Out, CoalesceOps<P>> walk(out, coalesce_ops);
  if (f_shapes.size() == 1 && LeafArith<P>::is(f_strides[0], 0)) {
    auto running = P::constant(1);
    for (const auto& c : cotarget) {
      walk.push(c, running);
      running = LeafArith<P>::mul(running, c);
    }
  } else {
    complement_modes(f_shapes, f_strides, cotarget, ops, walk);
  }
  coalesce_flat_finish<P>(out);
}

}  // namespace cuteref
