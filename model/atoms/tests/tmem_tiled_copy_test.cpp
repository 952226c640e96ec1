// make_tmem_copy over SM100 accumulators and tmem_warp_lanes. Expected values: hand derivations
// from the instruction shapes (tmem_copy_atom.hpp) and the subpartition rule (warp w reaches lanes
// [32 (w % 4), 32 (w % 4) + 32)), written out per case; every thread's partitions against CuTe
// 4.2's make_tmem_copy are oracles/atoms/dump_sm100.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>
#include <utility>

#include "atoms/copy_atom.hpp"
#include "atoms/tmem_tiled_copy.hpp"
#include "coordinates.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace tmem_tiled_copy_test {

using namespace cuteref;

namespace {

long cases = 0;

Value eval(const std::string& e) { return parse_and_evaluate(e, &standard_functions()); }
std::string ev(const std::string& e) { return eval(e).to_string(); }

const std::string kAcc128 = "partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>), (128,256):(1,128))";
const std::string kAcc64 = "partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,64,128,K,K>), (64,128):(1,64))";
const std::string kAcc2Sm = "partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,K,K>), (256,256):(1,256))";

std::string tmem_copy(const std::string& atom, const std::string& acc) { return "make_tmem_copy(" + atom + ", 32, " + acc + ")"; }

// The set of (element) offsets thread t's partition of `tensor` reaches, offset included.
std::multiset<std::int64_t> reached(const TiledCopy& tc, std::int64_t t, const Layout& tensor, bool source) {
  const Partition p = source ? partition_S(tc, t, tensor) : partition_D(tc, t, tensor);
  std::multiset<std::int64_t> out;
  for (std::int64_t i = 0; i < size_value(p.layout); ++i) out.insert(p.offset + apply_index(p.layout, i));
  return out;
}

TiledCopy tiled(const std::string& expr) { return tiled_copy_arg({eval(expr)}, 0, "test"); }
Layout layout(const std::string& expr) { return std::get<Layout>(eval(expr).data); }

constexpr std::int64_t kLane = 65536;  // one TMEM lane of 32-bit elements (TMEM::DP<float>)

}  // namespace

// 32x32b.x1 on a 128 x 256 f32 accumulator: thread t of warp w holds lane 32w + t%32 = t, one
// column per atom, repeated over the 256 columns; the warp reads its 32 lanes together.
TEST(TmemTiledCopy, ThirtyTwoLanesOneColumn) {
  const TiledCopy tc = tiled(tmem_copy("SM100_TMEM_LOAD_32dp32b1x", kAcc128));
  EXPECT_EQ(tiled_copy_size(tc), 128);
  const Layout regs = layout("((128,256),1,1):((1,128),0,0)");  // element m + 128 n
  const Layout tmem = layout(kAcc128);
  EXPECT_EQ(tmem.to_string(), "((_128,_256),1,1):((_65536,_1),_0,0)");  // lane m, column n
  for (std::int64_t t : {0, 5, 37, 64, 127}) {
    // Registers: value v is row t, column v, in that order.
    const Partition p = partition_D(tc, t, regs);
    ASSERT_EQ(size_value(p.layout), 256);
    for (std::int64_t v = 0; v < 256; ++v) EXPECT_EQ(p.offset + apply_index(p.layout, v), t + 128 * v) << t << " " << v;
    // TMEM: the warp's 32 lanes x 256 columns, each once.
    std::multiset<std::int64_t> want;
    for (std::int64_t l = 32 * (t / 32); l < 32 * (t / 32) + 32; ++l)
      for (std::int64_t c = 0; c < 256; ++c) want.insert(l * kLane + c);
    EXPECT_EQ(reached(tc, t, tmem, true), want) << t;
    cases += 2;
  }
  EXPECT_EQ(ev("tmem_warp_lanes(" + tmem_copy("SM100_TMEM_LOAD_32dp32b1x", kAcc128) + ", " + kAcc128 + ")"),
            "((0,32),(32,64),(64,96),(96,128))");
  ++cases;
}

// 32x32b.x4 and .x16 keep each thread on its row: R consecutive columns per atom, in column order.
TEST(TmemTiledCopy, ThirtyTwoLanesRepeated) {
  for (const char* atom : {"SM100_TMEM_LOAD_32dp32b4x", "SM100_TMEM_LOAD_32dp32b16x", "SM100_TMEM_STORE_32dp32b8x"}) {
    const TiledCopy tc = tiled(tmem_copy(atom, kAcc128));
    const bool load = std::string(atom).find("LOAD") != std::string::npos;
    const Partition p = load ? partition_D(tc, 37, layout("((128,256),1,1):((1,128),0,0)"))
                             : partition_S(tc, 37, layout("((128,256),1,1):((1,128),0,0)"));
    ASSERT_EQ(size_value(p.layout), 256) << atom;
    for (std::int64_t v = 0; v < 256; ++v) EXPECT_EQ(p.offset + apply_index(p.layout, v), 37 + 128 * v) << atom << " " << v;
    EXPECT_EQ(ev("tmem_warp_lanes(" + tmem_copy(atom, kAcc128) + ", " + kAcc128 + ")"), "((0,32),(32,64),(64,96),(96,128))")
        << atom;
    cases += 2;
  }
}

// 16x256b.x1: thread t holds the 64-bit word t%4 (columns 2(t%4), 2(t%4)+1) of lane t/4 and of
// lane t/4 + 8 in its warp's 16 lanes; the copy repeats over the next 16 lanes and every 8 columns.
// Thread 37 (warp 1, t%32 = 5): lanes 33, 41, 49, 57; columns 8k + 2, 8k + 3.
TEST(TmemTiledCopy, SixteenLanes256Bits) {
  const TiledCopy tc = tiled(tmem_copy("SM100_TMEM_LOAD_16dp256b1x", kAcc128));
  std::multiset<std::int64_t> want_regs, want_tmem_rows;
  for (std::int64_t row : {33, 41, 49, 57})
    for (std::int64_t k = 0; k < 32; ++k)
      for (std::int64_t c : {8 * k + 2, 8 * k + 3}) want_regs.insert(row + 128 * c);
  EXPECT_EQ(reached(tc, 37, layout("((128,256),1,1):((1,128),0,0)"), false), want_regs);
  // The warp's TMEM view: its 32 lanes (16 per atom, two atoms down), every column.
  std::multiset<std::int64_t> want_tmem;
  for (std::int64_t l = 32; l < 64; ++l)
    for (std::int64_t c = 0; c < 256; ++c) want_tmem.insert(l * kLane + c);
  EXPECT_EQ(reached(tc, 37, layout(kAcc128), true), want_tmem);
  EXPECT_EQ(ev("tmem_warp_lanes(" + tmem_copy("SM100_TMEM_LOAD_16dp256b1x", kAcc128) + ", " + kAcc128 + ")"),
            "((0,32),(32,64),(64,96),(96,128))");
  cases += 3;
}

// M = 64: the accumulator takes lanes 0..15 of each subpartition (umma_tmem_fragment.hpp), so a
// 16-lane atom reaches [32w, 32w + 16) and a 32-lane atom is refused (CuTe's static assertion).
TEST(TmemTiledCopy, HalfHeightAccumulator) {
  EXPECT_EQ(ev("tmem_warp_lanes(" + tmem_copy("SM100_TMEM_LOAD_16dp256b1x", kAcc64) + ", " + kAcc64 + ")"),
            "((0,16),(32,48),(64,80),(96,112))");
  EXPECT_EQ(ev("tmem_warp_lanes(" + tmem_copy("SM100_TMEM_LOAD_16dp32b4x", kAcc64) + ", " + kAcc64 + ")"),
            "((0,16),(32,48),(64,80),(96,112))");
  // 16x32bx2.x4 (tmem_copy_atom.hpp): thread t reads lane t%16, the 4-column half t/16 of its
  // 8-column row. Thread 37 (t%32 = 5, half 0): row 16 * 1 + 5 = 21 of the 64, columns 8k + 0..3.
  std::multiset<std::int64_t> want;
  for (std::int64_t k = 0; k < 16; ++k)
    for (std::int64_t j = 0; j < 4; ++j) want.insert(21 + 64 * (8 * k + j));
  EXPECT_EQ(reached(tiled(tmem_copy("SM100_TMEM_LOAD_16dp32b4x", kAcc64)), 37, layout("((64,128),1,1):((1,64),0,0)"), false), want);
  cases += 3;
}

// Two CTAs, 256 x 256: each CTA's accumulator is 128 lanes x 256 columns, as for one CTA.
TEST(TmemTiledCopy, CtaPairAccumulator) {
  EXPECT_EQ(ev(kAcc2Sm), "((_128,_256),1,1):((_65536,_1),_0,0)");
  const TiledCopy tc = tiled(tmem_copy("SM100_TMEM_LOAD_32dp32b16x", kAcc2Sm));
  const Partition p = partition_D(tc, 100, layout("((128,256),1,1):((1,128),0,0)"));
  ASSERT_EQ(size_value(p.layout), 256);
  for (std::int64_t v = 0; v < 256; ++v) EXPECT_EQ(p.offset + apply_index(p.layout, v), 100 + 128 * v) << v;
  cases += 2;
}

// f16 accumulator: one 16-bit element in the low half of each 32-bit column (address 2n of a lane of
// 2^17, umma_tmem_fragment.hpp). 32x32b.x1 .pack::16b puts the low halves of columns 2k and 2k+1
// of lane t in thread t's register k: thread 37 holds row 37, columns 0..255 in order. The plain
// 32x32b (both halves of one column) reaches the high halves, outside the tensor: refused.
TEST(TmemTiledCopy, HalfPrecisionAccumulator) {
  const std::string acc = "partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,half_t,128,256,K,K>), (128,256):(1,128))";
  EXPECT_EQ(ev(acc), "((_128,_256),1,1):((_131072,_2),_0,0)");
  const TiledCopy tc = tiled("make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x_16b, 16, " + acc + ")");
  const Partition p = partition_D(tc, 37, layout("((128,256),1,1):((1,128),0,0)"));
  ASSERT_EQ(size_value(p.layout), 256);
  for (std::int64_t v = 0; v < 256; ++v) EXPECT_EQ(p.offset + apply_index(p.layout, v), 37 + 128 * v) << v;
  std::multiset<std::int64_t> want;
  for (std::int64_t l = 32; l < 64; ++l)
    for (std::int64_t c = 0; c < 256; ++c) want.insert(l * 2 * kLane + 2 * c);
  EXPECT_EQ(reached(tc, 37, layout(acc), true), want);
  EXPECT_EQ(ev("tmem_warp_lanes(make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x_16b, 16, " + acc + "), " + acc + ")"),
            "((0,32),(32,64),(64,96),(96,128))");
  try {
    ev("make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x, 16, " + acc + ")");
    ADD_FAILURE() << "32dp32b1x on an f16 accumulator was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not all elements of the TMEM tensor"), std::string::npos) << e.what();
  }
  cases += 5;
}

// The printed tiled copy (its Tiler_MN a tuple of layouts) reads back as the same copy.
TEST(TmemTiledCopy, PrintedValueReadsBack) {
  const std::string printed = ev(tmem_copy("SM100_TMEM_LOAD_16dp256b1x", kAcc128));
  EXPECT_EQ(printed,
            "(SM100_TMEM_LOAD_16dp256b1x,32,((_32,_4),(_8,_16)):((_0,_1),(_4,_32)),((_32,_16):(_32,_1),_1:_0,_1:_0))");
  EXPECT_EQ(ev("partition_D(" + printed + ", 37, ((128,256),1,1):((1,128),0,0))"),
            ev("partition_D(" + tmem_copy("SM100_TMEM_LOAD_16dp256b1x", kAcc128) + ", 37, ((128,256),1,1):((1,128),0,0))"));
  cases += 2;
}

TEST(TmemTiledCopy, Refusals) {
  const std::pair<std::string, const char*> bad[] = {
      {tmem_copy("SM100_TMEM_LOAD_32dp32b1x", kAcc64), "not all elements of the TMEM tensor"},
      {tmem_copy("SM75_U32x4_LDSM_N", kAcc128), "not a tensor-memory copy atom"},
      {"make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x, 64, " + kAcc128 + ")", "8, 16 or 32"},
      {"make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x, 32, (128,256):(1@0,1@1))", "integer strides"},
      // Lanes 2m: warp 0's row 16 sits in lane 32, outside its subpartition.
      {"tmem_warp_lanes(" + tmem_copy("SM100_TMEM_LOAD_32dp32b1x", kAcc128) + ", ((128,256),1,1):((131072,1),0,0))",
       "warp 0 (thread 0, value 16) addresses lane 32, outside its subpartition [0, 32)"},
      {"tmem_warp_lanes(make_tiled_copy(UniversalCopy<uint32_t>, 32, (32,4)), (32,4):(1,32))", "not a tensor-memory copy atom"},
      // A register permutation needs a (rows, cols) tile; make_tmem_copy's is a tuple of layouts.
      {"register_permutation(" + tmem_copy("SM100_TMEM_LOAD_32dp32b8x", kAcc128) +
           ", D, make_tiled_copy(UniversalCopy<uint32_t>, 32, (32,4), (1,8)), S)",
       "(make_tmem_copy's), not a (rows, cols) register tile"},
  };
  for (const auto& [expr, what] : bad) {
    try {
      ev(expr);
      ADD_FAILURE() << expr << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << expr << ": " << e.what();
    }
    ++cases;
  }
  std::printf("tmem tiled copies: %ld cases checked\n", cases);
}

}  // namespace tmem_tiled_copy_test
