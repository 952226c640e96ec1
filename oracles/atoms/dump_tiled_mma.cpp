// Vendor oracle: CuTe's TiledMMA partitions for a set of tiled MMAs and every thread:
// partition_A/B/C (layout and pointer offset), and per tiled MMA partition_fragment_C and
// make_fragment_A/B, printed for compare_atoms (`partition\t...` and `fragment\tEXPR\tVALUE`).
// For a swizzled shared-memory operand (a tensor over a swizzle pointer) also the physical
// element offsets of the partition, &partitioned(i) - base for every i, as a ValueHash with the
// first values (`swizzled_partition\t...`): the function the model's partition of the composed
// layout must be.
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>

#include <cstdio>
#include <string>
#include <type_traits>

#include "value_hash.hpp"
#include <utility>

using namespace cute;

namespace {

alignas(1024) uint8_t buffer[1 << 22];

template <class T>
T* base() {
  return reinterpret_cast<T*>(buffer);
}

// Operand view: the tensor CuTe partitions and the layout the model is given (the swizzled
// composed layout for shared memory, as CuTe prints it).
template <class Tensor, class Printable>
struct Operand {
  Tensor tensor;
  Printable printed;
};
template <class Tensor, class Printable>
Operand<Tensor, Printable> operand(Tensor const& t, Printable const& p) {
  return {t, p};
}

// The physical element offsets of a partition of a swizzle-pointer tensor, when the operand's
// printed layout is a ComposedLayout (a swizzled SMEM layout); nothing otherwise.
template <class AtomLayout, class Perm, class P, class Op>
void show_swizzled(const char* which, const char* atom, AtomLayout const& atom_layout, Perm const& perm, int t, P const& p,
                   Op const& operand) {
  if constexpr (is_composed_layout<std::decay_t<decltype(operand.printed)>>::value) {
    const auto* base = raw_pointer_cast(operand.tensor.data());
    ValueHash hash;
    std::string first;
    for (int i = 0; i < int(size(p)); ++i) {
      const long offset = long(&p(i) - base);  // the swizzle pointer's dereference is the physical element
      hash.add(offset);
      if (i < 16) first += (i ? "," : "") + std::to_string(offset);
    }
    std::printf("swizzled_partition\t%s\t%s\t", which, atom);
    print(atom_layout);
    std::printf("\t%d\t", t);
    print(operand.printed);
    std::printf("\t%d\t%llu\t", int(size(p)), (unsigned long long)hash.digest());
    print(perm);
    std::printf("\t%s\n", first.c_str());
  }
}

// Every thread of make_tiled_mma(Op{}, atom_layout, permutation) partitions a, b and c.
template <class Op, class AtomLayout, class Perm, class A, class B, class C>
void tiled_cases(const char* atom, Op, AtomLayout const& atom_layout, Perm const& perm, A const& a, B const& b, C const& c) {
  auto mma = make_tiled_mma(Op{}, atom_layout, perm);
  auto thr_layout = mma.get_thr_layout_vmnk();
  for (int i = 0; i < int(size(mma)); ++i) {
    const int t = int(thr_layout(i));  // the thread indices are the image of the thread layout
    auto s = mma.get_thread_slice(t);
    auto pa = s.partition_A(a.tensor);
    auto pb = s.partition_B(b.tensor);
    auto pc = s.partition_C(c.tensor);
    const auto show = [&](const char* op, auto const& p, auto const& operand) {
      // A tensor whose layout is itself a swizzled ComposedLayout (not a swizzle pointer): CuTe's
      // slice decays it to a plain layout with the offset split between layout and pointer
      // (swizzle_layout.hpp), not comparable with the model's partition of the inner layout;
      // its function is checked by the swizzled_partition line.
      if constexpr (is_composed_layout<std::decay_t<decltype(operand.tensor.layout())>>::value) {
        return;
      } else {
        std::printf("partition\t%s\t%s\t", op, atom);
        print(atom_layout);
        std::printf("\t%d\t", t);
        print(operand.printed);
        std::printf("\t");
        print(p.layout());
        std::printf("\t%ld\t", long(raw_pointer_cast(p.data()) - raw_pointer_cast(operand.tensor.data())));
        print(perm);
        std::printf("\n");
      }
    };
    show("A", pa, a);
    show("B", pb, b);
    show("C", pc, c);
    // Every thread's when the partitions are small (register operands), else three threads'
    // (an SS GMMA operand partition has tens of thousands of elements per thread).
    if (size(pa) <= 64 || i == 0 || i == int(size(mma)) / 2 || i == int(size(mma)) - 1) {
      show_swizzled("A", atom, atom_layout, perm, t, pa, a);
      show_swizzled("B", atom, atom_layout, perm, t, pb, b);
    }
    if (i == 0 || i == int(size(mma)) - 1) {
      // Computed before printing: on the host CuTe's descriptor construction prints a warning line.
      auto fc = s.partition_fragment_C(c.tensor);
      auto fa = s.make_fragment_A(pa);
      auto fb = s.make_fragment_B(pb);
      const auto tiled = [&] {
        std::printf("make_tiled_mma(%s, ", atom);
        print(atom_layout);
        std::printf(", ");
        print(perm);
        std::printf(")");
      };
      std::printf("fragment\tpartition_fragment_C(");
      tiled();
      std::printf(", ");
      print(c.printed);
      std::printf(")\t");
      print(fc.layout());
      std::printf("\nfragment\tmake_fragment_A(");
      tiled();
      std::printf(", partition_A(");
      tiled();
      std::printf(", %d, ", t);
      print(a.printed);
      std::printf("))\t");
      print(fa.layout());
      std::printf("\nfragment\tmake_fragment_B(");
      tiled();
      std::printf(", partition_B(");
      tiled();
      std::printf(", %d, ", t);
      print(b.printed);
      std::printf("))\t");
      print(fb.layout());
      std::printf("\n");
    }
  }
}

template <class T, class L>
auto gmem(L const& l) {
  return operand(make_tensor(make_gmem_ptr(base<T>()), l), l);
}
template <class T, class L>
auto smem(L const& l) {
  return operand(make_tensor(make_smem_ptr(base<T>()), l), l);
}

}  // namespace

int main() {
  using MN = Int<128>;
  {  // seed 002's running example: one warpgroup, MN-major SW128 stages, column-major C, ldC 512
    auto mma = std::make_pair(SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN, GMMA::Major::MN>{}, Layout<Shape<_1, _1, _1>>{});
    auto sA = tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(MN{}, _64{}, _3{}));
    tiled_cases("SM90_64x64x16_F16F16F16_SS<MN,MN>", mma.first, mma.second, Tile<Underscore, Underscore, Underscore>{}, smem<half_t>(sA), smem<half_t>(sA),
                gmem<half_t>(make_layout(make_shape(MN{}, MN{}), make_stride(_1{}, 512))));
  }
  {  // two warpgroups along M
    auto mma = std::make_pair(SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN, GMMA::Major::MN>{}, Layout<Shape<_2, _1, _1>>{});
    auto sA = tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(MN{}, _64{}, _3{}));
    tiled_cases("SM90_64x64x16_F16F16F16_SS<MN,MN>", mma.first, mma.second, Tile<Underscore, Underscore, Underscore>{}, smem<half_t>(sA), smem<half_t>(sA),
                gmem<half_t>(make_layout(make_shape(MN{}, MN{}), make_stride(_1{}, 512))));
  }
  {  // K-major bf16, N = 128, C row-major
    auto mma = std::make_pair(SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K, GMMA::Major::K>{}, Layout<Shape<_1, _1, _1>>{});
    auto sA = tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, make_shape(MN{}, _64{}, _2{}));
    auto sB = tile_to_shape(GMMA::Layout_K_SW64_Atom<bfloat16_t>{}, make_shape(Int<256>{}, _64{}, _2{}));
    tiled_cases("SM90_64x128x16_F32BF16BF16_SS<K,K>", mma.first, mma.second, Tile<Underscore, Underscore, Underscore>{}, smem<bfloat16_t>(sA), smem<bfloat16_t>(sB),
                gmem<float>(make_layout(make_shape(MN{}, Int<256>{}), LayoutRight{})));
  }
  {  // 8-bit K-major, tiled 1 x 2 along N
    auto mma = std::make_pair(SM90_64x96x32_S32S8S8_SS_TN{}, Layout<Shape<_1, _2, _1>>{});
    auto sA = tile_to_shape(GMMA::Layout_K_SW64_Atom<int8_t>{}, make_shape(_64{}, _64{}));
    auto sB = tile_to_shape(GMMA::Layout_K_SW32_Atom<int8_t>{}, make_shape(Int<192>{}, _64{}));
    tiled_cases("SM90_64x96x32_S32S8S8_SS_TN", mma.first, mma.second, Tile<Underscore, Underscore, Underscore>{}, smem<int8_t>(sA), smem<int8_t>(sB),
                gmem<int32_t>(make_layout(make_shape(_64{}, Int<192>{}))));
  }
  {  // tf32, K-major SW32 B
    auto mma = std::make_pair(SM90_64x32x8_F32TF32TF32_SS_TN{}, Layout<Shape<_1, _1, _1>>{});
    auto sA = tile_to_shape(GMMA::Layout_K_SW128_Atom<tfloat32_t>{}, make_shape(_64{}, _32{}));
    auto sB = tile_to_shape(GMMA::Layout_K_SW32_Atom<tfloat32_t>{}, make_shape(_32{}, _32{}));
    tiled_cases("SM90_64x32x8_F32TF32TF32_SS_TN", mma.first, mma.second, Tile<Underscore, Underscore, Underscore>{}, smem<tfloat32_t>(sA), smem<tfloat32_t>(sB),
                gmem<float>(make_layout(make_shape(_64{}, _32{}), make_stride(_1{}, 96))));
  }
  {  // RS: A from registers (a row-major global tile), B MN-major
    auto mma = std::make_pair(SM90_64x32x16_F32BF16BF16_RS<GMMA::Major::K, GMMA::Major::MN>{}, Layout<Shape<_1, _1, _1>>{});
    auto sB = tile_to_shape(GMMA::Layout_MN_SW64_Atom<bfloat16_t>{}, make_shape(_32{}, _32{}));
    tiled_cases("SM90_64x32x16_F32BF16BF16_RS<K,MN>", mma.first, mma.second, Tile<Underscore, Underscore, Underscore>{}, gmem<bfloat16_t>(make_layout(make_shape(_64{}, _32{}), LayoutRight{})),
                smem<bfloat16_t>(sB), gmem<float>(make_layout(make_shape(_64{}, _32{}))));
  }
  {  // RS fp8 (four values per 32-bit register)
    auto mma = std::make_pair(SM90_64x64x32_F32E4M3E4M3_RS_TN{}, Layout<Shape<_1, _1, _1>>{});
    auto sB = tile_to_shape(GMMA::Layout_K_SW128_Atom<float_e4m3_t>{}, make_shape(_64{}, Int<128>{}));
    tiled_cases("SM90_64x64x32_F32E4M3E4M3_RS_TN", mma.first, mma.second, Tile<Underscore, Underscore, Underscore>{},
                gmem<float_e4m3_t>(make_layout(make_shape(_64{}, Int<128>{}), LayoutRight{})), smem<float_e4m3_t>(sB),
                gmem<float>(make_layout(make_shape(_64{}, _64{}))));
  }
  {  // SM80 with a permutation of N (CUTLASS's idiom for wider per-thread N runs) and of M
    using PermN = Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>;
    tiled_cases("SM80_16x8x16_F32F16F16F32_TN", SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _0>>{},
                Tile<Underscore, PermN, Underscore>{}, gmem<half_t>(make_layout(make_shape(_64{}, _32{}), LayoutRight{})),
                gmem<half_t>(make_layout(make_shape(_64{}, _32{}), LayoutRight{})),
                gmem<float>(make_layout(make_shape(_64{}, _64{}))));
    using PermM = Layout<Shape<_2, _16>, Stride<_16, _1>>;
    tiled_cases("SM80_16x8x8_F16F16F16F16_TN", SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_1, _2, _1>>{},
                Tile<PermM, _32, _16>{}, gmem<half_t>(make_layout(make_shape(_64{}, _16{}), LayoutRight{})),
                gmem<half_t>(make_layout(make_shape(_32{}, _16{}), LayoutRight{})),
                gmem<half_t>(make_layout(make_shape(_64{}, _32{}))));
  }
  {  // SM80 operands in swizzled shared memory, CUTLASS's SM80 idiom: Swizzle<3,3,3> on element
     // offsets over 8 x 64 K-major half_t rows; each thread's offset reaches the swizzled bits
    auto mma = std::make_pair(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{});
    auto atom_k = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{});
    tiled_cases("SM80_16x8x16_F32F16F16F32_TN", mma.first, mma.second, Tile<Underscore, Underscore, Underscore>{},
                smem<half_t>(tile_to_shape(atom_k, make_shape(_64{}, _64{}))),
                smem<half_t>(tile_to_shape(atom_k, make_shape(_32{}, _64{}))), gmem<float>(make_layout(make_shape(_64{}, _32{}))));
  }
  {  // SM80, 2 x 2 warps with N-major warp order
    auto mma = std::make_pair(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _0>>{});
    tiled_cases("SM80_16x8x16_F32F16F16F32_TN", mma.first, mma.second, Tile<Underscore, Underscore, Underscore>{}, gmem<half_t>(make_layout(make_shape(_64{}, _32{}), LayoutRight{})),
                gmem<half_t>(make_layout(make_shape(_64{}, _32{}), LayoutRight{})),
                gmem<float>(make_layout(make_shape(_64{}, _64{}))));
  }
  {
    auto mma = std::make_pair(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_1, _4, _1>>{});
    tiled_cases("SM80_16x8x8_F32TF32TF32F32_TN", mma.first, mma.second, Tile<Underscore, Underscore, Underscore>{},
                gmem<tfloat32_t>(make_layout(make_shape(_32{}, _16{}), make_stride(_16{}, _1{}))),
                gmem<tfloat32_t>(make_layout(make_shape(_64{}, _16{}), make_stride(_1{}, _64{}))),
                gmem<float>(make_layout(make_shape(_32{}, _64{}), make_stride(_64{}, _1{}))));
  }
  {
    auto mma = std::make_pair(SM80_16x8x32_S32S8S8S32_TN{}, Layout<Shape<_2, _1, _1>>{});
    tiled_cases("SM80_16x8x32_S32S8S8S32_TN", mma.first, mma.second, Tile<Underscore, Underscore, Underscore>{}, gmem<int8_t>(make_layout(make_shape(_32{}, _64{}), LayoutRight{})),
                gmem<int8_t>(make_layout(make_shape(_16{}, _64{}), LayoutRight{})),
                gmem<int32_t>(make_layout(make_shape(_32{}, _16{}))));
  }
  {  // SM70 quadpairs: one atom, and 2 x 2 atoms filling the warp
    auto one = std::make_pair(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_1, _1, _1>>{});
    tiled_cases("SM70_8x8x4_F32F16F16F32_NT", one.first, one.second, Tile<Underscore, Underscore, Underscore>{}, gmem<half_t>(make_layout(make_shape(_32{}, _8{}))),
                gmem<half_t>(make_layout(make_shape(_16{}, _8{}))), gmem<float>(make_layout(make_shape(_32{}, _16{}))));
    auto four = std::make_pair(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2, _2, _1>>{});
    tiled_cases("SM70_8x8x4_F32F16F16F32_NT", four.first, four.second, Tile<Underscore, Underscore, Underscore>{}, gmem<half_t>(make_layout(make_shape(_32{}, _8{}))),
                gmem<half_t>(make_layout(make_shape(_32{}, _8{}))), gmem<float>(make_layout(make_shape(_32{}, _32{}))));
    auto row = std::make_pair(SM70_8x8x4_F16F16F16F16_TN{}, Layout<Shape<_1, _4, _1>>{});
    tiled_cases("SM70_8x8x4_F16F16F16F16_TN", row.first, row.second, Tile<Underscore, Underscore, Underscore>{}, gmem<half_t>(make_layout(make_shape(_16{}, _8{}), LayoutRight{})),
                gmem<half_t>(make_layout(make_shape(_64{}, _8{}), LayoutRight{})),
                gmem<half_t>(make_layout(make_shape(_16{}, _64{}), LayoutRight{})));
  }
  return 0;
}
