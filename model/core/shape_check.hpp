// The one check that an integer tuple is usable as a shape outside a layout literal
// (idx2crd, crd2idx, size, make_basis_like): every leaf an integer >= 1. CuTe has no empty
// or negative modes; a `_` or a scaled basis is no extent. Without this check a zero or
// negative extent reaches a division (idx2crd(5, (0,4)) divided by 0).
#pragma once

#include <string>

#include "int_tuple.hpp"

namespace cuteref {

// Throws Error "<function>: shape S has the leaf X, which is not positive | not an integer ..."
// naming the first offending leaf. () passes (no leaves: size 1).
void require_shape(const IntTuple& shape, const std::string& function);

}  // namespace cuteref
