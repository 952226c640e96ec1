// layout_add of F2 layouts (PyCuTe's layout_add over F2 strides): R(i) == A(i) ^ B(i), the sum
// in F2 being XOR.
#pragma once

#include "f2_layout.hpp"
#include "layout.hpp"

namespace cuteref {

// With CA = coalesce(A), CB = coalesce(B) and G = greatest_common_domain(shape(CA), shape(CB)):
// R is the F2 layout over G's shape whose values are A(i) ^ B(i), coalesced. G's modes lie inside
// one mode of CA and one of CB, as for integer strides; the XOR is F2-linear on G's coordinates
// when no mode of G splits an F2 mode at a size that is not a power of two, which is checked at
// every index (f2_layout_of).
// @pre  size(A) == size(B); otherwise Error
// @pre  CA and CB split the domain at common factors (size(G) == size(A)); otherwise Error
//       ("no common refinement")
// @pre  A ^ B is F2-linear on G's coordinates; otherwise Error naming the first index where
//       it is not (PyCuTe's own post-condition check raises there too)
// @post size(R) == size(A); R(i) == A(i) ^ B(i) for 0 <= i < size(R); symmetric
F2Layout layout_add(const F2Layout& a, const F2Layout& b);

// An F2 layout plus an integer layout: PyCuTe's integer 0 is the additive identity of every
// stride scalar, so B must be 0 at every index (every mode of size > 1 has stride 0); then the
// sum is coalesce(A). Otherwise Error: an F2 value and a non-zero integer have no sum.
F2Layout layout_add(const F2Layout& a, const Layout& zero);

}  // namespace cuteref
