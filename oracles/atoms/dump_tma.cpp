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

template <class T, class GLayout, class SLayout>
void tma_case(GLayout const& glayout, SLayout const& slayout, bool copies = true) {
  if (copies) copies_case<T>(glayout, slayout);
  auto gtensor = make_tensor(make_gmem_ptr(reinterpret_cast<T*>(gmem_buffer)), glayout);
  // make_tma_copy(op, gtensor, slayout): the CTA tile is the SMEM layout's shape.
  auto cta_v_map = make_identity_layout(shape(gtensor)).compose(product_each(shape(slayout)));
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
  std::printf(", %d)\t(%d,(", int(sizeof_bits<T>::value), rank);
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

}  // namespace

int main() {
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
