// Changing the element width a layout counts in: CuTe's upcast<N>, downcast<N> and
// recast_layout<OldType, NewType>.
#pragma once

#include <cstdint>

#include "layout.hpp"

namespace cuteref {

// upcast(L, n): L counted in elements n times wider. Each leaf mode s:d becomes
//   d == 0:  s:0 (unchanged);
//   else:    ceil(s / ceil(n/|d|)) : sign(d)*ceil(|d|/n)
// so a stride-1 mode shrinks by n and the other strides divide by n.
// CuTe C++ applies this to static strides and assumes dynamic strides are multiples of n
// (s : d/n, unchecked); the model applies the formula and its check to every stride.
// @pre  n >= 1; integer strides; for each d != 0: |d| % n == 0 or n % |d| == 0 (CuTe's
//       "Divisibility condition").
// @post shape congruent to L's.
Layout upcast(const Layout& l, std::int64_t n);

// downcast(L, n): L counted in elements n times narrower. Each leaf mode s:d becomes
//   d the static _1 or _-1:  (s*n):d;   else (a run-time 1 included):  s:(d*n).
// As in CuTe, the contiguous mode is known by its static stride: a run-time 1 is scaled as
// any other stride (CuTe 4.2 prints (2,8):(_1,2) for downcast<2>((1,8):(_1,1)), as the
// model does; corpus/vendor/cute_quirks.txt).
// @pre  n >= 1; integer strides; some stride is the static _1 (CuTe's static assertion
//       "Downcast requires adjacent elements"; a layout with only a run-time 1 is refused).
// @post shape congruent to L's; size(result) == size(L) * n^k, k the number of leaves with
//       stride _1 or _-1: size(L) * n, each element split into n adjacent ones, when _1 is
//       the only one (CuTe scales every such leaf, so (_4,_2):(_1,_1) gives (_8,_4):(_1,_1)).
Layout downcast(const Layout& l, std::int64_t n);

// recast(L, old_bits, new_bits): CuTe's recast_layout<Old, New> for element types of
// old_bits and new_bits bits. With new_bits/old_bits = num/den in lowest terms:
// L if num == den; downcast(L, den) if num == 1; upcast(L, num) if den == 1;
// else downcast(upcast(L, num), den).
// @pre  old_bits >= 1, new_bits >= 1, and the preconditions of the casts applied.
Layout recast(const Layout& l, std::int64_t old_bits, std::int64_t new_bits);

}  // namespace cuteref
