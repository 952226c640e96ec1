// CuTe C++'s right_inverse, which decides by the types: its coalesce merges and drops modes
// only where the leaves involved are static, the modes with a run-time stride are dropped,
// and the chain of strides goes on only through static strides equal to the static product
// so far. Written once over a leaf policy with a static flag (leaf_ops.hpp: `is_static`):
// the model runs it on IntTuple leaves (inverse.cpp's right_inverse), the proofs on symbolic
// leaves that carry the claim's `_N` flags (proofs/symbolic_typed_inverse.hpp). The chain's walk is
// inverse_generic.hpp's right_inverse_modes, the one right_inverse_full runs.
//
// A static leaf's value is a constant of the claim (a literal `_N`, or an operation of
// static leaves), so on symbolic leaves the decisions below do not split cases: they read
// static flags and static values. Every test of a run-time leaf's value sits behind a test
// of its flag, as in the model, so no check is asked of a leaf the model does not compute on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "inverse_generic.hpp"
#include "leaf_ops.hpp"

namespace cuteref {

// CuTe C++'s coalesce on flat modes (cute/layout.hpp's bw_coalesce), which decides by the
// types: from the last mode backwards, a static _1 shape is skipped, a static _1 front is
// replaced, two modes merge only when the front's shape and the three leaves s, d and the
// front's stride are static and s * d is the front's stride; a run-time 1 stays a mode.
// Output: the modes in order; no modes and a lone static _1 give the one mode _1:_0.
// In: random-access containers of leaves of one size.
template <class P, class In>
void coalesce_as_typed_modes(const In& shapes, const In& strides, std::vector<typename P::Leaf>& out_shapes,
                             std::vector<typename P::Leaf>& out_strides) {
  using Leaf = typename P::Leaf;
  using A = LeafArith<P>;
  using Ops = ScalarOps<typename P::Scalar>;
  const auto static_one = [](const Leaf& x) {
    return Ops::decide(P::is_static(x)) && Ops::decide(A::value(x) == A::k(1));
  };
  out_shapes.clear();
  out_strides.clear();
  const std::size_t n = shapes.size();
  if (n == 0) {  // the empty layout ():()
    out_shapes.push_back(P::constant(1));
    out_strides.push_back(P::constant(0));
    return;
  }
  std::vector<Leaf> s_rev{shapes[n - 1]}, d_rev{strides[n - 1]};  // reversed: the front is back()
  for (std::size_t k = n - 1; k-- > 0;) {
    const Leaf &s = shapes[k], &d = strides[k];
    if (static_one(s)) continue;
    if (s_rev.size() == 1 && static_one(s_rev.back())) {
      s_rev.back() = s;
      d_rev.back() = d;
      continue;
    }
    const bool all_static = Ops::decide(Ops::both(Ops::both(P::is_static(s_rev.back()), P::is_static(s)),
                                                  Ops::both(P::is_static(d), P::is_static(d_rev.back()))));
    if (all_static && Ops::decide(A::value(s) * A::value(d) == A::value(d_rev.back()))) {
      s_rev.back() = A::mul(s, s_rev.back());
      d_rev.back() = d;
    } else {
      s_rev.push_back(s);
      d_rev.push_back(d);
    }
  }
  if (s_rev.size() == 1 && static_one(s_rev.back())) {
    out_shapes.push_back(P::constant(1));
    out_strides.push_back(P::constant(0));
    return;
  }
  out_shapes.assign(s_rev.rbegin(), s_rev.rend());
  out_strides.assign(d_rev.rbegin(), d_rev.rend());
}

// right_inverse_modes' chain test as the types decide it: only static strides match, and the
// next offset to reach is static only while every shape taken is.
template <class P>
struct TypedChainOps {
  using Leaf = typename P::Leaf;
  using A = LeafArith<P>;
  using Ops = ScalarOps<typename P::Scalar>;
  bool less(const Leaf& a, const Leaf& b) const { return A::less(a, b); }
  bool equal(const Leaf& a, const Leaf& b) const {
    return Ops::decide(Ops::both(P::is_static(a), P::is_static(b))) && A::equal(a, b);
  }
  Leaf mul(const Leaf& a, const Leaf& b) const { return A::mul(a, b); }
  Leaf one() const { return P::constant(1); }
  Leaf zero() const { return P::constant(0); }
};

// CuTe C++'s right_inverse on L's flat modes: C = coalesce_as_typed_modes(L); the modes of C
// with a run-time stride are dropped (CuTe filters them before it sorts: the sort sees the
// static strides only), each kept mode at its prefix product in C's domain; the chain
// (right_inverse_modes with TypedChainOps) selects the inverse's modes, and the result is
// their coalesce_as_typed_modes. Output: the inverse's modes in order (one mode: a leaf).
// @post L(R(i)) == i for 0 <= i < size(R) (each mode taken continues the chain of strides)
template <class P, class In>
void typed_right_inverse_modes(const In& shapes, const In& strides, std::vector<typename P::Leaf>& out_shapes,
                               std::vector<typename P::Leaf>& out_strides) {
  using Leaf = typename P::Leaf;
  using A = LeafArith<P>;
  using Ops = ScalarOps<typename P::Scalar>;
  std::vector<Leaf> cs, cd;
  coalesce_as_typed_modes<P>(shapes, strides, cs, cd);
  std::vector<Leaf> kept_shapes, kept_strides, prefix;
  Leaf p = P::constant(1);
  for (std::size_t k = 0; k < cs.size(); ++k) {
    if (Ops::decide(P::is_static(cd[k]))) {
      kept_shapes.push_back(cs[k]);
      kept_strides.push_back(cd[k]);
      prefix.push_back(p);
    }
    p = A::mul(p, cs[k]);
  }
  std::vector<Leaf> chain_shapes, chain_strides;
  right_inverse_modes(kept_shapes, kept_strides, prefix, TypedChainOps<P>{}, chain_shapes, chain_strides);
  coalesce_as_typed_modes<P>(chain_shapes, chain_strides, out_shapes, out_strides);
}

}  // namespace cuteref
