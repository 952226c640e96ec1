// Right and left inverses of a layout, CuTe's right_inverse / left_inverse.
#pragma once

#include "layout.hpp"

namespace cuteref {

// right_inverse(L): the largest compact-from-0 layout R with L(R(i)) == i.
//
// Let C = coalesce(L) with flat modes s_k:d_k and P_k = s_0*...*s_{k-1}. Visiting the modes in
// increasing stride order (CuTe's exchange-sort order among equal strides), starting with
// c = 1: a mode with d_k == c contributes s_k:P_k and sets c = s_k*d_k; other modes are
// skipped. R = coalesce of the contributions (_1:_0 when none).
// CuTe C++ drops dynamic-stride modes before this (so a dynamic layout inverts to _1:_0);
// the model decides on the values, as for a static layout. pycute sometimes returns a
// smaller inverse; CuTe C++ is the reference.
// @pre  L's strides are integers (negative and zero strides are allowed; they never match c).
// @post L(R(i)) == i for 0 <= i < size(R)
// @post composition(L, R) is identical to make_layout(shape(R)) as a function
Layout right_inverse(const Layout& l);

// left_inverse(L): a layout R with R(L(i)) == i for every i when L is injective (a
// quasi-inverse otherwise: L(R(L(i))) == L(i)).
//
// With C, P_k as above, let k_1, ..., k_m be the modes of non-zero stride in increasing
// stride order. CuTe's result is coalesce((g_1, ..., g_m, s_{k_m}) : (0, P_{k_1}, ..., P_{k_m}))
// with g_j = d_{k_j} / (g_1*...*g_{j-1}): the first mode (stride 0) absorbs the offsets
// below d_{k_1}, and mode k_j's index P_{k_j} repeats with period g_{j+1}.
// CuTe C++ requires static strides; the model computes on the values.
// @pre  L's strides are integers >= 0.
// @pre  each visited stride d_{k_j} is divisible by g_1*...*g_{j-1} (CuTe's "Left inverse
//       divisibility condition"); for injective L of non-interleaved modes this holds.
// @post R(L(i)) == i for 0 <= i < size(L) when L is injective and non-interleaved
// @post L(R(L(i))) == L(i) for 0 <= i < size(L)
Layout left_inverse(const Layout& l);

}  // namespace cuteref
