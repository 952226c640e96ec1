// Vendor oracle probe for model/atoms/copy_atom (not built by meson): prints CuTe 4.2's
// Copy_Traits of the SM75 ldmatrix atoms (ThrID, SrcLayout, DstLayout, RefLayout, in bits) and
// the 16-bit value layouts of Copy_Atom<Traits, uint16_t>, which corpus/atoms/copy_ldsm.txt
// quotes as expected values. Build and run on the host:
//   g++ -std=c++17 -I.vendor/wheel/cutlass_library/source/include -I/usr/local/cuda/include/cccl \
//       -I/usr/local/cuda/include oracles/atoms_probe/copy_ldsm_probe.cpp -o /tmp/probe && /tmp/probe
#include <cute/tensor.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cstdio>
using namespace cute;
template <class Op> void show(const char* name) {
  using T = Copy_Traits<Op>;
  using A = Copy_Atom<T, uint16_t>;
  printf("%s\n thr ", name); print(typename T::ThrID{});
  printf("\n src "); print(typename T::SrcLayout{});
  printf("\n dst "); print(typename T::DstLayout{});
  printf("\n ref "); print(typename T::RefLayout{});
  printf("\n src16 "); print(typename A::ValLayoutSrc{});
  printf("\n dst16 "); print(typename A::ValLayoutDst{});
  printf("\n ref16 "); print(typename A::ValLayoutRef{});
  printf("\n");
}
int main() {
  show<SM75_U32x1_LDSM_N>("SM75_U32x1_LDSM_N");
  show<SM75_U32x2_LDSM_N>("SM75_U32x2_LDSM_N");
  show<SM75_U32x4_LDSM_N>("SM75_U32x4_LDSM_N");
  show<SM75_U16x2_LDSM_T>("SM75_U16x2_LDSM_T");
  show<SM75_U16x4_LDSM_T>("SM75_U16x4_LDSM_T");
  show<SM75_U16x8_LDSM_T>("SM75_U16x8_LDSM_T");
  return 0;
}
