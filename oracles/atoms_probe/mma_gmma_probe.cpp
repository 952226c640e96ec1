// Vendor oracle probe for model/atoms (not built by meson): prints CuTe 4.2's values that the
// atoms unit tests and corpus/atoms quote as expected values. Build and run on the host:
//   g++ -std=c++17 -I.vendor/wheel/cutlass_library/source/include -I/usr/local/cuda/include/cccl \
//       -I/usr/local/cuda/include oracles/atoms_probe/mma_gmma_probe.cpp -o /tmp/probe && /tmp/probe
// (make_gmma_desc's start address needs a device; on the host CuTe prints an error and uses 0.)
#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/arch/mma_sm90_gmma_ext.hpp>
#include <cute/atom/mma_traits_sm90_gmma_ext.hpp>
#include <cstdio>
using namespace cute;
template <class Op> void show(const char* name) {
  using T = MMA_Traits<Op>;
  printf("%s\n shape ", name); print(typename T::Shape_MNK{}); printf("\n thr "); print(typename T::ThrID{});
  printf("\n A "); print(typename T::ALayout{}); printf("\n B "); print(typename T::BLayout{});
  printf("\n C "); print(typename T::CLayout{}); printf("\n");
}
template <class Atom> void atom(const char* n) { printf("%s ", n); print(Atom{}); printf("\n"); }
template <GMMA::Major M, class T, class L> void desc(const char* n, L l) {
  alignas(1024) static T buf[16384];
  auto t = make_tensor(make_smem_ptr(buf), l);
  GmmaDescriptor d = GMMA::make_gmma_desc<M>(t);
  print(l); printf("  ");
  printf("%s lbo=%d sbo=%d base=%d type=%d\n", n, d.bitfield.leading_byte_offset_, d.bitfield.stride_byte_offset_, d.bitfield.base_offset_, d.bitfield.layout_type_);
}
int main() {
  show<SM70_8x8x4_F32F16F16F32_NT>("SM70_8x8x4_F32F16F16F32_NT");
  show<SM70_8x8x4_F16F16F16F16_TN>("SM70_8x8x4_F16F16F16F16_TN");
  show<SM70_8x8x4_F32F16F16F32_NN>("SM70_8x8x4_F32F16F16F32_NN");
  show<SM70_8x8x4_F32F16F16F32_TT>("SM70_8x8x4_F32F16F16F32_TT");
  show<SM80_16x8x8_F16F16F16F16_TN>("SM80_16x8x8_F16F16F16F16_TN");
  show<SM80_16x8x16_F32BF16BF16F32_TN>("SM80_16x8x16_F32BF16BF16F32_TN");
  show<SM80_16x8x8_F32TF32TF32F32_TN>("SM80_16x8x8_F32TF32TF32F32_TN");
  show<SM80_16x8x32_S32S8U8S32_TN>("SM80_16x8x32_S32S8U8S32_TN");
  show<SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>>("SM90_64x128x16_F32F16F16_SS");
  show<SM90_64x24x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::MN>>("SM90_64x24x16_F16F16F16_RS");
  show<SM90_64x40x8_F32TF32TF32_RS_TN<>>("SM90_64x40x8_F32TF32TF32_RS_TN");
  show<SM90_64x48x32_S32U8S8_RS_TN>("SM90_64x48x32_S32U8S8_RS_TN");
  show<SM90_64x256x32_F16E4M3E5M2_SS_TN<>>("SM90_64x256x32_F16E4M3E5M2_SS_TN");
  atom<GMMA::Layout_MN_INTER_Atom<half_t>>("MN INTER 16");
  atom<GMMA::Layout_MN_SW32_Atom<uint8_t>>("MN SW32 8");
  atom<GMMA::Layout_MN_SW64_Atom<float>>("MN SW64 32");
  atom<GMMA::Layout_MN_SW128_Atom<half_t>>("MN SW128 16");
  atom<GMMA::Layout_K_INTER_Atom<float>>("K INTER 32");
  atom<GMMA::Layout_K_SW32_Atom<half_t>>("K SW32 16");
  atom<GMMA::Layout_K_SW64_Atom<uint8_t>>("K SW64 8");
  atom<GMMA::Layout_K_SW128_Atom<half_t>>("K SW128 16");
  auto sA_mn = tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(Int<128>{},Int<64>{},Int<3>{}));
  auto sA_k = tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<128>{},Int<64>{},Int<3>{}));
  printf("sA_mn "); print(sA_mn); printf("\nsA_k "); print(sA_k); printf("\n");
  // descriptors for one atom tile: tile the atom over a big (256, 128-byte K) tile, take the (MN, K) corner
#define D(MAJ, T, ATOM, BIGMN, BIGK, MN, K) desc<GMMA::Major::MAJ, T>(#MAJ " " #ATOM " " #T " " #MN "x" #K, \
    composition(tile_to_shape(GMMA::ATOM<T>{}, Shape<Int<BIGMN>,Int<BIGK>>{}), make_tile(Layout<Int<MN>>{}, Layout<Int<K>>{})));
  D(K, half_t, Layout_K_SW128_Atom, 128, 64, 64, 16)
  D(K, half_t, Layout_K_SW64_Atom, 128, 64, 64, 16)
  D(K, half_t, Layout_K_SW32_Atom, 128, 64, 64, 16)
  D(K, half_t, Layout_K_INTER_Atom, 128, 64, 64, 16)
  D(K, half_t, Layout_K_SW128_Atom, 128, 64, 8, 16)
  D(K, half_t, Layout_K_INTER_Atom, 128, 64, 8, 16)
  D(K, uint8_t, Layout_K_SW64_Atom, 128, 128, 64, 32)
  D(K, float, Layout_K_SW32_Atom, 128, 32, 64, 8)
  D(MN, half_t, Layout_MN_SW128_Atom, 128, 64, 64, 16)
  D(MN, half_t, Layout_MN_SW64_Atom, 128, 64, 64, 16)
  D(MN, half_t, Layout_MN_SW32_Atom, 128, 64, 64, 16)
  D(MN, half_t, Layout_MN_INTER_Atom, 128, 64, 64, 16)
  D(MN, half_t, Layout_MN_SW128_Atom, 256, 64, 128, 16)
  D(MN, half_t, Layout_MN_INTER_Atom, 128, 64, 8, 16)
  D(MN, half_t, Layout_MN_SW32_Atom, 128, 64, 16, 16)
  D(MN, uint8_t, Layout_MN_SW64_Atom, 128, 64, 64, 32)
  return 0;
}
