// Checked 64-bit signed arithmetic. The model never wraps: an overflow throws
// cuteref::Error naming the operation and its operands.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "error.hpp"

namespace cuteref {

// The overflow error, out of line so that the checked operations inline to a test and a branch.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_overflow(std::int64_t a, const char* op, std::int64_t b) {
  throw Error("arithmetic overflow: " + std::to_string(a) + op + std::to_string(b) +
              " does not fit in 64-bit signed integers");
}

inline std::int64_t checked_add(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw_overflow(a, " + ", b);
  return r;
}

inline std::int64_t checked_sub(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) throw_overflow(a, " - ", b);
  return r;
}

inline std::int64_t checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw_overflow(a, " * ", b);
  return r;
}

inline std::int64_t checked_neg(std::int64_t a) { return checked_sub(0, a); }

inline std::int64_t checked_abs(std::int64_t a) { return a < 0 ? checked_neg(a) : a; }

// Floor division and modulo (result of mod has the sign of b), as CuTe's divmod on
// non-negative operands. Precondition: b != 0.
inline std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  if (b == 0) throw Error("division by zero: " + std::to_string(a) + " / 0");
  if (a == INT64_MIN && b == -1) throw Error("arithmetic overflow: INT64_MIN / -1");
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

inline std::int64_t floor_mod(std::int64_t a, std::int64_t b) {
  if (b == 0) throw Error("modulo by zero: " + std::to_string(a) + " % 0");
  if (b == -1) return 0;
  std::int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// The width of v's 64-bit two's-complement word: the index of its highest set bit plus one,
// 0 for 0, 64 for a negative v (std::bit_width of the word).
inline int bit_width64(std::int64_t v) { return static_cast<int>(std::bit_width(static_cast<std::uint64_t>(v))); }

inline std::int64_t gcd64(std::int64_t a, std::int64_t b) {
  a = checked_abs(a);
  b = checked_abs(b);
  while (b != 0) {
    std::int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// The least common multiple, overflow an error. Pre: a and b positive.
inline std::int64_t lcm64(std::int64_t a, std::int64_t b) { return checked_mul(a / gcd64(a, b), b); }

}  // namespace cuteref
