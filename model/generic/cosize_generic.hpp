// cosize(L) = 1 + sum over L's leaf modes of (s - 1) * |d|: one past L's largest offset from
// L(0) (CuTe's cosize), written once over a leaf policy (leaf_ops.hpp), so that the model
// (core/layout.cpp, static iff every leaf is) and the proofs (symbolic layouts) compute it
// alike, with the same overflow checks in the same order.
#pragma once

#include "leaf_ops.hpp"

namespace cuteref {

// The sum over the modes seen so far; add() each leaf mode in any order, then result().
template <class P>
struct CosizeSum {
  using Leaf = typename P::Leaf;
  using A = LeafArith<P>;
  Leaf sum = P::constant(0);
  // @pre s >= 1.
  void add(const Leaf& s, const Leaf& d) { sum = A::add(sum, A::mul(A::sub(s, P::constant(1)), A::abs(d))); }
  Leaf result() const { return A::add(sum, P::constant(1)); }
};

}  // namespace cuteref
