// TiledMMA partitioning. Expected values: the vendor oracle (CuTe 4.2's TiledMMA
// get_thread_slice(t).partition_A/B/C, partition_fragment_A/C, printed with the pointer offset
// by a probe compiled against the wheel's headers), seed 002's printouts (in the corpus), and
// enumeration: over all threads, partition_C covers every element of C exactly once.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "atoms/tiled_mma.hpp"
#include "coordinates.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace tiled_mma_test {

using namespace cuteref;

namespace {

void expect_partition(const Partition& p, const std::string& layout, std::int64_t offset, const std::string& what) {
  const Layout want = parse_layout(layout);
  EXPECT_TRUE(functional_equal(Value(p.layout), Value(want)).holds) << what << ": got " << p.layout.to_string() << " want " << layout;
  EXPECT_TRUE(p.layout.shape().same_values(want.shape())) << what << ": got " << p.layout.to_string() << " want " << layout;
  EXPECT_EQ(p.offset, offset) << what;
}

TiledMma tiled(const std::string& atom, const std::string& atom_layout) {
  return make_tiled_mma(mma_atom(atom), parse_layout(atom_layout));
}

}  // namespace

TEST(TiledMma, VendorPartitions) {
  const TiledMma x2 = tiled("SM90_64x64x16_F16F16F16_SS<MN,MN>", "(2,1,1):(1,2,2)");
  const Layout c128 = parse_layout("(_128,_128):(_1,512)");
  expect_partition(partition_C(x2, 0, c128), "((_2,_2,_8),_1,_2):((512,_8,4096),_0,32768)", 0, "SM90x2 C t0");
  expect_partition(partition_C(x2, 129, c128), "((_2,_2,_8),_1,_2):((512,_8,4096),_0,32768)", 1088, "SM90x2 C t129");
  expect_partition(partition_C(x2, 255, c128), "((_2,_2,_8),_1,_2):((512,_8,4096),_0,32768)", 3191, "SM90x2 C t255");
  EXPECT_TRUE(functional_equal(Value(partition_fragment_C(x2, c128)), Value(parse_layout("((_2,_2,_8),_1,_2):((_1,_2,_4),_0,_32)"))).holds);

  // Seed 002's running example (vendor: tCgC of thread 5 starts at 1 + 2 * 512).
  const TiledMma seed = tiled("SM90_64x64x16_F16F16F16_SS<MN,MN>", "(1,1,1):(0,0,0)");
  expect_partition(partition_C(seed, 5, c128), "((_2,_2,_8),_2,_2):((512,_8,4096),_64,32768)", 1025, "seed tCgC t5");
  const Partition tcsa = partition_A(seed, 0, parse_layout("((_64,_2),(_8,_8),(_1,_3)):((_1,_512),(_64,_1024),(_0,_8192))"));
  expect_partition(tcsa, "((_64,(_8,_2)),_2,_4,(_1,_3)):((_1,(_64,_1024)),_512,_2048,(_0,_8192))", 0, "seed tCsA");
  EXPECT_TRUE(functional_equal(Value(make_fragment_A(seed, tcsa.layout)), Value(parse_layout("(_1,_2,_4,(_1,_3)):(_0,_64,_256,(_0,_1024))"))).holds);

  const TiledMma s80 = tiled("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(2,1,0)");
  const Layout c64 = parse_layout("(_64,_64):(_1,_64)");
  const Layout a = parse_layout("(_64,_32):(_32,_1)");
  expect_partition(partition_C(s80, 37, c64), "((_2,_2),_2,_4):((_64,_8),_32,_1024)", 641, "SM80 C t37");
  expect_partition(partition_A(s80, 37, a), "((_2,_2,_2),_2,_2):((_1,_256,_8),_1024,_16)", 34, "SM80 A t37");
  expect_partition(partition_B(s80, 37, a), "((_2,_2),_4,_2):((_1,_8),_512,_16)", 290, "SM80 B t37");
  expect_partition(partition_C(s80, 100, c64), "((_2,_2),_2,_4):((_64,_8),_32,_1024)", 529, "SM80 C t100");
  expect_partition(partition_A(s80, 100, a), "((_2,_2,_2),_2,_2):((_1,_256,_8),_1024,_16)", 544, "SM80 A t100");
  expect_partition(partition_B(s80, 100, a), "((_2,_2),_4,_2):((_1,_8),_512,_16)", 288, "SM80 B t100");
  EXPECT_TRUE(functional_equal(Value(partition_fragment_C(s80, c64)), Value(parse_layout("((_2,_2),_2,_4):((_1,_2),_4,_8)"))).holds);
  const Layout frag_a = make_fragment_A(s80, partition_A(s80, 0, a).layout);
  EXPECT_TRUE(functional_equal(Value(frag_a), Value(parse_layout("((_2,_2,_2),_2,_2):((_1,_2,_4),_16,_8)"))).holds)
      << frag_a.to_string();

  const TiledMma v = tiled("SM70_8x8x4_F32F16F16F32_NT", "(1,1,1):(0,0,0)");
  const Layout c32 = parse_layout("(_32,_16):(_1,_32)");
  const std::pair<int, std::int64_t> lanes[] = {{0, 0}, {2, 64}, {17, 5}, {19, 69}};
  for (auto [lane, off] : lanes)
    expect_partition(partition_C(v, lane, c32), "((_2,_2,_2),_4,_2):((_32,_2,_128),_8,_256)", off, "SM70 C lane " + std::to_string(lane));
  EXPECT_THROW(partition_C(v, 5, c32), Error);  // lane 5 is not in the quadpair

  const TiledMma rs = tiled("SM90_64x32x16_F32BF16BF16_RS", "(1,1,1):(0,0,0)");
  const Layout a32 = parse_layout("(_64,_32):(_32,_1)");
  expect_partition(partition_A(rs, 45, a32), "((_2,_2,_2),_1,_2):((_1,_256,_8),_0,_16)", 610, "SM90 RS A t45");
  EXPECT_TRUE(functional_equal(Value(make_fragment_A(rs, partition_A(rs, 45, a32).layout)),
                               Value(parse_layout("((_2,_2,_2),_1,_2):((_1,_2,_4),_0,_8)"))).holds);
}

// CuTe composes with a coalesced left operand: the K-major SW128 stage tiling's M mode
// (_8,_16):(_64,_512) is one contiguous run 128:64, so the atom's 64 rows print as _64:_64, not
// (_8,_8):(_64,_512) (vendor: ((_64,_16),_2,_4,(_1,_2)):((_64,_1),_4096,_16,(_0,_8192))).
TEST(TiledMma, PartitionProfileFollowsCoalescedComposition) {
  const TiledMma t = tiled("SM90_64x128x16_F32BF16BF16_SS<K,K>", "(1,1,1):(0,0,0)");
  const Layout sa = parse_layout("((_8,_16),(_64,_1),(_1,_2)):((_64,_512),(_1,_0),(_0,_8192))");
  expect_partition(partition_A(t, 7, sa), "((_64,_16),_2,_4,(_1,_2)):((_64,_1),_4096,_16,(_0,_8192))", 0, "K-major A");
  // A dynamic stride never merges (CuTe merges only what it proves statically).
  const Layout c = parse_layout("(_128,_128):(_1,512)");
  expect_partition(partition_C(tiled("SM90_64x64x16_F16F16F16_SS<MN,MN>", "(1,1,1):(0,0,0)"), 0, c),
                   "((_2,_2,_8),_2,_2):((512,_8,4096),_64,32768)", 0, "dynamic ldC");
}

// Permutations reorder the operand before the atoms tile it (CuTe's logical_divide by
// (PermM, PermN) in thrfrg_C). Vendor values (oracles/atoms dump): thread 69 of SM80 16x8x16 on
// 2 x 2 warps, N permuted by (8,2,2):(1,16,8); thread 1 of SM80 16x8x8 with M permuted by
// (2,16):(16,1); and the rank-2 atom layout padded with _1:_0 as CuTe pads it.
TEST(TiledMma, Permutations) {
  const Layout c = parse_layout("(_64,_64):(_1,_64)");
  const TiledMma n = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), parse_layout("(2,2,1):(2,1,0)"),
                                    parse_and_evaluate("(_,(8,2,2):(1,16,8),_)", nullptr));
  expect_partition(partition_C(n, 69, c), "((_2,_2),_2,(_2,_2)):((_64,_8),_32,(_512,_2048))", 145, "PermN t69");
  const TiledMma m = make_tiled_mma(mma_atom("SM80_16x8x8_F16F16F16F16_TN"), parse_layout("(1,2,1):(0,1,0)"),
                                    parse_and_evaluate("((2,16):(16,1),32,16)", nullptr));
  expect_partition(partition_C(m, 1, parse_layout("(_64,_32):(_1,_64)")), "((_2,_2),(_2,_2),_2):((_64,_4),(_8,_32),_1024)", 128,
                   "PermM t1");
  const TiledMma r2 = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), parse_layout("(2,2):(2,1)"));
  EXPECT_EQ(tiled_mma_size(r2), 128);
  expect_partition(partition_C(r2, 37, c), "((_2,_2),_2,_4):((_64,_8),_32,_1024)", 641, "rank-2 atom layout");
  EXPECT_THROW(make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), parse_layout("(2,2,1):(2,1,0)"),
                              parse_and_evaluate("(_,_,_,_)", nullptr)),
               Error);
}

// SM70 quadpairs tiled 2 x 2: the second M atom takes the lanes the ThrID (4,2):(1,16) does not
// reach (vendor: thr_layout_vmnk ((_4,_2),_2,_2,_1):((_1,_16),_4,_8,_0); layouts and offsets below).
TEST(TiledMma, Sm70MultipleAtoms) {
  const TiledMma t = tiled("SM70_8x8x4_F32F16F16F32_NT", "(2,2,1):(1,2,4)");
  EXPECT_EQ(tiled_mma_size(t), 32);
  const Layout c = parse_layout("(_32,_32):(_1,_32)"), a = parse_layout("(_32,_8):(_1,_32)");
  const std::tuple<int, std::int64_t, std::int64_t> want[] = {{0, 0, 0},    {4, 8, 8},     {9, 257, 32},
                                                             {17, 5, 36}, {22, 76, 76}, {31, 333, 108}};
  for (auto [thr, c_off, a_off] : want) {
    expect_partition(partition_C(t, thr, c), "((_2,_2,_2),_2,_2):((_32,_2,_128),_16,_512)", c_off,
                     "SM70x4 C t" + std::to_string(thr));
    expect_partition(partition_A(t, thr, a), "(_4,_2,_2):(_1,_16,_128)", a_off, "SM70x4 A t" + std::to_string(thr));
  }
}

// Over all threads, offset + partition_C covers the C tile exactly once.
TEST(TiledMma, PartitionCIsAPartition) {
  struct Case {
    const char *atom, *atom_layout, *c;
  };
  const Case cases[] = {
      {"SM90_64x64x16_F16F16F16_SS<MN,MN>", "(2,1,1):(1,2,2)", "(_128,_128):(_1,512)"},
      {"SM90_64x24x16_F32F16F16_RS", "(1,2,1):(1,1,1)", "(_64,_96):(_96,_1)"},
      {"SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(2,1,0)", "(_64,_64):(_1,_64)"},
      {"SM80_16x8x8_F32TF32TF32F32_TN", "(1,4,1):(1,1,1)", "((_8,_4),(_16,_2)):((_1,_256),(_8,_128))"},
      {"SM70_8x8x4_F32F16F16F32_NT", "(2,2,1):(1,2,4)", "(_32,_32):(_1,_32)"},
      {"SM70_8x8x4_F16F16F16F16_TN", "(1,4,1):(1,1,1)", "(_16,_64):(_64,_1)"},
  };
  long checked = 0;
  for (const auto& c : cases) {
    const TiledMma t = tiled(c.atom, c.atom_layout);
    const Layout cl = parse_layout(c.c);
    std::set<std::int64_t> seen;
    std::int64_t threads = 0;
    for (std::int64_t thr = 0; thr < 32 * tiled_mma_size(t); ++thr) {
      // the thread indices are the image of the thread layout (not [0, size) for SM70)
      try {
        partition_C(t, thr, cl);
      } catch (const Error&) {
        continue;
      }
      const Partition p = partition_C(t, thr, cl);
      ++threads;
      for (std::int64_t i = 0; i < size_value(p.layout); ++i, ++checked)
        ASSERT_TRUE(seen.insert(p.offset + apply_index(p.layout, i)).second) << c.atom << " thread " << thr << " value " << i;
    }
    std::set<std::int64_t> all;
    for (std::int64_t i = 0; i < size_value(cl); ++i) all.insert(apply_index(cl, i));
    EXPECT_EQ(seen, all) << c.atom;
    EXPECT_EQ(threads, tiled_mma_size(t)) << c.atom;
  }
  std::printf("[ checked ] %ld (thread, value) positions of partition_C\n", checked);
}

TEST(TiledMma, Diagnostics) {
  const TiledMma t = tiled("SM90_64x64x16_F16F16F16_SS", "(1,1,1):(0,0,0)");
  EXPECT_THROW(partition_C(t, 128, parse_layout("(64,64):(1,64)")), Error);
  EXPECT_THROW(partition_C(t, 0, parse_layout("(32,64):(1,64)")), Error);
  EXPECT_THROW(partition_C(t, 0, parse_layout("128:1")), Error);
  // One SM70 atom along M reaches lanes 0..7 and 16..23; lane 8 would alias lane 0 in CuTe.
  const TiledMma sm70x2 = tiled("SM70_8x8x4_F32F16F16F32_NT", "(2,1,1):(1,2,2)");
  EXPECT_NO_THROW(partition_C(sm70x2, 23, parse_layout("(_16,_8):(_1,_16)")));
  EXPECT_THROW(partition_C(sm70x2, 8, parse_layout("(_16,_8):(_1,_16)")), Error);
  EXPECT_THROW(partition_C(sm70x2, 24, parse_layout("(_16,_8):(_1,_16)")), Error);
  EXPECT_THROW(make_tiled_mma(mma_atom("SM80_16x8x8_F32TF32TF32F32_TN"), parse_layout("(2,1,1,1):(1,2,2,2)")), Error);
}

}  // namespace tiled_mma_test
