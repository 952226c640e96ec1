// Right and left inverses of a swizzled composed layout C = Sw o O o L (CuTe's right_inverse /
// left_inverse of ComposedLayout<Swizzle, Offset, Layout>).
//
// C(x) = Sw(O + L(x)) and a swizzle is its own inverse, so for O = 0 an inverse of C is an
// inverse of L applied after Sw: y -> inverse(L)(Sw(y)). CuTe C++ 4.2 answers exactly that for a
// static offset _0, composition(right_inverse(L), Sw) (resp. left_inverse), which moves the
// swizzle to the left of the layout: Sw' o _0 o inverse(L), Sw' the swizzle whose masks are
// inverse(L)'s values at Sw's masks (composition_swizzle.hpp's swizzle_moved_through). The model
// builds the same Sw' o _0 o inverse(L) and checks the inverse's definition on the whole domain
// (not composition's A o Sw == Sw' o A: an inverse is all that is promised):
//   right_inverse: for every y < size(R): 0 <= R(y) < size(C) and C(R(y)) == y;
//   left_inverse:  for every i < size(C): 0 <= C(i) < size(R) and R(C(i)) == left_inverse(L)(L(i)),
//                  which is i when L is injective (as for left_inverse(L), inverse.hpp).
// CuTe does not check these and can answer a function that relies on evaluating C or R past
// its domain: for Sw<1,1,1> o _0 o _6:_1 (values 0 1 2 3 6 7) it answers Sw<1,1,1> o _0 o _6:_1,
// whose value at 4 is 6, outside C's domain [0,6). The model refuses there, naming the point.
//
// Not defined (refused with a diagnostic), with what the vendors do (oracles/probes/dsl_copy_probe.cpp):
// a non-zero offset -- CuTe answers R o -O o Sw, a ComposedLayout whose inner function is the
// swizzle, which has no size (using it does not compile); a run-time offset -- CuTe does not
// compile (it finds no right_inverse(int)); the model decides by the offset's value, so a
// run-time 0 is inverted as _0 is. The CuTe DSL (4.8.1) refuses composed layouts in both
// (TypeError: "Expected input of type Layout").
#pragma once

#include "swizzle.hpp"

namespace cuteref {

// @pre  C's offset is the integer 0 (not an smem_ptr token: that swizzle acts on byte addresses);
//       L's strides are integers; inverse(L)'s images of Sw's masks are runs of equally many
//       contiguous bits (CuTe's make_swizzle; it static-asserts otherwise); the definition holds
//       (below); size(C) and size(inverse(L)) at most 2^22 (the check enumerates).
// @post the result R is Sw' o 0 o R' with C(R(y)) == y and R(y) in [0, size(C)) for y < size(R)
ComposedLayout right_inverse(const ComposedLayout& c);

// @pre  as right_inverse, with left_inverse(L)'s preconditions (inverse.hpp).
// @post R(C(i)) == left_inverse(L)(L(i)) and C(i) in [0, size(R)) for i < size(C)
ComposedLayout left_inverse(const ComposedLayout& c);

}  // namespace cuteref
