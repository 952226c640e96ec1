// Unit tests of flat_coalesce.hpp: filtered_flat_modes and coalesce_flat must give exactly
// (static flags included) what filter and coalesce give, which coalesce_test.cpp checks
// against hand derivations and post-conditions. Checked over every small layout: ranks 1-3
// flat and nested, static and dynamic leaves, stride 0, negative and scaled-basis strides.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "coalesce.hpp"
#include "flat_coalesce.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace flat_coalesce_test {

using namespace cuteref;
using namespace cuteref::test;

namespace {

// Leaf values, each once dynamic and once static.
std::vector<IntTuple> leaves(const std::vector<std::int64_t>& values) {
  std::vector<IntTuple> out;
  for (auto v : values) {
    out.push_back(I(v));
    out.push_back(S(v));
  }
  return out;
}

std::vector<Layout> small_layouts() {
  const auto shapes = leaves({1, 2, 4});
  const auto strides = leaves({0, 1, 2, 8, -2});
  std::vector<Layout> out;
  for (const auto& s0 : shapes)
    for (const auto& d0 : strides) {
      out.emplace_back(s0, d0);
      for (const auto& s1 : shapes)
        for (const auto& d1 : strides) {
          out.emplace_back(T({s0, s1}), T({d0, d1}));
          out.emplace_back(T({T({s0, s1})}), T({T({d0, d1})}));
          for (std::int64_t s2 : {1, 2, 3})
            for (std::int64_t d2 : {0, 2, 4, 16}) {
              out.emplace_back(T({T({s0, s1}), I(s2)}), T({T({d0, d1}), I(d2)}));
              out.emplace_back(T({s0, T({s1, I(s2)})}), T({d0, T({d1, I(d2)})}));
            }
        }
    }
  // Scaled-basis strides (coalesce merges 2:1@0 with 4:2@0).
  out.push_back(L("(2,4):(1@0,2@0)"));
  out.push_back(L("(2,4,3):(1@0,2@0,1@1)"));
  out.push_back(L("(2,(4,3)):(1@1,(2@1,0))"));
  return out;
}

}  // namespace

TEST(FlatCoalesce, FilteredFlatModesEqualsFilter) {
  long checked = 0;
  for (const Layout& l : small_layouts()) {
    const Layout f = filter(l);
    const FlatModes want = flat_modes(f.shape(), f.stride());
    const FlatModes got = filtered_flat_modes(l);
    ASSERT_EQ(got.shapes, want.shapes) << l.to_string() << " -> " << f.to_string();
    ASSERT_EQ(got.strides, want.strides) << l.to_string() << " -> " << f.to_string();
    ++checked;
  }
  std::printf("filtered_flat_modes == flat_modes(filter(L)) on %ld layouts\n", checked);
  EXPECT_GT(checked, 10000);
}

TEST(FlatCoalesce, CoalesceFlatEqualsCoalesce) {
  long checked = 0;
  for (const Layout& l : small_layouts()) {
    const Layout want = coalesce(l);
    const Layout got = coalesce_flat(flat_modes(l.shape(), l.stride()));
    ASSERT_EQ(got, want) << l.to_string();
    ++checked;
  }
  std::printf("coalesce_flat(flat modes of L) == coalesce(L) on %ld layouts\n", checked);
  EXPECT_GT(checked, 10000);
}

TEST(FlatCoalesce, Named) {
  // (2,(1,6)):(1,(6,2)): the 1 drops, 2*1 == 2 merges -> 12:1 (coalesce_test's first case).
  EXPECT_EQ(coalesce_flat(flat_modes(C("(2,1,6)"), C("(1,6,2)"))), L("12:1"));
  // filter drops the stride-0 mode and merges the rest: (4,3,2):(1,0,4) -> 8:1.
  const FlatModes f = filtered_flat_modes(L("(4,3,2):(1,0,4)"));
  ASSERT_EQ(f.shapes.size(), 1u);
  EXPECT_EQ(f.shapes[0], I(8));
  EXPECT_EQ(f.strides[0], I(1));
  // Nothing left: the single mode _1:_0.
  const FlatModes z = filtered_flat_modes(L("(4,1):(0,3)"));
  ASSERT_EQ(z.shapes.size(), 1u);
  EXPECT_EQ(z.shapes[0], S(1));
  EXPECT_EQ(z.strides[0], S(0));
}

TEST(FlatCoalesce, FilterFlatIntsEqualsFilter) {
  // The plain-value form complement uses: equal, leaf for leaf and flag for flag, to the
  // leaves of filter(L); layouts with scaled-basis strides are refused (false).
  long checked = 0, refused = 0;
  for (const Layout& l : small_layouts()) {
    FlatModesOfInts m;
    if (!flat_int_modes(l, m)) {
      EXPECT_TRUE(l.has_basis_strides()) << l.to_string();
      ++refused;
      continue;
    }
    filter_flat_ints_in_place(m);
    const Layout f = filter(l);
    const FlatModes want = flat_modes(f.shape(), f.stride());
    ASSERT_EQ(m.shapes.size(), want.shapes.size()) << l.to_string() << " -> " << f.to_string();
    for (std::size_t i = 0; i < want.shapes.size(); ++i) {
      ASSERT_EQ(m.shapes[i].tuple(), want.shapes[i]) << l.to_string() << " -> " << f.to_string();
      ASSERT_EQ(m.strides[i].tuple(), want.strides[i]) << l.to_string() << " -> " << f.to_string();
    }
    ++checked;
  }
  std::printf("filter_flat_ints_in_place(flat_int_modes(L)) == leaves of filter(L) on %ld layouts (%ld refused)\n",
              checked, refused);
  EXPECT_GT(checked, 10000);
  EXPECT_EQ(refused, 3);
}

}  // namespace flat_coalesce_test
