// composition(A, Sw o [O o] B) on symbolic layouts, as the model's composition_swizzle.cpp:
// CuTe moves the swizzle to A's side (Sw' from A's images of Sw's masks) and the model checks
// that answer, A(Sw(B(x))) == Sw'((A o B)(x)), at every x < size(B). Here every check is the
// model's: the offset 0, Sw' by the model's swizzle_from_mask_images (the images must be
// concrete: the answer's swizzle is a type in CuTe), A o B by the model's composition
// (sym_composition), the domain bound, and the element-wise check as one proof obligation
// over a fresh index variable, universally quantified as every obligation is.
#pragma once

#include <optional>

#include "swizzle.hpp"
#include "symbolic_layout.hpp"

namespace cuteref::proofs {

// Sw' o _0 o (A o B): the moved swizzle and the composed layout A o B.
struct SymSwizzledLayout {
  Swizzle swizzle;
  SymLayout layout;
};

// composition(A, Sw o O o B) (`offset` absent: written without one). Throws Error where the
// model refuses for every value (the masks' images are no swizzle's) or where A's images of
// the masks depend on the variables (no symbolic form: the caller answers unknown).
// @pre the bit-vector encoding (swizzles are bit operations)
SymSwizzledLayout sym_composition_through_swizzle(const SymLayout& a, const Swizzle& sw, const std::optional<SymInt>& offset,
                                                  const SymLayout& b);

}  // namespace cuteref::proofs
