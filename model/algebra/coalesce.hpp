// coalesce, filter_zeros, filter.
#pragma once

#include "int_tuple.hpp"
#include "layout.hpp"

namespace cuteref {

// coalesce(L): merge adjacent modes of the flattened layout where the second's stride is
// the first's shape times stride, and drop size-1 modes.
// @post size(result) == size(L), depth(result) <= 1
// @post result(i) == L(i) for all 0 <= i < size(L)
// A result of one mode is a leaf layout `s:d`; all-size-1 gives `_1:_0`.
// Merging is decided on the run-time values (CuTe C++ merges only static modes and keeps
// dynamic size-1 modes; both are the same function on the domain), on the exact product
// shape * stride: one past int64 is no stride, so (2,2):(2^62,1) keeps both modes (as
// pycute's integers do). A merged shape that overflows is an error.
Layout coalesce(const Layout& l);

// coalesce(L, profile): coalesce each mode of L at the leaves of `profile` (a tuple
// profile recurses into the corresponding modes; modes beyond the profile's rank are kept
// as they are; a leaf profile coalesces the whole sub-layout).
// @post result is weakly congruent to profile (size-1 and merged modes keep their place).
Layout coalesce(const Layout& l, const IntTuple& profile);

// filter_zeros(L): every mode with stride 0 gets shape _1. Keeps the profile.
Layout filter_zeros(const Layout& l);

// filter(L) = coalesce(filter_zeros(L)): the layout of L's distinct offsets' generators,
// with all stride-0 and size-1 modes removed. Preserves the image of L, not its size.
Layout filter(const Layout& l);

}  // namespace cuteref
