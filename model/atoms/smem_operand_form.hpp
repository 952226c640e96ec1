// The canonical shared-memory operand forms that wgmma (SM90) and tcgen05.mma (SM100) read
// through a matrix descriptor, read off a layout: which mode is contiguous, which swizzle, and
// the two distances the descriptor records (LBO, SBO). GMMA's make_gmma_desc and UMMA's
// make_umma_desc apply the same rule to the same forms; they differ only in how the fields are
// packed (gmma_descriptor.hpp, umma_descriptor.hpp) and in UMMA's extra swizzle, 128B with
// 32-byte atomicity (Sw<2,5,2> on byte addresses, MN-major only).
//
// The tile is an (MN, K) layout of `bits`-bit elements spanning 32 bytes of K. In 16-byte
// units u (T = 128 / bits elements each) it must be one of these forms, with W the swizzle
// width in 16-byte units and R the rows of one swizzle atom:
//   Sw<b,4,3> (b = 0..3): W = 1 << b, R = 8;   Sw<2,5,2> (128B_BASE32B): W = 8, R = 4
//   K-major : ((8,n),2) : ((W,SBO), 1)     [no swizzle: ((8,n),2) : ((1,SBO),LBO)]
//   MN-major: ((W,n),(R,k)) : ((1,LBO),(W,SBO))   [no swizzle: ((1,n),(8,k)) : ((X,SBO),(1,LBO))]
// A size-1 group records 0. The parameters are read from a few elements and the whole layout
// is compared with the canonical layout by their modes (mode_comparison.hpp), so that no
// element is visited; only modes that do not line up are compared element by element, at most
// kMaxEnumeratedEquality (2^22) elements, beyond which it is an error naming that bound.
#pragma once

#include <cstdint>
#include <string>

#include "atoms/mma_atom.hpp"
#include "value.hpp"

namespace cuteref {

// The swizzle of a canonical tile, on byte addresses.
enum class SmemOperandSwizzle { None, B32, B64, B128, B128Base32B };

// Who asks, for the diagnostics and the accepted swizzles.
struct SmemOperandDialect {
  std::string function;     // "gmma_desc", "umma_desc"
  std::string family;       // "GMMA", "UMMA"
  std::string instruction;  // "wgmma", "tcgen05.mma"
  bool base32b = false;     // accepts Sw<2,5,2> (UMMA's 128B_BASE32B, MN-major only)
};

struct SmemOperandFields {
  GmmaMajor major = GmmaMajor::K;
  SmemOperandSwizzle swizzle = SmemOperandSwizzle::None;
  std::uint32_t start_address = 0;        // 16-byte units, 14 bits
  std::uint32_t leading_byte_offset = 0;  // 16-byte units, 14 bits
  std::uint32_t stride_byte_offset = 0;   // 16-byte units, 14 bits
};

// The fields of the operand tile `smem` of `bits`-bit elements at shared-memory byte address
// `base`. `smem` is a layout (no swizzle), a composed layout `Sw<..> o smem_ptr[<bits>b](unset)
// o L` as the SMEM atoms print (the swizzle acts on byte addresses), or `Sw<b,m,s> o L` whose
// swizzle acts on element offsets (converted to bytes).
// Preconditions (checked, each Error starts with `dialect.function` and names the violated
// form and the values found): bits in {8, 16, 32}; rank 2 and K spans 32 bytes; one mode is
// contiguous; the swizzle is one of the dialect's; the layout in 16-byte units is the canonical
// form above; base is 16-byte aligned and, when swizzled, aligned to the swizzle's repeat
// (R rows of W units: 256, 512, 1024 bytes for 32B, 64B, 128B; 512 for 128B_BASE32B);
// every field fits 14 bits.
SmemOperandFields read_smem_operand(const Value& smem, int bits, std::int64_t base, const SmemOperandDialect& dialect);

}  // namespace cuteref
