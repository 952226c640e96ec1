// Layout constructors: compact column-major (CuTe's default, LayoutLeft), compact
// row-major (LayoutRight), and make_ordered_layout.
#pragma once

#include "int_tuple.hpp"
#include "layout.hpp"

namespace cuteref {

// make_layout(shape): compact column-major strides, the exclusive prefix product of the
// shape leaves in colexicographic order, starting at static _1.
// Precondition: integer shape leaves >= 1.
Layout make_layout(const IntTuple& shape);

// make_layout(shape, LayoutRight{}): compact row-major, the exclusive suffix product; the
// last leaf has stride _1.
Layout make_layout_right(const IntTuple& shape);

// make_ordered_layout(shape, order): compact strides where the sub-shapes named by the
// leaves of `order` (order is weakly congruent to shape: an order leaf stands for a whole
// sub-shape) are laid out in increasing order value, each sub-shape column-major within.
// Order values are compared as integers whether static or dynamic (CuTe C++ instead puts
// dynamic order values after all static ones, in position order).
// Precondition: the order values are distinct, except among sub-shapes of one element (which
// CuTe's make_fragment_like passes for the stride-0 modes of a partition; they take the same
// starting stride, as in CuTe, and alias nothing).
Layout make_ordered_layout(const IntTuple& shape, const IntTuple& order);

// Compact column-major strides for `shape` starting from `start` (CuTe's compact_col_major).
IntTuple compact_col_major(const IntTuple& shape, const IntTuple& start);

}  // namespace cuteref
