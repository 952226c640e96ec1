// Vendor oracle probe for model/atoms (not built by meson): prints CuTe 4.2's values that the
// atoms unit tests and corpus/atoms quote as expected values. Build and run on the host:
//   g++ -std=c++17 -I.vendor/wheel/cutlass_library/source/include -I/usr/local/cuda/include/cccl \
//       -I/usr/local/cuda/include oracles/atoms_probe/tiled_mma_probe.cpp -o /tmp/probe && /tmp/probe
// (make_gmma_desc's start address needs a device; on the host CuTe prints an error and uses 0.)
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cstdio>
using namespace cute;
static float buf[1 << 20];


int main() {
  {
    auto mma = make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::MN>{}, Layout<Shape<_2,_1,_1>>{});
    auto C = make_tensor(make_gmem_ptr(buf), make_layout(make_shape(Int<128>{}, Int<128>{}), make_stride(_1{}, 512)));
    for (int t : {0, 129, 255}) { auto p = mma.get_thread_slice(t).partition_C(C); printf("SM90x2 C t=%d ", t); print(p.layout()); printf(" offset=%ld\n", long(raw_pointer_cast(p.data()) - buf)); }
    auto f = mma.get_thread_slice(0).partition_fragment_C(C); printf("SM90x2 fragC "); print(f.layout()); printf("\n");
  }
  {
    auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_0>>{});
    auto C = make_tensor(make_gmem_ptr(buf), make_layout(make_shape(Int<64>{}, Int<64>{})));
    auto A = make_tensor(make_gmem_ptr(buf), make_layout(make_shape(Int<64>{}, Int<32>{}), LayoutRight{}));
    auto B = make_tensor(make_gmem_ptr(buf), make_layout(make_shape(Int<64>{}, Int<32>{}), LayoutRight{}));
    for (int t : {37, 100}) {
      auto s = mma.get_thread_slice(t);
      auto pc = s.partition_C(C); printf("SM80 C t=%d ", t); print(pc.layout()); printf(" offset=%ld\n", long(raw_pointer_cast(pc.data()) - buf));
      auto pa = s.partition_A(A); printf("SM80 A t=%d ", t); print(pa.layout()); printf(" offset=%ld\n", long(raw_pointer_cast(pa.data()) - buf));
      auto pb = s.partition_B(B); printf("SM80 B t=%d ", t); print(pb.layout()); printf(" offset=%ld\n", long(raw_pointer_cast(pb.data()) - buf));
    }
    auto f = mma.get_thread_slice(0).partition_fragment_C(C); printf("SM80 fragC "); print(f.layout()); printf("\n");
    auto fa = mma.get_thread_slice(0).partition_fragment_A(A); printf("SM80 fragA "); print(fa.layout()); printf("\n");
  }
  {
    auto mma = make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{});
    auto C = make_tensor(make_gmem_ptr(buf), make_layout(make_shape(Int<32>{}, Int<16>{})));
    for (int t : {0, 2, 17, 19}) { auto p = mma.get_thread_slice(t).partition_C(C); printf("SM70 C t=%d ", t); print(p.layout()); printf(" offset=%ld\n", long(raw_pointer_cast(p.data()) - buf)); }
  }
  {
    auto mma = make_tiled_mma(SM90_64x32x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::K>{});
    auto A = make_tensor(make_gmem_ptr(buf), make_layout(make_shape(Int<64>{}, Int<32>{}), LayoutRight{}));
    auto p = mma.get_thread_slice(45).partition_A(A); printf("SM90RS A t=45 "); print(p.layout()); printf(" offset=%ld\n", long(raw_pointer_cast(p.data()) - buf));
    auto f = mma.get_thread_slice(45).partition_fragment_A(A); printf("SM90RS fragA "); print(f.layout()); printf("\n");
  }
  {
    auto mma = make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::MN>{});
    alignas(1024) static half_t sbuf[128*64*3];
    auto sA = make_tensor(make_smem_ptr(sbuf), tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(Int<128>{},Int<64>{},Int<3>{})));
    auto C = make_tensor(make_gmem_ptr(buf), make_layout(make_shape(Int<128>{}, Int<128>{}), make_stride(_1{}, 512)));
    auto s = mma.get_thread_slice(0);
    auto tCsA = s.partition_A(sA); printf("tCsA "); print(tCsA.layout()); printf("\n");
    auto tCrA = s.make_fragment_A(tCsA); printf("tCrA "); print(tCrA.layout()); printf("\n");
    auto tCgC = s.partition_C(C); printf("tCgC "); print(tCgC.layout()); printf("\n");
    auto tCrC = s.partition_fragment_C(C); printf("tCrC "); print(tCrC.layout()); printf("\n");
    auto t5 = mma.get_thread_slice(5).partition_C(C); printf("t5 "); print(t5.layout()); printf(" offset=%ld\n", long(raw_pointer_cast(t5.data()) - buf));
  }
  {
    // SM70 quadpairs tiled 2 x 2 (AtomLayoutMNK column-major): the atoms fill lanes 0..31.
    auto mma = make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2,_1>>{});
    auto C = make_tensor(make_gmem_ptr(buf), make_layout(make_shape(Int<32>{}, Int<32>{})));
    auto A = make_tensor(make_gmem_ptr(buf), make_layout(make_shape(Int<32>{}, Int<8>{})));
    printf("SM70x4 size=%d thr_layout ", int(size(mma))); print(mma.get_thr_layout_vmnk()); printf("\n");
    for (int t : {0, 4, 9, 17, 22, 31}) {
      auto s = mma.get_thread_slice(t);
      auto pc = s.partition_C(C); printf("SM70x4 C t=%d ", t); print(pc.layout()); printf(" offset=%ld\n", long(raw_pointer_cast(pc.data()) - buf));
      auto pa = s.partition_A(A); printf("SM70x4 A t=%d ", t); print(pa.layout()); printf(" offset=%ld\n", long(raw_pointer_cast(pa.data()) - buf));
    }
  }
  return 0;
}
