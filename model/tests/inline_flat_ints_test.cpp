// Unit tests of InlineFlatInts (inline_flat_ints.hpp), the fixed-room working vectors of
// coalesce on a layout held as its form: loading a form's leaves, the vector operations the
// generic cores use, and the diagnostic past kInlineLeaves (never an overrun).
#include <gtest/gtest.h>

#include "test_support.hpp"

#include <cstddef>

#include "error.hpp"
#include "inline_flat_ints.hpp"
#include "layout.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace inline_flat_ints_test {

using namespace cuteref;

TEST(InlineFlatInts, LoadsTheLeavesOfAForm) {
  // (2,(3,_4)):(1,(2,_6)): the leaves 2:1, 3:2, _4:_6 by hand.
  const Layout l = cuteref::test::L("(2,(3,_4)):(1,(2,_6))");
  ASSERT_NE(l.leaves(), nullptr);
  InlineFlatInts shapes, strides;
  InlineFlatInts::load(*l.leaves(), shapes, strides);
  ASSERT_EQ(shapes.size(), 3u);
  ASSERT_EQ(strides.size(), 3u);
  const std::int64_t want_shapes[] = {2, 3, 4}, want_strides[] = {1, 2, 6};
  const bool want_static[] = {false, false, true};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(shapes[i].v, want_shapes[i]);
    EXPECT_EQ(strides[i].v, want_strides[i]);
    EXPECT_EQ(shapes[i].st, want_static[i]);
    EXPECT_EQ(strides[i].st, want_static[i]);
  }
  shapes.pop_back();
  EXPECT_EQ(shapes.size(), 2u);
  EXPECT_FALSE(shapes.empty());
}

TEST(InlineFlatInts, RefusesMoreThanItsRoom) {
  InlineFlatInts v;
  EXPECT_TRUE(v.empty());
  for (std::size_t i = 0; i < kInlineLeaves; ++i) v.push_back({static_cast<std::int64_t>(i), false});
  ASSERT_EQ(v.size(), kInlineLeaves);
  for (std::size_t i = 0; i < kInlineLeaves; ++i) EXPECT_EQ(v[i].v, static_cast<std::int64_t>(i));
  cuteref::test::expect_error([&] { v.push_back({99, false}); }, "more than 8 inline leaves");
  EXPECT_EQ(v.size(), kInlineLeaves);  // nothing written past the room
}

}  // namespace inline_flat_ints_test
