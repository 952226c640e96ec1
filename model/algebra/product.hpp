// The product family: logical_product, zipped_product, tiled_product, flat_product, and
// the rank-sensitive blocked_product and raked_product.
//
// The product of a block A and a tiler B repeats A: mode 0 of the result is A, the other
// modes place the copies, laid out as B over A's complement (the offsets A does not reach).
// Tilers for the logical/zipped/tiled/flat forms are as in tiler.hpp; blocked_product and
// raked_product take two layouts, as in CuTe.
//
// Every diagnostic of the underlying complement/composition is reported with the product
// that needed it and its operands.
#pragma once

#include "layout.hpp"
#include "swizzle.hpp"
#include "value.hpp"

namespace cuteref {

// logical_product(A, B) for a layout B:
//   logical_product(A, B) = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))
// @pre A's filtered layout is injective (complement's precondition); B has integer strides
// @pre composition(complement(...), B) satisfies composition's divisibility conditions
// @post rank(result) == 2, mode 0 == A (the same shape and stride), shape(mode 1) is
//       congruent to shape(B) (as composition's result is), size(result) == size(A)*size(B)
// @post result(i, j) == A(i) + A*(B(j)) with A* = complement(A, size(A)*cosize(B)): every
//       copy of A is shifted by an offset A does not reach. E.g.
//       logical_product(128:1, 4:32) == (128,4):(1,4096) (A* = 97:128, so B's step 32
//       becomes 32*128) and logical_product(128:1, 4:1) == (128,4):(1,128).
Layout logical_product(const Layout& a, const Layout& tiler);

// logical_product(A, tiler) for any tiler (see tiler.hpp): the layout form applied by mode.
// @pre at every tuple level rank(tiler) <= rank of the corresponding mode of A
// @post for a tuple tiler (t0,..,tk-1): mode i of the result is logical_product(mode(A,i), ti)
//       for i < k, and mode(A,i) for i >= k. Each mode is a product on its own: the copies
//       of different modes may overlap (CuTe's by-mode product is not injective in general,
//       e.g. logical_product((8,6):(1,8), (2,3)) == ((8,2),(6,3)):((1,8),(8,1))).
Layout logical_product(const Layout& a, const Value& tiler);

// zipped_product(A, tiler): logical_product regrouped into ((blocks...), (copies..., kept...)).
// @post rank(result) == 2; for a layout or integer tiler, result == logical_product(A, tiler);
//       for a tuple tiler, logical_product's modes regrouped (tiler.hpp's tile_unzip)
Layout zipped_product(const Layout& a, const Value& tiler);

// tiled_product(A, tiler): zipped_product with mode 1 unpacked: ((blocks...), c0, c1, ...).
// @post the same function of the 1-D index as zipped_product(A, tiler)
Layout tiled_product(const Layout& a, const Value& tiler);

// flat_product(A, tiler): zipped_product with both modes unpacked: (b0, b1, ..., c0, c1, ...).
// @post the same function of the 1-D index as zipped_product(A, tiler)
Layout flat_product(const Layout& a, const Value& tiler);

// blocked_product(A, B): B's elements become blocks of A. With R = max(rank(A), rank(B)),
// both are padded to rank R with _1:_0 modes, P = logical_product(A', B') (layout form), and
//   blocked_product(A, B) = ((A'0, P1_0), (A'1, P1_1), ..., (A'R-1, P1_R-1))
// where P1_i is mode i of mode 1 of P (all of mode 1 when B' is a single leaf mode).
// @pre as logical_product(A', B')
// @post rank(result) == R; size(result) == size(A) * size(B); mode i has size
//       size(mode(A',i)) * size(mode(B',i)); the image is the image of logical_product(A', B')
// For rank 1 the result is the rank-1 layout ((A, P1)); where P1 has a tuple shape and A a
// leaf one (e.g. blocked_product(2:2, 4:1)), CuTe C++ fails to compile (a rank mismatch
// in its zip), and the model returns ((2,(2,2))):((2,(1,4))), the same regrouping.
Layout blocked_product(const Layout& a, const Layout& b);

// raked_product(A, B): as blocked_product with each mode's pair swapped, so the copies of A
// are interleaved (raked) rather than contiguous blocks:
//   raked_product(A, B) = ((P1_0, A'0), (P1_1, A'1), ..., (P1_R-1, A'R-1))
// @post rank(result) == R; size and image as blocked_product(A, B); mode i of the result is
//       mode i of blocked_product(A, B) with its two sub-modes swapped
Layout raked_product(const Layout& a, const Layout& b);

// The products of a composed layout S o O o L multiply L and keep S and O, as CuTe does.
ComposedLayout logical_product(const ComposedLayout& a, const Value& tiler);
ComposedLayout zipped_product(const ComposedLayout& a, const Value& tiler);
ComposedLayout tiled_product(const ComposedLayout& a, const Value& tiler);
ComposedLayout flat_product(const ComposedLayout& a, const Value& tiler);
ComposedLayout blocked_product(const ComposedLayout& a, const Layout& b);
ComposedLayout raked_product(const ComposedLayout& a, const Layout& b);

// Pads a layout to rank r with trailing _1:_0 modes (CuTe's append<r>); a layout of rank
// >= r is returned as it is (a leaf layout stays a leaf).
Layout append_to_rank(const Layout& l, std::size_t r);

}  // namespace cuteref
