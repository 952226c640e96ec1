// The one definition of an F2 layout's application (model/f2/f2_layout.hpp), generic over
// the scalar (scalar.hpp), so that the proofs apply F2 layouts to symbolic indices with the
// model's own code.
//
// A coordinate c times the F2 stride F(d) is the carry-less product c (x) d: the XOR of d << j
// over the set bits j of c. The modes' contributions combine by XOR.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "scalar.hpp"

namespace cuteref {

// c (x) d for c, d >= 0. The product must fit in 63 bits (the bit widths add, less one): for
// each set bit j of c, d << j fits. `overflow(c, d)` words the model's diagnostic (called on
// failure only for values; once, as the condition's text, for symbolic scalars).
// @pre c >= 0 and d >= 0 (required)
template <class Scalar, class Overflow>
Scalar carryless_product(const Scalar& c, const Scalar& d, const Overflow& overflow) {
  using Ops = ScalarOps<Scalar>;
  const Scalar zero = Ops::constant(0), one = Ops::constant(1);
  Ops::require(Ops::both(c >= zero, d >= zero), [&] {
    return std::string("carry-less product: both operands must be non-negative");
  });
  Scalar r = zero;
  const int bits = Ops::bit_width_bound(c);  // no set bit of c at or above it
  for (int j = 0; j < bits && j < 63; ++j) {
    const Scalar term = Ops::select((Ops::lshr(c, Ops::constant(j)) & one) == one, d, zero);
    if (j > 0) Ops::require(term < Ops::constant(std::int64_t{1} << (63 - j)), [&] { return overflow(c, d); });
    r = r ^ Ops::shl(term, Ops::constant(j));
  }
  return r;
}

// L(index) for the F2 layout of flat modes shapes[k] : F(strides[k]), index >= 0: the index
// split into a colexicographic coordinate (the last mode takes what is left, as CuTe's
// idx2crd beyond the size), each coordinate's carry-less product with its stride, XOR-ed.
// `negative_index()` and `overflow(c, d)` word the model's diagnostics.
// @pre shapes and strides have one size >= 1; shapes >= 1, strides >= 0 (F2Layout's
//      invariants)
template <class Scalar, class NegativeIndex, class Overflow>
Scalar f2_value_at(const std::vector<Scalar>& shapes, const std::vector<Scalar>& strides, Scalar index,
                   const NegativeIndex& negative_index, const Overflow& overflow) {
  using Ops = ScalarOps<Scalar>;
  Ops::require(index >= Ops::constant(0), negative_index);
  Scalar value = Ops::constant(0);
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    const bool last = k + 1 == shapes.size();
    const Scalar c = last ? index : index % shapes[k];
    if (!last) index = index / shapes[k];
    value = value ^ carryless_product(c, strides[k], overflow);
  }
  return value;
}

}  // namespace cuteref
