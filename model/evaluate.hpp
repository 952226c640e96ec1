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

// The composed layout's function.
// - integer (or no) offset: i -> swizzle(offset + layout(i)), all in the layout's units;
// - CuTe's `smem_ptr[Nb](unset)` flag (the GMMA atoms, see atoms/gmma_smem_atom.hpp): the
//   composed layout stands for a tensor of N-bit elements at a shared-memory pointer aligned
//   to the swizzle's period, and the swizzle acts on the byte address of each element:
//   i -> swizzle(layout(i) * N / 8) * 8 / N, computed on bit addresses so N < 8 works too
//   (apply_smem_ptr_composed).
std::int64_t apply_composed(const ComposedLayout& c, std::int64_t index);

// The smem_ptr case of apply_composed.
// Precondition (checked): N is a power of two no wider than the units the swizzle permutes
// (N <= 2^(M+3) for Sw<B,M,S>), and layout(i) >= 0.
std::int64_t apply_smem_ptr_composed(const ComposedLayout& c, std::int64_t index);

}  // namespace cuteref
