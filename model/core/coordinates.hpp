// Coordinates: crd2idx, idx2crd, layout application and slicing, with CuTe's conventions.
#pragma once

#include <cstdint>
#include <utility>

#include "int_tuple.hpp"
#include "layout.hpp"

namespace cuteref {

// crd2idx(coord, shape, stride). `coord` is an integer (expanded colexicographically over
// a tuple mode, the last mode taking the remaining quotient) or a tuple congruent to the
// shape at that level (each element may again be an integer for a tuple mode).
// With scaled-basis strides the result is a coordinate tuple (an arithmetic tuple);
// otherwise an integer leaf. Static iff every participating leaf is static.
IntTuple crd2idx(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride);

// idx2crd(index, shape): the coordinate of an index within shape, colexicographic; the
// last mode of each tuple takes the remaining quotient, as CuTe's idx2crd (so an index
// past size(shape) lands past the last mode's extent). A tuple index must be congruent
// (at that level) with the shape and is split elementwise.
IntTuple idx2crd(const IntTuple& index, const IntTuple& shape);

// L(coord): crd2idx(coord, L.shape, L.stride). Precondition: no underscore in coord.
IntTuple apply(const Layout& l, const IntTuple& coord);
// Fast path for integer strides and an integer index.
std::int64_t apply_index(const Layout& l, std::int64_t index);

// Slicing with `_` (CuTe's slice): keeps the modes the coordinate marks with `_`
// (nested tuples of the coordinate are spliced into the result, as CuTe's filter_tuple),
// and returns also the offset crd2idx of the fixed part. slice() drops the offset, as
// CuTe's Layout::operator() with underscores does.
std::pair<Layout, IntTuple> slice_and_offset(const IntTuple& coord, const Layout& l);
Layout slice(const IntTuple& coord, const Layout& l);

}  // namespace cuteref
