// Unit tests of InlineFlatInts (inline_flat_ints.hpp), the fixed-room working vectors of the
// algebra on layouts held as their forms: loading a form's leaves, the vector operations the
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

TEST(InlineFlatInts, EraseReserveClearAndCopy) {
  // The operations the generic cores use on it besides push_back (composition's coalesce_x
  // erases its dropped front; complement reserves its modes), each by hand.
  InlineFlatInts v;
  for (std::int64_t x : {10, 11, 12, 13, 14}) v.push_back({x, x % 2 == 0});
  v.erase(v.begin() + 1, v.begin() + 3);  // drops 11, 12
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].v, 10);
  EXPECT_EQ(v[1].v, 13);
  EXPECT_EQ(v[2].v, 14);
  EXPECT_TRUE(v[0].st);
  EXPECT_FALSE(v[1].st);
  EXPECT_TRUE(v[2].st);
  v.erase(v.begin(), v.begin());  // an empty range changes nothing
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].v, 10);
  const InlineFlatInts copy(v);
  ASSERT_EQ(copy.size(), 3u);
  EXPECT_EQ(copy[1].v, 13);
  EXPECT_FALSE(copy[1].st);
  EXPECT_EQ(copy.end() - copy.begin(), 3);
  v.reserve(kInlineLeaves);  // within the room: nothing to do
  cuteref::test::expect_error([&] { v.reserve(kInlineLeaves + 1); }, "more than 8 inline leaves");
  v.clear();
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(copy.size(), 3u);  // the copy is its own
}

}  // namespace inline_flat_ints_test
