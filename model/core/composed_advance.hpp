// Moving the origin of a composed layout: the one rule every operation that slices or
// partitions a swizzled layout follows (partition_A/B/C, slice_and_offset, mode selection).
//
// For a plain layout, CuTe moves a slice's offset into the tensor's pointer and the layout it
// prints has none. A composed layout Sw o O o L cannot do that: the swizzle acts on the sum
// O + L(x), so CuTe's ComposedLayout keeps the slice's offset inside the layout
// (layout_composed.hpp: ComposedLayout{layout_a, offset + slice_offset, slice}). The function of
// the result is x -> Sw(O + advance + inner(x)).
#pragma once

#include <cstdint>

#include "swizzle.hpp"

namespace cuteref {

// c with its inner layout replaced by `inner` and its offset advanced by `advance` elements.
// - advance == 0: the offset is kept as it is (none, an integer, or the smem_ptr token), so a
//   GMMA layout `Sw o smem_ptr[Nb](unset) o L` stays one.
// - an integer or absent offset: the new offset is O + advance (overflow-checked), dynamic.
// - the smem_ptr[Nb] token (a swizzle on byte addresses of N-bit elements): the token stands for
//   an aligned base the model does not know, so a non-zero advance cannot be added to it; the
//   result is the same function with the swizzle moved to element units,
//   Sw<B, M+3-log2(N), S> o advance o inner (CuTe's as_position_independent_swizzle_layout).
//   Precondition (checked): N is a power of two no wider than 2^(M+3) bits, i.e. the swizzle
//   moves whole elements.
ComposedLayout advance_composed(const ComposedLayout& c, Layout inner, std::int64_t advance);

}  // namespace cuteref
