// Slicing a composed layout S o O o L (CuTe's slice_and_offset of a ComposedLayout,
// cute/layout_composed.hpp): the offset of the fixed coordinates moves inside the swizzle.
#pragma once

#include <utility>

#include "swizzle.hpp"

namespace cuteref {

// slice_and_offset(coord, S o O o L) = (S o (O + off) o slice, _0) with (slice, off) =
// slice_and_offset(coord, L): the swizzle acts on the whole offset, so the fixed part's
// offset cannot leave it. @post result(i) == (S o O o L)(coord with the `_` modes at i).
// CuTe's Swizzle specialization (and the CuTe DSL) may instead fold the swizzle into the
// strides where it is linear on the slice and return a plain layout with a non-zero offset:
// the same sum layout(i) + offset (corpus/vendor/dsl_disagreements.txt 6).
// The offset moves as every origin move of a composed layout does (composed_advance.hpp: behind
// an smem_ptr token a non-zero offset moves the swizzle to element units).
// @pre the offset of the fixed coordinates is an integer; coord's preconditions for L.
std::pair<ComposedLayout, IntTuple> slice_and_offset(const IntTuple& coord, const ComposedLayout& c);

}  // namespace cuteref
