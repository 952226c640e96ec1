// Vendor oracle: the tensor-map arguments CuTe's make_tma_copy derives for a GMEM tensor and an
// SMEM layout, printed as `tma\ttma_params(GMEM, SMEM, BITS)\t(rank,(globalDim),(globalStrides),
// (boxDim),(elementStrides),interleave,swizzle)` for compare_atoms.
//
// With it, `tma_copies\ttma_box_offsets|tma_box_coords(...)\tLAYOUT`: the boxes that copy one CTA
// tile, from CuTe's make_tma_copy and tma_partition run on the host.
//
// make_tma_copy hands its arguments to the driver's cuTensorMapEncodeTiled only when compiled by
// nvcc (`__CUDACC_VER_MAJOR__ >= 12`); with g++ that call is compiled out, so a stand-in
// definition of it would never be reached. This program therefore calls the steps make_tma_copy
// takes before that call (the same CuTe functions, on the host): construct_tma_gbasis (which GMEM
// modes the box walks and in what order), fill_tma_gmem_shape_stride (globalDim, globalStrides),
// the box as the sizes of the gbasis modes, the strides in bytes, element strides 1, interleave
// NONE, and get_tma_swizzle_bits of the SMEM layout's swizzle.
#include <cute/tensor.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>

#include <cstdio>

using namespace cute;

namespace {

alignas(128) uint8_t gmem_buffer[1 << 20];
alignas(1024) uint8_t smem_buffer[1 << 17];

// The copies of one CTA tile at the origin: CuTe's make_tma_copy and tma_partition on the host
// (the descriptor stays zero there), the iteration mode of the partitioned SMEM and coordinates.
template <class T, class GLayout, class SLayout>
void copies_case(GLayout const& glayout, SLayout const& slayout) {
  auto gtensor = make_tensor(make_gmem_ptr(reinterpret_cast<T*>(gmem_buffer)), glayout);
  auto tma = make_tma_copy(SM90_TMA_LOAD{}, gtensor, slayout);
  constexpr int R = decltype(rank(slayout))::value;
  auto coords = local_tile(tma.get_tma_tensor(shape(gtensor)), product_each(shape(slayout)), repeat<R>(Int<0>{}));
  auto stensor = make_tensor(make_smem_ptr(reinterpret_cast<T*>(smem_buffer)), slayout);
  auto [tAgA, tAsA] = tma_partition(tma, Int<0>{}, Layout<_1>{}, group_modes<0, R>(stensor), group_modes<0, R>(coords));
  for (int which = 0; which < 2; ++which) {
    std::printf("tma_copies\t%s(", which == 0 ? "tma_box_offsets" : "tma_box_coords");
    print(glayout);
    std::printf(", ");
    print(slayout);
    std::printf(", %d)\t", int(sizeof_bits<T>::value));
    if (which == 0) print(layout<0, 1>(tAsA.layout()));
    else print(layout<0, 1>(tAgA.layout()));
    std::printf("\n");
  }
}

// make_tma_copy(op, gtensor, slayout, cta_tiler, cluster): the CTA tile is the GMEM identity
// composed with the tiler; printed as tma_params(GMEM, SMEM, BITS, TILER) when `print_tiler`.
template <class T, class GLayout, class SLayout, class Tiler>
void tiled_case(GLayout const& glayout, SLayout const& slayout, Tiler const& cta_tiler, bool print_tiler) {
  auto gtensor = make_tensor(make_gmem_ptr(reinterpret_cast<T*>(gmem_buffer)), glayout);
  auto cta_v_map = make_identity_layout(shape(gtensor)).compose(cta_tiler);
  auto smem_swizzle = get_swizzle_portion(slayout);
  auto smem_layout = get_nonswizzle_portion(slayout);
  auto tma_gbasis = detail::construct_tma_gbasis<T>(gtensor, smem_layout, cta_v_map);
  constexpr int rank = decltype(cute::rank(tma_gbasis))::value;

  cute::array<uint64_t, 5> dims = {1, 1, 1, 1, 1};
  cute::array<uint64_t, 5> strides = {0, 0, 0, 0, 0};
  detail::fill_tma_gmem_shape_stride(recast<T>(gtensor), stride(tma_gbasis), dims, strides);
  cute::array<uint32_t, 5> box = {1, 1, 1, 1, 1};
  for_each(make_seq<rank>{}, [&](auto i) { box[i] = uint32_t(size<i>(tma_gbasis)); });
  const int swizzle = int(detail::get_tma_swizzle_bits(smem_swizzle));

  std::printf("tma\ttma_params(");
  print(glayout);
  std::printf(", ");
  print(slayout);
  std::printf(", %d", int(sizeof_bits<T>::value));
  if (print_tiler) {
    std::printf(", ");
    print(cta_tiler);
  }
  std::printf(")\t(%d,(", rank);
  for (int i = 0; i < rank; ++i) std::printf("%s%llu", i ? "," : "", (unsigned long long)dims[i]);
  std::printf("),(");
  for (int i = 1; i < rank; ++i)  // bytes; dimension 0's stride is implicit
    std::printf("%s%llu", i > 1 ? "," : "", (unsigned long long)(strides[i] * sizeof_bits<T>::value / 8));
  std::printf("),(");
  for (int i = 0; i < rank; ++i) std::printf("%s%u", i ? "," : "", box[i]);
  std::printf("),(");
  for (int i = 0; i < rank; ++i) std::printf("%s1", i ? "," : "");
  std::printf("),0,%d)\n", swizzle);
}

template <class T, class GLayout, class SLayout>
void tma_case(GLayout const& glayout, SLayout const& slayout, bool copies = true) {
  if (copies) copies_case<T>(glayout, slayout);
  // make_tma_copy(op, gtensor, slayout): the CTA tiler is the SMEM layout's mode sizes.
  tiled_case<T>(glayout, slayout, product_each(shape(slayout)), false);
}

// FlashAttention's pack_gqa Q and O: ((query heads per KV head, seqlen), hdim[, KV heads][,
// batch]) over a (nheads, seqlen, hdim) row-major tensor per batch, tiled by ((H, 128/H), hdim)
// onto a 128 x hdim K-major GMMA tile; with and without the tiler (CuTe's default tiler takes 128
// rows colexicographically from the hierarchical mode as well).
template <class Atom>
void pack_gqa_cases(int64_t seqlen, int64_t kv_heads, int64_t batch) {
  using T = bfloat16_t;
  auto per_kv = [&](auto qh, auto hdim) {
    const int64_t nheads = int64_t(qh) * kv_heads;
    auto rows = make_shape(make_shape(qh, seqlen), hdim);
    auto row_strides = make_stride(make_stride(int64_t(hdim), nheads * hdim), _1{});
    auto slayout = tile_to_shape(Atom{}, make_shape(_128{}, hdim));
    auto tiler = make_shape(make_shape(qh, Int<128 / decltype(qh)::value>{}), hdim);
    // rank 3: one KV head of one batch
    tiled_case<T>(make_layout(rows, row_strides), slayout, tiler, true);
    // rank 4: with the batch mode
    auto batch_stride = seqlen * nheads * hdim;
    tiled_case<T>(make_layout(append(rows, batch), append(row_strides, batch_stride)), slayout, tiler, true);
    // rank 5: KV heads and batch
    auto l5 = make_layout(make_shape(make_shape(qh, seqlen), hdim, kv_heads, batch),
                          make_stride(make_stride(int64_t(hdim), nheads * hdim), _1{}, int64_t(qh) * hdim, batch_stride));
    tiled_case<T>(l5, slayout, tiler, true);
    tiled_case<T>(l5, slayout, product_each(shape(slayout)), false);
  };
  for_each(make_tuple(_4{}, _8{}), [&](auto qh) {
    per_kv(qh, _64{});
    per_kv(qh, _128{});
    per_kv(qh, _192{});
  });
}

}  // namespace

int main() {
  // CTA tilers (make_tma_copy's cta_tiler argument) over hierarchical GMEM modes.
  pack_gqa_cases<GMMA::Layout_K_SW128_Atom<bfloat16_t>>(192, 2, 3);
  pack_gqa_cases<GMMA::Layout_K_SW64_Atom<bfloat16_t>>(1000, 1, 5);
  // The pack_gqa tensors of FlashAttention on an H200 (corpus/vendor/model_limits.txt until they
  // were answered): 8 heads of hdim 128, 4 per KV head; 8 per KV head, hdim 512, batch 5. CuTe
  // C++ needs the heads-per-KV-head extent static here (the tile's size is checked at compile
  // time); the DSL's trace has it at run time and makes the same TMA dimensions.
  const auto fa_q = make_layout(make_shape(make_shape(_4{}, 192), 128), make_stride(make_stride(128, 1024), 1));
  const auto fa_q8 = make_layout(make_shape(make_shape(_8{}, 96), 512, 5), make_stride(make_stride(512, 4096), 1, 393216));
  const auto fa_tile = tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, make_shape(_128{}, _128{}));
  tiled_case<bfloat16_t>(fa_q, fa_tile, make_shape(make_shape(_4{}, _32{}), _128{}), true);
  tiled_case<bfloat16_t>(fa_q, fa_tile, make_shape(_128{}, _128{}), false);
  tiled_case<bfloat16_t>(fa_q8, fa_tile, make_shape(make_shape(_8{}, _16{}), _128{}), true);
  tiled_case<bfloat16_t>(fa_q8, fa_tile, make_shape(_128{}, _128{}), false);
  // `_` keeps a whole GMEM mode; a tiler of one mode over a rank-1 hierarchical tensor.
  tiled_case<bfloat16_t>(make_layout(make_shape(make_shape(_4{}, 192), _128{}), make_stride(make_stride(128, 1024), _1{})),
                         fa_tile, make_shape(make_shape(_4{}, _32{}), _), true);
  tiled_case<half_t>(make_layout(make_shape(make_shape(_64{}, 300)), make_stride(make_stride(_1{}, 64))),
                     make_layout(make_shape(_64{}, _2{})), make_shape(_128{}), true);
  // pack_gqa with varlen: quack's ragged tensor, its last mode repeating the row stride.
  tiled_case<bfloat16_t>(make_layout(make_shape(make_shape(_4{}, 1073741824), 512, 2147483647),
                                     make_stride(make_stride(512, int64_t(2048)), 1, int64_t(2048))),
                         fa_tile, make_shape(make_shape(_4{}, _32{}), _128{}), true);
  // The cuTENSOR example of make_tma_copy's documentation: a tiler that splits a hierarchical mode
  // ((32,40),((8,8),656)) into (128, (32,2)), column-major SMEM (static where the tiler crosses).
  tiled_case<float>(make_layout(make_shape(make_shape(_32{}, 40), make_shape(make_shape(_8{}, _8{}), 656))),
                    make_layout(make_shape(_128{}, make_shape(_32{}, _2{}))), make_shape(_128{}, make_shape(_32{}, _2{})), true);
  // CUTLASS's (M,K,L) tensor tiled by (BLK_M, BLK_K): a tiler of fewer modes than GMEM.
  tiled_case<half_t>(make_layout(make_shape(256, 512, 3), make_stride(512, _1{}, 131072)),
                     tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_128{}, _64{})), make_shape(_128{}, _64{}), true);
  // A tiler whose rows are 2 x 64 from a hierarchical M and a row-major SMEM tile.
  tiled_case<half_t>(make_layout(make_shape(make_shape(_2{}, 300), 64), make_stride(make_stride(64, 128), _1{})),
                     make_layout(make_shape(_128{}, _64{}), make_stride(_64{}, _1{})), make_shape(make_shape(_2{}, _64{}), _64{}), true);
  tiled_case<half_t>(make_layout(make_shape(make_shape(_2{}, 300), 64), make_stride(make_stride(_64{}, _128{}), _1{})),
                     make_layout(make_shape(_128{}, _64{}), make_stride(_64{}, _1{})), make_shape(make_shape(_2{}, _64{}), _64{}), true);
  // One box, stored innermost dimension first, over GMEM whose dimension 0 is contiguous.
  tma_case<half_t>(make_layout(make_shape(512, 256), make_stride(_1{}, 512)), GMMA::Layout_MN_SW128_Atom<half_t>{});
  tma_case<half_t>(make_layout(make_shape(512, 256), make_stride(_1{}, 512)), GMMA::Layout_MN_SW64_Atom<half_t>{});
  tma_case<half_t>(make_layout(make_shape(512, 256), make_stride(_1{}, 512)), GMMA::Layout_MN_SW32_Atom<half_t>{});
  tma_case<half_t>(make_layout(make_shape(512, 256), make_stride(_1{}, 512)), GMMA::Layout_MN_INTER_Atom<half_t>{});
  tma_case<uint8_t>(make_layout(make_shape(1024, 64), make_stride(_1{}, 1024)), GMMA::Layout_MN_SW128_Atom<uint8_t>{});
  tma_case<float>(make_layout(make_shape(96, 40), make_stride(_1{}, 96)), GMMA::Layout_MN_SW64_Atom<float>{});
  tma_case<float>(make_layout(make_shape(32, 100, 7), make_stride(_1{}, 40, 4000)), make_layout(make_shape(_32{}, _4{}, _1{})));
  tma_case<half_t>(make_layout(make_shape(1000, 16, 3, 2), make_stride(_1{}, 1024, 16384, 65536)),
                   make_layout(make_shape(_64{}, _8{}, _2{}, _1{})));
  tma_case<float>(make_layout(make_shape(4096)), make_layout(make_shape(_256{})));
  // K-major operands: GMEM row-major (M,K):(ldK,1), the K-major GMMA atoms (K contiguous in SMEM).
  tma_case<half_t>(make_layout(make_shape(256, 512), make_stride(512, _1{})), GMMA::Layout_K_SW128_Atom<half_t>{});
  tma_case<uint8_t>(make_layout(make_shape(256, 512), make_stride(512, _1{})), GMMA::Layout_K_SW64_Atom<uint8_t>{});
  tma_case<float>(make_layout(make_shape(256, 512), make_stride(512, _1{})), GMMA::Layout_K_SW32_Atom<float>{});
  // Packed GMEM whose box spans a whole inner dimension: CuTe merges the box's modes.
  tma_case<half_t>(make_layout(make_shape(64, 128), make_stride(_1{}, 64)), make_layout(make_shape(_64{}, _2{})));
  tma_case<float>(make_layout(make_shape(32, 100, 7), make_stride(_1{}, 32, 3200)), make_layout(make_shape(_32{}, _4{}, _1{})));
  // The same with static strides, which CuTe's coalescing can prove contiguous.
  tma_case<half_t>(make_layout(make_shape(_64{}, _128{}), make_stride(_1{}, _64{})), make_layout(make_shape(_64{}, _2{})));
  tma_case<float>(make_layout(make_shape(_32{}, Int<100>{}, _7{}), make_stride(_1{}, _32{}, Int<3200>{})), make_layout(make_shape(_32{}, _4{}, _1{})));
  tma_case<half_t>(make_layout(make_shape(_64{}, _128{}), make_stride(_1{}, _64{})), make_layout(make_shape(_64{}, _8{})));
  // Three statically contiguous box dimensions merge into one (16 x 4 x 2 = 128 elements).
  tma_case<half_t>(make_layout(make_shape(_16{}, _4{}, _2{}, 8), make_stride(_1{}, _16{}, _64{}, _128{})),
                   make_layout(make_shape(_16{}, _4{}, _2{}, _1{})), false);
  // Size-1 GMEM modes and more than 5 modes.
  tma_case<half_t>(make_layout(make_shape(64, 1, 8), make_stride(_1{}, 64, 64)), make_layout(make_shape(_64{}, _1{}, _2{})));
  tma_case<uint8_t>(make_layout(make_shape(32, 2, 2, 2, 2, 2), make_stride(_1{}, 32, 64, 128, 256, 512)),
                    make_layout(make_shape(_32{}, _2{}, _1{}, _1{}, _1{}, _1{})));
  // Every GMMA atom and a tiling of it, over runtime GMEM extents and leading dimensions, in both
  // majors (MN-major atoms over column-major GMEM, K-major atoms over row-major GMEM).
  for (int64_t ld : {256, 264, 1024, 4160}) {
    for (int64_t other : {64, 200}) {
      const auto col = make_layout(make_shape(ld, other), make_stride(_1{}, ld));
      const auto row = make_layout(make_shape(other, ld), make_stride(ld, _1{}));
      tma_case<half_t>(col, GMMA::Layout_MN_SW128_Atom<half_t>{});
      tma_case<half_t>(col, tile_to_shape(GMMA::Layout_MN_SW64_Atom<half_t>{}, make_shape(_64{}, _32{})));
      if (ld % 16 == 0) {  // 8-bit rows of 264 bytes are not 16-byte multiples (see below)
        tma_case<uint8_t>(col, GMMA::Layout_MN_SW32_Atom<uint8_t>{});
        tma_case<uint8_t>(col, tile_to_shape(GMMA::Layout_MN_SW128_Atom<uint8_t>{}, make_shape(_128{}, _64{})));
        tma_case<uint8_t>(row, tile_to_shape(GMMA::Layout_K_SW64_Atom<uint8_t>{}, make_shape(_64{}, _64{})));
      }
      tma_case<float>(col, GMMA::Layout_MN_INTER_Atom<float>{});
      tma_case<float>(col, tile_to_shape(GMMA::Layout_MN_SW128_Atom<float>{}, make_shape(_64{}, _16{})));
      tma_case<half_t>(row, GMMA::Layout_K_SW32_Atom<half_t>{});
      tma_case<half_t>(row, tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_64{}, _64{})));
      tma_case<float>(row, tile_to_shape(GMMA::Layout_K_INTER_Atom<float>{}, make_shape(_32{}, _16{})));
      tma_case<float>(row, tile_to_shape(GMMA::Layout_K_SW128_Atom<float>{}, make_shape(_64{}, _32{})));
    }
  }
  // A GMEM stride of 264 bytes: the driver refuses it and CuTe's make_tma_copy_desc asserts it
  // (strides must be 16-byte multiples), but that assertion lies past what this host program runs,
  // so CuTe's side prints parameters here; the model refuses (corpus/vendor/atoms_disagreements.txt).
  tma_case<uint8_t>(make_layout(make_shape(264, 64), make_stride(_1{}, 264)), GMMA::Layout_MN_SW32_Atom<uint8_t>{}, false);
  // Whole GMMA tilings of a CTA tile (several boxes per tile).
  tma_case<half_t>(make_layout(make_shape(512, 256), make_stride(_1{}, 512)),
                   tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(_128{}, _64{})));
  tma_case<half_t>(make_layout(make_shape(256, 512), make_stride(512, _1{})),
                   tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_128{}, _64{})));
  return 0;
}
