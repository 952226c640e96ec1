#include "atoms/umma_smem_atom.hpp"

#include "error.hpp"

namespace cuteref {

std::string to_string(UmmaSwizzle s) {
  switch (s) {
    case UmmaSwizzle::Inter: return "INTER";
    case UmmaSwizzle::SW32: return "SW32";
    case UmmaSwizzle::SW64: return "SW64";
    case UmmaSwizzle::SW128: return "SW128";
    case UmmaSwizzle::SW128_32B: return "SW128_32B";
  }
  return "?";
}

ComposedLayout umma_smem_atom_bits(GmmaMajor major, UmmaSwizzle swizzle) {
  if (swizzle != UmmaSwizzle::SW128_32B) return gmma_smem_atom_bits(major, static_cast<GmmaSwizzle>(static_cast<int>(swizzle)));
  if (major != GmmaMajor::MN)
    throw Error("umma_atom: the SW128_32B atom (128-byte swizzle, 32-byte atomicity) exists for MN-major tiles only");
  auto s = [](std::int64_t v) { return IntTuple::static_int(v); };
  // Four 128-byte rows, MN contiguous; Sw<2,5,2> XORs the row into the 32-byte chunk.
  const Layout l(IntTuple::tuple({s(1024), s(4)}), IntTuple::tuple({s(1), s(1024)}));
  return ComposedLayout{Swizzle(2, 5, 2), ComposedOffset{std::nullopt, "smem_ptr[1b](unset)", 1}, l};
}

ComposedLayout umma_smem_atom(GmmaMajor major, UmmaSwizzle swizzle, int element_bits) {
  if (element_bits != 4 && element_bits != 8 && element_bits != 16 && element_bits != 32)
    throw Error("umma_atom: element width must be 4, 8, 16 or 32 bits (the tcgen05.mma operand widths in shared memory), got " +
                std::to_string(element_bits));
  return smem_atom_for_elements(umma_smem_atom_bits(major, swizzle), element_bits);
}

}  // namespace cuteref
