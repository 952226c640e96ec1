// The one definition of logical_product's layout form, generic over the layout
// representation (the model's Layout in product.cpp; symbolic layouts in the proofs):
//   logical_product(A, B) = (A, composition(complement(A, size(A) * cosize(B)), B))
// The copies of A are placed among the offsets A leaves free, up to size(A) * cosize(B):
// enough room for B's largest offset scaled by A's extent.
// Ops: free_offsets(A, B) (complement(A, size(A) * cosize(B))), composition(R, B),
//      pair(A, C) (the layout with modes A and C); optionally pair_with_composition(A, R, B),
//      which is pair(A, composition(R, B)) step for step, for a representation that writes
//      the composition into the pair in place (the model's layouts held as their forms).
//
// Also the glue of blocked_product / raked_product and tile_to_shape (append_to_rank_layout,
// zip_block_and_copies, tile_copies), for the model's Layout and the proofs' symbolic layouts.
// Layout ops: rank(L), mode(L, i) (a leaf layout is its own mode 0), is_leaf(L),
// unit_mode() (_1:_0), from_modes(std::vector<L>), logical_product(A, B).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "leaf_ops.hpp"

namespace cuteref {

template <class LayoutT, class Ops>
LayoutT logical_product_layout(const LayoutT& a, const LayoutT& tiler, const Ops& ops) {
  if constexpr (requires { ops.pair_with_composition(a, ops.free_offsets(a, tiler), tiler); })
    return ops.pair_with_composition(a, ops.free_offsets(a, tiler), tiler);
  else
    return ops.pair(a, ops.composition(ops.free_offsets(a, tiler), tiler));
}

// l with _1:_0 modes appended up to rank r (l itself when its rank is >= r).
template <class LayoutT, class Ops>
LayoutT append_to_rank_layout(const LayoutT& l, std::size_t r, const Ops& ops) {
  if (ops.rank(l) >= r) return l;
  std::vector<LayoutT> modes;
  modes.reserve(r);
  for (std::size_t i = 0; i < ops.rank(l); ++i) modes.push_back(ops.mode(l, i));
  while (modes.size() < r) modes.push_back(ops.unit_mode());
  return ops.from_modes(modes);
}

// blocked_product (block_first) and raked_product: A and B padded to one rank r, and mode i
// of the result pairs mode i of the padded block with the copies of mode i of the padded
// tiler (mode 1 of their logical_product), in the order asked for.
template <class LayoutT, class Ops>
LayoutT zip_block_and_copies(const LayoutT& a, const LayoutT& b, bool block_first, const Ops& ops) {
  const std::size_t r = std::max(ops.rank(a), ops.rank(b));
  const LayoutT block = append_to_rank_layout(a, r, ops);
  const LayoutT tiler = append_to_rank_layout(b, r, ops);
  const LayoutT copies = ops.mode(ops.logical_product(block, tiler), 1);
  std::vector<LayoutT> modes;
  modes.reserve(r);
  for (std::size_t i = 0; i < r; ++i) {
    // composition's result is congruent to the tiler: a leaf tiler is one mode whatever
    // shape the composition gave it.
    const LayoutT c = ops.is_leaf(tiler) ? copies : ops.mode(copies, i);
    const LayoutT m = ops.mode(block, i);
    modes.push_back(block_first ? ops.from_modes({m, c}) : ops.from_modes({c, m}));
  }
  return ops.from_modes(modes);
}

// tile_to_shape's number of copies of a block mode of size b in a target mode of size t.
// CuTe static_asserts that b divides t when the whole target shape is static
// (`target_static`): that is the model's precondition here, a throw for values and a proof
// obligation for symbolic terms, so both paths refuse the same inputs. A dynamic target is
// not checked by CuTe: ceil(t / b) copies. `message()` is the diagnostic.
// P: a leaf policy (leaf_ops.hpp). @pre t >= 1, b >= 1.
template <class P, class Message>
typename P::Leaf tile_copies(const typename P::Leaf& t, const typename P::Leaf& b, bool target_static,
                             Message&& message) {
  using A = LeafArith<P>;
  if (target_static) ScalarOps<typename P::Scalar>::require(A::value(t) % A::value(b) == A::k(0), message);
  return A::div(A::add(t, A::sub(b, P::constant(1))), b);
}

}  // namespace cuteref
