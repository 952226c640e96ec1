// Unit tests of the bridge to Triton's linear layouts (linear_layout_bridge.hpp). Expected values
// by hand (each bit's offset split into the tile's coordinates) and a round trip checked by
// enumeration: the F2 layout read back from the bases is the original function at every index.
// Triton's own MMAv3 expectations are in corpus/f2/triton_mmav3.txt.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <string>

#include "f2_algebra.hpp"
#include "linear_layout_bridge.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace linear_layout_bridge_test {

using namespace cuteref;
using namespace cuteref::test;

TEST(F2LinearLayoutBridge, BasesByHand) {
  // (8,8):(F1,F9) in an 8x8 tile: index bits 0..2 are the columns... of the offset c + 8r:
  // offsets 1, 2, 4 -> (1,0), (2,0), (4,0); bits 3..5 give 9, 18, 36 -> (1,1), (2,2), (4,4).
  const F2Layout f(IntTuple::tuple({I(8), I(8)}), IntTuple::tuple({I(1), I(9)}));
  const LinearLayoutBases b = to_linear_layout(f, {{"offset", 6}}, {8, 8});
  ASSERT_EQ(b.inputs.size(), 1u);
  EXPECT_EQ(b.inputs[0].name, "offset");
  const std::vector<std::vector<std::int64_t>> want{{1, 0}, {2, 0}, {4, 0}, {1, 1}, {2, 2}, {4, 4}};
  EXPECT_EQ(b.inputs[0].bases, want);
  expect_error([&] { to_linear_layout(f, {{"offset", 5}}, {8, 8}); }, "take 5 bits, but");
  expect_error([&] { to_linear_layout(f, {{"offset", 6}}, {4, 8}); }, "outside the tile");
  expect_error([&] { to_linear_layout(f, {{"offset", 6}}, {6, 8}); }, "not a power of two");
  expect_error([&] { from_linear_layout({{{"lane", {{1, 2, 3}}}}}, {8, 8}); }, "has 3 entries");
  expect_error([&] { from_linear_layout({{{"lane", {{9, 0}}}}}, {8, 8}); }, "outside the tile");
}

TEST(F2LinearLayoutBridge, RoundTripOnRandomLayouts) {
  std::mt19937_64 rng(28);
  long layouts = 0, indices = 0;
  for (int trial = 0; trial < 300; ++trial) {
    // three modes of 2^e (e <= 3), strides below 2^8: values below 2^11, a 32 x 64 tile.
    std::vector<IntTuple> shape, stride;
    std::vector<InputDimBits> dims;
    for (const char* name : {"register", "lane", "warp"}) {
      const int e = static_cast<int>(rng() % 4);
      shape.push_back(I(std::int64_t{1} << e));
      stride.push_back(I(static_cast<std::int64_t>(rng() % 256)));
      dims.push_back({name, e});
    }
    const F2Layout f(IntTuple::tuple(shape), IntTuple::tuple(stride));
    const F2Layout back = from_linear_layout(to_linear_layout(f, dims, {32, 64}), {32, 64});
    ASSERT_EQ(size_value(back), size_value(f)) << f.to_string();
    for (std::int64_t i = 0; i < size_value(f); ++i, ++indices)
      ASSERT_EQ(apply_index(back, i), apply_index(f, i)) << f.to_string() << " at " << i;
    ++layouts;
  }
  std::cout << "Linear layout round trip: " << layouts << " random F2 layouts, " << indices
            << " indices checked\n";
  EXPECT_GT(indices, 0);
}

}  // namespace linear_layout_bridge_test
