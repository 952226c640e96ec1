// The one definition of composed-layout application, generic over the scalar type
// (scalar.hpp): x -> Sw(offset + L(x)), or for a `smem_ptr[Nb]` offset the swizzle acting on
// the byte addresses of N-bit elements (see evaluate.cpp for why).
#pragma once

#include <string>

#include "layout_eval.hpp"
#include "swizzle.hpp"
#include "swizzle_eval.hpp"

namespace cuteref {

// Precondition (checked by apply_composed for the model): for a smem_ptr offset, N is a
// power of two no wider than the swizzle's lowest moved bit.
template <class Scalar>
Scalar composed_value(const ComposedLayout& c, const Scalar& index) {
  using Ops = ScalarOps<Scalar>;
  const Scalar inner = crd2idx_index(index, c.layout.shape(), c.layout.stride());
  const Swizzle& sw = c.swizzle;
  const Scalar b = Ops::constant(sw.bits()), m = Ops::constant(sw.base()), s = Ops::constant(sw.shift());
  if (!c.offset) return swizzle_value(inner, b, m, s);
  if (c.offset->value) return swizzle_value(Ops::constant(c.offset->value->value()) + inner, b, m, s);
  const Scalar n = Ops::constant(c.offset->pointer_element_bits);
  return swizzle_value(inner * n, b, m + Ops::constant(3), s) / n;
}

}  // namespace cuteref
