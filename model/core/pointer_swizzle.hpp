// The swizzle of `Sw<B,M,S> o smem_ptr[Nb] o L` on element offsets. CuTe applies the swizzle of
// an smem pointer to the byte address (swizzle_ptr::apply_swizzle); on N-bit elements, N = 2^n,
// aligned to their width, the byte address of element e is e * N / 8. The swizzle then acts on e
// as CuTe's upcast<N/8> of the swizzle (as_position_independent_swizzle_layout) does: each pair
// (source bit, target bit) of byte-address bits moves down by n - 3; a pair whose two bits lie
// inside the element (below bit n - 3) drops out, its source bit is always 0. A pair whose
// target bit lies inside the element and whose source bit does not would move an element off its
// alignment: such a swizzle is not a permutation of elements, and is refused.
#pragma once

#include "swizzle.hpp"

namespace cuteref {

// The swizzle on element offsets equal to `sw` on the byte addresses of `element_bits`-bit
// elements: Sw<B, M + 3 - n, S> when that base is >= 0, else Sw<max(B + M + 3 - n, 0), 0, S>.
// Preconditions (checked, Error saying which): element_bits is a power of two; no pair of `sw`
// has its target bit below n - 3 and its source bit at or above it (only possible for S > 0).
// E.g. Sw<3,4,3> on 16-bit elements is Sw<3,3,3>; Sw<1,1,1> on 128-bit elements is the identity
// (bits 2 into 1 of 16-byte-aligned addresses); Sw<3,4,3> on 256-bit elements is refused.
Swizzle element_swizzle(const Swizzle& sw, int element_bits);

}  // namespace cuteref
