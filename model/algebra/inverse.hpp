// Right and left inverses of a layout, CuTe's right_inverse / left_inverse.
#pragma once

#include "layout.hpp"

namespace cuteref {

// right_inverse_full(L): the largest right inverse along the chain of strides, decided on the
// values: a layout R with L(R(i)) == i on R's domain, which follows the chain of strides
// 1, s*1, ... through L's modes as far as it goes, whether a leaf is static or not.
//
// Let C = coalesce(L) with flat modes s_k:d_k and P_k = s_0*...*s_{k-1}. Visiting the modes in
// increasing stride order (CuTe's exchange-sort order among equal strides), starting with
// c = 1: a mode with d_k == c contributes s_k:P_k and sets c = s_k*d_k; other modes are
// skipped. R = coalesce of the contributions (_1:_0 when none).
// CuTe C++ drops dynamic-stride modes before this (so a dynamic layout inverts to _1:_0; that
// is right_inverse below); this one decides on the values, as for a static layout, and is what
// the model's own constructions use (tiled copies, make_layout_tv, TMA, max_common_*). On a
// fully static layout the two agree. pycute sometimes returns a smaller inverse.
// @pre  L's strides are integers (negative and zero strides are allowed; they never match c).
// @post L(R(i)) == i for 0 <= i < size(R)
// @post composition(L, R) is identical to make_layout(shape(R)) as a function
Layout right_inverse_full(const Layout& l);

// right_inverse(L): CuTe C++'s right_inverse, which follows only what the types decide:
// C = CuTe's coalesce of L (merging two modes only where the shapes and strides involved are
// static, dropping only static _1 shapes); the modes of C with a run-time stride are dropped;
// the rest are visited in CuTe's stride order and the chain starts at the static _1 and goes
// on only while the next stride is static and equal to the product so far (a run-time shape
// ends it); the result is CuTe's coalesce of the modes taken. (4,2):(_1,4) gives 4:_1 (the
// chain stops at the run-time 4), (4,2):(1,4) gives _1:_0, (_4,_2):(_1,_4) gives _8:_1.
// @pre  L's strides are integers.
// @post L(R(i)) == i for 0 <= i < size(R) (each mode taken continues the chain of strides)
// @post composition(L, R) is identical to make_layout(shape(R)) as a function
// @post on a fully static L, R is right_inverse_full(L) as a function
Layout right_inverse(const Layout& l);

// left_inverse(L): a layout R with R(L(i)) == i for every i when L is injective.
//
// With C, P_k as above, let k_1, ..., k_m be the modes of non-zero stride in increasing
// stride order. CuTe's result is coalesce((g_1, ..., g_m, s_{k_m}) : (0, P_{k_1}, ..., P_{k_m}))
// with g_j = d_{k_j} / (g_1*...*g_{j-1}): the first mode (stride 0) absorbs the offsets
// below d_{k_1}, and mode k_j's index P_{k_j} repeats with period g_{j+1}.
// CuTe C++ requires static strides; the model computes on the values.
// @pre  L's strides are integers >= 0.
// @pre  each visited stride d_{k_j} is divisible by g_1*...*g_{j-1} = d_{k_{j-1}} (CuTe's
//       "Left inverse divisibility condition"): each non-zero stride divides the next one.
//       (2,2):(2,5) is injective and refused; compact layouts and their permutations pass.
// @post R(L(i)) == i for 0 <= i < size(L) when L is injective
// CuTe documents L(R(L(i))) == L(i) for every L; its own construction (which the model
// follows) breaks that for some non-injective L: (3,(3,3)):(2,(2,1)) gives (2,3):(9,1),
// and L(5) = 6, R(6) = 3, L(3) = 2 (CuTe C++ 4.2.0 prints the same R).
Layout left_inverse(const Layout& l);

}  // namespace cuteref
