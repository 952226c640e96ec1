// Vendor oracle: CuTe's GMMA shared-memory layout atoms (8-, 16-, 32-bit elements, both majors,
// the 4 swizzles), tile_to_shape over them, and make_gmma_desc of operand tiles cut from those
// tilings, printed as `KIND\tEXPR\tVALUE` lines for compare_atoms. On the host CuTe's
// make_gmma_desc cannot convert a shared-memory pointer (it prints an error line, ignored by
// compare_atoms, and uses start address 0), so the descriptors are for base address 0.
#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>

#include <cstdio>

using namespace cute;

namespace {

alignas(1024) uint8_t smem_buffer[1 << 20];

template <class Layout>
void print_line(const char* kind, const char* prefix, Layout const& l, const char* suffix) {
  std::printf("%s\t%s", kind, prefix);
  print(l);
  std::printf("%s", suffix);
}

template <GMMA::Major Major, class T, class Tile>
void descriptor(Tile const& tile, int bits) {
  auto tensor = make_tensor(make_smem_ptr(reinterpret_cast<T*>(smem_buffer)), tile);
  const GmmaDescriptor d = GMMA::make_gmma_desc<Major>(tensor);
  char suffix[64];
  std::snprintf(suffix, sizeof suffix, ", %d)\t", bits);
  print_line("gmma_desc", "gmma_desc(", tile, suffix);
  std::printf("(%d,%d,%d,%d,%d)\n", int(d.bitfield.start_address_), int(d.bitfield.leading_byte_offset_),
              int(d.bitfield.stride_byte_offset_), int(d.bitfield.base_offset_), int(d.bitfield.layout_type_));
}

// One atom: its printout, two tilings, and the descriptors of (MN, 32-byte K) operand tiles.
template <GMMA::Major Major, class Atom, class T>
void atom_cases(const char* major, const char* swizzle) {
  constexpr int bits = sizeof_bits<T>::value;
  const Atom atom{};
  char call[96];
  std::snprintf(call, sizeof call, "gmma_atom(%s, %s, %d)", major, swizzle, bits);
  std::printf("gmma_atom\t%s\t", call);
  print(atom);
  std::printf("\n");

  // (MN, K) extents of the atom, and the 32-byte K of one wgmma.
  constexpr int atom_mn = decltype(size<0>(atom))::value, atom_k = decltype(size<1>(atom))::value;
  constexpr int k32 = 256 / bits;
  constexpr int mn = atom_mn > 64 ? atom_mn : 64;
  constexpr int big_k = atom_k > 2 * k32 ? atom_k : 2 * k32;
  auto tiled2 = tile_to_shape(atom, Shape<Int<2 * mn>, Int<big_k>>{});
  auto tiled3 = tile_to_shape(atom, Shape<Int<2 * mn>, Int<big_k>, _3>{});
  char prefix[160];
  std::snprintf(prefix, sizeof prefix, "tile_to_shape(%s, (_%d,_%d))\t", call, 2 * mn, big_k);
  print_line("tile_to_shape", prefix, tiled2, "\n");
  std::snprintf(prefix, sizeof prefix, "tile_to_shape(%s, (_%d,_%d,_3))\t", call, 2 * mn, big_k);
  print_line("tile_to_shape", prefix, tiled3, "\n");

  descriptor<Major, T>(composition(tiled2, make_tile(Layout<Int<mn>>{}, Layout<Int<k32>>{})), bits);
  descriptor<Major, T>(composition(tiled2, make_tile(Layout<Int<2 * mn>>{}, Layout<Int<k32>>{})), bits);
}

}  // namespace

#define CUTEREF_ATOMS(T)                                                                              \
  atom_cases<GMMA::Major::MN, GMMA::Layout_MN_INTER_Atom<T>, T>("MN", "INTER");                      \
  atom_cases<GMMA::Major::MN, GMMA::Layout_MN_SW32_Atom<T>, T>("MN", "SW32");                        \
  atom_cases<GMMA::Major::MN, GMMA::Layout_MN_SW64_Atom<T>, T>("MN", "SW64");                        \
  atom_cases<GMMA::Major::MN, GMMA::Layout_MN_SW128_Atom<T>, T>("MN", "SW128");                      \
  atom_cases<GMMA::Major::K, GMMA::Layout_K_INTER_Atom<T>, T>("K", "INTER");                         \
  atom_cases<GMMA::Major::K, GMMA::Layout_K_SW32_Atom<T>, T>("K", "SW32");                           \
  atom_cases<GMMA::Major::K, GMMA::Layout_K_SW64_Atom<T>, T>("K", "SW64");                           \
  atom_cases<GMMA::Major::K, GMMA::Layout_K_SW128_Atom<T>, T>("K", "SW128");

int main() {
  CUTEREF_ATOMS(uint8_t)
  CUTEREF_ATOMS(half_t)
  CUTEREF_ATOMS(float)
  return 0;
}
