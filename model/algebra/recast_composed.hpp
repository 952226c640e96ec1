// Changing the element width of a composed layout S o O o L: CuTe's upcast<N>, downcast<N>
// and recast_layout<Old, New> of a ComposedLayout (layout_composed.hpp, swizzle_layout.hpp,
// pointer_flagged.hpp), which the CuTe DSL's recast_layout follows too.
#pragma once

#include <cstdint>

#include "swizzle.hpp"

namespace cuteref {

// upcast(S o O o L, n): n elements become one.
//  - integer offset (the swizzle acts on element offsets): the swizzle moves down with the
//    unit, Sw<B,M,S> -> Sw<B, M - log2 n, S> (Sw<max(B + M - log2 n, 0), 0, S> once M runs
//    out), the offset becomes O / n, L becomes upcast(L, n);
//  - smem_ptr[b] offset (the swizzle acts on the pointer's addresses): the swizzle stays,
//    the token becomes smem_ptr[b*n], L becomes upcast(L, n).
// @pre n >= 1; with an integer offset n is a power of two (CuTe's static assertion
//      "N must be a power of two") and divides O (CuTe's safe_div); upcast(L, n)'s own.
ComposedLayout upcast(const ComposedLayout& c, std::int64_t n);

// downcast(S o O o L, n): one element becomes n.
//  - integer offset: Sw<B,M,S> -> Sw<B, M + log2 n, S>, O -> O * n, L -> downcast(L, n);
//  - smem_ptr[b] offset: the swizzle stays, smem_ptr[b / n], L -> downcast(L, n).
// @pre n >= 1; with an integer offset n is a power of two; with smem_ptr[b], n divides b;
//      downcast(L, n)'s own (a static _1 stride).
ComposedLayout downcast(const ComposedLayout& c, std::int64_t n);

// recast(S o O o L, old_bits, new_bits): as recast of a layout (recast.hpp), with the casts
// above: new/old = num/den in lowest terms; upcast by num, then downcast by den.
ComposedLayout recast(const ComposedLayout& c, std::int64_t old_bits, std::int64_t new_bits);

}  // namespace cuteref
