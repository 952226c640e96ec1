// Evaluation of layout-like values at an index: layouts (integer or scaled-basis strides)
// composed layouts with an integer offset, and F2 layouts (model/f2).
#pragma once

#include <cstdint>

#include "int_tuple.hpp"
#include "value.hpp"

namespace cuteref {

// Size of a layout-like value (layout, composed layout or F2 layout).
std::int64_t layout_like_size(const Value& v);

// v(i) for 0 <= i. Precondition: v is a layout, composed layout or F2 layout.
IntTuple evaluate_at(const Value& v, std::int64_t index);

// The composed layout's function: swizzle(offset + layout(i)) for an integer offset;
// for an smem_ptr[Nb] offset the swizzle acts on byte addresses of N-bit elements (see
// evaluate.cpp).
std::int64_t apply_composed(const ComposedLayout& c, std::int64_t index);

}  // namespace cuteref
