// The one definition of layout evaluation, generic over the scalar type.
//
// `Scalar` is int64-like: it must support +, *, / (truncating), % (truncating) with
// itself, and be constructible from a std::int64_t through ScalarOps<Scalar>::constant.
// The model instantiates it with CheckedInt (overflow-checked int64), proofs with Z3
// bit-vectors. Shapes and strides are concrete here; only the index is a Scalar.
//
// CuTe's conventions (cute/stride.hpp semantics, restated):
//   crd2idx(c, s, d) for an integer c and a tuple shape (s0, s1, ..., sn):
//     the first n modes take c mod size(si) and pass c div size(si) on; the last mode
//     takes the whole remaining quotient (no modulo), which is how CuTe extends a layout
//     past its domain.
//   crd2idx(c, s, d) for leaf s: c * d.
#pragma once

#include <cstdint>

#include "checked_math.hpp"
#include "error.hpp"
#include "int_tuple.hpp"

namespace cuteref {

template <class Scalar>
struct ScalarOps {
  static Scalar constant(std::int64_t v) { return Scalar(v); }
};

// Overflow-checked int64 scalar used by the concrete model.
struct CheckedInt {
  std::int64_t v;
  CheckedInt(std::int64_t x = 0) : v(x) {}
  friend CheckedInt operator+(CheckedInt a, CheckedInt b) { return checked_add(a.v, b.v); }
  friend CheckedInt operator*(CheckedInt a, CheckedInt b) { return checked_mul(a.v, b.v); }
  friend CheckedInt operator/(CheckedInt a, CheckedInt b) {
    if (b.v == 0) throw Error("division by zero");
    return a.v / b.v;
  }
  friend CheckedInt operator%(CheckedInt a, CheckedInt b) {
    if (b.v == 0) throw Error("modulo by zero");
    return a.v % b.v;
  }
};

// crd2idx of an integer (1-D) coordinate into (shape, stride).
// Precondition: shape and stride congruent, integer strides.
template <class Scalar>
Scalar crd2idx_index(const Scalar& index, const IntTuple& shape, const IntTuple& stride) {
  if (!shape.is_tuple()) {
    if (!stride.is_integer())
      throw Error("evaluation: stride " + stride.to_string() + " is not an integer");
    return index * ScalarOps<Scalar>::constant(stride.value());
  }
  const std::size_t r = shape.rank();
  if (r == 0) return ScalarOps<Scalar>::constant(0);
  Scalar rest = index;
  Scalar sum = ScalarOps<Scalar>::constant(0);
  for (std::size_t i = 0; i + 1 < r; ++i) {
    const Scalar mode_size = ScalarOps<Scalar>::constant(product(shape[i]).value());
    sum = sum + crd2idx_index(rest % mode_size, shape[i], stride[i]);
    rest = rest / mode_size;
  }
  return sum + crd2idx_index(rest, shape[r - 1], stride[r - 1]);
}

}  // namespace cuteref
