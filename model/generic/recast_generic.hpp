// The one definition of upcast's and downcast's change of one leaf mode s:d, and of the
// decisions it asks (RecastOps), generic over a leaf policy (leaf_ops.hpp, as
// composition_generic.hpp): the model maps it over L's leaves (recast.cpp) with its IntTuple
// leaves, the proofs with symbolic leaves (proofs/symbolic_recast.hpp: `cuteref prove` on
// symbolic layouts, and the law recast_every_rank on one symbolic leaf). recast.hpp states
// the operations' pre/post-conditions.
//
// Data-dependent steps are asked of `ops` (RecastOps below, or one derived from it):
//   bool is_zero(d), is_negative(d), is_one(x)   branches (case splits when symbolic);
//   bool is_static_unit(d)                       d is CuTe's static _1 or _-1;
//   Leaf abs(x), neg(x), ceil_div(a, b), mul(a, b);
//   void check_divisible(d, abs_d, n)            upcast's precondition: |d| % n == 0 or
//                                                n % |d| == 0 (CuTe's "Divisibility condition").
#pragma once

#include <cstdint>
#include <numeric>
#include <string>
#include <utility>

#include "leaf_ops.hpp"

namespace cuteref {

// upcast of the leaf s:d by n >= 1: d == 0 keeps s:0; else ceil(s / ceil(n/|d|)) :
// sign(d) * ceil(|d| / n). Returns {shape, stride}.
template <class Leaf, class Ops>
std::pair<Leaf, Leaf> upcast_leaf(const Leaf& s, const Leaf& d, const Leaf& n, const Ops& ops) {
  if (ops.is_zero(d)) return {s, d};
  const Leaf abs_d = ops.abs(d);
  ops.check_divisible(d, abs_d, n);
  const Leaf shrink = ops.ceil_div(n, abs_d);  // old elements per new element along this mode
  Leaf shape = ops.is_one(shrink) ? s : ops.ceil_div(s, shrink);
  const Leaf magnitude = ops.ceil_div(abs_d, n);
  return {std::move(shape), ops.is_negative(d) ? ops.neg(magnitude) : magnitude};
}

// downcast of the leaf s:d by n >= 1: the contiguous mode (static stride _1 or _-1) gets n
// times the elements, (s*n):d; any other leaf keeps its shape and scales its stride, s:(d*n).
template <class Leaf, class Ops>
std::pair<Leaf, Leaf> downcast_leaf(const Leaf& s, const Leaf& d, const Leaf& n, const Ops& ops) {
  if (ops.is_static_unit(d)) return {ops.mul(s, n), d};
  return {s, ops.mul(d, n)};
}

// downcast's precondition on L's stride leaves (any container of leaves): some leaf is CuTe's
// static _1 (CuTe's has_int1: a run-time 1 or a _-1 does not count). P: a leaf policy with
// `Bool is_static(leaf)` (the model's flag, or a term for a symbolic one).
template <class P, class Leaves>
bool has_static_unit_stride(const Leaves& strides) {
  using A = LeafArith<P>;
  using Ops = ScalarOps<typename P::Scalar>;
  for (const auto& d : strides)
    if (Ops::decide(Ops::both(P::is_static(d), A::value(d) == A::k(1)))) return true;
  return false;
}

// downcast's failed precondition (the caller adds the layout or why).
inline std::string downcast_needs_static_unit() {
  return "downcast: precondition violated: some stride must be the static _1 (CuTe: \"Downcast requires adjacent "
         "elements\"; a run-time 1 is not known to be the contiguous mode)";
}

// recast(L, old_bits, new_bits), CuTe's recast_layout<Old, New>, as upcast and downcast: with
// new_bits / old_bits = num / den in lowest terms, L if num == den, downcast(L, den) if
// num == 1, upcast(L, num) if den == 1, else downcast(upcast(L, num), den). The widths are
// the element types' sizes (compile-time in CuTe): plain integers for the model and the
// proofs alike. `up(L, n)`, `down(L, n)`: the representation's upcast and downcast;
// `bad_widths()` throws the representation's diagnostic.
// @pre old_bits >= 1 and new_bits >= 1 (else bad_widths()), and the casts' own.
template <class LayoutT, class Up, class Down, class BadWidths>
LayoutT recast_by_widths(const LayoutT& l, std::int64_t old_bits, std::int64_t new_bits, const Up& up,
                         const Down& down, const BadWidths& bad_widths) {
  if (old_bits < 1 || new_bits < 1) bad_widths();
  const std::int64_t g = std::gcd(old_bits, new_bits);  // positive operands: no overflow
  const std::int64_t num = new_bits / g, den = old_bits / g;
  if (num == 1 && den == 1) return l;
  if (num == 1) return down(l, den);
  if (den == 1) return up(l, num);
  return down(up(l, num), den);
}

// recast_generic.hpp's decisions, checks and leaf arithmetic, written once over a leaf
// policy P (leaf_ops.hpp) that also says whether a leaf is static (`Bool is_static(leaf)`).
// Diag words upcast's failed precondition: the model's names the stride, the factor and L,
// RecastConditions (the proofs') the condition only:
//   std::string not_divisible(d, n).
template <class P, class Diag>
struct RecastOps {
  using Leaf = typename P::Leaf;
  using A = LeafArith<P>;
  using Ops = ScalarOps<typename P::Scalar>;
  Diag diag{};
  bool is_zero(const Leaf& x) const { return A::is(x, 0); }
  bool is_negative(const Leaf& x) const { return A::is_negative(x); }
  bool is_one(const Leaf& x) const { return A::is(x, 1); }
  bool is_static_unit(const Leaf& d) const {
    const auto v = A::value(d);
    return Ops::decide(Ops::both(P::is_static(d), v == A::k(1) || v == A::k(-1)));
  }
  Leaf abs(const Leaf& x) const { return A::abs(x); }
  Leaf neg(const Leaf& x) const { return A::neg(x); }
  Leaf ceil_div(const Leaf& a, const Leaf& b) const { return A::ceil_div(a, b); }
  Leaf mul(const Leaf& a, const Leaf& b) const { return A::mul(a, b); }
  // @pre abs_d != 0 (upcast_leaf's first branch), n >= 1.
  void check_divisible(const Leaf& d, const Leaf& abs_d, const Leaf& n) const {
    const auto m = A::value(abs_d), f = A::value(n);
    Ops::require(m % f == A::k(0) || f % m == A::k(0), [&] { return diag.not_divisible(d, n); });
  }
};

// upcast's precondition as a condition only (symbolic leaves are not printed).
struct RecastConditions {
  template <class Leaf>
  std::string not_divisible(const Leaf&, const Leaf&) const {
    return "upcast: |d| and n divide one another";
  }
};

}  // namespace cuteref
