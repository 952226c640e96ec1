// Vendor oracle for the SM100 (Blackwell) host-side facts, printed as `KIND\tEXPR\tVALUE` lines
// for compare_atoms, in one program to keep the suite's compile time small:
//   umma_atom       CuTe's UMMA::Layout_{MN,K}_*_Atom<T> (4-, 8-, 16-, 32-bit T) and two tilings
//   umma_desc       UMMA::make_umma_desc of (MN, 32-byte K) operand tiles cut from those tilings:
//                   the fields, and the 64-bit word as its halves (lo, hi)
//   umma_mma        MMA_Traits of tcgen05.mma atoms: Shape_MNK, ThrID, A/B/C layouts, the
//                   element types, and make_runtime_instr_desc of the traits' descriptor
//   partition       ThrMMA::partition_A/B/C of tiled MMAs over tcgen05.mma atoms, every "thread"
//                   (CTA of the pair) of the tiled MMA, on plain (MN, K) / (M, N) tensors
//   tmem_copy       Copy_Traits of every tcgen05.ld/st atom (SM100_TMEM_LOAD_*, SM100_TMEM_STORE_*):
//                   ThrID, Src, Dst, Ref layouts and ValID
//   tmem_tiled_copy make_tmem_copy(Op, accumulator) over partition_fragment_C of an SM100 tiled MMA:
//                   TiledLayout_TV, Tiler_MN, retile_D of a register fragment, and each warp's
//                   TMEM lanes [first, end) as CuTe's
//                   partitions address them (lane = logical address / TMEM::DP<T>)
//   copy_partition  (dump_tiled_copy's format) partition_S of the TMEM tensor for one thread per
//                   warp and thread 37, partition_D of a compact (M, N) tensor of the fragment's
//                   shape for every thread: which (m, n) each register holds
// On the host CuTe cannot convert a shared-memory pointer to an address (it prints an error line,
// ignored by compare_atoms, and uses 0), so the descriptors are for base address 0.
#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm100.hpp>

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

template <UMMA::Major Major, class T, class Tile>
void descriptor(Tile const& tile, int bits) {
  auto tensor = make_tensor(make_smem_ptr(reinterpret_cast<T*>(smem_buffer)), tile);
  const UMMA::SmemDescriptor d = UMMA::make_umma_desc<Major>(tensor);
  char suffix[64];
  std::snprintf(suffix, sizeof suffix, ", %d)\t", bits);
  print_line("umma_desc", "umma_desc(", tile, suffix);
  std::printf("(%d,%d,%d,%d,%d,%d,%d)\n", int(d.start_address_), int(d.leading_byte_offset_), int(d.stride_byte_offset_),
              int(d.version_), int(d.base_offset_), int(d.lbo_mode_), int(d.layout_type_));
  print_line("umma_desc", "umma_desc_word(", tile, suffix);
  std::printf("(%u,%u)\n", unsigned(d.lo), unsigned(d.hi));
}

// One atom: its printout, two tilings, and (for 8-, 16-, 32-bit elements) the descriptors of
// (MN, 32-byte K) operand tiles.
template <UMMA::Major Major, class Atom, class T>
void atom_cases(const char* major, const char* swizzle) {
  constexpr int bits = sizeof_bits<T>::value;
  const Atom atom{};
  char call[96];
  std::snprintf(call, sizeof call, "umma_atom(%s, %s, %d)", major, swizzle, bits);
  std::printf("umma_atom\t%s\t", call);
  print(atom);
  std::printf("\n");

  constexpr int atom_mn = decltype(size<0>(atom))::value, atom_k = decltype(size<1>(atom))::value;
  constexpr int k32 = 256 / bits;
  constexpr int mn = atom_mn > 64 ? atom_mn : 64;
  constexpr int big_k = atom_k > 2 * k32 ? atom_k : 2 * k32;
  auto tiled2 = tile_to_shape(atom, Shape<Int<2 * mn>, Int<big_k>>{});
  char prefix[160];
  std::snprintf(prefix, sizeof prefix, "tile_to_shape(%s, (_%d,_%d))\t", call, 2 * mn, big_k);
  print_line("umma_atom", prefix, tiled2, "\n");
  auto tiled3 = tile_to_shape(atom, Shape<Int<2 * mn>, Int<big_k>, _2>{});
  std::snprintf(prefix, sizeof prefix, "tile_to_shape(%s, (_%d,_%d,_2))\t", call, 2 * mn, big_k);
  print_line("umma_atom", prefix, tiled3, "\n");

  if constexpr (bits >= 8) {
    descriptor<Major, T>(composition(tiled2, make_tile(Layout<Int<mn>>{}, Layout<Int<k32>>{})), bits);
    descriptor<Major, T>(composition(tiled2, make_tile(Layout<Int<2 * mn>>{}, Layout<Int<k32>>{})), bits);
  }
}

template <class T>
void all_atoms() {
  atom_cases<UMMA::Major::MN, UMMA::Layout_MN_INTER_Atom<T>, T>("MN", "INTER");
  atom_cases<UMMA::Major::MN, UMMA::Layout_MN_SW32_Atom<T>, T>("MN", "SW32");
  atom_cases<UMMA::Major::MN, UMMA::Layout_MN_SW64_Atom<T>, T>("MN", "SW64");
  atom_cases<UMMA::Major::MN, UMMA::Layout_MN_SW128_Atom<T>, T>("MN", "SW128");
  atom_cases<UMMA::Major::MN, UMMA::Layout_MN_SW128_32B_Atom<T>, T>("MN", "SW128_32B");
  atom_cases<UMMA::Major::K, UMMA::Layout_K_INTER_Atom<T>, T>("K", "INTER");
  atom_cases<UMMA::Major::K, UMMA::Layout_K_SW32_Atom<T>, T>("K", "SW32");
  atom_cases<UMMA::Major::K, UMMA::Layout_K_SW64_Atom<T>, T>("K", "SW64");
  atom_cases<UMMA::Major::K, UMMA::Layout_K_SW128_Atom<T>, T>("K", "SW128");
}

// PTX spelling of an element type, as the model's mma_types prints it.
template <class T>
const char* ptx() {
  if constexpr (is_same_v<T, half_t>) return "f16";
  else if constexpr (is_same_v<T, bfloat16_t>) return "bf16";
  else if constexpr (is_same_v<T, tfloat32_t>) return "tf32";
  else if constexpr (is_same_v<T, float>) return "f32";
  else if constexpr (is_same_v<T, int8_t>) return "s8";
  else if constexpr (is_same_v<T, uint8_t>) return "u8";
  else if constexpr (is_same_v<T, int32_t>) return "s32";
  else if constexpr (is_same_v<T, float_e4m3_t>) return "e4m3";
  else if constexpr (is_same_v<T, float_e5m2_t>) return "e5m2";
  else if constexpr (is_same_v<T, float_e2m3_t>) return "e2m3";
  else if constexpr (is_same_v<T, float_e3m2_t>) return "e3m2";
  else return "?";
}

template <class Traits>
void mma(const char* name) {
  std::printf("umma_mma\tmma_shape(%s)\t", name);
  print(typename Traits::Shape_MNK{});
  std::printf("\numma_mma\tmma_thrid(%s)\t", name);
  print(typename Traits::ThrID{});
  std::printf("\numma_mma\tmma_layout(%s, A)\t", name);
  print(typename Traits::ALayout{});
  std::printf("\numma_mma\tmma_layout(%s, B)\t", name);
  print(typename Traits::BLayout{});
  std::printf("\numma_mma\tmma_layout(%s, C)\t", name);
  print(typename Traits::CLayout{});
  std::printf("\numma_mma\tmma_types(%s)\t(%s,%s,%s,%s)\n", name, ptx<typename Traits::ValTypeD>(), ptx<typename Traits::ValTypeA>(),
              ptx<typename Traits::ValTypeB>(), ptx<typename Traits::ValTypeC>());
  const Traits traits{};
  std::printf("umma_mma\tumma_instr_desc(%s)\t%llu\n", name,
              static_cast<unsigned long long>(UMMA::make_runtime_instr_desc<>(traits.idesc_)));
}

alignas(1024) float gmem_buffer[1 << 20];

// Every thread of make_tiled_mma(Op{}, atom_layout) partitions A (M, K), B (N, K) and C (M, N);
// the lines compare_atoms reads as `partition` (its dump_tiled_mma format).
template <class Op, class AtomLayout, class LA, class LB, class LC>
void tiled(const char* atom, AtomLayout const& atom_layout, LA const& la, LB const& lb, LC const& lc) {
  auto mma = make_tiled_mma(Op{}, atom_layout);
  auto thr_layout = mma.get_thr_layout_vmnk();
  auto a = make_tensor(&gmem_buffer[0], la);
  auto b = make_tensor(&gmem_buffer[0], lb);
  auto c = make_tensor(&gmem_buffer[0], lc);
  for (int i = 0; i < int(size(mma)); ++i) {
    const int t = int(thr_layout(i));
    auto slice = mma.get_thread_slice(t);
    const auto show = [&](const char* which, auto const& p, auto const& whole) {
      std::printf("partition\t%s\t%s\t", which, atom);
      print(atom_layout);
      std::printf("\t%d\t", t);
      print(whole.layout());
      std::printf("\t");
      print(p.layout());
      std::printf("\t%ld\t(_,_,_)\n", long(p.data() - whole.data()));
    };
    show("A", slice.partition_A(a), a);
    show("B", slice.partition_B(b), b);
    show("C", slice.partition_C(c), c);
  }
}

// partition_fragment_C of make_tiled_mma(Op{}) on an (M, N) tile: the TMEM accumulator
// (UMMA::tmem_frg), as `fragment` lines.
template <class Op, class LC>
void accumulator(const char* atom, LC const& lc) {
  auto mma = make_tiled_mma(Op{});
  auto c = make_tensor(&gmem_buffer[0], lc);
  auto frg = mma.get_thread_slice(0).partition_fragment_C(c);
  std::printf("fragment\tpartition_fragment_C(make_tiled_mma(%s), ", atom);
  print(lc);
  std::printf(")\t");
  print(frg.layout());
  std::printf("\n");
}

template <class Op>
void tmem(const char* name) {
  using T = Copy_Traits<Op>;
  std::printf("tmem_copy\tcopy_thrid(%s)\t", name);
  print(typename T::ThrID{});
  std::printf("\ntmem_copy\tcopy_layout(%s, Src)\t", name);
  print(typename T::SrcLayout{});
  std::printf("\ntmem_copy\tcopy_layout(%s, Dst)\t", name);
  print(typename T::DstLayout{});
  std::printf("\ntmem_copy\tcopy_layout(%s, Ref)\t", name);
  print(typename T::RefLayout{});
  std::printf("\ntmem_copy\ttmem_valid(%s)\t", name);
  print(typename T::ValID{});
  std::printf("\n");
}

// make_tmem_copy(Op, TMEM accumulator of make_tiled_mma(Mma) on an (M, N) tile of 16- or 32-bit C);
// the model's tiled copy is named by the expression on its own partition_fragment_C (checked against
// CuTe's by the `fragment` lines). Addresses are CuTe's logical element offsets: a tmem_ptr of 16-bit
// elements keeps its offset rotated right by one bit (tmem_ptr::operator+), undone here.
template <class Mma, class Op, bool Load, int m, int n>
void tmem_tiled(const char* mma_name, const char* op_name) {
  auto mma = make_tiled_mma(Mma{});
  auto c = make_tensor(&gmem_buffer[0], make_layout(make_shape(Int<m>{}, Int<n>{})));
  auto acc = mma.get_thread_slice(0).partition_fragment_C(c);  // TMEM, (MMA, MMA_M, MMA_N)
  using Acc = typename decltype(acc)::value_type;
  constexpr int bits = sizeof_bits_v<Acc>;
  static_assert(bits == 16 || bits == 32, "16- or 32-bit accumulators only");
  constexpr int shift = tmem_ptr<Acc>::OffsetShift;
  const auto logical = [](uint32_t a) { return long(shift == 0 ? a : ((a << shift) | (a >> (32 - shift)))); };
  auto tc = make_tmem_copy(Op{}, acc);
  using TC = decltype(tc);
  char tcname[512];
  std::snprintf(tcname, sizeof tcname, "make_tmem_copy(%s, %d, partition_fragment_C(make_tiled_mma(%s), (%d,%d):(1,%d)))", op_name,
                bits, mma_name, m, n, m);
  std::printf("tmem_tiled_copy\ttiled_copy_layout(%s, TV)\t", tcname);
  print(typename TC::TiledLayout_TV{});
  std::printf("\ntmem_tiled_copy\ttiled_copy_tiler(%s)\t", tcname);
  print(typename TC::Tiler_MN{});
  std::printf("\n");

  // The compact register-side tensor of the fragment's shape: element m + M n of the (M, N) tile.
  auto regs = make_tensor(&gmem_buffer[0], make_layout(shape(acc)));
  const auto tmem_addr = [&](auto const& p, int i) { return logical(p.data().get()) + long(p.layout()(i)); };
  const auto line = [&](const char* side, int t, auto const& p, auto const& whole, long offset, auto const& value_of) {
    std::printf("copy_partition\t%s\t%s\t%d\t", side, tcname, t);
    print(whole.layout());
    std::printf("\t");
    print(p.layout());
    std::printf("\t%ld\t", offset);
    for (int i = 0; i < int(size(p)); ++i) std::printf(i ? ",%ld" : "%ld", value_of(i));
    std::printf("\n");
  };
  long first[4] = {-1, -1, -1, -1}, end[4] = {0, 0, 0, 0};
  for (int t = 0; t < int(size(tc)); ++t) {
    auto thr = tc.get_slice(t);
    auto tmem_part = [&] {
      if constexpr (Load) return thr.partition_S(acc);
      else return thr.partition_D(acc);
    }();
    auto reg_part = [&] {
      if constexpr (Load) return thr.partition_D(regs);
      else return thr.partition_S(regs);
    }();
    const long base = logical(acc.data().get());
    for (int i = 0; i < int(size(tmem_part)); ++i) {
      const long lane = (tmem_addr(tmem_part, i) - base) >> (16 + shift);
      const int w = t / 32;
      if (first[w] < 0 || lane < first[w]) first[w] = lane;
      if (lane + 1 > end[w]) end[w] = lane + 1;
    }
    if (t % 32 == 0 || t == 37)
      line(Load ? "S" : "D", t, tmem_part, acc, logical(tmem_part.data().get()) - base,
           [&](int i) { return tmem_addr(tmem_part, i) - base; });
    line(Load ? "D" : "S", t, reg_part, regs, long(reg_part.data() - regs.data()),
         [&](int i) { return long(&reg_part(i) - regs.data()); });
  }
  // retile_D of the register fragment a kernel makes for thread 0 (make_tensor<T>(shape(partition))).
  auto frag = make_tensor<Acc>(shape(tc.get_slice(0).partition_D(regs)));
  std::printf("tmem_tiled_copy\tretile(%s, ", tcname);
  print(frag.layout());
  std::printf(")\t");
  print(tc.get_slice(0).retile_D(frag).layout());
  std::printf("\n");
  std::printf("tmem_tiled_copy\ttmem_warp_lanes(%s, ", tcname);
  std::printf("partition_fragment_C(make_tiled_mma(%s), (%d,%d):(1,%d)))\t((%ld,%ld),(%ld,%ld),(%ld,%ld),(%ld,%ld))\n", mma_name, m, n,
              m, first[0], end[0], first[1], end[1], first[2], end[2], first[3], end[3]);
}

}  // namespace

#define CUTEREF_TMEM_ONE(OP) tmem<SM100_TMEM_LOAD_##OP>("SM100_TMEM_LOAD_" #OP); tmem<SM100_TMEM_STORE_##OP>("SM100_TMEM_STORE_" #OP);
#define CUTEREF_TMEM(OP) CUTEREF_TMEM_ONE(OP) CUTEREF_TMEM_ONE(OP##_16b)
#define CUTEREF_TMEM_UP_TO_32(S) \
  CUTEREF_TMEM(S##1x) CUTEREF_TMEM(S##2x) CUTEREF_TMEM(S##4x) CUTEREF_TMEM(S##8x) CUTEREF_TMEM(S##16x) CUTEREF_TMEM(S##32x)
#define CUTEREF_TMEM_UP_TO_128(S) CUTEREF_TMEM_UP_TO_32(S) CUTEREF_TMEM(S##64x) CUTEREF_TMEM(S##128x)

// A templated Operation: its name and arguments as written (the model reads CuTe's spelling).
#define CUTEREF_UMMA(OP, ...) mma<MMA_Traits<OP<__VA_ARGS__>>>(#OP "<" #__VA_ARGS__ ">");
// CuTe's F8F6F4 SS Operations are not templates; their traits take the arguments.
#define CUTEREF_F8(OP, TA, TB, TC, M, N, MA, MB, NA, NB)                                                           \
  mma<MMA_Traits<OP, TA, TB, TC, cute::C<M>, cute::C<N>, integral_constant<UMMA::Major, UMMA::Major::MA>,            \
                 integral_constant<UMMA::Major, UMMA::Major::MB>, integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::NA>, \
                 integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::NB>>>(#OP "<" #TA "," #TB "," #TC "," #M "," #N "," #MA "," #MB \
                                                                        "," #NA "," #NB ">");

int main() {
  all_atoms<uint4_t>();
  all_atoms<uint8_t>();
  all_atoms<half_t>();
  all_atoms<float>();

  constexpr UMMA::Major K = UMMA::Major::K, MN = UMMA::Major::MN;
  constexpr UMMA::ScaleIn Neg = UMMA::ScaleIn::Neg, One = UMMA::ScaleIn::One;
  constexpr UMMA::Saturate True = UMMA::Saturate::True;
  CUTEREF_UMMA(SM100_MMA_F16BF16_SS, half_t, half_t, float, 128, 256, K, K)
  CUTEREF_UMMA(SM100_MMA_F16BF16_SS, half_t, half_t, half_t, 64, 8, MN, K)
  CUTEREF_UMMA(SM100_MMA_F16BF16_SS, bfloat16_t, bfloat16_t, float, 128, 16, MN, MN)
  CUTEREF_UMMA(SM100_MMA_F16BF16_SS, half_t, half_t, float, 64, 248, K, MN, Neg, One)
  CUTEREF_UMMA(SM100_MMA_F16BF16_SS, bfloat16_t, bfloat16_t, float, 128, 120, K, K, One, Neg)
  CUTEREF_UMMA(SM100_MMA_TF32_SS, tfloat32_t, tfloat32_t, float, 128, 128, K, K)
  CUTEREF_UMMA(SM100_MMA_TF32_SS, tfloat32_t, tfloat32_t, float, 64, 8, MN, MN)
  CUTEREF_UMMA(SM100_MMA_F16BF16_TS, half_t, half_t, float, 128, 128, K, K)
  CUTEREF_UMMA(SM100_MMA_F16BF16_TS, bfloat16_t, bfloat16_t, float, 64, 8, K, MN, Neg, Neg)
  CUTEREF_UMMA(SM100_MMA_TF32_TS, tfloat32_t, tfloat32_t, float, 128, 64, K, MN)
  CUTEREF_UMMA(SM100_MMA_F16BF16_2x1SM_SS, half_t, half_t, float, 256, 256, K, K)
  CUTEREF_UMMA(SM100_MMA_F16BF16_2x1SM_SS, half_t, half_t, half_t, 128, 16, MN, K)
  CUTEREF_UMMA(SM100_MMA_TF32_2x1SM_SS, tfloat32_t, tfloat32_t, float, 256, 128, K, MN)
  CUTEREF_UMMA(SM100_MMA_F16BF16_2x1SM_TS, half_t, half_t, float, 256, 32, K, K)
  CUTEREF_UMMA(SM100_MMA_TF32_2x1SM_TS, tfloat32_t, tfloat32_t, float, 128, 256, K, MN)
  CUTEREF_UMMA(SM100_MMA_S8_SS, int8_t, int8_t, int32_t, 128, 256, K, K)
  CUTEREF_UMMA(SM100_MMA_S8_SS, uint8_t, int8_t, int32_t, 64, 8, MN, K, True)
  CUTEREF_UMMA(SM100_MMA_S8_TS, int8_t, uint8_t, int32_t, 128, 16, K, K)
  CUTEREF_UMMA(SM100_MMA_S8_2x1SM_SS, int8_t, int8_t, int32_t, 256, 256, K, MN)
  CUTEREF_UMMA(SM100_MMA_S8_2x1SM_TS, uint8_t, uint8_t, int32_t, 128, 32, K, K)
  CUTEREF_UMMA(SM100_MMA_F8F6F4_TS, float_e4m3_t, float_e4m3_t, float, 128, 64, K, K)
  CUTEREF_UMMA(SM100_MMA_F8F6F4_2x1SM_TS, float_e5m2_t, float_e4m3_t, half_t, 256, 128, K, K)
  CUTEREF_F8(SM100_MMA_F8F6F4_SS, float_e4m3_t, float_e5m2_t, float, 128, 256, K, K, One, One)
  CUTEREF_F8(SM100_MMA_F8F6F4_SS, float_e2m3_t, float_e3m2_t, half_t, 64, 8, K, K, One, One)
  CUTEREF_F8(SM100_MMA_F8F6F4_SS, float_e5m2_t, float_e4m3_t, float, 128, 16, MN, MN, Neg, One)
  CUTEREF_F8(SM100_MMA_F8F6F4_2x1SM_SS, float_e4m3_t, float_e4m3_t, float, 256, 256, K, K, One, One)
  CUTEREF_F8(SM100_MMA_F8F6F4_2x1SM_SS, float_e4m3_t, float_e2m3_t, half_t, 128, 32, K, MN, One, Neg)

  using Half16SS = SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>;
  tiled<Half16SS>("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>", Layout<Shape<_1, _1, _1>>{},
                  Layout<Shape<_256, _32>, Stride<_32, _1>>{}, Layout<Shape<_512, _32>, Stride<_1, _512>>{},
                  Layout<Shape<_256, _512>, Stride<_512, _1>>{});
  using Half2SM = SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 256, 256, UMMA::Major::K, UMMA::Major::K>;
  tiled<Half2SM>("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,K,K>", Layout<Shape<_1, _1, _1>>{},
                 Layout<Shape<_512, _32>, Stride<_32, _1>>{}, Layout<Shape<_256, _32>, Stride<_32, _1>>{},
                 Layout<Shape<_512, _256>, Stride<_1, _512>>{});
  using Tf2SM = SM100_MMA_TF32_2x1SM_SS<tfloat32_t, tfloat32_t, float, 128, 64, UMMA::Major::K, UMMA::Major::MN>;
  tiled<Tf2SM>("SM100_MMA_TF32_2x1SM_SS<tfloat32_t,tfloat32_t,float,128,64,K,MN>", Layout<Shape<_2, _2, _1>>{},
               Layout<Shape<_512, _16>, Stride<_16, _1>>{}, Layout<Shape<_256, _16>, Stride<_1, _256>>{},
               Layout<Shape<_512, _256>, Stride<_256, _1>>{});
  accumulator<Half16SS>("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>", Layout<Shape<_128, _512>, Stride<_1, _128>>{});
  accumulator<SM100_MMA_F16BF16_SS<half_t, half_t, half_t, 64, 128, UMMA::Major::K, UMMA::Major::K>>(
      "SM100_MMA_F16BF16_SS<half_t,half_t,half_t,64,128,K,K>", Layout<Shape<_128, _256>, Stride<_256, _1>>{});
  accumulator<SM100_MMA_F16BF16_TS<half_t, half_t, float, 64, 64, UMMA::Major::K, UMMA::Major::K>>(
      "SM100_MMA_F16BF16_TS<half_t,half_t,float,64,64,K,K>", Layout<Shape<_128, _128>, Stride<_1, _128>>{});
  accumulator<SM100_MMA_S8_SS<int8_t, int8_t, int32_t, 64, 32, UMMA::Major::K, UMMA::Major::K>>(
      "SM100_MMA_S8_SS<int8_t,int8_t,int32_t,64,32,K,K>", Layout<Shape<_128, _96>, Stride<_1, _128>>{});
  accumulator<Half2SM>("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,K,K>", Layout<Shape<_256, _256>, Stride<_1, _256>>{});
  accumulator<SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>>(
      "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,128,256,K,K>", Layout<Shape<_128, _512>, Stride<_1, _128>>{});

  CUTEREF_TMEM_UP_TO_32(16dp256b)
  CUTEREF_TMEM_UP_TO_32(16dp128b) CUTEREF_TMEM(16dp128b64x)
  CUTEREF_TMEM_UP_TO_128(16dp64b)
  CUTEREF_TMEM_UP_TO_128(16dp32b)
  CUTEREF_TMEM_UP_TO_128(32dp32b)

  // make_tmem_copy over accumulators: one CTA 128 x 256 (f32, f16) and 64 x 128, two CTAs 256 x 256 (128 lanes a CTA).
  using Acc128 = SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>;
  using Acc64 = SM100_MMA_F16BF16_SS<half_t, half_t, float, 64, 128, UMMA::Major::K, UMMA::Major::K>;
  using Acc2SM = SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 256, 256, UMMA::Major::K, UMMA::Major::K>;
#define CUTEREF_ACC128 "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>"
#define CUTEREF_ACC64 "SM100_MMA_F16BF16_SS<half_t,half_t,float,64,128,K,K>"
#define CUTEREF_ACC2SM "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,K,K>"
  tmem_tiled<Acc128, SM100_TMEM_LOAD_32dp32b1x, true, 128, 256>(CUTEREF_ACC128, "SM100_TMEM_LOAD_32dp32b1x");
  tmem_tiled<Acc128, SM100_TMEM_LOAD_32dp32b4x, true, 128, 256>(CUTEREF_ACC128, "SM100_TMEM_LOAD_32dp32b4x");
  tmem_tiled<Acc128, SM100_TMEM_LOAD_32dp32b8x, true, 128, 256>(CUTEREF_ACC128, "SM100_TMEM_LOAD_32dp32b8x");
  tmem_tiled<Acc128, SM100_TMEM_LOAD_32dp32b16x, true, 128, 256>(CUTEREF_ACC128, "SM100_TMEM_LOAD_32dp32b16x");
  tmem_tiled<Acc128, SM100_TMEM_LOAD_32dp32b32x, true, 128, 256>(CUTEREF_ACC128, "SM100_TMEM_LOAD_32dp32b32x");
  tmem_tiled<Acc128, SM100_TMEM_LOAD_16dp256b1x, true, 128, 256>(CUTEREF_ACC128, "SM100_TMEM_LOAD_16dp256b1x");
  tmem_tiled<Acc128, SM100_TMEM_LOAD_16dp64b2x, true, 128, 256>(CUTEREF_ACC128, "SM100_TMEM_LOAD_16dp64b2x");
  tmem_tiled<Acc128, SM100_TMEM_STORE_32dp32b8x, false, 128, 256>(CUTEREF_ACC128, "SM100_TMEM_STORE_32dp32b8x");
  tmem_tiled<Acc64, SM100_TMEM_LOAD_16dp256b1x, true, 64, 128>(CUTEREF_ACC64, "SM100_TMEM_LOAD_16dp256b1x");
  tmem_tiled<Acc64, SM100_TMEM_LOAD_16dp32b4x, true, 64, 128>(CUTEREF_ACC64, "SM100_TMEM_LOAD_16dp32b4x");
  tmem_tiled<Acc2SM, SM100_TMEM_LOAD_32dp32b16x, true, 256, 256>(CUTEREF_ACC2SM, "SM100_TMEM_LOAD_32dp32b16x");
  using Acc128Half = SM100_MMA_F16BF16_SS<half_t, half_t, half_t, 128, 256, UMMA::Major::K, UMMA::Major::K>;
  tmem_tiled<Acc128Half, SM100_TMEM_LOAD_32dp32b2x_16b, true, 128, 256>("SM100_MMA_F16BF16_SS<half_t,half_t,half_t,128,256,K,K>",
                                                                      "SM100_TMEM_LOAD_32dp32b2x_16b");
  return 0;
}
