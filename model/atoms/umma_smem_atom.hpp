// The canonical UMMA (tcgen05.mma, SM100) shared-memory layout atoms, CuTe's
// UMMA::Layout_{MN,K}_{INTER,SW32,SW64,SW128}_Atom<T> and UMMA::Layout_MN_SW128_32B_Atom<T>.
//
// The first eight are GMMA's atoms (gmma_smem_atom.hpp: CuTe's UMMA namespace takes them over
// unchanged). The ninth, 128-byte swizzle with 32-byte atomicity, is MN-major only; in bits
//   Sw<2,5,2> o smem_ptr[1b] o (1024, 4) : (1, 1024)
// four rows of 128 bytes whose 32-byte chunks are XOR-ed with the row (byte-address bits
// [7,9) into [5,7)); for T-bit elements it is that layout upcast by T.
#pragma once

#include <string>

#include "atoms/gmma_smem_atom.hpp"

namespace cuteref {

enum class UmmaSwizzle { Inter, SW32, SW64, SW128, SW128_32B };

std::string to_string(UmmaSwizzle s);

// The atom in bits (element width 1).
// Precondition (checked): SW128_32B only with MN.
ComposedLayout umma_smem_atom_bits(GmmaMajor major, UmmaSwizzle swizzle);

// The atom for `element_bits`-bit elements.
// Precondition (checked): element_bits is 4, 8, 16 or 32 (tcgen05.mma's operand widths in
// shared memory); SW128_32B only with MN.
ComposedLayout umma_smem_atom(GmmaMajor major, UmmaSwizzle swizzle, int element_bits);

}  // namespace cuteref
