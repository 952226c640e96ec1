// Unit tests of slice_and_offset of a composed layout (slice_composed.hpp): the defining
// property (the slice at i is the original at the coordinate with its `_` modes at i) by
// enumeration, and the values of the CuTe DSL's documented-by-probe example by hand.
#include <gtest/gtest.h>

#include "evaluate.hpp"
#include "notation.hpp"
#include "slice_composed.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace slice_composed_test {

using namespace cuteref;
using namespace cuteref::test;

TEST(SliceComposed, ColumnOfASwizzledTile) {
  // Column 1 of Sw<3,4,3> o 0 o (8,64):(64,1): offsets 64 m + 1 for m < 8, swizzled: 1 65 then
  // 129 = bit 7 set -> XOR bit 4 -> 145, 193 -> 209, 257 (bit 8) -> bit 5: 289, 321 -> 353,
  // 385 (bits 7,8) -> 433, 449 -> 497.
  const ComposedLayout c = CL("Sw<3,4,3> o 0 o (_8,_64):(_64,_1)");
  auto [s, off] = slice_and_offset(C("(_,1)"), c);
  EXPECT_EQ(off.value(), 0);
  const std::int64_t want[] = {1, 65, 145, 209, 289, 353, 433, 497};
  for (std::int64_t m = 0; m < 8; ++m) EXPECT_EQ(at(s, m), want[m]) << m;
}

TEST(SliceComposed, EveryColumnAndRow) {
  // (S o O o L)(m + 8k) by 1-D index is the original at (m, k): each column slice (_,k) at m
  // and each row slice (m,_) at k must give it.
  const ComposedLayout c = CL("Sw<2,1,3> o 40 o (_8,_16):(_16,_1)");
  int checked = 0;
  for (std::int64_t k = 0; k < 16; ++k) {
    auto [s, off] = slice_and_offset(T({U(), I(k)}), c);
    for (std::int64_t m = 0; m < 8; ++m, ++checked) ASSERT_EQ(at(s, m) + off.value(), at(c, m + 8 * k));
  }
  for (std::int64_t m = 0; m < 8; ++m) {
    auto [s, off] = slice_and_offset(T({I(m), U()}), c);
    for (std::int64_t k = 0; k < 16; ++k, ++checked) ASSERT_EQ(at(s, k) + off.value(), at(c, m + 8 * k));
  }
  EXPECT_EQ(checked, 256);
}

TEST(SliceComposed, BehindAnSmemPointerTheSwizzleMovesToElements) {
  // Column 1 of Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1): element offsets 64 m + 1, byte
  // addresses 128 m + 2 from an aligned base; bits [7,10) XOR [4,7) on bytes is bits [6,9) XOR
  // [3,6) on 16-bit elements: Sw<3,3,3> o 1. (64m + 1) has bits [6,9) = m, so the value is
  // (64m + 1) ^ (m << 3): 1, 73, 145, 217, 289, 361, 433, 505.
  auto [s, off] = slice_and_offset(C("(_,1)"), CL("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"));
  EXPECT_EQ(off.value(), 0);
  const std::int64_t want[] = {1, 73, 145, 217, 289, 361, 433, 505};
  for (std::int64_t m = 0; m < 8; ++m) EXPECT_EQ(at(s, m), want[m]) << m;
}

}  // namespace slice_composed_test
