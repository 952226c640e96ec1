// The one definition of composed-layout application, generic over the scalar type
// (scalar.hpp): x -> Sw(offset + L(x)), or for a `smem_ptr[Nb]` offset the swizzle acting on
// the byte addresses of N-bit elements (see evaluate.cpp for why), computed on the element
// offset with the swizzle's element form (pointer_swizzle.hpp).
#pragma once

#include <optional>
#include <string>

#include "layout_eval.hpp"
#include "pointer_swizzle.hpp"
#include "swizzle.hpp"
#include "swizzle_eval.hpp"

namespace cuteref {

// x -> Sw(offset + L(x)) for a composed layout given by its parts: the swizzle, the offset
// slot (`offset` an integer offset, `pointer_element_bits` > 0 an smem_ptr[Nb] token, neither:
// none) and the layout's shape and stride trees (the model's IntTuple, or a ScalarTuple of
// symbolic leaves: the proofs' composed layouts with symbolic parts).
// Preconditions, checked here (an error for values, a side condition for terms): x >= 0
// (layout_apply_index); for an smem_ptr offset, L(x) >= 0 (the swizzle acts on the byte
// address, which the model takes from an aligned base: an element before the pointer has no
// address the model knows, where CuTe swizzles the real one) and the swizzle has an element
// form on N-bit elements (element_swizzle). The byte address L(x) * N / 8 of an element of 8
// bits or more must fit in int64 (an overflow check of the scalar); L(x) * N, the bit
// address, need not.
template <class Scalar, class Tree>
Scalar composed_value_of_parts(const Swizzle& sw, const std::optional<Scalar>& offset, int pointer_element_bits,
                               const Tree& shape, const Tree& stride, const Scalar& index) {
  using Ops = ScalarOps<Scalar>;
  const Scalar inner = layout_apply_index(index, shape, stride);
  const Scalar b = Ops::constant(sw.bits()), m = Ops::constant(sw.base()), s = Ops::constant(sw.shift());
  if (pointer_element_bits == 0) return swizzle_value(offset ? *offset + inner : inner, b, m, s);
  Ops::require(inner >= Ops::constant(0), [&] {
    return "element offset " + Ops::text(inner) +
           " is negative, before the smem pointer, whose base address the model does not know";
  });
  const int bits = pointer_element_bits;
  if (bits >= 8) (void)(inner * Ops::constant(bits / 8));  // the byte address exists
  const Swizzle on_elements = element_swizzle(sw, bits);
  return swizzle_value(inner, Ops::constant(on_elements.bits()), Ops::constant(on_elements.base()),
                       Ops::constant(on_elements.shift()));
}

// The model's ComposedLayout: its parts as above.
template <class Scalar>
Scalar composed_value(const ComposedLayout& c, const Scalar& index) {
  std::optional<Scalar> offset;
  int pointer_bits = 0;
  if (c.offset && c.offset->value) offset = ScalarOps<Scalar>::constant(c.offset->value->value());
  else if (c.offset) pointer_bits = c.offset->pointer_element_bits;
  return composed_value_of_parts(c.swizzle, offset, pointer_bits, c.layout.shape(), c.layout.stride(), index);
}

}  // namespace cuteref
