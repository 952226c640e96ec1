// Functional composition of layouts, CuTe's composition(A, B) = A o B.
#pragma once

#include "flat_coalesce.hpp"
#include "inline_flat_ints.hpp"
#include "layout.hpp"
#include "swizzle.hpp"
#include "value.hpp"

namespace cuteref {

// composition(A, B): the layout R with R(c) = A(B(c)).
//
// A is read as CuTe reads it: as a function of a 1-D index whose last (flattened) mode
// takes the whole remaining quotient, so B may reach past size(A) (composition(8:2, 16:1)
// is 16:2). B's integer strides may be zero or negative (a negative index is split with
// C++'s truncating / and %, as CuTe's crd2idx does). A's strides may be scaled bases
// (the result's strides are then bases). A scaled-basis stride k@i in B composes k:1-style
// into mode i of A (CuTe's basis_get).
//
// @pre  B's strides are all integers, or all (non-zero ones) scaled bases.
// @pre  For each leaf mode m:d of B (d != 0), walking the flattened modes (s_0:t_0) ...
//       (s_{R-1}:t_{R-1}) of coalesce(A) except the last, with rest stride r = |d| and
//       rest shape n = m (r and n are updated as A's modes are consumed):
//         - stride divisibility (CuTe's "Stride Divisibility Condition"):
//             r % s_i == 0 or r < s_i;
//         - exactness (not checked by CuTe, whose result is then not A o B):
//             if r < s_i and n > ceil(s_i / r), then s_i % r == 0;
//         - shape divisibility (CuTe's "Shape Divisibility Condition"):
//             n % min(ceil(s_i / r), n) == 0.
//       CuTe checks the first and last only where both operands are static; the model
//       checks them on the values, always.
// @pre  no carry (not checked by CuTe): CuTe composes each leaf mode of B separately and
//       adds the results, which is A o B only if A is additive on B's leaves. When coalesce(A)
//       has several modes, the model requires, per mode i of A (but the last), that the largest
//       digits that B's leaves of one stride sign reach in mode i sum to less than s_i; and,
//       if B has leaves (of size > 1) of both signs, that all leaves stay within one mode of A.
//       E.g. (2,8):(1,10) o (2,2):(1,1) is refused: B(3) = 2 and A(2) = 10, while CuTe's
//       (2,2):(1,1) gives 2.
// @post R's shape is congruent to B's where B's leaf modes compose to leaves; a leaf mode
//       of B that spans several modes of A becomes a tuple mode (weakly congruent).
// @post R(c) == A(B(c)) for every coordinate c of B.
// @post size(R) == size(B).
// Errors name the violated condition, A, B, and the mode of A where it failed.
Layout composition(const Layout& a, const Layout& b);
// composition(A, make_layout_from_modes({B0, B1})), without building the pair (divide's
// A o (T, complement)): the same result, checks and diagnostics.
Layout composition_of_pair(const Layout& a, const Layout& b0, const Layout& b1);
// The same with B1 given by its flat integer modes (complement_flat's result, for divide).
// @post equal to composition_of_pair(a, b0, b1.layout()), checks and diagnostics included.
Layout composition_of_pair(const Layout& a, const Layout& b0, const FlatModesOfInts& b1);
// The same with A's flattened modes given too (flat_int_modes(a, a_modes), consumed), for
// divide, which flattened A already.
Layout composition_of_pair(const Layout& a, FlatModesOfInts&& a_modes, const Layout& b0, const FlatModesOfInts& b1);
// composition(A, B) with A given by the flat integer modes of a coalesced layout
// (complement_flat's result, for product), without re-flattening A.
// @pre coalesce(a.layout()) == a.layout() (so its coalesce_x keeps the modes).
// @post equal to composition(a.layout(), b), checks and diagnostics included.
Layout composition_of_flat(FlatModesOfInts&& a, const Layout& b);
// The last two with the modes held in place (inline_flat_ints.hpp), for callers whose
// operands are held as their forms: the same results, checks and diagnostics. Here
// composition_of_pair reads A from its form and a_modes is only its working storage.
// @pre (composition_of_pair) a.leaves() != nullptr.
Layout composition_of_pair(const Layout& a, InlineFlatModes&& a_modes, const Layout& b0, const InlineFlatModes& b1);
Layout composition_of_flat(InlineFlatModes&& a, const Layout& b);
// make_layout_from_modes(m0, composition_of_flat(a, b)), step for step: the same result,
// checks and diagnostics. Where m0 and b are held as their forms, the composition's leaves
// are written after m0's into the pair's own form (no layout of the composition is made and
// copied): logical_product's (A, copies).
Layout pair_with_composition_of_flat(const Layout& m0, InlineFlatModes&& a, const Layout& b);

// composition(A, tiler): CuTe's composition with a Tiler.
//   - a layout: composition(A, layout);
//   - an integer n: composition(A, n:_1);
//   - `_`: A unchanged;
//   - a tuple (an integer tuple, or a mixed tuple of layouts, integers, `_` and nested
//     tuples): by mode, mode i of A composed with element i; the modes of A past the
//     tiler's rank are dropped, as CuTe 4.2 does; the result has rank(tiler) modes.
// @pre rank(tiler) <= rank(A) for a tuple tiler.
Layout composition(const Layout& a, const Value& tiler);

// composition(S o O o L, B) = S o O o composition(L, B): the swizzle and offset stay
// outside, B composes with the inner layout (CuTe's ComposedLayout composition).
ComposedLayout composition(const ComposedLayout& a, const Layout& b);
ComposedLayout composition(const ComposedLayout& a, const Value& tiler);

}  // namespace cuteref
