// The scalar interface of the model's generic evaluation code (DESIGN.md: evaluation is
// written once, generic over the scalar type).
//
// Generic code (layout_eval.hpp, swizzle_eval.hpp, coalesce_generic.hpp) uses only:
//   - the operators + - * / % & ^ of Scalar (/ and % truncate, as C++'s), and < == >= giving
//     ScalarOps<Scalar>::Bool;
//   - ScalarOps<Scalar>: constant(v), select(c, a, b), shl(a, n), lshr(a, n),
//     require(c, what) (with `what()` the diagnostic; a precondition of the model: throws for concrete values, becomes a
//     proof obligation for symbolic ones) and decide(c) (a branch of an algorithm: a plain
//     bool for concrete values, a case split for symbolic ones), truth(v) (the Bool constant
//     v), and note_ceil_div(q, a, b)
//     (what a scalar may record of q = ceil_div(a, b): nothing for values, the bound q >= 1
//     for terms of positive a and b), bit_width_bound(x) (a number of low bits that
//     holds every value x >= 0 can take: x's own width for a value, 64 where unknown), and
//     text(x) (x in a diagnostic: a value's digits; a term has none), and product_is(a, b, t)
//     (a * b == t on the exact product, a Bool: a product past int64 equals no t, and nothing
//     overflows, as nothing is computed);
// CheckedInt is the model's own scalar: 64-bit signed and overflow-checked. The proofs
// (proofs/z3_scalar.hpp) supply a Z3 bit-vector scalar whose checks become side conditions.
#pragma once

#include <cstdint>
#include <string>

#include "checked_math.hpp"
#include "error.hpp"

namespace cuteref {

template <class Scalar>
struct ScalarOps;

// Overflow-checked int64 scalar used by the concrete model.
struct CheckedInt {
  std::int64_t v;
  CheckedInt(std::int64_t x = 0) : v(x) {}
  friend CheckedInt operator+(CheckedInt a, CheckedInt b) { return checked_add(a.v, b.v); }
  friend CheckedInt operator-(CheckedInt a, CheckedInt b) { return checked_sub(a.v, b.v); }
  friend CheckedInt operator*(CheckedInt a, CheckedInt b) { return checked_mul(a.v, b.v); }
  friend CheckedInt operator/(CheckedInt a, CheckedInt b) {
    if (b.v == 0) throw_error("division by zero");
    if (a.v == INT64_MIN && b.v == -1) throw_error("arithmetic overflow: INT64_MIN / -1");
    return a.v / b.v;
  }
  friend CheckedInt operator%(CheckedInt a, CheckedInt b) {
    if (b.v == 0) throw_error("modulo by zero");
    if (b.v == -1) return 0;
    return a.v % b.v;
  }
  // Out of line, so that / and % inline to their tests.
  [[noreturn, gnu::cold, gnu::noinline]] static void throw_error(const char* what) { throw Error(what); }
  friend CheckedInt operator&(CheckedInt a, CheckedInt b) { return a.v & b.v; }
  friend CheckedInt operator^(CheckedInt a, CheckedInt b) { return a.v ^ b.v; }
  friend bool operator<(CheckedInt a, CheckedInt b) { return a.v < b.v; }
  friend bool operator>=(CheckedInt a, CheckedInt b) { return a.v >= b.v; }
  friend bool operator==(CheckedInt a, CheckedInt b) { return a.v == b.v; }
};

template <>
struct ScalarOps<CheckedInt> {
  using Bool = bool;
  static CheckedInt constant(std::int64_t v) { return v; }
  static CheckedInt select(bool c, CheckedInt a, CheckedInt b) { return c ? a : b; }
  static std::string text(CheckedInt x) { return std::to_string(x.v); }
  static bool product_is(CheckedInt a, CheckedInt b, CheckedInt t) {
    std::int64_t p = 0;
    return !__builtin_mul_overflow(a.v, b.v, &p) && p == t.v;
  }
  // a << n for 0 <= n <= 63; a negative a, or a bit shifted into or past bit 63, is an
  // overflow, as for *.
  static CheckedInt shl(CheckedInt a, CheckedInt n) {
    if (n.v < 0 || n.v > 63) throw Error("shift by " + std::to_string(n.v) + " bits");
    if (a.v < 0 || (n.v > 0 && (a.v >> (63 - n.v)) != 0))
      throw Error("arithmetic overflow: " + std::to_string(a.v) + " << " + std::to_string(n.v));
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a.v) << n.v);
  }
  // Logical right shift of a 64-bit pattern.
  static CheckedInt lshr(CheckedInt a, CheckedInt n) {
    if (n.v < 0 || n.v > 63) throw Error("shift by " + std::to_string(n.v) + " bits");
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a.v) >> n.v);
  }
  // `what()` builds the diagnostic; it is called only on failure.
  template <class Message>
  static void require(bool c, Message&& what) {
    if (!c) throw Error(what());
  }
  static bool decide(bool c) { return c; }
  static bool both(bool a, bool b) { return a && b; }
  static bool truth(bool v) { return v; }
  static void note_ceil_div(CheckedInt&, const CheckedInt&, const CheckedInt&) {}
  static int bit_width_bound(CheckedInt x) {
    int w = 0;
    for (std::uint64_t u = static_cast<std::uint64_t>(x.v); u != 0; u >>= 1) ++w;
    return w;
  }
};

}  // namespace cuteref
