// make_tiled_copy_C_atom. Expected values are derived by hand from the PTX ISA's accumulator
// fragment tables (mma.m16n8k16 and wgmma D): which rows and columns the first NumValSrc values
// of each thread reach, hence the tiler (those coordinates along each mode, in (thread, value)
// order) and the tile index of every (thread, value). CuTe's own values for every thread are
// checked by the vendor suite (oracles/atoms/dump_tiled_copy).
#include <gtest/gtest.h>

#include "atoms/tiled_copy.hpp"
#include "coordinates.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace tiled_copy_c_atom_test {

using namespace cuteref;
using cuteref::test::eval;
using cuteref::test::expect_error;
using cuteref::test::tiled;
using cuteref::test::L;

namespace {

std::int64_t at(const Layout& l, std::int64_t t, std::int64_t v) {
  return apply(l, IntTuple::tuple({IntTuple::integer(t), IntTuple::integer(v)})).value();
}

const Layout& tiler_mode(const TiledCopy& tc, std::size_t i) {
  return std::get<Layout>(std::get<MixedTuple>(tc.tiler_layouts.value().data).elements.at(i).data);
}

std::int64_t element(const Partition& p, std::int64_t v) { return p.offset + apply_index(p.layout, v); }

}  // namespace

// stmatrix.x4 of 16-bit values over one 64x64x16 warpgroup. Thread t = 32w + l holds wgmma D
// values d_i at row 16w + l/4 + 8((i/2)%2), column 2(l%4) + i%2 + 8(i/4); the atom takes 8 values
// (4 registers of 2 halves), d_0..d_7 = (v0, v1, v2) in (2,2,2): rows 16w + l/4 + 8v1 (all 64),
// columns 2(l%4) + v0 + 8v2 (the first 16). Along M the thread/value modes (l%4, l/4, w, v0, v1,
// v2) have row strides (0, 1, 16, 0, 8, 0): tiler (8,4,2):(1,16,8); along N the column strides
// (2, 0, 0, 1, 0, 8): tiler (4,2,2):(2,1,8). A row m = 16w + l/4 + 8v1 is tile row
// l/4 + 8w + 32v1, a column is tile column l%4 + 4v0 + 8v2, and the tile index is row + 64 col.
TEST(TiledCopyCAtom, StmatrixSubtileOfAWarpgroup) {
  const TiledCopy tc = tiled(
      "make_tiled_copy_C_atom(SM90_U32x4_STSM_N, 16, make_tiled_mma(SM90_64x64x16_F16F16F16_SS<K,K>, (1,1,1):(0,0,0)))");
  ASSERT_EQ(tiled_copy_size(tc), 128);
  ASSERT_EQ(size_value(mode(tc.layout_tv, 1)), 8);
  long checked = 0;
  for (std::int64_t i = 0; i < 64; ++i, ++checked)
    ASSERT_EQ(apply_index(tiler_mode(tc, 0), i), i % 8 + 16 * ((i / 8) % 4) + 8 * (i / 32)) << "M tiler " << i;
  for (std::int64_t i = 0; i < 16; ++i, ++checked)
    ASSERT_EQ(apply_index(tiler_mode(tc, 1), i), 2 * (i % 4) + (i / 4) % 2 + 8 * (i / 8)) << "N tiler " << i;
  EXPECT_EQ(size_value(tiler_mode(tc, 0)), 64);
  EXPECT_EQ(size_value(tiler_mode(tc, 1)), 16);
  for (std::int64_t t = 0; t < 128; ++t)
    for (std::int64_t v = 0; v < 8; ++v, ++checked) {
      const std::int64_t w = t / 32, l = t % 32, v0 = v % 2, v1 = (v / 2) % 2, v2 = v / 4;
      ASSERT_EQ(at(tc.layout_tv, t, v), (l / 4 + 8 * w + 32 * v1) + 64 * (l % 4 + 4 * v0 + 8 * v2)) << t << "," << v;
    }
  // Over the row-major 64x64 C tile: the source (registers) order is the thread's own values, the
  // destination order stmatrix's (lane l writes row 16w + l%16 at columns 8(l/16)..+7, PTX ISA);
  // the 64x16 tile repeats 4 times along N, 16 columns apart.
  const Layout tensor = L("(64,64):(64,1)");
  for (std::int64_t t = 0; t < 128; ++t) {
    const std::int64_t w = t / 32, l = t % 32;
    const Partition s = partition_S(tc, t, tensor), d = partition_D(tc, t, tensor);
    ASSERT_EQ(size_value(s.layout), 32);
    ASSERT_EQ(size_value(d.layout), 32);
    for (std::int64_t r = 0; r < 4; ++r)
      for (std::int64_t v = 0; v < 8; ++v, checked += 2) {
        const std::int64_t v0 = v % 2, v1 = (v / 2) % 2, v2 = v / 4;
        ASSERT_EQ(element(s, v + 8 * r), 64 * (16 * w + l / 4 + 8 * v1) + 2 * (l % 4) + v0 + 8 * v2 + 16 * r) << t;
        ASSERT_EQ(element(d, v + 8 * r), 64 * (16 * w + l % 16) + 8 * (l / 16) + v + 16 * r) << t;
      }
  }
  std::printf("make_tiled_copy_C_atom over a warpgroup: %ld values checked\n", checked);
}

// Two values (a 64-bit copy of floats) over 2x2 m16n8k16 atoms, (2,2,1):(2,1,0): thread
// t = l + 32(2am + an) holds c0,c1 at row 16am + l/4, columns 8an + 2(l%4) + {0,1} (PTX ISA,
// m16n8k16 C fragment); c2,c3 (8 rows below) are not kept. In thread order (l%4, l/4, an, am)
// then v, the row strides are (0, 1, 0, 16, 0): tiler (8,2):(1,16); the column strides
// (2, 0, 8, 0, 1), which coalesce: (8,2):(2,1). Tile row l/4 + 8am, tile column l%4 + 4an + 8v,
// index row + 16 col.
TEST(TiledCopyCAtom, TwoValuesOfFourMmaAtoms) {
  const TiledCopy tc = tiled(
      "make_tiled_copy_C_atom(UniversalCopy<uint64_t>, 32, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (2,2,1):(2,1,0)))");
  ASSERT_EQ(tiled_copy_size(tc), 128);
  long checked = 0;
  for (std::int64_t i = 0; i < 16; ++i, checked += 2) {
    ASSERT_EQ(apply_index(tiler_mode(tc, 0), i), i % 8 + 16 * (i / 8)) << "M tiler " << i;
    ASSERT_EQ(apply_index(tiler_mode(tc, 1), i), 2 * (i % 8) + i / 8) << "N tiler " << i;
  }
  for (std::int64_t t = 0; t < 128; ++t)
    for (std::int64_t v = 0; v < 2; ++v, ++checked) {
      const std::int64_t l = t % 32, an = (t / 32) % 2, am = t / 64;
      ASSERT_EQ(at(tc.layout_tv, t, v), (l / 4 + 8 * am) + 16 * (l % 4 + 4 * an + 8 * v)) << t << "," << v;
    }
  std::printf("make_tiled_copy_C_atom over 2x2 mma atoms: %ld values checked\n", checked);
}

// The atom may not take more values than a thread's C fragment holds (CuTe's static assertion):
// stmatrix.x4 moves 8 halves per thread, an m16n8k16 accumulator has 4.
TEST(TiledCopyCAtom, MoreAtomValuesThanTheFragmentIsAnError) {
  expect_error([] { tiled("make_tiled_copy_C_atom(SM90_U32x4_STSM_N, 16, make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN))"); },
               "more than the tiled MMA's 4 C values per thread");
  expect_error([] { tiled("make_tiled_copy_C_atom(SM90_U32x4_STSM_N, 16, (64,64):(64,1))"); }, "make_tiled_copy_C_atom");
  // A 64-bit element is wider than the 32 bits a UniversalCopy<uint32_t> moves: the atom's
  // precondition, named with the call.
  expect_error([] { tiled("make_tiled_copy_C_atom(UniversalCopy<uint32_t>, 64, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN))"); },
               "make_tiled_copy_C_atom: Copy_Atom<UniversalCopy<uint32_t>, 64-bit values>: the value width must divide");
  expect_error([] { tiled("make_tiled_copy_C_atom(NoSuchCopy, 16, make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN))"); },
               "NoSuchCopy");
}

}  // namespace tiled_copy_c_atom_test
