// Seed 000's swizzle formula: NOT the model's semantics (swizzle_eval.hpp is), kept as a
// hypothesis for the hardware and the proofs to reject: it reads the B-bit field at bit S
// and XORs it into bits [M, M+B), f(x) = x ^ (((x >> S) & (2^B - 1)) << M). CuTe reads the
// field at M+S. The TMA probe checks which of the two the copy engine implements; the proof
// suite refutes it as an involution. Generic over the scalar type (scalar.hpp) so that both
// evaluate this one definition.
#pragma once

#include <cstdint>

#include "scalar.hpp"

namespace cuteref {

template <class Scalar>
Scalar seed000_swizzle_value(const Scalar& b, const Scalar& m, const Scalar& s, const Scalar& x) {
  using Ops = ScalarOps<Scalar>;
  const Scalar mask = Ops::shl(Ops::constant(1), b) - Ops::constant(1);
  return x ^ Ops::shl(Ops::lshr(x, s) & mask, m);
}

}  // namespace cuteref

// The integer form used by the GPU harness. Precondition: the shifted field fits in 63 bits.
inline std::int64_t seed000_swizzle(int b, int m, int s, std::int64_t x) {
  return cuteref::seed000_swizzle_value<cuteref::CheckedInt>(b, m, s, x).v;
}
