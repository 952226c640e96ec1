// An integer leaf as a plain value with its static flag: the leaf type the algebra's generic
// cores (complement_generic.hpp, composition_generic.hpp, coalesce_generic.hpp) are
// instantiated with on the model's hot paths, where every leaf is an integer. It is trivially
// copyable (no node, no destructor), so the cores' working vectors move and erase as plain
// memory; IntTuples are built only for the results and for diagnostics.
//
// The arithmetic is leaf_arith.hpp's on IntTuple leaves, value for value and flag for flag
// (a result is static iff every operand is), with the same checks and messages.
#pragma once

#include <cstdint>

#include "checked_math.hpp"
#include "error.hpp"
#include "int_tuple.hpp"
#include "small_vector.hpp"

namespace cuteref {

struct FlatInt {
  std::int64_t v = 0;
  bool st = false;  // static

  // @pre t is an integer leaf.
  static FlatInt of(const IntTuple& t) { return {t.value(), t.is_static()}; }
  IntTuple tuple() const { return IntTuple::integer(v, st); }
  std::string to_string() const { return tuple().to_string(); }
};

using FlatInts = SmallVector<FlatInt, 8>;

inline FlatInt flat_mul(FlatInt a, FlatInt b) { return {checked_mul(a.v, b.v), static_cast<bool>(a.st & b.st)}; }

// As leaf_div: truncating; b != 0 (else the same error).
inline FlatInt flat_div(FlatInt a, FlatInt b) {
  if (b.v == 0) throw Error("division by zero: " + a.to_string() + " / " + b.to_string());
  return {a.v / b.v, static_cast<bool>(a.st & b.st)};
}

// As leaf_ceil_div: ceil(a / b) for a >= 0, b > 0 (else the same error).
inline FlatInt flat_ceil_div(FlatInt a, FlatInt b) {
  if (b.v <= 0) throw Error("ceil_div: divisor " + b.to_string() + " must be positive");
  return {a.v / b.v + (a.v % b.v != 0 ? 1 : 0), static_cast<bool>(a.st & b.st)};
}

// The integer leaves of t, left to right, appended to `out`. Returns false (out then holds
// a prefix) when some leaf is not an integer.
inline bool append_flat_ints(const IntTuple& t, FlatInts& out) {
  if (!t.is_tuple()) {
    if (!t.is_integer()) return false;
    out.push_back(FlatInt::of(t));
    return true;
  }
  for (const auto& e : t.elements()) {
    if (e.is_integer()) out.push_back(FlatInt::of(e));  // the common case, without the call
    else if (!append_flat_ints(e, out)) return false;
  }
  return true;
}

// The IntTuple of flat leaves: a leaf for one, a flat tuple for several (n >= 1).
inline IntTuple tuple_of_flat(const FlatInt* first, std::size_t n) {
  if (n == 1) return first[0].tuple();
  return IntTuple::tuple_made(n, [first](std::size_t i) noexcept { return first[i].tuple(); });
}

}  // namespace cuteref
