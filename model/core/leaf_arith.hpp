// Arithmetic on integer leaves for the layout algebra, with CuTe's static propagation
// (a result is static iff every operand is static) and overflow checks.
//
// The algebra (composition, complement, inverses, recast) decides every branch on the
// run-time values of the leaves: where CuTe C++ tests `is_constant<1, X>` the model tests
// X == 1. Static flags only decide how results print (`_4` vs `4`).
#pragma once

#include <cstdint>
#include <vector>

#include "checked_math.hpp"
#include "error.hpp"
#include "int_tuple.hpp"
#include "small_vector.hpp"

namespace cuteref {

// ceil(a / b) for a >= 0, b > 0 (CuTe's ceil_div on positive integers).
inline IntTuple leaf_ceil_div(const IntTuple& a, const IntTuple& b) {
  if (b.value() <= 0) throw Error("ceil_div: divisor " + b.to_string() + " must be positive");
  const std::int64_t q = a.value() / b.value() + (a.value() % b.value() != 0 ? 1 : 0);
  return IntTuple::integer(q, a.is_static() && b.is_static());
}

// Truncating a / b. Precondition: b != 0.
inline IntTuple leaf_div(const IntTuple& a, const IntTuple& b) {
  if (b.value() == 0) throw Error("division by zero: " + a.to_string() + " / " + b.to_string());
  return IntTuple::integer(a.value() / b.value(), a.is_static() && b.is_static());
}

inline IntTuple leaf_min(const IntTuple& a, const IntTuple& b) {
  return IntTuple::integer(a.value() < b.value() ? a.value() : b.value(), a.is_static() && b.is_static());
}

inline IntTuple leaf_abs(const IntTuple& a) { return IntTuple::integer(checked_abs(a.value()), a.is_static()); }

// c * d for an integer leaf c and a stride leaf d (integer or scaled basis); a basis keeps
// its position and scales its value.
inline IntTuple scale_stride_leaf(const IntTuple& c, const IntTuple& d) {
  const std::int64_t v = checked_mul(c.value(), d.value());
  const bool st = c.is_static() && d.is_static();
  return d.is_basis() ? IntTuple::basis(v, d.basis_path(), st) : IntTuple::integer(v, st);
}

// CuTe's ceil_div(shape, n) for a shape (integer or tuple) and a positive integer n: a
// tuple divides its elements left to right, passing the remaining divisor on
// (ceil_div((3,5), 2) = (2,5): 3 absorbs the 2, leaving ceil(2/3) = 1 for 5).
inline IntTuple tuple_ceil_div(const IntTuple& shape, IntTuple divisor) {
  if (!shape.is_tuple()) return leaf_ceil_div(shape, divisor);
  std::vector<IntTuple> out;
  out.reserve(shape.rank());
  for (const auto& e : shape.elements()) {
    out.push_back(tuple_ceil_div(e, divisor));
    divisor = leaf_ceil_div(divisor, product(e));
  }
  return IntTuple::tuple(std::move(out));
}

// The leaves of a tuple, appended left to right to `out` (any vector-like container).
template <class Out>
void append_leaves_to(const IntTuple& t, Out& out) {
  if (!t.is_tuple()) {
    out.push_back(t);
    return;
  }
  for (const auto& e : t.elements()) {
    if (e.is_tuple()) append_leaves_to(e, out);
    else out.push_back(e);
  }
}

// Flattened leaves of a layout's shape and stride, as parallel vectors (inline for the
// usual few modes: no heap block).
using Leaves = SmallVector<IntTuple, 8>;
struct FlatModes {
  Leaves shapes;
  Leaves strides;
};

inline FlatModes flat_modes(const IntTuple& shape, const IntTuple& stride) {
  FlatModes m;
  append_leaves_to(shape, m.shapes);
  append_leaves_to(stride, m.strides);
  return m;
}

}  // namespace cuteref
