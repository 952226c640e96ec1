// TMA tensor-map parameters (make_tma_params) and the per-copy rules (check_tma_copy).
// Expected values by hand from the CUDA driver API's rules for cuTensorMapEncodeTiled: dimension 0
// contiguous with an implicit stride, byte strides that are multiples of 16 below 2^40, box
// dimensions <= 256, inner box rows a multiple of 16 bytes (exactly the swizzle span when
// swizzled), at most 5 dimensions; and the copy rules seen on an H100 (gpu/RESULTS.md).
#include <gtest/gtest.h>

#include "atoms/gmma_smem_atom.hpp"
#include "atoms/tma.hpp"
#include "function_table.hpp"
#include "test_support.hpp"

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
  expect_error([] { make_tma_params(L("(2,2,2,2,2,2):(1,8,16,32,64,128)"), Value(L("(2,2,2,2,2,2):(1,2,4,8,16,32)")), 8); },
               "at most 5");
  expect_error([] { make_tma_params(L("(512,256):(1,512)"), smem("Sw<3,4,3> o smem_ptr[16b](unset) o (32,8):(1,32)"), 16); },
               "exactly the 128-byte swizzle width");
  expect_error([] { make_tma_params(L("(512,256):(1,512)"), Value(L("(8,64):(64,1)")), 16); }, "not the compact");
  expect_error([] { make_tma_params(L("(512,256):(1,512)"), Value(L("(64,8):(1,64)")), 12); }, "8, 16, 32 or 64 bits");
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
}
