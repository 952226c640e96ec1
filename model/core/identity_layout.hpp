// Scaled-basis stride trees and the identity layout (CuTe's make_basis_like and
// make_identity_layout).
//
// CuTe writes E<N0,N1,...,Nk> for the unit scaled basis whose value 1 sits at the
// hierarchical coordinate position N0 (outermost), then N1 inside it, and so on; it prints
// E<N0,...,Nk> scaled by v as `v@Nk@...@N0` (innermost index first). IntTuple stores the
// printed order (BasisPath), so E<0,1> is IntTuple::basis(1, {1, 0}) and prints `1@1@0`.
#pragma once

#include "int_tuple.hpp"
#include "layout.hpp"

namespace cuteref {

// make_basis_like(shape): a stride tree congruent with `shape` whose leaf at hierarchical
// position (i0, i1, ..., ik) is the static unit basis E<i0,...,ik> (printed `_1@ik@...@i0`).
// A leaf shape (an integer, position ()) gives E<> = `_1`.
//   make_basis_like((4,8))     = (_1@0,_1@1)
//   make_basis_like(((2,3),4)) = ((_1@0@0,_1@1@0),_1@1)
// Precondition (checked, require_shape): every leaf of `shape` is an integer >= 1.
IntTuple make_basis_like(const IntTuple& shape);

// make_identity_layout(shape) = shape : make_basis_like(shape). It maps each index of the
// domain to its own natural coordinate within `shape`: L(i) = idx2crd(i, shape), as an
// arithmetic tuple (for a leaf shape, L(i) = i).
//   make_identity_layout((4,8)) = (4,8):(_1@0,_1@1), and its value at 5 is (1,1).
// Precondition: as for Layout: integer shape leaves >= 1.
Layout make_identity_layout(const IntTuple& shape);

}  // namespace cuteref
