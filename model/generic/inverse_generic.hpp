// The one definition of right_inverse's and left_inverse's mode selection, generic over the
// leaf (as complement_generic.hpp): the model runs it on IntTuple leaves (inverse.cpp), the
// proofs on symbolic leaves (proofs/symbolic_algebra.*).
//
// Input: the flat modes of coalesce(L), shapes[k]:strides[k], and the exclusive prefix
// products of the shapes (prefix[k] = shapes[0] * ... * shapes[k-1]). Output: the modes of
// the inverse before coalescing (the caller coalesces them).
//
// Data-dependent steps are asked of `ops`:
//   bool less(a, b), bool equal(a, b), bool is_zero(a)   (case splits when symbolic);
//   void check_nonnegative(k)        left_inverse's precondition strides[k] >= 0;
//   void check_divisible(k, covered) left_inverse's precondition covered | strides[k];
//   Leaf mul(a, b), div(a, b), one(), zero().
// InverseOps below is that `ops` for every leaf.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "leaf_ops.hpp"

namespace cuteref {

// Mode indices in increasing stride order, ordered among equal strides as CuTe's
// compile-time exchange sort orders them (it is not stable: for each position in turn,
// every later smaller element is swapped into it).
template <class Vec, class Ops>
std::vector<std::size_t> inverse_stride_order(const Vec& strides, const Ops& ops) {
  std::vector<std::size_t> idx(strides.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  for (std::size_t i = 0; i < idx.size(); ++i)
    for (std::size_t j = i + 1; j < idx.size(); ++j)
      if (ops.less(strides[idx[j]], strides[idx[i]])) std::swap(idx[i], idx[j]);
  return idx;
}

// One step of right_inverse_modes' walk: L's mode (shape : stride), at weight `prefix` in L's
// domain, continues the inverse when its stride is the offset `next` the inverse has reached;
// then it becomes the inverse's next mode (shape : prefix) and `next` grows to shape * stride.
// It reads nothing else: the law right_inverse_every_rank proves, by induction over the walk,
// that L(R(i)) = i for every rank, running this step on one symbolic mode.
// Returns whether the mode was taken.
template <class Leaf, class Next, class Ops, class Out>
bool right_inverse_step(const Leaf& shape, const Leaf& stride, const Leaf& prefix, Next& next, const Ops& ops,
                        Out& out_shapes, Out& out_strides) {
  if (!ops.equal(stride, next)) return false;
  out_shapes.push_back(shape);
  out_strides.push_back(prefix);
  next = ops.mul(shape, stride);
  return true;
}

// right_inverse: R(L(R(i))) = i; the modes whose strides continue the compact run 1, s0*d0, ...
// in stride order, each at its position's prefix product in L's domain.
// @pre shapes, strides, prefix have one size.
// In, Prefix, Out: random-access containers of leaves (Out with push_back).
template <class In, class Prefix, class Ops, class Out>
void right_inverse_modes(const In& shapes, const In& strides, const Prefix& prefix, const Ops& ops, Out& out_shapes,
                         Out& out_strides) {
  out_shapes.push_back(ops.one());
  out_strides.push_back(ops.zero());
  auto next = ops.one();  // the offset the inverse must reach next
  for (std::size_t k : inverse_stride_order(strides, ops))
    right_inverse_step(shapes[k], strides[k], prefix[k], next, ops, out_shapes, out_strides);
}

// One step of left_inverse_modes' walk: L's mode k with a nonzero stride, at weight `prefix`
// in L's domain, in stride order. The inverse's pending last mode (the previous mode's weight)
// gets the gap stride / covered as its shape, and the mode's weight becomes the new pending
// stride; `covered` grows to the stride. It reads nothing else: the law
// left_inverse_every_rank proves, by induction over the walk, that Li(L(i)) = i for every
// rank, running this step on one symbolic mode. Returns whether the mode was taken.
template <class Leaf, class Covered, class Ops, class Out>
bool left_inverse_step(std::size_t k, const Leaf& stride, const Leaf& prefix, Covered& covered, const Ops& ops,
                       Out& out_shapes, Out& out_strides) {
  if (ops.is_zero(stride)) return false;
  ops.check_divisible(k, covered);
  auto gap = ops.div(stride, covered);
  out_shapes.push_back(gap);
  out_strides.push_back(prefix);
  covered = ops.mul(covered, gap);
  return true;
}

// left_inverse: Li(L(i)) = i for an injective L; the gaps between L's modes in stride order
// become modes of stride 0.
// @pre shapes, strides, prefix have one size >= 1.
template <class In, class Prefix, class Ops, class Out>
void left_inverse_modes(const In& shapes, const In& strides, const Prefix& prefix, const Ops& ops, Out& out_shapes,
                        Out& out_strides) {
  for (std::size_t k = 0; k < strides.size(); ++k) ops.check_nonnegative(k);
  const std::vector<std::size_t> order = inverse_stride_order(strides, ops);
  out_strides.push_back(ops.zero());
  auto covered = ops.one();  // product of the shapes emitted so far
  for (std::size_t k : order) left_inverse_step(k, strides[k], prefix[k], covered, ops, out_shapes, out_strides);
  out_shapes.push_back(shapes[order.back()]);
}

// The inverses' decisions, checks and leaf arithmetic, written once over a leaf policy P
// (leaf_ops.hpp): the model's (IntTupleLeaf), the proofs' (ScalarLeaf<SymInt>). `strides`:
// L's coalesced strides, which left_inverse's checks read at the mode k they name. Diag words
// the failed preconditions: the model's names the mode and L, InverseConditions (the
// proofs') the condition only:
//   std::string negative_stride(k), not_divisible(k, covered).
template <class P, class Diag>
struct InverseOps {
  using Leaf = typename P::Leaf;
  using A = LeafArith<P>;
  using Ops = ScalarOps<typename P::Scalar>;
  const Leaf* strides;
  Diag diag{};
  bool less(const Leaf& a, const Leaf& b) const { return A::less(a, b); }
  bool equal(const Leaf& a, const Leaf& b) const { return A::equal(a, b); }
  bool is_zero(const Leaf& a) const { return A::is(a, 0); }
  void check_nonnegative(std::size_t k) const {
    Ops::require(A::value(strides[k]) >= A::k(0), [&] { return diag.negative_stride(k); });
  }
  void check_divisible(std::size_t k, const Leaf& covered) const {
    Ops::require(A::value(strides[k]) % A::value(covered) == A::k(0), [&] { return diag.not_divisible(k, covered); });
  }
  Leaf mul(const Leaf& a, const Leaf& b) const { return A::mul(a, b); }
  Leaf div(const Leaf& a, const Leaf& b) const { return A::div(a, b); }
  Leaf one() const { return P::constant(1); }
  Leaf zero() const { return P::constant(0); }
};

// The preconditions as conditions only (symbolic leaves are not printed).
struct InverseConditions {
  std::string negative_stride(std::size_t) const { return "left_inverse: the strides must be >= 0"; }
  template <class Leaf>
  std::string not_divisible(std::size_t, const Leaf&) const {
    return "left_inverse: divisibility (L injective, modes not interleaved)";
  }
};

}  // namespace cuteref
