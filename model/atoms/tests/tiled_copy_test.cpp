// TiledCopy. Expected values are derived by hand from what the copies are documented to do (the
// derivations in comments: CuTe's make_tiled_copy docs for the thread/value layouts, the PTX ISA
// for ldmatrix/stmatrix row addresses and the mma/wgmma fragment tables); CuTe's own values for
// every thread of 50 tiled copies are checked by the vendor suite (oracles/atoms/dump_tiled_copy).
#include <gtest/gtest.h>

#include "atoms/copy_bank_conflicts.hpp"
#include "atoms/tiled_copy.hpp"
#include "coordinates.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace tiled_copy_test {

using namespace cuteref;
using cuteref::test::eval;
using cuteref::test::expect_error;
using cuteref::test::tiled;
using cuteref::test::L;

namespace {

// Element offset of value v of thread t's partition.
std::int64_t element(const Partition& p, std::int64_t v) { return p.offset + apply_index(p.layout, v); }

// Mode i of a coordinate (a sum of scaled bases prints only the modes up to its last non-zero one).
std::int64_t coordinate(const IntTuple& c, std::size_t i) {
  if (!c.is_tuple()) return i == 0 ? c.value() : 0;
  return i < c.elements().size() ? c.elements()[i].value() : 0;
}

}  // namespace

// make_tiled_copy(UniversalCopy<uint128_t>, half, thr (16,8):(8,1), val (1,8)): the thread layout
// numbers the 16 x 8 threads row by row, each thread copies 8 consecutive halves along N, so the
// tile is 16 x 64 and thread t owns row t/8, columns 8(t%8)..8(t%8)+7. TiledLayout_TV maps
// (t, v) to the column-major index m + 16 n of that element. Over a row-major (128,64) tensor
// thread t starts at 64(t/8) + 8(t%8) and repeats every 16 rows (1024 elements).
TEST(TiledCopy, VectorizedRowCopy) {
  const TiledCopy tc = tiled("make_tiled_copy(UniversalCopy<uint128_t>, 16, (16,8):(8,1), (1,8))");
  EXPECT_EQ(tiled_copy_size(tc), 128);
  EXPECT_TRUE(tc.tiler.same_values(test::C("(16,64)"))) << tc.tiler.to_string();
  for (std::int64_t t = 0; t < 128; ++t)
    for (std::int64_t v = 0; v < 8; ++v)
      ASSERT_EQ(apply(tc.layout_tv, IntTuple::tuple({IntTuple::integer(t), IntTuple::integer(v)})).value(),
                t / 8 + 16 * (8 * (t % 8) + v))
          << "thread " << t << " value " << v;
  const Layout tensor = L("(128,64):(64,1)");
  for (std::int64_t t : {0, 9, 127}) {
    const Partition p = partition_S(tc, t, tensor);
    EXPECT_EQ(size_value(p.layout), 64);
    for (std::int64_t v = 0; v < 8; ++v)
      for (std::int64_t r = 0; r < 8; ++r)
        ASSERT_EQ(element(p, v + 8 * r), 64 * (t / 8) + 8 * (t % 8) + v + 1024 * r) << "thread " << t;
    const Partition d = partition_D(tc, t, tensor);
    EXPECT_EQ(d.offset, p.offset);
  }
}

// make_tiled_copy_A(SM75_U32x4_LDSM_N, half, one m16n8k16 atom): the A fragment's registers
// a0..a3 hold (row g, k 2c..), (row g+8, ..), (row g, k 8+..), (row g+8, k 8+..) with g = lane/4
// (PTX ISA, mma.m16n8k16 A fragment), so ldmatrix.x4 matrix j is rows 8(j%2).., columns 8(j/2)..,
// and lane l (which addresses row l%8 of matrix l/8) supplies row l%16 at column 8(l/16).
TEST(TiledCopy, LdmatrixFeedsTheMmaA) {
  const TiledCopy tc = tiled("make_tiled_copy_A(SM75_U32x4_LDSM_N, 16, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (1,1,1):(0,0,0)))");
  EXPECT_EQ(tiled_copy_size(tc), 32);
  const Layout tensor = L("(16,16):(16,1)");
  for (std::int64_t t = 0; t < 32; ++t) {
    const Partition p = partition_S(tc, t, tensor);
    for (std::int64_t v = 0; v < 8; ++v) ASSERT_EQ(element(p, v), 16 * (t % 16) + 8 * (t / 16) + v) << "thread " << t;
  }
}

// make_tiled_copy_C(SM90_U32x4_STSM_N, half, one 64x64x16 warpgroup): warp w holds accumulator
// rows 16w..16w+15; lane l's registers (d0,d1), (d2,d3), (d4,d5), (d6,d7) are (row l/4, columns
// 2(l%4)..), the same 8 rows below, and both again 8 columns right (PTX ISA, wgmma D fragment),
// so stmatrix.x4's matrix j is rows 16w + 8(j%2).., columns 8(j/2).., and lane l writes row
// 16w + l%16 at column 8(l/16) of the first 16 columns.
TEST(TiledCopy, StmatrixDrainsTheWarpgroupC) {
  const TiledCopy tc =
      tiled("make_tiled_copy_C(SM90_U32x4_STSM_N, 16, make_tiled_mma(SM90_64x64x16_F16F16F16_SS<K,K>, (1,1,1):(0,0,0)))");
  EXPECT_EQ(tiled_copy_size(tc), 128);
  const Layout tensor = L("(64,64):(64,1)");
  for (std::int64_t t = 0; t < 128; ++t) {
    const std::int64_t w = t / 32, l = t % 32;
    const Partition p = partition_D(tc, t, tensor);
    for (std::int64_t v = 0; v < 8; ++v) ASSERT_EQ(element(p, v), 64 * (16 * w + l % 16) + 8 * (l / 16) + v) << "thread " << t;
  }
}

// bank_conflicts of that A copy over (64,64) halves, 2 x 2 warps: the tile is 32 x 16, the tensor
// 2 x 4 tiles, so each warp issues 8 ldmatrix.x4. Row-major: a matrix's 8 rows are 128 bytes
// apart, all in banks 0..3 -> 8 wavefronts per matrix, 32 per instruction: 32 x 32 = 1024 of an
// ideal 128. The SW128 atom moves row r's 16-byte chunk to chunk r % 8: the ideal, 128.
TEST(TiledCopy, BankConflictsOfAnLdmatrixCopy) {
  const TiledCopy tc = tiled(
      "make_tiled_copy_A(SM75_U32x4_LDSM_N, 16, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1):(_2,_1,_0)))");
  const CopyBankConflicts plain = bank_conflicts(tc, eval("(64,64):(64,1)"));
  EXPECT_EQ(plain.instruction.name, "ldmatrix.x4");
  EXPECT_EQ(plain.instructions.size(), 32u);
  EXPECT_EQ(plain.wavefronts, 1024);
  EXPECT_EQ(plain.ideal, 128);
  const CopyBankConflicts swizzled = bank_conflicts(tc, eval("tile_to_shape(gmma_atom(K, SW128, 16), (64,64))"));
  EXPECT_EQ(swizzled.wavefronts, 128);
  EXPECT_EQ(eval("bank_conflicts(make_tiled_copy_A(SM75_U32x4_LDSM_N, 16, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, "
                 "(_2,_2,_1):(_2,_1,_0))), (64,64):(64,1))")
                .to_string(),
            "(32,1024,128)");
}

// The same copy over an identity (coordinate) tensor, make_identity_layout((32,64)) =
// (32,64):(1@0,1@1): thread 3 is (m, n) = (0, 3) of the row-major thread layout, so its 8 values
// are the coordinates (0, 24 + v), and the 16 x 64 tile repeats twice along M (at m + 16). The
// partition is therefore ((8,1),2,1):((1@1,0),16@0,0) (the value mode along n, the repeat along m;
// the size-1 atom-value and N-repeat modes have stride 0) starting at the coordinate (0,24), which
// CuTe moves into the identity tensor's iterator; a plain element offset does not exist.
TEST(TiledCopy, PartitionOfAnIdentityTensor) {
  const TiledCopy tc = tiled("make_tiled_copy(UniversalCopy<uint128_t>, 16, (16,8):(8,1), (1,8))");
  const Layout identity = L("(32,64):(1@0,1@1)");
  const auto [layout, origin] = partition_and_offset_S(tc, 3, identity);
  EXPECT_TRUE(origin.same_values(test::C("(0,24)"))) << origin.to_string();
  ASSERT_EQ(size_value(layout), 16);
  for (std::int64_t v = 0; v < 8; ++v)
    for (std::int64_t r = 0; r < 2; ++r) {
      const IntTuple c = apply(layout, IntTuple::integer(v + 8 * r));
      ASSERT_EQ(coordinate(c, 0), 16 * r) << "value " << v << " repeat " << r << ": " << c.to_string();
      ASSERT_EQ(coordinate(c, 1), v) << "value " << v << " repeat " << r << ": " << c.to_string();
    }
  // The same function as the hand-written one (the model's `==` enumerates coordinates).
  EXPECT_EQ(eval("partition_S(make_tiled_copy(UniversalCopy<uint128_t>, 16, (16,8):(8,1), (1,8)), 3, (32,64):(1@0,1@1)) == "
                 "((8,1),2,1):((1@1,0),16@0,0)")
                .to_string(),
            "true");
  // The destination side of UniversalCopy is the source's; thread 127 = (15, 7) starts at (15, 56).
  EXPECT_EQ(eval("mode(partition_and_offset_D(make_tiled_copy(UniversalCopy<uint128_t>, 16, (16,8):(8,1), (1,8)), 127, "
                 "(32,64):(1@0,1@1)), 1)")
                .to_string(),
            "(15,56)");
  // On an integer tensor the offset is the element's: (32,64):(1,32) puts (0,24) at 24 * 32 = 768.
  const auto [plain, offset] = partition_and_offset_S(tc, 3, L("(32,64):(1,32)"));
  EXPECT_EQ(offset.value(), 768);
  EXPECT_EQ(partition_S(tc, 3, L("(32,64):(1,32)")).offset, 768);
  // partition_S of the model's Partition needs an element offset: a coordinate tensor is refused there.
  expect_error([&] { partition_S(tc, 3, identity); }, "scaled-basis strides (a coordinate tensor)");
}

TEST(TiledCopy, Diagnostics) {
  // B of 2 x 2 m16n8k16 atoms has 4 values per thread; ldmatrix.x4.trans moves 8.
  expect_error([] { tiled("make_tiled_copy_B(SM75_U16x8_LDSM_T, 16, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1):(_2,_1,_0)))"); },
               "TiledCopy uses too few values for the atom");
  const TiledCopy tc = tiled("make_tiled_copy(UniversalCopy<uint128_t>, 16, (16,8):(8,1), (1,8))");
  expect_error([&] { partition_S(tc, 128, L("(128,64):(64,1)")); }, "thread 128 is out of range [0, 128)");
  expect_error([&] { partition_S(tc, 0, L("(128):(1)")); }, "less than the tiler");
  const TiledCopy ld = tiled("make_tiled_copy_A(SM75_U32x4_LDSM_N, 16, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (1,1,1):(0,0,0)))");
  expect_error([&] { bank_conflicts(ld, eval("(16,16):(16,1)"), CopySide::Destination); }, "ldmatrix) reads shared memory");
  const TiledCopy cp = tiled("make_tiled_copy(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, 16, (16,8):(8,1), (1,8))");
  expect_error([&] { bank_conflicts(cp, eval("(128,64):(64,1)")); }, "not modeled");
  // 3 values per thread do not divide into the atom's 8-value vectors.
  expect_error([&] { retile(tc, L("(3,2):(1,3)")); }, "retile: ");
  expect_error([] { copy_atom("UniversalCopy<uint24_t>"); }, "not a supported copy atom");
  expect_error([] { cp_async_atom(64, true); }, ".cg copies 16 bytes");
  expect_error([] { copy_atom_values(universal_copy_atom(16), 32); }, "must divide the 16 bits");
  // ldmatrix.trans moves 16-bit elements: a 32-bit element of SM75_U16x2_LDSM_T's destination would
  // be split between two lanes; recast to 32 bits, its 32-lane thread mode (4,8) keeps 16 lanes,
  // which CuTe's Copy_Atom static-asserts against ("CopyOperation is not valid for Dst of ValType").
  expect_error([] { copy_atom_values(copy_atom("SM75_U16x2_LDSM_T"), 32); }, "has 16 threads, not the atom's 32");
  expect_error([] { copy_atom_values(copy_atom("SM90_U16x8_STSM_T"), 32); }, "not valid for Src of ValType");
}

}  // namespace tiled_copy_test
