// The tcgen05.mma instruction descriptor (PTX ISA "Instruction descriptor" of the kinds f16,
// tf32, i8, f8f6f4), as CuTe's UMMA::make_instr_desc packs it, and the 64-bit runtime form
// make_runtime_instr_desc hands to the instruction (the 32-bit descriptor in the upper half;
// the lower half, the sparse metadata's TMEM address, is 0 for a dense MMA).
//
//   bits [0,2) sparse id2   [2] sparse flag   [3] saturate   [4,6) D format (0 f16, 1 f32, 2 s32)
//   bits [7,10) A format    [10,13) B format   (f16/tf32 kinds: 0 f16, 1 bf16, 2 tf32;
//                                               i8: 0 u8, 1 s8; f8f6f4: 0 e4m3, 1 e5m2, 3 e2m3,
//                                               4 e3m2, 5 e2m1)
//   [13] negate A   [14] negate B   [15] A major   [16] B major   (0 K, 1 MN)
//   bits [17,23) N >> 3   bits [24,29) M >> 4   bits [30,32) max shift (weight-stationary only)
#pragma once

#include <cstdint>

namespace cuteref {

struct UmmaInstrDescriptor {
  std::uint32_t sparse_id2 = 0;  // 2 bits
  std::uint32_t sparse = 0;      // 1 bit
  std::uint32_t saturate = 0;    // 1 bit
  std::uint32_t d_format = 0;    // 2 bits
  std::uint32_t a_format = 0;    // 3 bits
  std::uint32_t b_format = 0;    // 3 bits
  std::uint32_t negate_a = 0;    // 1 bit
  std::uint32_t negate_b = 0;    // 1 bit
  std::uint32_t a_major = 0;     // 1 bit
  std::uint32_t b_major = 0;     // 1 bit
  std::uint32_t n_dim = 0;       // 6 bits, N >> 3
  std::uint32_t m_dim = 0;       // 5 bits, M >> 4
  std::uint32_t max_shift = 0;   // 2 bits
  bool operator==(const UmmaInstrDescriptor&) const = default;

  // Pack into the 32-bit PTX format. Precondition (checked): every field fits its width.
  std::uint32_t encode() const;
  // Unpack; the three reserved bits (6, 23, 29) are ignored.
  static UmmaInstrDescriptor decode(std::uint32_t word);
  // make_runtime_instr_desc: the descriptor in bits [32,64), 0 below.
  std::uint64_t runtime() const { return std::uint64_t{encode()} << 32; }
};

}  // namespace cuteref
