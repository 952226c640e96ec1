// The canonical GMMA shared-memory layout atoms (CuTe's GMMA::Layout_{MN,K}_{INTER,SW32,SW64,SW128}_Atom).
//
// CuTe defines each atom once in bits, as `Sw<b,4,3> o smem_ptr[1b] o L_bits`, where the
// contiguous mode spans the swizzle's width (16, 32, 64 or 128 bytes) and the other mode is
// the 8 rows of a core matrix; the atom for a T-bit element type is that layout upcast by T
// (contiguous extent / T, other strides / T) with the pointer flag becoming smem_ptr[Tb]:
//   MN-major: Sw<b,4,3> o smem_ptr[Tb] o (8*W/T, 8) : (1, 8*W/T)
//   K-major : Sw<b,4,3> o smem_ptr[Tb] o (8, 8*W/T) : (8*W/T, 1)
// with W the swizzle width in bytes (16 << b) and b = 0, 1, 2, 3 for INTER, SW32, SW64, SW128.
// The swizzle acts on byte addresses (see evaluate.hpp, apply_composed).
#pragma once

#include <string>

#include "atoms/mma_atom.hpp"
#include "swizzle.hpp"

namespace cuteref {

enum class GmmaSwizzle { Inter = 0, SW32 = 1, SW64 = 2, SW128 = 3 };

std::string to_string(GmmaSwizzle s);
// Bytes of the contiguous span of the atom (16, 32, 64, 128).
int swizzle_width_bytes(GmmaSwizzle s);

// The atom in bits (element width 1), as CuTe's Layout_*_Atom_Bits.
ComposedLayout gmma_smem_atom_bits(GmmaMajor major, GmmaSwizzle swizzle);

// The atom for `element_bits`-bit elements.
// Precondition (checked): element_bits is 8, 16 or 32 (the wgmma operand widths).
ComposedLayout gmma_smem_atom(GmmaMajor major, GmmaSwizzle swizzle, int element_bits);

// A rank-2 atom given in bits (`Sw o smem_ptr[1b] o L_bits`) for `element_bits`-bit elements,
// as CuTe's upcast<element_bits> of it: the unit-stride mode's extent and every other stride
// divided by element_bits, the pointer flag becoming smem_ptr[<element_bits>b].
// Precondition (checked): element_bits divides that extent and those strides.
ComposedLayout smem_atom_for_elements(const ComposedLayout& bits_atom, int element_bits);

}  // namespace cuteref
