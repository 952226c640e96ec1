// The divide family: logical_divide, zipped_divide, tiled_divide, flat_divide.
//
// Dividing a layout A by a tiler T splits A's domain into tiles: mode 0 of the result
// enumerates one tile (A o T), the remaining modes enumerate the tiles (A o T*, where T*
// is T's complement within A's coalesced shape). Tilers are as in tiler.hpp: a layout, an
// integer n (the layout n:_1), `_` (no division), or a tuple of tilers applied by mode,
// with A's modes beyond the tuple's rank kept as they are.
//
// Every diagnostic of the underlying complement/composition is reported with the divide
// that needed it and its operands.
#pragma once

#include "layout.hpp"
#include "swizzle.hpp"
#include "value.hpp"

namespace cuteref {

// logical_divide(A, T) for a layout tiler T:
//   logical_divide(A, T) = composition(A, make_layout(T, complement(T, shape(coalesce(A)))))
// @pre T is injective (complement's precondition), and the composition satisfies
//      composition's divisibility conditions (T's strides and sizes must step through
//      A's coalesced modes evenly)
// @post rank(result) == 2; mode 0 == A o T and mode 1 == A o T* (shaped as composition
//       shapes them: like T and T*, where a leaf mode spanning several modes of A becomes a
//       tuple); result(i, j) == A(T(i) + T*(j))
// @post size(result) == size(T) * size(T*), which is size(A) when T's extent divides A's
//       coalesced shape evenly (e.g. T = n:1 with n dividing size(A) for a compact A).
//       Otherwise the result, like CuTe's, is not a partition of A's domain: complement
//       rounds the number of tiles up (ceil_div) and rounds holes of T that its extent
//       does not divide down, so the result may evaluate A's formula beyond A's domain
//       or leave part of A out. CuTe C++ gives exactly these:
//         logical_divide(6:1, 4:1) == (4,2):(1,4)                 size 8 > 6: offsets 6, 7 lie past A
//         logical_divide(5:1, (2,2):(1,3)) == ((2,2),1):((1,3),0)  size 4 < 5: A(2) is left out
//       Where CuTe returns a layout that is not A o (T, T*) (composition's "no carry"
//       condition, which CuTe does not check, fails), the model rejects the divide: e.g.
//       logical_divide((3,2):(1,4), 2:2), where CuTe gives (2,2):(2,1), whose value 3 at
//       index 3 is not A(3) = 4.
Layout logical_divide(const Layout& a, const Layout& tiler);

// logical_divide(A, tiler) for any tiler (see tiler.hpp): the layout form applied by mode.
// @pre at every tuple level rank(tiler) <= rank of the corresponding mode of A
// @post for a tuple tiler (t0,..,tk-1): mode i of the result is logical_divide(mode(A,i), ti)
//       for i < k, and mode(A,i) for i >= k
Layout logical_divide(const Layout& a, const Value& tiler);

// zipped_divide(A, tiler): logical_divide regrouped into ((tiles...), (rests..., kept modes...)).
//   zipped_divide((M,N,L), (BM,BN)) has shape ((BM,BN), (M/BM, N/BN, L)).
// @pre as logical_divide
// @post rank(result) == 2; for a layout or integer tiler, result == logical_divide(A, tiler)
//       (no regrouping); for a tuple tiler, the same modes as logical_divide(A, tiler)
//       regrouped (tiler.hpp's tile_unzip)
Layout zipped_divide(const Layout& a, const Value& tiler);

// tiled_divide(A, tiler): zipped_divide with mode 1 unpacked: ((tiles...), rest0, rest1, ...).
// @post rank(result) == 1 + rank(mode 1 of zipped_divide(A, tiler)); the same function of the
//       1-D index as zipped_divide(A, tiler)
Layout tiled_divide(const Layout& a, const Value& tiler);

// flat_divide(A, tiler): zipped_divide with both modes unpacked: (tile0, tile1, ..., rest0, ...).
// @post the same function of the 1-D index as zipped_divide(A, tiler)
Layout flat_divide(const Layout& a, const Value& tiler);

// The divides of a composed layout S o O o L (swizzle, offset, layout) divide L and keep
// S and O, as CuTe does: X_divide(S o O o L, tiler) == S o O o X_divide(L, tiler).
ComposedLayout logical_divide(const ComposedLayout& a, const Value& tiler);
ComposedLayout zipped_divide(const ComposedLayout& a, const Value& tiler);
ComposedLayout tiled_divide(const ComposedLayout& a, const Value& tiler);
ComposedLayout flat_divide(const ComposedLayout& a, const Value& tiler);

}  // namespace cuteref
