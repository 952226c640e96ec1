// The one definition of Swizzle<B,M,S> application, generic over the scalar type
// (scalar.hpp), with B, M, S themselves Scalars so that a proof can leave them symbolic.
//
// Swizzle<B,M,S>(x): the B bits of x at [M + max(0,S), M + max(0,S) + B) are XOR-ed into
// the B bits at [M + max(0,-S), M + max(0,-S) + B) (CuTe's definition).
#pragma once

#include <cstdint>
#include <string>

#include "scalar.hpp"

namespace cuteref {

// CuTe's precondition on (B, M, S) plus the model's 63-bit limit, as one Bool:
// 0 <= B, M <= 63, |S| <= 63, |S| >= B, and both fields end at or below bit 63.
template <class Scalar>
typename ScalarOps<Scalar>::Bool swizzle_parameters_legal(const Scalar& b, const Scalar& m, const Scalar& s) {
  using Ops = ScalarOps<Scalar>;
  const Scalar zero = Ops::constant(0), limit = Ops::constant(63);
  const Scalar abs_s = Ops::select(s >= zero, s, zero - s);
  const Scalar pos_s = Ops::select(s >= zero, s, zero);
  auto in_range = [&](const Scalar& v) { return Ops::both(v >= zero, limit >= v); };
  auto legal = Ops::both(Ops::both(in_range(b), in_range(m)), Ops::both(limit >= abs_s, abs_s >= b));
  return Ops::both(legal, Ops::both(limit >= m + pos_s + b, limit >= m + (abs_s - pos_s) + b));
}

// Mask of the B-bit field starting at bit `low`.
template <class Scalar>
Scalar swizzle_field_mask(const Scalar& b, const Scalar& low) {
  using Ops = ScalarOps<Scalar>;
  return Ops::shl(Ops::shl(Ops::constant(1), b) - Ops::constant(1), low);
}

// Swizzle<B,M,S>(x) for any 64-bit x, negative included: as CuTe's Swizzle on a signed
// integer, the bits of x's two's-complement pattern are XOR-ed (both fields lie below bit
// 63, so the moved field is non-negative and is shifted without overflow).
// Precondition: swizzle_parameters_legal(b, m, s) (the caller's: the Swizzle constructor
// checks it).
template <class Scalar>
Scalar swizzle_value(const Scalar& x, const Scalar& b, const Scalar& m, const Scalar& s) {
  using Ops = ScalarOps<Scalar>;
  const Scalar zero = Ops::constant(0);
  const auto s_nonneg = s >= zero;
  const Scalar source = x & swizzle_field_mask(b, m + Ops::select(s_nonneg, s, zero));
  const Scalar moved = Ops::select(s_nonneg, Ops::lshr(source, Ops::select(s_nonneg, s, zero)),
                                   Ops::shl(source, Ops::select(s_nonneg, zero, zero - s)));
  return x ^ moved;
}

}  // namespace cuteref
