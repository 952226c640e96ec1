// The one definition of composed-layout application, generic over the scalar type
// (scalar.hpp): x -> Sw(offset + L(x)), or for a `smem_ptr[Nb]` offset the swizzle acting on
// the byte addresses of N-bit elements (see evaluate.cpp for why), computed on the element
// offset with the swizzle's element form (pointer_swizzle.hpp).
#pragma once

#include <string>

#include "layout_eval.hpp"
#include "pointer_swizzle.hpp"
#include "swizzle.hpp"
#include "swizzle_eval.hpp"

namespace cuteref {

// Precondition (checked here by element_swizzle): for an smem_ptr offset, the swizzle has an
// element form on N-bit elements. The byte address L(x) * N / 8 of an element of 8 bits or more
// must fit in int64 (an overflow check of the scalar); L(x) * N, the bit address, need not.
template <class Scalar>
Scalar composed_value(const ComposedLayout& c, const Scalar& index) {
  using Ops = ScalarOps<Scalar>;
  const Scalar inner = crd2idx_index(index, c.layout.shape(), c.layout.stride());
  const Swizzle& sw = c.swizzle;
  const Scalar b = Ops::constant(sw.bits()), m = Ops::constant(sw.base()), s = Ops::constant(sw.shift());
  if (!c.offset) return swizzle_value(inner, b, m, s);
  if (c.offset->value) return swizzle_value(Ops::constant(c.offset->value->value()) + inner, b, m, s);
  const int bits = c.offset->pointer_element_bits;
  if (bits >= 8) (void)(inner * Ops::constant(bits / 8));  // the byte address exists
  const Swizzle on_elements = element_swizzle(sw, bits);
  return swizzle_value(inner, Ops::constant(on_elements.bits()), Ops::constant(on_elements.base()),
                       Ops::constant(on_elements.shift()));
}

}  // namespace cuteref
