// coalesce and filter on flattened modes: the same results as coalesce.hpp's, for callers
// that hold (or can cheaply produce) the flat modes, without building the intermediate
// layouts (the algebra's hot paths: complement).
#pragma once

#include "layout.hpp"
#include "flat_int.hpp"
#include "layout_writer.hpp"
#include "leaf_arith.hpp"

namespace cuteref {

// flat_modes(filter(L)): L's flattened modes with stride-0 and size-1 modes dropped and
// adjacent modes merged where the second's stride is the first's shape times stride; the
// single mode _1:_0 when nothing is left.
// @post equal (static flags included) to flat_modes of filter(L)'s shape and stride.
FlatModes filtered_flat_modes(const Layout& l);

// coalesce of the flat layout (m.shapes[0], m.shapes[1], ...):(m.strides[0], ...).
// @pre m.shapes and m.strides have the same length and hold leaves (integer shapes >= 1,
//      integer or scaled-basis strides).
// @post equal to coalesce(Layout(tuple(m.shapes), tuple(m.strides))).
Layout coalesce_flat(FlatModes m);

// The same on integer leaves as plain values (flat_int.hpp). Also a flat layout of integer
// leaves held as its modes (the algebra hands complement's result to composition this way):
// shapes[i]:strides[i], one mode standing for a leaf layout, several for a flat tuple.
struct FlatModesOfInts {
  FlatInts shapes;
  FlatInts strides;
  // The layout these modes stand for.
  // @pre shapes.size() == strides.size() >= 1, shapes >= 1 (not re-checked).
  Layout layout() const;
};

// l's flattened modes on plain values (m emptied first). Returns false (m unspecified) when
// l has a scaled-basis stride.
// Inline: the drivers' gnu::flatten inlines it only where its body is visible.
inline bool flat_int_modes(const Layout& l, FlatModesOfInts& m) {
  m.shapes.clear();
  m.strides.clear();
  return append_layout_leaves(l, m.shapes, m.strides);
}

// filtered_flat_modes on plain values, from l's flattened modes (flat_int_modes(l, m)), in
// place. @post m equal, leaf for leaf, to filtered_flat_modes(l).
void filter_flat_ints_in_place(FlatModesOfInts& m);

// coalesce_flat on plain values, in place: @post shapes/strides are the flat modes of
// coalesce_flat's result (the one mode _1:_0 when every mode has size 1).
// @pre same sizes, integer shapes >= 1.
void coalesce_flat_ints_in_place(FlatInts& shapes, FlatInts& strides);

// coalesce_flat on plain values; shapes and strides are coalesced in place.
// @pre same sizes, integer shapes >= 1.
Layout coalesce_flat_ints(FlatInts& shapes, FlatInts& strides);

}  // namespace cuteref
