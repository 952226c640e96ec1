// The one definition of logical_product's layout form, generic over the layout
// representation (the model's Layout in product.cpp; symbolic layouts in the proofs):
//   logical_product(A, B) = (A, composition(complement(A, size(A) * cosize(B)), B))
// The copies of A are placed among the offsets A leaves free, up to size(A) * cosize(B):
// enough room for B's largest offset scaled by A's extent.
// Ops: free_offsets(A, B) (complement(A, size(A) * cosize(B))), composition(R, B),
//      pair(A, C) (the layout with modes A and C).
#pragma once

namespace cuteref {

template <class LayoutT, class Ops>
LayoutT logical_product_layout(const LayoutT& a, const LayoutT& tiler, const Ops& ops) {
  return ops.pair(a, ops.composition(ops.free_offsets(a, tiler), tiler));
}

}  // namespace cuteref
