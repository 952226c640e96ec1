// Vendor oracle: CuTe's TiledCopy for a set of tiled copies (make_tiled_copy,
// make_tiled_copy_A/B/C and make_tiled_copy_C_atom over UniversalCopy, cp.async, ldmatrix and stmatrix atoms), printed for
// compare_atoms:
//   copy\tEXPR\tVALUE       the copy atoms' layouts, each tiled copy's TiledLayout_TV, Tiler_MN,
//                           get_layoutS_TV, get_layoutD_TV and retile_D of an MMA fragment
//   copy_partition\tS|D\tTILED_COPY\tTHREAD\tTENSOR\tLAYOUT\tOFFSET\tADDRESSES
//                           every thread's partition_S / partition_D of a tensor: the layout CuTe
//                           prints, the pointer offset, and the element offset of every value
//                           (for a swizzled tensor the layout is its ComposedLayout's)
#include <cute/tensor.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/arch/mma_sm90_gmma_ext.hpp>
#include <cute/atom/mma_traits_sm90_gmma_ext.hpp>

#include <cstdio>
#include <string>

using namespace cute;

namespace {

alignas(1024) uint8_t buffer[1 << 20];

template <class T>
T* base() {
  return reinterpret_cast<T*>(buffer);
}

template <class X>
std::string printed(X const& x) {
  // CuTe's print writes to stdout (printf): point glibc's stdout at a memory stream meanwhile.
  char* data = nullptr;
  size_t size = 0;
  FILE* mem = open_memstream(&data, &size);
  FILE* saved = stdout;
  fflush(stdout);
  stdout = mem;
  print(x);
  fflush(stdout);
  stdout = saved;
  fclose(mem);
  std::string out(data, size);
  free(data);
  return out;
}

// Every thread's partition_S and partition_D of `tensor` (printed as `shown`).
template <class Tiled, class Tensor>
void partitions(const std::string& tc, Tiled const& tiled, Tensor const& tensor, std::string const& shown) {
  using T = typename Tensor::value_type;
  for (int t = 0; t < int(size(tiled)); ++t) {
    auto thr = tiled.get_slice(t);
    const auto show = [&](const char* which, auto const& p) {
      std::printf("copy_partition\t%s\t%s\t%d\t%s\t%s\t%ld\t", which, tc.c_str(), t, shown.c_str(), printed(p.layout()).c_str(),
                  long(raw_pointer_cast(p.data()) - base<T>()));
      for (int v = 0; v < int(size(p)); ++v) std::printf("%s%ld", v ? "," : "", long(&p(v) - base<T>()));
      std::printf("\n");
    };
    show("S", thr.partition_S(tensor));
    show("D", thr.partition_D(tensor));
  }
}

template <class Tiled>
void layouts(const std::string& tc, Tiled const& tiled) {
  using C = Tiled;
  std::printf("copy\ttiled_copy_layout(%s, TV)\t%s\n", tc.c_str(), printed(typename C::TiledLayout_TV{}).c_str());
  std::printf("copy\ttiled_copy_tiler(%s)\t%s\n", tc.c_str(), printed(typename C::Tiler_MN{}).c_str());
  std::printf("copy\ttiled_copy_layout(%s, S)\t%s\n", tc.c_str(), printed(tiled.get_layoutS_TV()).c_str());
  std::printf("copy\ttiled_copy_layout(%s, D)\t%s\n", tc.c_str(), printed(tiled.get_layoutD_TV()).c_str());
}

template <class T, class L>
auto smem(L const& l) {
  return make_tensor(make_smem_ptr(base<T>()), l);
}

// make_tiled_copy(Copy_Atom<Op, T>, thr, val) partitioning a plain and (if given) a swizzled tensor.
template <class Op, class T, class Thr, class Val, class Plain, class Swizzled>
void plain_copy(const char* op, Thr const& thr, Val const& val, Plain const& plain, Swizzled const& sw) {
  auto tiled = make_tiled_copy(Copy_Atom<Op, T>{}, thr, val);
  const std::string tc = std::string("make_tiled_copy(") + op + ", " + std::to_string(sizeof_bits<T>::value) + ", " +
                         printed(thr) + ", " + printed(val) + ")";
  layouts(tc, tiled);
  partitions(tc, tiled, smem<T>(plain), printed(plain));
  if constexpr (!is_same_v<Swizzled, int>) {
    partitions(tc, tiled, smem<T>(sw), printed(sw));
  }
}

template <class MmaOp, class AtomLayout, class Perm>
std::string mma_expr(const char* mma, AtomLayout const& al, Perm const& perm) {
  return std::string("make_tiled_mma(") + mma + ", " + printed(al) + ", " + printed(perm) + ")";
}

// make_tiled_copy_A/B/C(Copy_Atom<Op, T>, mma) (Which 'c': make_tiled_copy_C_atom), partitioning
// `tensor` (and a swizzled one); with `fragment`, retile_D of thread 0's register fragment of
// `tensor` as the MMA makes it.
template <char Which, class Op, class T, class MmaOp, class AtomLayout, class Perm, class Plain, class Swizzled>
void mma_copy(const char* op, const char* mma_name, AtomLayout const& al, Perm const& perm, Plain const& plain,
              Swizzled const& sw, bool fragment) {
  auto mma = make_tiled_mma(MmaOp{}, al, perm);
  const std::string m = mma_expr<MmaOp>(mma_name, al, perm);
  auto tiled = [&] {
    if constexpr (Which == 'A') return make_tiled_copy_A(Copy_Atom<Op, T>{}, mma);
    else if constexpr (Which == 'B') return make_tiled_copy_B(Copy_Atom<Op, T>{}, mma);
    else if constexpr (Which == 'C') return make_tiled_copy_C(Copy_Atom<Op, T>{}, mma);
    else return make_tiled_copy_C_atom(Copy_Atom<Op, T>{}, mma);
  }();
  const std::string fn = Which == 'c' ? std::string("make_tiled_copy_C_atom") : std::string("make_tiled_copy_") + Which;
  const std::string tc = fn + "(" + op + ", " + std::to_string(sizeof_bits<T>::value) + ", " + m + ")";
  layouts(tc, tiled);
  partitions(tc, tiled, smem<T>(plain), printed(plain));
  if constexpr (!is_same_v<Swizzled, int>) {
    partitions(tc, tiled, smem<T>(sw), printed(sw));
  }
  if (fragment) {
    auto thr_mma = mma.get_slice(0);
    auto tensor = smem<T>(plain);
    if constexpr (Which == 'A') {
      auto frag = thr_mma.partition_fragment_A(tensor);
      std::printf("copy\tretile(%s, make_fragment_A(%s, partition_A(%s, 0, %s)))\t%s\n", tc.c_str(), m.c_str(), m.c_str(),
                  printed(plain).c_str(), printed(tiled.get_slice(0).retile_D(frag).layout()).c_str());
    } else if constexpr (Which == 'B') {
      auto frag = thr_mma.partition_fragment_B(tensor);
      std::printf("copy\tretile(%s, make_fragment_B(%s, partition_B(%s, 0, %s)))\t%s\n", tc.c_str(), m.c_str(), m.c_str(),
                  printed(plain).c_str(), printed(tiled.get_slice(0).retile_D(frag).layout()).c_str());
    } else if constexpr (Which == 'C') {
      auto frag = thr_mma.partition_fragment_C(tensor);
      std::printf("copy\tretile(%s, partition_fragment_C(%s, %s))\t%s\n", tc.c_str(), m.c_str(), printed(plain).c_str(),
                  printed(tiled.get_slice(0).retile_D(frag).layout()).c_str());
    }
  }
}

template <class Op>
void atom(const char* name) {
  using Tr = Copy_Traits<Op>;
  std::printf("copy\tcopy_thrid(%s)\t%s\n", name, printed(typename Tr::ThrID{}).c_str());
  std::printf("copy\tcopy_layout(%s, Src)\t%s\n", name, printed(typename Tr::SrcLayout{}).c_str());
  std::printf("copy\tcopy_layout(%s, Dst)\t%s\n", name, printed(typename Tr::DstLayout{}).c_str());
  std::printf("copy\tcopy_layout(%s, Ref)\t%s\n", name, printed(typename Tr::RefLayout{}).c_str());
}

using Tile3 = Tile<Underscore, Underscore, Underscore>;

}  // namespace

int main() {
  atom<SM90_U32x1_STSM_N>("SM90_U32x1_STSM_N");
  atom<SM90_U32x2_STSM_N>("SM90_U32x2_STSM_N");
  atom<SM90_U32x4_STSM_N>("SM90_U32x4_STSM_N");
  atom<SM90_U16x2_STSM_T>("SM90_U16x2_STSM_T");
  atom<SM90_U16x4_STSM_T>("SM90_U16x4_STSM_T");
  atom<SM90_U16x8_STSM_T>("SM90_U16x8_STSM_T");
  atom<UniversalCopy<uint8_t>>("UniversalCopy<uint8_t>");
  atom<UniversalCopy<uint16_t>>("UniversalCopy<uint16_t>");
  atom<UniversalCopy<uint32_t>>("UniversalCopy<uint32_t>");
  atom<UniversalCopy<uint64_t>>("UniversalCopy<uint64_t>");
  atom<UniversalCopy<uint128_t>>("UniversalCopy<uint128_t>");
  atom<SM80_CP_ASYNC_CACHEALWAYS<uint32_t>>("SM80_CP_ASYNC_CACHEALWAYS<uint32_t>");
  atom<SM80_CP_ASYNC_CACHEALWAYS<uint64_t>>("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>");
  atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>>("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>");
  atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>>("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>");

  // Global -> shared style copies: a thread layout and a value layout.
  auto k128h = tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128, _64>{});
  auto k64h = tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, Shape<_64, _64>{});
  auto mn128h = tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_128, _64>{});
  auto k128f = tile_to_shape(GMMA::Layout_K_SW128_Atom<float>{}, Shape<_64, _64>{});
  auto k32f = tile_to_shape(GMMA::Layout_K_SW32_Atom<float>{}, Shape<_64, _32>{});
  auto k128b = tile_to_shape(GMMA::Layout_K_SW128_Atom<int8_t>{}, Shape<_64, _128>{});
  auto mn64b = tile_to_shape(GMMA::Layout_MN_SW64_Atom<int8_t>{}, Shape<_128, _64>{});
  auto row = [](auto m, auto n) { return make_layout(make_shape(m, n), LayoutRight{}); };
  auto col = [](auto m, auto n) { return make_layout(make_shape(m, n)); };

  plain_copy<UniversalCopy<uint128_t>, half_t>("UniversalCopy<uint128_t>", Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                                               Layout<Shape<_1, _8>>{}, row(_128{}, _64{}), k128h);
  plain_copy<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>",
                                                           Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{},
                                                           row(_64{}, _64{}), k64h);
  plain_copy<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>",
                                                           Layout<Shape<_8, _16>, Stride<_1, _8>>{}, Layout<Shape<_8, _1>>{},
                                                           col(_128{}, _64{}), mn128h);
  plain_copy<SM80_CP_ASYNC_CACHEALWAYS<uint64_t>, float>("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>",
                                                         Layout<Shape<_8, _16>, Stride<_16, _1>>{}, Layout<Shape<_1, _2>>{},
                                                         row(_64{}, _64{}), k128f);
  plain_copy<SM80_CP_ASYNC_CACHEALWAYS<uint32_t>, float>("SM80_CP_ASYNC_CACHEALWAYS<uint32_t>",
                                                         Layout<Shape<_32, _8>>{}, Layout<Shape<_1, _1>>{}, col(_64{}, _32{}),
                                                         k32f);
  plain_copy<UniversalCopy<uint64_t>, half_t>("UniversalCopy<uint64_t>", Layout<Shape<_16, _16>>{}, Layout<Shape<_4, _1>>{},
                                              col(_128{}, _64{}), mn128h);
  plain_copy<UniversalCopy<uint32_t>, int8_t>("UniversalCopy<uint32_t>", Layout<Shape<_32, _4>, Stride<_4, _1>>{},
                                              Layout<Shape<_1, _4>>{}, row(_64{}, _128{}), k128b);
  plain_copy<UniversalCopy<uint8_t>, int8_t>("UniversalCopy<uint8_t>", Layout<Shape<_32, _4>>{}, Layout<Shape<_1, _1>>{},
                                             col(_128{}, _64{}), mn64b);
  plain_copy<UniversalCopy<uint16_t>, half_t>("UniversalCopy<uint16_t>", Layout<Shape<_8, _32>, Stride<_32, _1>>{},
                                              Layout<Shape<_1, _1>>{}, row(_64{}, _64{}), k64h);
  plain_copy<UniversalCopy<uint128_t>, float>("UniversalCopy<uint128_t>", Layout<Shape<_32, _8>, Stride<_8, _1>>{},
                                              Layout<Shape<_1, _4>>{}, row(_64{}, _64{}), k128f);
  plain_copy<UniversalCopy<uint128_t>, int8_t>("UniversalCopy<uint128_t>", Layout<Shape<_8, _16>, Stride<_16, _1>>{},
                                               Layout<Shape<_1, _16>>{}, row(_64{}, _128{}), k128b);
  plain_copy<UniversalCopy<uint64_t>, half_t>("UniversalCopy<uint64_t>", Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                                              Layout<Shape<_2, _2>>{}, row(_64{}, _64{}), k64h);
  plain_copy<UniversalCopy<uint32_t>, half_t>(
      "UniversalCopy<uint32_t>", Layout<Shape<Shape<_4, _2>, _16>, Stride<Stride<_1, _64>, _4>>{}, Layout<Shape<_1, _2>>{},
      row(_64{}, _64{}), k64h);
  plain_copy<UniversalCopy<uint128_t>, half_t>("UniversalCopy<uint128_t>", Layout<Shape<_8, _8>, Stride<_8, _1>>{},
                                               Layout<Shape<_1, _8>>{}, make_layout(make_shape(64, 64), make_stride(72, 1)), 0);
  // Warp-collective atoms through make_tiled_copy directly.
  plain_copy<SM75_U32x4_LDSM_N, half_t>("SM75_U32x4_LDSM_N", Layout<Shape<_16, _2>, Stride<_2, _1>>{},
                                        Layout<Shape<_1, _8>>{}, row(_64{}, _64{}), k64h);
  plain_copy<SM90_U32x4_STSM_N, half_t>("SM90_U32x4_STSM_N", Layout<Shape<_8, _4>, Stride<_4, _1>>{},
                                        Layout<Shape<_2, _4>>{}, row(_64{}, _64{}), k64h);

  // Copies that feed a tiled MMA (shared memory -> registers) or drain it (registers -> shared).
  using L221 = Layout<Shape<_2, _2, _1>, Stride<_2, _1, _0>>;
  auto a64x32h = row(_64{}, _32{});
  auto k32a = tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, Shape<_64, _32>{});
  mma_copy<'A', SM75_U32x4_LDSM_N, half_t, SM80_16x8x16_F32F16F16F32_TN>(
      "SM75_U32x4_LDSM_N", "SM80_16x8x16_F32F16F16F32_TN", L221{}, Tile3{}, a64x32h, k32a, true);
  mma_copy<'B', SM75_U32x2_LDSM_N, half_t, SM80_16x8x16_F32F16F16F32_TN>(
      "SM75_U32x2_LDSM_N", "SM80_16x8x16_F32F16F16F32_TN", L221{}, Tile3{}, row(_32{}, _32{}),
      tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, Shape<_32, _32>{}), true);
  mma_copy<'B', SM75_U32x4_LDSM_N, half_t, SM80_16x8x16_F32F16F16F32_TN>(
      "SM75_U32x4_LDSM_N", "SM80_16x8x16_F32F16F16F32_TN", L221{}, Tile<_32, _32, _16>{}, row(_32{}, _32{}),
      tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, Shape<_32, _32>{}), true);
  mma_copy<'A', SM75_U16x8_LDSM_T, half_t, SM80_16x8x16_F32F16F16F32_TN>(
      "SM75_U16x8_LDSM_T", "SM80_16x8x16_F32F16F16F32_TN", L221{}, Tile3{}, col(_64{}, _32{}),
      tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_64, _32>{}), true);
  mma_copy<'B', SM75_U16x4_LDSM_T, half_t, SM80_16x8x16_F32F16F16F32_TN>(
      "SM75_U16x4_LDSM_T", "SM80_16x8x16_F32F16F16F32_TN", L221{}, Tile3{}, col(_32{}, _32{}),
      tile_to_shape(GMMA::Layout_MN_SW64_Atom<half_t>{}, Shape<_32, _32>{}), true);
  using PermN = Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>;
  mma_copy<'B', SM75_U16x8_LDSM_T, half_t, SM80_16x8x16_F32F16F16F32_TN>(
      "SM75_U16x8_LDSM_T", "SM80_16x8x16_F32F16F16F32_TN", L221{}, Tile<Underscore, PermN, Underscore>{}, col(_64{}, _32{}),
      tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_64, _32>{}), true);
  mma_copy<'C', UniversalCopy<uint32_t>, float, SM80_16x8x16_F32F16F16F32_TN>(
      "UniversalCopy<uint32_t>", "SM80_16x8x16_F32F16F16F32_TN", L221{}, Tile3{}, row(_64{}, _32{}), k32f, true);
  mma_copy<'C', UniversalCopy<uint64_t>, float, SM80_16x8x16_F32F16F16F32_TN>(
      "UniversalCopy<uint64_t>", "SM80_16x8x16_F32F16F16F32_TN", L221{}, Tile3{}, col(_64{}, _32{}), k32f, true);
  mma_copy<'C', SM90_U32x1_STSM_N, half_t, SM80_16x8x16_F16F16F16F16_TN>(
      "SM90_U32x1_STSM_N", "SM80_16x8x16_F16F16F16F16_TN", Layout<Shape<_1, _1, _1>>{}, Tile3{}, row(_16{}, _16{}), 0, true);
  mma_copy<'C', UniversalCopy<uint32_t>, half_t, SM80_16x8x16_F16F16F16F16_TN>(
      "UniversalCopy<uint32_t>", "SM80_16x8x16_F16F16F16F16_TN", L221{}, Tile3{}, row(_64{}, _64{}), k64h, true);
  mma_copy<'A', SM75_U32x1_LDSM_N, half_t, SM80_16x8x8_F16F16F16F16_TN>(
      "SM75_U32x1_LDSM_N", "SM80_16x8x8_F16F16F16F16_TN", Layout<Shape<_1, _2, _1>>{}, Tile3{}, row(_32{}, _16{}), 0, true);
  mma_copy<'A', SM75_U32x2_LDSM_N, int8_t, SM80_16x8x32_S32S8S8S32_TN>(
      "SM75_U32x2_LDSM_N", "SM80_16x8x32_S32S8S8S32_TN", Layout<Shape<_2, _1, _1>>{}, Tile3{}, row(_32{}, _128{}), k128b, true);
  mma_copy<'A', SM75_U32x4_LDSM_N, tfloat32_t, SM80_16x8x8_F32TF32TF32F32_TN>(
      "SM75_U32x4_LDSM_N", "SM80_16x8x8_F32TF32TF32F32_TN", Layout<Shape<_1, _4, _1>>{}, Tile3{}, row(_32{}, _32{}),
      tile_to_shape(GMMA::Layout_K_SW128_Atom<tfloat32_t>{}, Shape<_32, _32>{}), true);
  using SS = SM90_64x64x16_F16F16F16_SS<GMMA::Major::K, GMMA::Major::K>;
  mma_copy<'C', SM90_U32x4_STSM_N, half_t, SS>("SM90_U32x4_STSM_N", "SM90_64x64x16_F16F16F16_SS<K,K>",
                                               Layout<Shape<_1, _1, _1>>{}, Tile3{}, row(_64{}, _64{}), k64h, true);
  mma_copy<'C', SM90_U32x2_STSM_N, half_t, SS>("SM90_U32x2_STSM_N", "SM90_64x64x16_F16F16F16_SS<K,K>",
                                               Layout<Shape<_1, _1, _1>>{}, Tile3{}, col(_64{}, _64{}),
                                               tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_64, _64>{}), true);
  mma_copy<'C', SM90_U16x8_STSM_T, half_t, SS>("SM90_U16x8_STSM_T", "SM90_64x64x16_F16F16F16_SS<K,K>",
                                               Layout<Shape<_1, _1, _1>>{}, Tile3{}, col(_64{}, _64{}),
                                               tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_64, _64>{}), true);
  using SSbf = SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K, GMMA::Major::K>;
  mma_copy<'C', SM90_U32x4_STSM_N, bfloat16_t, SSbf>("SM90_U32x4_STSM_N", "SM90_64x128x16_F32BF16BF16_SS<K,K>",
                                                     Layout<Shape<_2, _1, _1>>{}, Tile3{}, row(_128{}, _128{}),
                                                     tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _128>{}),
                                                     true);
  using RS = SM90_64x64x16_F16F16F16_RS<GMMA::Major::K, GMMA::Major::MN>;
  mma_copy<'A', SM75_U32x4_LDSM_N, half_t, RS>("SM75_U32x4_LDSM_N", "SM90_64x64x16_F16F16F16_RS<K,MN>",
                                               Layout<Shape<_1, _1, _1>>{}, Tile3{}, row(_64{}, _64{}), k64h, true);
  mma_copy<'A', SM75_U16x8_LDSM_T, half_t, RS>("SM75_U16x8_LDSM_T", "SM90_64x64x16_F16F16F16_RS<K,MN>",
                                               Layout<Shape<_1, _1, _1>>{}, Tile3{}, col(_64{}, _64{}),
                                               tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_64, _64>{}), true);
  mma_copy<'C', SM90_U16x4_STSM_T, half_t, SM80_16x8x16_F16F16F16F16_TN>(
      "SM90_U16x4_STSM_T", "SM80_16x8x16_F16F16F16F16_TN", L221{}, Tile3{}, col(_64{}, _32{}),
      tile_to_shape(GMMA::Layout_MN_SW64_Atom<half_t>{}, Shape<_64, _32>{}), true);
  mma_copy<'C', SM90_U16x2_STSM_T, half_t, SM80_16x8x16_F16F16F16F16_TN>(
      "SM90_U16x2_STSM_T", "SM80_16x8x16_F16F16F16F16_TN", Layout<Shape<_1, _1, _1>>{}, Tile3{}, col(_16{}, _8{}), 0, true);

  // make_tiled_copy_C_atom: the epilogue's copy of a subtile of the accumulators (quack's GEMM
  // epilogue: an stmatrix atom over a 64xNx16 GMMA, one or two warpgroups along M or N).
  mma_copy<'c', SM90_U32x4_STSM_N, half_t, SS>("SM90_U32x4_STSM_N", "SM90_64x64x16_F16F16F16_SS<K,K>",
                                               Layout<Shape<_1, _1, _1>>{}, Tile3{}, row(_64{}, _64{}), k64h, false);
  mma_copy<'c', SM90_U32x4_STSM_N, bfloat16_t, SSbf>("SM90_U32x4_STSM_N", "SM90_64x128x16_F32BF16BF16_SS<K,K>",
                                                     Layout<Shape<_2, _1, _1>>{}, Tile3{}, row(_128{}, _128{}),
                                                     tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_128, _128>{}),
                                                     false);
  mma_copy<'c', SM90_U32x2_STSM_N, bfloat16_t, SSbf>("SM90_U32x2_STSM_N", "SM90_64x128x16_F32BF16BF16_SS<K,K>",
                                                     Layout<Shape<_1, _2, _1>>{}, Tile3{}, row(_64{}, _256{}), 0, false);
  mma_copy<'c', SM90_U16x8_STSM_T, half_t, SS>("SM90_U16x8_STSM_T", "SM90_64x64x16_F16F16F16_SS<K,K>",
                                               Layout<Shape<_2, _1, _1>>{}, Tile3{}, col(_128{}, _64{}), 0, false);
  mma_copy<'c', SM90_U32x1_STSM_N, half_t, SS>("SM90_U32x1_STSM_N", "SM90_64x64x16_F16F16F16_SS<K,K>",
                                               Layout<Shape<_1, _2, _1>>{}, Tile3{}, row(_64{}, _128{}), 0, false);
  mma_copy<'c', UniversalCopy<uint32_t>, half_t, SS>("UniversalCopy<uint32_t>", "SM90_64x64x16_F16F16F16_SS<K,K>",
                                                     Layout<Shape<_1, _1, _1>>{}, Tile3{}, row(_64{}, _64{}), k64h, false);
  mma_copy<'c', UniversalCopy<uint128_t>, float, SSbf>("UniversalCopy<uint128_t>", "SM90_64x128x16_F32BF16BF16_SS<K,K>",
                                                       Layout<Shape<_2, _1, _1>>{}, Tile3{}, row(_128{}, _128{}), 0, false);
  mma_copy<'c', UniversalCopy<uint16_t>, half_t, SS>("UniversalCopy<uint16_t>", "SM90_64x64x16_F16F16F16_SS<K,K>",
                                                     Layout<Shape<_1, _2, _1>>{}, Tile3{}, col(_64{}, _128{}), 0, false);
  // N = 24: the C fragment's values (2,2,3) hold one and a half stmatrix.x4 (CuTe's composition
  // keeps the first 8 of the last mode's 3 x 4).
  using SS24 = SM90_64x24x16_F16F16F16_SS<GMMA::Major::K, GMMA::Major::K>;
  mma_copy<'c', SM90_U32x4_STSM_N, half_t, SS24>("SM90_U32x4_STSM_N", "SM90_64x24x16_F16F16F16_SS<K,K>",
                                                 Layout<Shape<_1, _1, _1>>{}, Tile3{}, row(_64{}, _48{}), 0, false);
  mma_copy<'c', UniversalCopy<uint32_t>, half_t, SM80_16x8x16_F16F16F16F16_TN>(
      "UniversalCopy<uint32_t>", "SM80_16x8x16_F16F16F16F16_TN", L221{}, Tile3{}, row(_64{}, _64{}), k64h, false);
  mma_copy<'c', UniversalCopy<uint64_t>, float, SM80_16x8x16_F32F16F16F32_TN>(
      "UniversalCopy<uint64_t>", "SM80_16x8x16_F32F16F16F32_TN", L221{}, Tile3{}, col(_64{}, _32{}), k32f, false);
  mma_copy<'c', SM90_U32x1_STSM_N, half_t, SM80_16x8x16_F16F16F16F16_TN>(
      "SM90_U32x1_STSM_N", "SM80_16x8x16_F16F16F16F16_TN", Layout<Shape<_1, _1, _1>>{}, Tile3{}, row(_16{}, _16{}), 0, false);
  mma_copy<'c', SM90_U16x4_STSM_T, half_t, SM80_16x8x16_F16F16F16F16_TN>(
      "SM90_U16x4_STSM_T", "SM80_16x8x16_F16F16F16F16_TN", L221{}, Tile3{}, col(_64{}, _32{}), 0, false);
  return 0;
}
