// Evaluation of layout-like values at an index: layouts (integer or scaled-basis strides)
// and composed layouts with an integer offset.
#pragma once

#include <cstdint>

#include "int_tuple.hpp"
#include "value.hpp"

namespace cuteref {

// Size of a layout-like value (layout or composed layout).
std::int64_t layout_like_size(const Value& v);

// v(i) for 0 <= i. Precondition: v is a layout or composed layout.
IntTuple evaluate_at(const Value& v, std::int64_t index);

// The composed layout's function: swizzle(offset + layout(i)) for an integer offset;
// for an smem_ptr[Nb] offset the swizzle acts on byte addresses of N-bit elements (see
// evaluate.cpp).
std::int64_t apply_composed(const ComposedLayout& c, std::int64_t index);

}  // namespace cuteref
