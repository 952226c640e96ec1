// The one definition of upcast's and downcast's change of one leaf mode s:d, generic over the
// leaf (as composition_generic.hpp): the model maps it over L's leaves (recast.cpp), the law
// recast_every_rank runs it on one symbolic leaf (proofs/recast_induction.hpp). recast.hpp
// states the operations' pre/post-conditions.
//
// Data-dependent steps are asked of `ops`:
//   bool is_zero(d), is_negative(d), is_one(x)   branches (case splits when symbolic);
//   bool is_static_unit(d)                       d is CuTe's static _1 or _-1;
//   Leaf abs(x), neg(x), ceil_div(a, b), mul(a, b);
//   void check_divisible(d, abs_d)               upcast's precondition: |d| % n == 0 or
//                                                n % |d| == 0 (CuTe's "Divisibility condition").
#pragma once

#include <utility>

namespace cuteref {

// upcast of the leaf s:d by n >= 1: d == 0 keeps s:0; else ceil(s / ceil(n/|d|)) :
// sign(d) * ceil(|d| / n). Returns {shape, stride}.
template <class Leaf, class Ops>
std::pair<Leaf, Leaf> upcast_leaf(const Leaf& s, const Leaf& d, const Leaf& n, const Ops& ops) {
  if (ops.is_zero(d)) return {s, d};
  const Leaf abs_d = ops.abs(d);
  ops.check_divisible(d, abs_d);
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

}  // namespace cuteref
