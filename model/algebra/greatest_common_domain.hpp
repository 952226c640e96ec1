// greatest_common_domain(A, B): PyCuTe's layout of the largest domain on which two shapes
// split alike (pycute.greatest_common_domain). It depends on the shapes only.
#pragma once

#include "int_tuple.hpp"
#include "layout.hpp"

namespace cuteref {

// Walk the leaves of shape(A) and shape(B) together, each with the 1-D index where its current
// leaf starts (p_A, p_B; leaves of size 1 are skipped). While both walks are inside a leaf:
// let q = lcm(p_A, p_B), the first index where both are aligned, and r_A = q / p_A,
// r_B = q / p_B. If both leaves divide by their r, and g = gcd(leaf_A / r_A, leaf_B / r_B) > 1,
// then g:q is the next mode of the result, both leaves lose the factor r*g and p_A = p_B = q*g.
// Otherwise the leaf that ends first advances (both when neither end divides the other).
// The result is the flat tuple of those modes, (1):(0) when there is none.
// @pre  A and B are integer shapes (or layouts: their shapes).
// @post depth(result) == 1; symmetric in A and B
// @post size(result) divides gcd(size(A), size(B))
// @post composition(A, result) and composition(B, result) are admissible, each shape taken as a
//       tiler, make_identity_layout(shape) (each mode of the result lies inside one leaf of each)
// @post maximal: the rest modes of logical_divide(make_identity_layout(A), result) and of
//       logical_divide(make_identity_layout(B), result) have the trivial domain (1):(0) in common
// Leaves are static iff both shapes are fully static. Overflow is an error.
Layout greatest_common_domain(const IntTuple& shape_a, const IntTuple& shape_b);

}  // namespace cuteref
