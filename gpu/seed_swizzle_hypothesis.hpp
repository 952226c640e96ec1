// Seed 000's swizzle formula, kept only as a hypothesis for the hardware to accept or
// reject: it reads the B-bit field at bit S and XORs it into bits [M, M+B)
// (f(x) = x ^ (((x >> S) & (2^B - 1)) << M)). CuTe (and the model) read the field at
// M+S instead. The TMA probe checks which of the two the copy engine implements.
#pragma once

#include <cstdint>

inline std::int64_t seed000_swizzle(int b, int m, int s, std::int64_t x) {
  const std::int64_t mask = (std::int64_t{1} << b) - 1;
  return x ^ (((x >> s) & mask) << m);
}
