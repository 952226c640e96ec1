// make_tma_params with a CTA tiler (CuTe's make_tma_copy(op, gmem, smem, cta_tiler, cluster)) and
// over hierarchical GMEM modes. Expected values: hand derivations in the comments (the tile
// composed from the GMEM modes by the tiler, the SMEM storage order read through it, the box its
// leading unit-step runs); oracles/atoms/dump_tma.cpp checks the same shapes against CuTe C++.
#include <gtest/gtest.h>

#include "atoms/tma.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace tma_cta_tiler_test {

using namespace cuteref;
using namespace cuteref::test;

namespace {
std::string printed(const std::string& text) { return parse_and_evaluate(text, &standard_functions()).to_string(); }

// FlashAttention's pack_gqa Q: ((4 query heads per KV head, 192 positions), hdim 128) over 8
// heads: strides ((128, 8*128), 1). SMEM: the K-major SW128 tile of 128 x 128 bf16.
const char* kPackGqa = "((4,192),128):((128,1024),1)";
const char* kTile128 = "tile_to_shape(gmma_atom(K, SW128, 16), (128,128))";
}  // namespace

TEST(TmaCtaTiler, PackGqaTilerTakesHeadsThenPositions) {
  // The tiler ((4,32),128) tiles GMEM mode 0 mode by mode: 4 heads and 32 positions; mode 1: 128
  // of hdim. SMEM stores 64 hdim elements (128 bytes, the SW128 row) first, then the 128 tile
  // rows (4 heads, then 32 positions), then the second half of hdim (not a unit step: box ends).
  // Box (64, 4, 32) over hdim (extent 128, stride 1), heads (4, 128 * 2 = 256 bytes), positions
  // (192, 1024 * 2 = 2048 bytes); no merge (4 * 128 != 1024, and dynamic strides); SW128 = 3.
  EXPECT_EQ(printed(std::string("tma_params(") + kPackGqa + ", " + kTile128 + ", 16, ((4,32),128))"),
            "(3,(128,4,192),(256,2048),(64,4,32),(1,1,1),0,3)");
  // `_` keeps GMEM mode 1 whole (128 = the tile's 128 columns): the same tile.
  EXPECT_EQ(printed(std::string("tma_params(") + kPackGqa + ", " + kTile128 + ", 16, ((4,32),_))"),
            "(3,(128,4,192),(256,2048),(64,4,32),(1,1,1),0,3)");
  // An integer tiler leaf takes its coordinates colexicographically: 128 rows of (4,192) are
  // 4 heads x 32 positions again; without a tiler CuTe's default is the SMEM mode sizes (128,128).
  EXPECT_EQ(printed(std::string("tma_params(") + kPackGqa + ", " + kTile128 + ", 16, (128,128))"),
            "(3,(128,4,192),(256,2048),(64,4,32),(1,1,1),0,3)");
  EXPECT_EQ(printed(std::string("tma_params(") + kPackGqa + ", " + kTile128 + ", 16)"),
            "(3,(128,4,192),(256,2048),(64,4,32),(1,1,1),0,3)");
}

TEST(TmaCtaTiler, ModesPastTheTilerFollowWithBoxOne) {
  // With KV heads (2, stride 4 * 128 = 512 -> 1024 bytes) and batch (3, stride 192 * 1024 =
  // 196608 -> 393216 bytes): dropped by the tiler, walked by no box dimension: extent 1 each.
  EXPECT_EQ(printed(std::string("tma_params(((4,192),128,2,3):((128,1024),1,512,196608), ") + kTile128 + ", 16, ((4,32),128))"),
            "(5,(128,4,192,2,3),(256,2048,1024,393216),(64,4,32,1,1),(1,1,1,1,1),0,3)");
  // 2 multicast CTAs: the outermost box dimension (positions, 32) is halved.
  EXPECT_EQ(printed(std::string("tma_params(") + kPackGqa + ", " + kTile128 + ", 16, ((4,32),128), 2)"),
            "(3,(128,4,192),(256,2048),(64,4,16),(1,1,1),0,3)");
}

TEST(TmaCtaTiler, StaticStridesMergeAcrossAHierarchicalMode) {
  // ((2 heads, 300 positions), 64) with static strides ((_64,_128),_1), a row-major 128 x 64 SMEM
  // tile, tiler ((2,64),64). SMEM order: 64 of hdim (stride 1), 2 heads (stride 64 = 64 * 1:
  // contiguous, merged to 128), 64 positions (stride 128 = 128 * 1 contiguous, but 128 * 64 >
  // 256: a new dimension). Dimension 0 spans hdim and heads: (64-1)*1 + (2-1)*64 + 1 = 128.
  EXPECT_EQ(printed("tma_params(((_2,300),64):((_64,_128),_1), (_128,_64):(_64,_1), 16, ((_2,_64),_64))"),
            "(2,(128,300),(256),(128,64),(1,1),0,0)");
  // A run-time tiler (its extents not provably contiguous) or run-time strides: no merge.
  EXPECT_EQ(printed("tma_params(((_2,300),64):((_64,_128),_1), (_128,_64):(_64,_1), 16, ((2,64),64))"),
            "(3,(64,2,300),(128,256),(64,2,64),(1,1,1),0,0)");
  EXPECT_EQ(printed("tma_params(((_2,300),64):((64,128),_1), (_128,_64):(_64,_1), 16, ((_2,_64),_64))"),
            "(3,(64,2,300),(128,256),(64,2,64),(1,1,1),0,0)");
}

TEST(TmaCtaTiler, TupleTilerModeTilesSubModes) {
  // make_tma_copy's cuTENSOR example: GMEM ((32,40),((8,8),656)) column-major (strides
  // ((1,32),((1280,10240),81920))), tiler (128,(32,2)), SMEM column-major (128,(32,2)). Mode 0:
  // 128 = 32 x 4 of (32,40); mode 1 by sub-modes: 32 = 8 x 4 of (8,8), 2 of 656. SMEM order: 32,
  // 4 (stride 32 = 32 * 1, static: merged to 128), 8 (stride 1280), 4 (stride 10240), 2 (stride
  // 81920). Dimension 0 spans (32,40): (32-1)*1 + (40-1)*32 + 1 = 1280; float: strides x 4 bytes.
  EXPECT_EQ(printed("tma_params(((_32,40),((_8,_8),656)):((_1,_32),((1280,10240),81920)), (_128,(_32,_2)):(_1,(_128,_4096)), 32, "
                 "(_128,(_32,_2)))"),
            "(4,(1280,8,8,656),(5120,40960,327680),(128,8,4,2),(1,1,1,1),0,0)");
}

TEST(TmaCtaTiler, PreconditionsAreDiagnosed) {
  const Value tile = parse_and_evaluate(kTile128, &standard_functions());
  const Layout g = parse_layout(kPackGqa);
  // More tiler modes than GMEM modes.
  expect_error([&] { make_tma_params(g, tile, parse_int_tuple("((4,32),128,1)"), 16); }, "has 3 modes but the GMEM mode");
  // A tuple over a flat GMEM mode (CuTe tiles mode by mode).
  expect_error([&] { make_tma_params(parse_layout("(768,128):(128,1)"), tile, parse_int_tuple("((4,32),128)"), 16); },
               "a tuple tiles mode by mode");
  // Tile and SMEM sizes differ: 4 x 16 x 128 = 8192 elements, the SMEM tile 16384.
  expect_error([&] { make_tma_params(g, tile, parse_int_tuple("((4,16),128)"), 16); }, "the CTA tile has 8192 elements");
  // 6 rows over (4,192): 4 does not divide 6.
  expect_error([&] { make_tma_params(g, Value(parse_layout("(6,128):(128,1)")), parse_int_tuple("(6,128)"), 16); },
               "extents 4 and 6 do not divide one another");
  // A zero tiler leaf.
  expect_error([&] { make_tma_params(g, tile, parse_int_tuple("((0,32),128)"), 16); }, "must be a positive integer or _");
  // SMEM stores the tile with step 2 first: no run of consecutive GMEM coordinates.
  expect_error([&] { make_tma_params(parse_layout("(8,2):(1,8)"), Value(parse_layout("(2,4):(4,1)")), parse_int_tuple("(8,1)"), 16); },
               "no TMA box");
  // The hardware's rules still apply: SMEM rows of heads (stride 128) first are not contiguous.
  expect_error([&] { make_tma_params(g, Value(parse_layout("((4,32),128):((1,4),128)")), parse_int_tuple("((4,32),128)"), 16); },
               "must be contiguous in GMEM");
  // In EXPR: a fifth argument needs the tiler in the fourth.
  expect_error([&] { printed(std::string("tma_params(") + kPackGqa + ", " + kTile128 + ", 16, 2, 2)"); }, "must be the CTA tiler");
  // A layout is not a tiler here (the tiler is a shape).
  expect_error([&] { printed(std::string("tma_params(") + kPackGqa + ", " + kTile128 + ", 16, (128,128):(1,128))"); },
               "argument 3 must be the CTA tiler");
  // The boxes of a tile over hierarchical GMEM modes are not enumerated.
  expect_error([&] { printed(std::string("tma_box_coords(") + kPackGqa + ", " + kTile128 + ", 16)"); }, "hierarchical GMEM mode");
}

}  // namespace tma_cta_tiler_test
