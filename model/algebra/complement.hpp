// The complement of a layout, CuTe's complement(A, cotarget).
#pragma once

#include "int_tuple.hpp"
#include "flat_coalesce.hpp"
#include "inline_flat_ints.hpp"
#include "layout.hpp"

namespace cuteref {

// complement(A, M): the layout R that, together with A, covers the codomain [0, M) without
// collisions: R generates the "holes" between A's modes and the repetitions of A past its
// cosize.
//
// Let F = filter(A) (stride-0 and size-1 modes dropped, modes merged), its modes sorted by
// stride d_0 <= d_1 <= ... (ties keep their order), E_0 = 1 and E_{k+1} = s_k * d_k the
// extent reached after mode k. Then R = coalesce((d_0/E_0, ..., d_k/E_k, ..., rest) :
// (E_0, ..., E_k, ..., E_last)) with rest = product of CuTe's ceil_div(M, E_last) (M may be
// a shape tuple: its elements absorb the divisor left to right).
//
// Works for any rank and for dynamic strides (CuTe C++ refuses dynamic strides at rank > 1).
// Like CuTe, a stride d_k not divisible by E_k rounds d_k/E_k down: R then fills only part of
// the gap, and is still disjoint from A.
// @pre  A's strides are integers >= 0 (stride-0 modes are ignored, as CuTe's filter does).
// @pre  after sorting, d_k >= E_k for every k: A is injective and its modes do not
//       interleave (CuTe: "Non-injective Layout detected in complement"). E.g.
//       (2,2):(1,1) is not injective; (2,3):(3,2) is injective but interleaved.
// @pre  M's leaves are integers >= 1.
// @post R(i) < R(i+1) for i + 1 < size(R) (R is strictly increasing)
// @post R(i) != A(j) for 1 <= i < size(R), 0 <= j < size(A); (A, R) is injective
// @post when every d_k is divisible by E_k: (F, R) is a bijection from its domain onto
//       [0, size(F) * size(R)), and size(F) * size(R) >= size(M).
// @post R is coalesced (depth <= 1); no stride-0 modes.
Layout complement(const Layout& a, const IntTuple& cotarget);

// complement(A) = complement(A, cosize(filter(A))): only the holes inside A's codomain.
Layout complement(const Layout& a);

// complement(A, M) as the flat modes of its result (R is coalesced, so they are its leaves):
// for callers that compose with R next (divide, product) without building R's tuples.
// @post out.layout() == complement(A, M); the same checks and diagnostics.
void complement_flat(const Layout& a, const IntTuple& cotarget, FlatModesOfInts& out);

// complement_flat(A, S) for the shape S whose leaves, left to right, are cot[0..n_cot) (a
// leaf when n_cot == 1, else a flat tuple): for callers that hold the leaves already (divide).
void complement_flat_of_shape_leaves(const Layout& a, const FlatInt* cot, std::size_t n_cot, FlatModesOfInts& out);

// complement_flat(A, M) for an integer M, from A's flattened modes (flat_int_modes(A, a_modes))
// for callers that flattened A already (product); A only for diagnostics.
void complement_flat_of_modes(const Layout& a, const FlatModesOfInts& a_modes, FlatInt cotarget,
                              FlatModesOfInts& out);

// The first with the modes in place (inline_flat_ints.hpp) and A's leaves read from its form,
// for callers whose operands are held as their forms and leave room (divide, product): the
// same results, checks and diagnostics.
// @pre a.leaves() != nullptr and a.leaves()->n + n_cot <= kInlineLeaves.
void complement_flat_of_shape_leaves(const Layout& a, const FlatInt* cot, std::size_t n_cot, InlineFlatModes& out);

}  // namespace cuteref
