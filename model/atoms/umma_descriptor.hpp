// UMMA shared-memory matrix descriptors (tcgen05.mma, SM100; PTX ISA "Shared memory
// descriptor"), built from an operand tile as CuTe's UMMA::make_umma_desc does.
//
// The 64-bit descriptor:
//   bits [0,14)   start address       (byte address >> 4)
//   bits [16,30)  leading byte offset (bytes >> 4)
//   bits [32,46)  stride byte offset  (bytes >> 4)
//   bits [46,48)  version             (1 on SM100; make_umma_desc writes 1)
//   bits [49,52)  matrix base offset  (make_umma_desc writes 0)
//   bits [52,53)  LBO mode            (0 legacy; make_umma_desc writes 0)
//   bits [61,64)  layout type: 0 no swizzle, 1 128B with 32-byte atomicity, 2 128B, 4 64B,
//                 6 32B (3, 5, 7 are not layout types)
// The tile's canonical forms, and so LBO and SBO, are GMMA's (smem_operand_form.hpp), plus the
// MN-major 128B_BASE32B form.
#pragma once

#include <cstdint>
#include <string>

#include "atoms/mma_atom.hpp"
#include "value.hpp"

namespace cuteref {

enum class UmmaLayoutType : std::uint8_t { SwizzleNone = 0, Swizzle128BBase32B = 1, Swizzle128B = 2, Swizzle64B = 4, Swizzle32B = 6 };

std::string to_string(UmmaLayoutType t);

struct UmmaDescriptor {
  std::uint32_t start_address = 0;        // 14 bits, 16-byte units
  std::uint32_t leading_byte_offset = 0;  // 14 bits, 16-byte units
  std::uint32_t stride_byte_offset = 0;   // 14 bits, 16-byte units
  std::uint32_t version = 0;              // 2 bits
  std::uint32_t base_offset = 0;          // 3 bits
  std::uint32_t lbo_mode = 0;             // 1 bit
  UmmaLayoutType layout_type = UmmaLayoutType::SwizzleNone;
  bool operator==(const UmmaDescriptor&) const = default;

  // Pack into the PTX bit format. Precondition (checked): every field fits its width and the
  // layout type is one of the five.
  std::uint64_t encode() const;
  // Unpack; the bits outside the fields are ignored.
  // Precondition (checked): bits [61,64) hold one of the five layout types.
  static UmmaDescriptor decode(std::uint64_t word);
};

struct UmmaDescriptorResult {
  UmmaDescriptor descriptor;
  GmmaMajor major;  // inferred from which mode is contiguous
};

// The descriptor of the operand tile `smem` of `bits`-bit elements at shared-memory byte address
// `base` (CuTe: UMMA::make_umma_desc<major>(make_tensor(smem_ptr(base), smem))): version 1,
// base offset 0, LBO mode 0, as CuTe writes them.
// Preconditions (checked): those of read_smem_operand (smem_operand_form.hpp) with the UMMA
// swizzles Sw<1..3,4,3>, Sw<2,5,2> (MN-major only) or none.
UmmaDescriptorResult make_umma_desc(const Value& smem, int bits, std::int64_t base = 0);

}  // namespace cuteref
