// TMA tensor-map parameters (make_tma_params) and the per-copy rules (check_tma_copy).
// Expected values by hand from the CUDA driver API's rules for cuTensorMapEncodeTiled: dimension 0
// contiguous with an implicit stride, byte strides that are multiples of 16 below 2^40, box
// dimensions <= 256, inner box rows a multiple of 16 bytes (exactly the swizzle span when
// swizzled), at most 5 dimensions; and the copy rules seen on an H100 (gpu/RESULTS.md).
#include <gtest/gtest.h>

#include <iostream>

#include "atoms/gmma_smem_atom.hpp"
#include "atoms/tma.hpp"
#include "equality.hpp"
#include "function_table.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace tma_test {

using namespace cuteref;
using namespace cuteref::test;

namespace {

Value smem(const char* text) { return parse_and_evaluate(text, &standard_functions()); }

}  // namespace

TEST(Tma, ParamsOfAnMnMajorSw128Box) {
  // f16 A (512,256) column-major, ldA 512 (1024 bytes); one MN SW128 atom (64,8) as the box.
  const TmaParams p = make_tma_params(L("(512,256):(1,512)"), Value(gmma_smem_atom(GmmaMajor::MN, GmmaSwizzle::SW128, 16)), 16);
  EXPECT_EQ(p.rank, 2);
  EXPECT_EQ(p.element_bytes, 2);
  EXPECT_EQ(p.global_dim[0], 512u);
  EXPECT_EQ(p.global_dim[1], 256u);
  EXPECT_EQ(p.global_stride_bytes[0], 2u);
  EXPECT_EQ(p.global_stride_bytes[1], 1024u);
  EXPECT_EQ(p.box_dim[0], 64u);
  EXPECT_EQ(p.box_dim[1], 8u);
  EXPECT_EQ(p.element_stride[0], 1u);
  EXPECT_EQ(p.element_stride[1], 1u);
  EXPECT_EQ(p.swizzle, TmaSwizzle::Bytes128);
  EXPECT_EQ(p.interleave, 0);
}

TEST(Tma, ParamsOfAThreeDimensionalUnswizzledBox) {
  // f32 (32,100,7) with strides 32 and 3200 elements: 128 and 12800 bytes.
  const TmaParams p = make_tma_params(L("(32,100,7):(1,32,3200)"), Value(L("(32,4,1):(1,32,128)")), 32);
  EXPECT_EQ(p.rank, 3);
  EXPECT_EQ(p.global_stride_bytes[1], 128u);
  EXPECT_EQ(p.global_stride_bytes[2], 12800u);
  EXPECT_EQ(p.global_dim[2], 7u);
  EXPECT_EQ(p.box_dim[1], 4u);
  EXPECT_EQ(p.box_dim[2], 1u);
  EXPECT_EQ(p.swizzle, TmaSwizzle::None);
}

TEST(Tma, SwizzleModesFollowTheSpan) {
  // 8-bit SW32 atom: 32 bytes inner; 16-bit SW64: 32 halfs = 64 bytes.
  EXPECT_EQ(make_tma_params(L("(64,64):(1,64)"), Value(gmma_smem_atom(GmmaMajor::MN, GmmaSwizzle::SW32, 8)), 8).swizzle,
            TmaSwizzle::Bytes32);
  EXPECT_EQ(make_tma_params(L("(1024,16):(1,1024)"), smem("Sw<2,4,3> o smem_ptr[16b](unset) o (32,16):(1,32)"), 16).swizzle,
            TmaSwizzle::Bytes64);
}

TEST(Tma, WhatTheHardwareForbids) {
  expect_error([] { make_tma_params(L("4096:1"), Value(L("512:1")), 8); }, "at most 256");
  expect_error([] { make_tma_params(L("(64,8):(1,64)"), Value(L("(4,8):(1,4)")), 16); }, "multiple of 16");
  expect_error([] { make_tma_params(L("(64,8):(1,68)"), Value(L("(64,8):(1,64)")), 16); }, "multiple of 16 below 2^40");
  expect_error([] { make_tma_params(L("(64,8):(1,1099511627776)"), Value(L("(64,8):(1,64)")), 16); },
               "multiple of 16 below 2^40");
  expect_error([] { make_tma_params(L("(64,8):(2,128)"), Value(L("(64,8):(1,64)")), 16); }, "must be contiguous");
  expect_error([] { make_tma_params(L("(512,256):(1,512)"), smem("Sw<3,4,3> o smem_ptr[16b](unset) o (32,8):(1,32)"), 16); },
               "exactly the 128-byte swizzle width");
  expect_error([] { make_tma_params(L("(512,256):(1,512)"), Value(L("(8,64):(64,1)")), 16); }, "must be contiguous");
  // An SMEM box of more modes than the GMEM tensor (fewer is a CTA tile of the leading modes:
  // tma_batch_multicast_test).
  expect_error([] { make_tma_params(L("(512,256):(1,512)"), Value(L("(64,8,2):(1,64,512)")), 16); }, "has 3 modes");
  expect_error([] { make_tma_params(L("(64,8):(1,64)"), Value(L("(64,8):(2,128)")), 16); }, "no TMA box");
  expect_error([] { make_tma_params(L("(512,256):(1,512)"), Value(L("(64,8):(1,64)")), 12); }, "8, 16, 32 or 64 bits");
}

// As CuTe's make_tma_copy: the box follows the SMEM storage order (by hand, see
// corpus/atoms/tma_params.txt for the derivations; CuTe agrees in oracles/atoms).
TEST(Tma, BoxFollowsTheSmemStorageOrder) {
  // K-major f16 over a row-major (256,512) GMEM tensor: K first.
  const TmaParams k = make_tma_params(L("(256,512):(512,1)"), Value(gmma_smem_atom(GmmaMajor::K, GmmaSwizzle::SW128, 16)), 16);
  EXPECT_EQ(k.rank, 2);
  EXPECT_EQ(k.global_dim[0], 512u);
  EXPECT_EQ(k.global_dim[1], 256u);
  EXPECT_EQ(k.global_stride_bytes[1], 1024u);
  EXPECT_EQ(k.box_dim[0], 64u);
  EXPECT_EQ(k.box_dim[1], 8u);
  EXPECT_EQ(k.tma_modes, (std::vector<std::vector<int>>{{1}, {0}}));
  // A whole K-major tiling (128,64): 64 K by 128 rows.
  const TmaParams t = make_tma_params(L("(256,512):(512,1)"),
                                      smem("tile_to_shape(gmma_atom(K, SW128, 16), (_128,_64))"), 16);
  EXPECT_EQ(t.box_dim[0], 64u);
  EXPECT_EQ(t.box_dim[1], 128u);
  // Statically contiguous box dimensions merge up to 256 elements; dynamic ones do not.
  const TmaParams m = make_tma_params(L("(_64,_128):(_1,_64)"), Value(L("(_64,_2):(_1,_64)")), 16);
  EXPECT_EQ(m.rank, 1);
  EXPECT_EQ(m.global_dim[0], 8192u);
  EXPECT_EQ(m.box_dim[0], 128u);
  EXPECT_EQ(make_tma_params(L("(64,128):(1,64)"), Value(L("(64,2):(1,64)")), 16).rank, 2);
  // Six modes fold into five: (2,2) at strides 256 and 512 become one extent 4.
  const TmaParams f = make_tma_params(L("(32,2,2,2,2,2):(1,32,64,128,256,512)"), Value(L("(32,2,1,1,1,1):(1,32,64,64,64,64)")), 8);
  EXPECT_EQ(f.rank, 5);
  EXPECT_EQ(f.global_dim[4], 4u);
  EXPECT_EQ(f.global_stride_bytes[4], 256u);
  // The image prediction is for one box in GMEM mode order.
  expect_error([&] { tma_predicted_image(k, L("(256,512):(512,1)"), {0, 0, 0, 0, 0}); }, "GMEM mode i");
}

// The merge bound is inclusive. CuTe's coalesce_256 (copy_traits_sm90_tma.hpp) joins a statically
// contiguous mode to the box dimension before it while the product of their extents is <= 256:
// 16 * 16 = 256 elements join into one dimension of 256 (f16: 512 bytes, GMEM 256 elements with
// no stride of its own); 16 * 17 = 272 stay two, (16,17) with dimension 1 at 16 * 2 = 32 bytes.
TEST(Tma, StaticBoxMergeBoundIsInclusive) {
  const TmaParams at = make_tma_params(L("(_16,_16):(_1,_16)"), Value(L("(_16,_16):(_1,_16)")), 16);
  EXPECT_EQ(at.rank, 1);
  EXPECT_EQ(at.global_dim[0], 256u);
  EXPECT_EQ(at.box_dim[0], 256u);
  EXPECT_EQ(at.tma_modes, (std::vector<std::vector<int>>{{0, 1}}));
  const TmaParams past = make_tma_params(L("(_16,_17):(_1,_16)"), Value(L("(_16,_17):(_1,_16)")), 16);
  EXPECT_EQ(past.rank, 2);
  EXPECT_EQ(past.global_dim[0], 16u);
  EXPECT_EQ(past.global_dim[1], 17u);
  EXPECT_EQ(past.global_stride_bytes[1], 32u);
  EXPECT_EQ(past.box_dim[0], 16u);
  EXPECT_EQ(past.box_dim[1], 17u);
  std::cout << "[ tma ] 2 merge-bound cases checked\n";
}

// The copies of a whole tile, by hand. MN-major SW128 f16 (128,64): (64,8) boxes; box (i,j)
// starts at M = 64 i, K = 8 j, at SMEM element 512 i + 1024 j. K-major SW32 f16 (128,64): boxes
// of 16 K by all 128 rows, 4 along K, 2048 elements apart. A one-box tile: _1:_0.
TEST(Tma, CopiesOfATile) {
  const TmaCopies mn = tma_copies(L("(512,256):(1,512)"), smem("tile_to_shape(gmma_atom(MN, SW128, 16), (_128,_64))"), 16);
  EXPECT_TRUE(functional_equal(Value(mn.smem_offsets), Value(L("(2,8):(512,1024)"))).holds) << mn.smem_offsets.to_string();
  EXPECT_TRUE(functional_equal(Value(mn.coordinates), Value(L("(2,8):(64@0,8@1)"))).holds) << mn.coordinates.to_string();
  const TmaCopies k = tma_copies(L("(256,512):(512,1)"), smem("tile_to_shape(gmma_atom(K, SW32, 16), (_128,_64))"), 16);
  EXPECT_TRUE(functional_equal(Value(k.smem_offsets), Value(L("4:2048"))).holds) << k.smem_offsets.to_string();
  EXPECT_TRUE(functional_equal(Value(k.coordinates), Value(L("4:16@0"))).holds) << k.coordinates.to_string();
  const TmaCopies one = tma_copies(L("(512,256):(1,512)"), Value(gmma_smem_atom(GmmaMajor::MN, GmmaSwizzle::SW128, 16)), 16);
  EXPECT_EQ(size_value(one.smem_offsets), 1);
  // A tile whose boxes interleave with another mode's elements is not a run of whole boxes.
  expect_error([] { tma_copies(L("(512,256):(1,512)"), Value(L("(64,8):(8,1)")), 16); }, "must be contiguous");
}

TEST(Tma, CopyRules) {
  const TmaParams p = make_tma_params(L("(100,64):(1,104)"), Value(L("(16,8):(1,16)")), 16);
  EXPECT_NO_THROW(check_tma_copy(p, {8, 3, 0, 0, 0}, TmaDirection::Load));
  // 4 halfs = 8 bytes: not a multiple of 16.
  expect_error([] {
    const TmaParams q = make_tma_params(L("(100,64):(1,104)"), Value(L("(16,8):(1,16)")), 16);
    check_tma_copy(q, {4, 0, 0, 0, 0}, TmaDirection::Load);
  }, "multiple of 16 bytes");
  expect_error([] {
    const TmaParams q = make_tma_params(L("(100,64):(1,104)"), Value(L("(16,8):(1,16)")), 16);
    check_tma_copy(q, {0, -1, 0, 0, 0}, TmaDirection::Store);
  }, "negative");
  // 100 halfs = 200 bytes: a store over its end writes whole 16-byte granules past it.
  expect_error([] {
    const TmaParams q = make_tma_params(L("(100,64):(1,104)"), Value(L("(16,8):(1,16)")), 16);
    check_tma_copy(q, {88, 0, 0, 0, 0}, TmaDirection::Store);
  }, "granules");
  EXPECT_NO_THROW(check_tma_copy(p, {88, 0, 0, 0, 0}, TmaDirection::Load));
  // 104 halfs = 208 bytes = 13 granules: a store over that end writes only inside the tensor's
  // granules, so it is allowed (box 96..111 over an extent of 104).
  const TmaParams whole = make_tma_params(L("(104,64):(1,104)"), Value(L("(16,8):(1,16)")), 16);
  EXPECT_NO_THROW(check_tma_copy(whole, {96, 0, 0, 0, 0}, TmaDirection::Store));
}

}  // namespace tma_test
