// GMMA matrix descriptors (PTX ISA, "Matrix Descriptor Format" of wgmma), built from a
// shared-memory operand tile as CuTe's GMMA::make_gmma_desc does.
//
// The 64-bit descriptor:
//   bits [0,14)  start address      (byte address >> 4)
//   bits [16,30) leading byte offset (bytes >> 4)
//   bits [32,46) stride byte offset  (bytes >> 4)
//   bits [49,52) matrix base offset
//   bits [62,64) layout type: 0 interleave (no swizzle), 1 128B, 2 64B, 3 32B swizzle
//
// The reading of the tile is shared with UMMA's descriptor (smem_operand_form.hpp).
// The tile is an (MN, K) layout of `bits`-bit elements spanning 32 bytes of K. In 16-byte
// units u (T = 128 / bits elements each) it must be one of CuTe's canonical forms, with W the
// swizzle width in 16-byte units (1, 2, 4, 8 for INTER, SW32, SW64, SW128):
//   K-major : ((8,n),2) : ((W,SBO), 1)     [INTER: ((8,n),2) : ((1,SBO),LBO)]
//   MN-major: ((W,n),(8,k)) : ((1,LBO),(W,SBO))   [INTER: ((1,n),(8,k)) : ((X,SBO),(1,LBO))]
// and the descriptor records SBO/LBO as written there; a size-1 group records 0.
// The form's parameters are read from a few elements and the whole layout is compared with the
// canonical layout by their modes (mode_comparison.hpp), so that no element is visited: any
// tile size answers at once. Only modes that do not line up with the form's are compared
// element by element, at most kMaxEnumeratedEquality (2^22) elements, beyond which it is an
// error naming that bound.
#pragma once

#include <cstdint>
#include <optional>

#include "atoms/mma_atom.hpp"
#include "value.hpp"

namespace cuteref {

enum class GmmaLayoutType : std::uint8_t { Interleave = 0, B128 = 1, B64 = 2, B32 = 3 };

std::string to_string(GmmaLayoutType t);

struct GmmaDescriptor {
  std::uint32_t start_address = 0;        // 14 bits, 16-byte units
  std::uint32_t leading_byte_offset = 0;  // 14 bits, 16-byte units
  std::uint32_t stride_byte_offset = 0;   // 14 bits, 16-byte units
  std::uint32_t base_offset = 0;          // 3 bits
  GmmaLayoutType layout_type = GmmaLayoutType::Interleave;
  bool operator==(const GmmaDescriptor&) const = default;

  // Pack into the PTX bit format. Precondition (checked): every field fits its width.
  std::uint64_t encode() const;
  // Unpack; the bits outside the fields are ignored.
  static GmmaDescriptor decode(std::uint64_t word);
};

struct GmmaDescriptorResult {
  GmmaDescriptor descriptor;
  GmmaMajor major;  // inferred from which mode is contiguous
};

// The descriptor of the operand tile `smem` of `bits`-bit elements placed at shared-memory byte
// address `base` (CuTe: make_gmma_desc<major>(make_tensor(smem_ptr(base), smem))).
// `smem` is a layout (no swizzle), a composed layout `Sw<b,4,3> o smem_ptr[<bits>b](unset) o L`
// as the GMMA atoms print (the swizzle acts on byte addresses), or `Sw<b,m,s> o L` whose
// swizzle acts on element offsets (converted to bytes). base_offset is 0, as CuTe writes it.
// Preconditions (checked, each Error names the violated form and the values found):
//   bits in {8, 16, 32}; the layout has rank 2 and K spans 32 bytes; one mode is contiguous;
//   the swizzle is Sw<0..3,4,3> on bytes; the layout in 16-byte units is the canonical form
//   above; base is 16-byte aligned and, when swizzled, aligned to the swizzle's repeat
//   (256, 512, 1024 bytes for 32B, 64B, 128B); every field fits 14 bits.
GmmaDescriptorResult make_gmma_desc(const Value& smem, int bits, std::int64_t base = 0);

}  // namespace cuteref
