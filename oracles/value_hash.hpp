// The fingerprint of a function's values shared by every side of the vendor differential:
// 64-bit FNV-1a over the values v(0), v(1), ..., each taken as its 64-bit two's complement
// pattern, one XOR-multiply step per value (not per byte). The generated CuTe programs
// include this header; differential.py restates the same three lines for pycute.
#pragma once

#include <cstdint>

struct ValueHash {
  std::uint64_t state = 14695981039346656037ull;
  void add(std::int64_t v) {
    state ^= static_cast<std::uint64_t>(v);
    state *= 1099511628211ull;
  }
  std::uint64_t digest() const { return state; }
};
