#include "atoms/gmma_smem_atom.hpp"

#include "atoms/atom_table_notation.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

using atom_table_notation::s;

// CuTe's upcast<N> restricted to what the atoms need: a unit-stride mode shrinks its extent
// by N (N bits become one element), every other stride is divided by N.
// Precondition (checked): N divides the unit-stride extents and the other strides.
Layout upcast_rank2(const Layout& l, std::int64_t n) {
  std::vector<IntTuple> shape, stride;
  for (std::size_t i = 0; i < 2; ++i) {
    const std::int64_t e = l.shape()[i].value(), d = l.stride()[i].value();
    if (d == 1) {
      if (e % n != 0) throw Error("upcast: extent " + std::to_string(e) + " is not divisible by " + std::to_string(n));
      shape.push_back(s(e / n));
      stride.push_back(s(1));
    } else {
      if (d % n != 0) throw Error("upcast: stride " + std::to_string(d) + " is not divisible by " + std::to_string(n));
      shape.push_back(s(e));
      stride.push_back(s(d / n));
    }
  }
  return Layout(IntTuple::tuple(shape), IntTuple::tuple(stride));
}

ComposedOffset smem_ptr_flag(int bits) {
  return ComposedOffset{std::nullopt, "smem_ptr[" + std::to_string(bits) + "b](unset)", bits};
}

}  // namespace

std::string to_string(GmmaSwizzle sw) {
  switch (sw) {
    case GmmaSwizzle::Inter: return "INTER";
    case GmmaSwizzle::SW32: return "SW32";
    case GmmaSwizzle::SW64: return "SW64";
    case GmmaSwizzle::SW128: return "SW128";
  }
  return "?";
}

int swizzle_width_bytes(GmmaSwizzle sw) { return 16 << static_cast<int>(sw); }

ComposedLayout gmma_smem_atom_bits(GmmaMajor major, GmmaSwizzle sw) {
  const std::int64_t span_bits = 8 * swizzle_width_bytes(sw);
  // The contiguous mode spans the swizzle width; the other mode is the 8 rows of a core matrix.
  const Layout l = major == GmmaMajor::MN ? Layout(IntTuple::tuple({s(span_bits), s(8)}), IntTuple::tuple({s(1), s(span_bits)}))
                                          : Layout(IntTuple::tuple({s(8), s(span_bits)}), IntTuple::tuple({s(span_bits), s(1)}));
  // Sw<b,4,3>: XOR the row (byte-address bits [7, 7+b)) into the 16-byte chunk (bits [4, 4+b)).
  return ComposedLayout{Swizzle(static_cast<int>(sw), 4, 3), smem_ptr_flag(1), l};
}

ComposedLayout gmma_smem_atom(GmmaMajor major, GmmaSwizzle sw, int element_bits) {
  if (element_bits != 8 && element_bits != 16 && element_bits != 32)
    throw Error("gmma_atom: element width must be 8, 16 or 32 bits (the wgmma operand widths), got " +
                std::to_string(element_bits));
  return smem_atom_for_elements(gmma_smem_atom_bits(major, sw), element_bits);
}

ComposedLayout smem_atom_for_elements(const ComposedLayout& bits_atom, int element_bits) {
  return ComposedLayout{bits_atom.swizzle, smem_ptr_flag(element_bits), upcast_rank2(bits_atom.layout, element_bits)};
}

}  // namespace cuteref
