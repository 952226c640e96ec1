// The finite family of swizzles swizzle_for searches, written once, generic over the scalar
// (scalar.hpp): the model enumerates it with CheckedInt, the minimality proof
// (proofs/swizzle_minimality.hpp) states it for a symbolic (B, M, S) with Z3 terms.
//
// A member is a triple (B, M, S) of a swizzle acting on byte addresses, Sw<B,M,S> o
// smem_ptr[Nb](unset) o SMEM:
//   the unswizzled layout, written (0, 0, 0) (Sw<0,0,0> is the identity);
//   Any:     1 <= B <= 5, 0 <= M <= 8, B <= |S| <= 10, S of either sign (CuTe's Swizzle takes a
//            negative S: the bits [M, M+B) are then XOR-ed into [M+|S|, M+|S|+B));
//   TmaGmma: Sw<1,4,3>, Sw<2,4,3>, Sw<3,4,3> only: the 32-, 64- and 128-byte modes that a TMA
//            tensor map and a GMMA descriptor encode (with the unswizzled layout: their
//            "none" / interleave mode).
#pragma once

#include <cstdint>

#include "scalar.hpp"

namespace cuteref {

enum class SwizzleModes { Any, TmaGmma };

// The box the family lies in (a triple outside it is never a member).
constexpr int kSwizzleFamilyMaxBits = 5, kSwizzleFamilyMaxBase = 8, kSwizzleFamilyMaxShift = 10;

template <class Scalar>
typename ScalarOps<Scalar>::Bool swizzle_family_member(const Scalar& b, const Scalar& m, const Scalar& s, SwizzleModes modes) {
  using Ops = ScalarOps<Scalar>;
  auto c = [](std::int64_t v) { return Ops::constant(v); };
  auto between = [&](const Scalar& v, std::int64_t lo, std::int64_t hi) { return Ops::both(v >= c(lo), c(hi) >= v); };
  const auto unswizzled = Ops::both(b == c(0), Ops::both(m == c(0), s == c(0)));
  const Scalar abs_s = Ops::select(s >= c(0), s, c(0) - s);
  auto swizzled = modes == SwizzleModes::TmaGmma
                      ? Ops::both(between(b, 1, 3), Ops::both(m == c(4), s == c(3)))
                      : Ops::both(between(b, 1, kSwizzleFamilyMaxBits),
                                  Ops::both(between(m, 0, kSwizzleFamilyMaxBase), Ops::both(abs_s >= b, c(kSwizzleFamilyMaxShift) >= abs_s)));
  // a or b == !(!a and !b)
  return !Ops::both(!unswizzled, !swizzled);
}

// Whether Sw<B,M,S> on byte addresses permutes whole elements of 2^e bytes (e = log2 of the
// element's bytes): pointer_swizzle.hpp's element form exists. It does not when some pair
// (source bit M+S+i -> target bit M+i, i < B, S > 0) has its target inside the element (below
// e) and its source outside (at or above e): that is, S > 0, B > 0, M < e and M + S + B > e.
// A negative S moves bits upward: its target is inside only if its source is too (always 0).
// Precondition: the triple is legal (|S| >= B >= 0, M >= 0).
template <class Scalar>
typename ScalarOps<Scalar>::Bool swizzle_moves_whole_elements(const Scalar& b, const Scalar& m, const Scalar& s, int element_log2_bytes) {
  using Ops = ScalarOps<Scalar>;
  const Scalar zero = Ops::constant(0), e = Ops::constant(element_log2_bytes);
  const auto splits = Ops::both(Ops::both(zero < s, zero < b), Ops::both(m < e, e < m + s + b));
  return !splits;
}

}  // namespace cuteref
