// Composition with a swizzle on the right: A o Sw and A o (Sw o 0 o B), as CuTe builds them
// (cute/swizzle_layout.hpp, cute/layout_composed.hpp): the swizzle is moved to the left of A.
#pragma once

#include <cstdint>
#include <string>

#include "swizzle.hpp"
#include "value.hpp"

namespace cuteref {

// composition(A, Sw<B,M,S>): CuTe's answer Sw' o 0 o A, where Sw' is the swizzle whose
// source and destination masks are A's values at Sw's masks (A(yyy_mask), A(zzz_mask); an
// index past size(A) runs on in A's last mode, as CuTe evaluates it). CuTe notes it "works in
// simple cases"; the model checks the definition, (A o Sw)(x) == A(Sw(x)) == Sw'(A(x)) for
// every x < size(A), and refuses where it fails.
// @pre A's strides are integers; A(yyy_mask) and A(zzz_mask) are runs of equally many
//      contiguous bits (CuTe's make_swizzle static assertions); size(A) <= 2^22 (the check
//      enumerates the domain); the definition holds on the whole domain.
ComposedLayout composition(const Layout& a, const Swizzle& b);

// CuTe's Sw' alone: the swizzle whose masks are A(yyy_mask) and A(zzz_mask), with CuTe's
// make_swizzle conditions, not checked against A o Sw (composition does that; the inverses of a
// composed layout check their own definition instead, inverse_composed.hpp).
// @pre A's strides are integers; the images of the masks are runs of equally many contiguous bits.
Swizzle swizzle_moved_through(const Layout& a, const Swizzle& b);

// CuTe's make_swizzle<Y, Z>() from A's images y = A(source mask), z = A(destination mask):
// B = popcount, M = the lower of the two runs' starts, S the distance between them; y | z
// must be exactly that swizzle's masks. `operands` ends each diagnostic ("; A = ..., B = ...").
// @pre y, z >= 0 with equally many bits, in runs of contiguous bits at least B apart (each a
//      diagnostic, as CuTe's static assertions)
Swizzle swizzle_from_mask_images(std::int64_t y, std::int64_t z, const std::string& operands);

// The largest domain on which composition(A, Sw o 0 o B) and composition(A, Sw) check the
// moved swizzle element by element.
inline constexpr std::int64_t kMaxSwizzleMoveChecked = std::int64_t{1} << 22;

// composition(A, Sw o 0 o B): Sw' o 0 o (A o B) with Sw' as above (CuTe: composition(
// composition(A, Sw), B)); checked as A(Sw(B(x))) == Sw'((A o B)(x)) for every x < size(B).
// @pre B's offset is the integer 0 (CuTe: "Require offset == 0"); the preconditions above,
//      with size(B) <= 2^22 for the check.
ComposedLayout composition(const Layout& a, const ComposedLayout& b);

// composition(Sw, L): CuTe's Sw o _0 o L (cute/swizzle_layout.hpp builds the composed layout as
// it is: the swizzle applies to L's offsets).
// @post (Sw o _0 o L)(x) == Sw(L(x)) for every x < size(L)
ComposedLayout composition(const Swizzle& a, const Layout& b);

// composition(Sw_a o off o A, Sw_b o 0 o B): CuTe builds Sw_a o off o (A o (Sw_b o 0 o B)), that
// is Sw_a o off o Sw' o _0 o (A o B) with Sw' from composition(A, Sw_b o 0 o B) above: a composed
// layout inside a composed layout, which the model does not represent. It answers where the two
// swizzles make at most one: Sw' without bits (the identity) gives Sw_a o off o (A o B); an
// integer offset 0 with Sw_a == Sw' gives the layout A o B (a swizzle is an involution); an
// integer offset 0 with Sw_a the identity gives Sw' o _0 o (A o B). Elsewhere Error, naming both
// swizzles.
// @pre the preconditions of composition(A, Sw_b o 0 o B)
// @post result(x) == Sw_a(off + A(Sw_b(B(x)))) for every x < size(B), checked on the domain
Value composition(const ComposedLayout& a, const ComposedLayout& b);

}  // namespace cuteref
