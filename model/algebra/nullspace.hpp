// nullspace: the 1-D indices that a layout sends to offset 0 along its zero-stride modes
// (CuTe's nullspace, cute/layout.hpp; the CuTe DSL's cute.nullspace).
#pragma once

#include "layout.hpp"

namespace cuteref {

// nullspace(L): the flat modes of L whose stride is 0, each as (its shape : its stride in
// L's 1-D domain, i.e. CuTe's compact column-major stride: the product of the flat shapes
// before it, _0 for a static _1 shape); a single mode is a leaf, none gives _1:_0.
// @post L(R(i)) == 0 for every i < size(R) when L has no other offset than its strides
//       (each R(i) is an index of L whose coordinates are 0 outside the zero-stride modes)
// @post size(R) == size(L) / size(filter_zeros(L)) (the product of the zero-stride shapes)
// @post nullspace(R) is the function _1:_0 (R's strides are 0 only on static _1 modes)
// Zero strides are recognised by value, as the model's filter_zeros does (CuTe decides by
// a static _0; the two agree on static layouts). Overflow of a prefix product is an error.
Layout nullspace(const Layout& l);

}  // namespace cuteref
