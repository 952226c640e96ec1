// Unit tests of upcast/downcast/recast of composed layouts (recast_composed.hpp). Expected
// values by hand (the swizzle's bit fields move with the unit), and the defining property of
// each cast checked by enumeration of every index.
#include <gtest/gtest.h>

#include "evaluate.hpp"
#include "notation.hpp"
#include "recast_composed.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace recast_composed_test {

using namespace cuteref;
using namespace cuteref::test;


TEST(RecastComposed, DowncastSplitsEachElement) {
  // 16-bit elements read as bytes: the swizzle XORs element-offset bits [7,10) into [4,7);
  // on byte offsets (twice the element offset) those are bits [8,11) into [5,8): Sw<3,5,3>.
  const ComposedLayout c = CL("Sw<3,4,3> o 0 o (_8,_64):(_64,_1)");
  const ComposedLayout r = recast(c, 16, 8);
  EXPECT_EQ(r.to_string(), "Sw<3,5,3> o 0 o (_8,_128):(_128,_1)");
  // byte b of element (m, k) is byte (m, 2k + b) of the downcast (the contiguous mode, of
  // stride _1, is the one split): r(m + 8 (2k + b)) == 2 c(m + 8k) + b, by 1-D indices
  for (std::int64_t m = 0; m < 8; ++m)
    for (std::int64_t k = 0; k < 64; ++k)
      for (std::int64_t b = 0; b < 2; ++b) ASSERT_EQ(at(r, m + 8 * (2 * k + b)), 2 * at(c, m + 8 * k) + b) << m << "," << k;
}

TEST(RecastComposed, UpcastMergesElements) {
  // bytes read as 16-bit elements: bits [8,11) -> [5,8) of byte offsets are bits [7,10) ->
  // [4,7) of element offsets: Sw<3,5,3> becomes Sw<3,4,3>; the offset 64 bytes is 32 elements.
  const ComposedLayout c = CL("Sw<3,5,3> o 64 o (_8,_128):(_128,_1)");
  const ComposedLayout r = upcast(c, 2);
  EXPECT_EQ(r.to_string(), "Sw<3,4,3> o 32 o (_8,_64):(_64,_1)");
  // Part for part the composed layout that text reads as: an integer offset, no pointer token.
  EXPECT_TRUE(r == CL("Sw<3,4,3> o 32 o (_8,_64):(_64,_1)"));
  // element (m, k) of the upcast starts at byte (m, 2k) (bytes 2k and 2k + 1 are adjacent;
  // the swizzle keeps bit 0): r(m + 8k) == c(m + 8 (2k)) / 2, by 1-D indices
  for (std::int64_t m = 0; m < 8; ++m)
    for (std::int64_t k = 0; k < 64; ++k) ASSERT_EQ(at(r, m + 8 * k), at(c, m + 8 * 2 * k) / 2) << m << "," << k;
  // When the base runs out, the low bits of the swizzle vanish: Sw<1,0,1> upcast by 4 is
  // Sw<max(1 + 0 - 2, 0), 0, 1> = Sw<0,0,1> (no swizzle).
  EXPECT_EQ(upcast(CL("Sw<1,0,1> o 0 o (_8,_64):(_64,_1)"), 4).swizzle.to_string(), "Sw<0,0,1>");
}

TEST(RecastComposed, PointerSwizzleStays) {
  // With smem_ptr[16b] the swizzle acts on the pointer's bytes: it stays, the token follows
  // the element width, the inner layout is cast.
  const ComposedLayout c = CL("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
  EXPECT_EQ(recast(c, 16, 8).to_string(), "Sw<3,4,3> o smem_ptr[8b](unset) o (_8,_128):(_128,_1)");
  EXPECT_EQ(recast(c, 16, 32).to_string(), "Sw<3,4,3> o smem_ptr[32b](unset) o (_8,_32):(_32,_1)");
}

TEST(RecastComposed, Preconditions) {
  expect_error([] { upcast(CL("Sw<3,4,3> o 0 o (_8,_64):(_64,_1)"), 3); }, "power of two");
  expect_error([] { upcast(CL("Sw<3,4,3> o 3 o (_8,_64):(_64,_1)"), 2); }, "not a multiple of 2");
  expect_error([] { downcast(CL("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"), 32); }, "must divide");
}

}  // namespace recast_composed_test
