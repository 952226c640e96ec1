// coalesce_z(L): PyCuTe's coalesce that keeps a trailing size-1 mode (pycute.coalesce_z), so
// that the layout is preserved as a function of every index, also past its size.
#pragma once

#include "int_tuple.hpp"
#include "layout.hpp"

namespace cuteref {

// A layout is evaluated past its size by letting the last flat mode's coordinate run on
// (idx2crd keeps the whole quotient in the last leaf): (2,1):(1,7)(4) = 0*1 + 2*7 = 14.
// coalesce drops the trailing 1:7 and changes that value (2:1 gives 4); coalesce_z keeps it.
//
// Over the flattened modes, left to right: before a mode is appended, trailing size-1 modes of
// the result are dropped; then it merges into the last mode s:d when its stride is s*d (shape
// s*s', stride d), else it is appended. One mode is a leaf; the empty shape () gives _1:_0.
// Merging is decided on the values, as the model's coalesce does (CuTe C++'s coalesce_x
// preserves the same function but prints the trailing mode as _2:d).
// @post size(result) == size(L); depth(result) <= 1
// @post result(i) == L(i) for every i >= 0, the extension past size(L) included
// @post coalesce(result) == coalesce(L)
Layout coalesce_z(const Layout& l);

// coalesce_z(L, profile): by mode, as coalesce(L, profile): a tuple profile recurses into the
// modes it names (the others are kept), a leaf profile coalesces that whole sub-layout.
// @pre rank(profile) <= rank(L) where profile is a tuple.
Layout coalesce_z(const Layout& l, const IntTuple& profile);

}  // namespace cuteref
