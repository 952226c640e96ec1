// Unit tests of Layout construction and the layout queries/mode operations (layout.hpp).
// Expected values are derived by hand from CuTe's definitions (layout.hpp): size is the
// product of the shape leaves, cosize = 1 + sum (s_i - 1) * |d_i| (CuTe's size(coshape)),
// rank counts top-level modes, depth is the nesting depth of the shape.
#include <gtest/gtest.h>

#include "test_support.hpp"

#include <cstdint>
#include <string>

#include "error.hpp"
#include "layout.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace layout_test {

using namespace cuteref;
using namespace cuteref::test;


TEST(Layout, ConstructionRequiresCongruence) {
  expect_error([] { Layout(T({I(2), I(3)}), T({I(1)})); }, "not congruent");
  expect_error([] { Layout(T({I(2), T({I(3), I(4)})}), T({I(1), I(2), I(6)})); }, "not congruent");
  expect_error([] { Layout(I(2), T({I(1)})); }, "not congruent");
}

TEST(Layout, ConstructionRequiresShapeLeavesAtLeastOne) {
  // CuTe has no empty or negative modes.
  expect_error([] { Layout(T({I(2), I(0)}), T({I(1), I(2)})); }, ">= 1");
  expect_error([] { Layout(I(-4), I(1)); }, ">= 1");
  expect_error([] { Layout(IntTuple::underscore(), I(1)); }, "must be an integer");
  expect_error([] { Layout(IntTuple::basis(1, {0}), I(1)); }, "must be an integer");
  expect_error([] { Layout(I(4), IntTuple::underscore()); }, "stride leaf");
}

TEST(Layout, ConstructionAcceptsBasisStridesAndEmptyLayout) {
  Layout b(T({I(4), I(3)}), T({IntTuple::basis(1, {0}), IntTuple::basis(1, {1})}));
  EXPECT_TRUE(b.has_basis_strides());
  Layout e{IntTuple(), IntTuple()};
  EXPECT_EQ(e.to_string(), "():()");
  EXPECT_EQ(size(e), S(1));  // empty product
}

TEST(Layout, ToString) {
  EXPECT_EQ(Layout(T({S(4), I(3)}), T({S(1), I(4)})).to_string(), "(_4,3):(_1,4)");
  EXPECT_EQ(Layout(S(8), S(1)).to_string(), "_8:_1");
}

TEST(Layout, Size) {
  // ((2,2),3): 2*2*3 = 12, dynamic because the leaves are.
  EXPECT_EQ(size(L("((2,2),3):((1,4),8)")), I(12));
  EXPECT_EQ(size(L("((_2,_2),_3):((_1,_4),_8)")), S(12));
  EXPECT_EQ(size_value(L("8:1")), 8);
  // Mixed: _4 * 3 is dynamic.
  EXPECT_EQ(size(L("(_4,3):(_1,_4)")), I(12));
}

TEST(Layout, SizeOverflowIsAnError) {
  // (2^32)^3 = 2^96 overflows int64; the layout itself is legal.
  Layout big = L("(4294967296,4294967296,4294967296):(1,1,1)");
  expect_error([&] { size(big); }, "overflow");
  expect_error([&] { size_value(big); }, "overflow");
}

TEST(Layout, Cosize) {
  // (4,3):(1,4): 1 + 3*1 + 2*4 = 12.
  EXPECT_EQ(cosize(L("(4,3):(1,4)")), I(12));
  // (2,2):(2,1) (row-major 2x2): 1 + 1*2 + 1*1 = 4.
  EXPECT_EQ(cosize(L("(2,2):(2,1)")), I(4));
  // Broadcast: (4,3):(1,0): 1 + 3*1 + 2*0 = 4.
  EXPECT_EQ(cosize(L("(4,3):(1,0)")), I(4));
  // Negative stride: CuTe uses |d|: (2,2):(1,-1): 1 + 1 + 1 = 3.
  EXPECT_EQ(cosize(L("(2,2):(1,-1)")), I(3));
  // Static iff every shape and stride leaf is: _8:_2 -> _15.
  EXPECT_EQ(cosize(L("_8:_2")), S(15));
  EXPECT_EQ(cosize(L("_8:2")), I(15));
}

TEST(Layout, CosizeOverflowAndBasisStridesAreErrors) {
  // (2^62 + 1 - 1) * 4 = 2^64 overflows.
  expect_error([] { cosize(L("4611686018427387905:4")); }, "overflow");
  // 1 + (2^62-1)*2 + ... : (2,2):(2^62, 2^62) gives 1 + 2^62 + 2^62 = 2^63 + 1 > INT64_MAX.
  expect_error([] { cosize(L("(2,2):(4611686018427387904,4611686018427387904)")); }, "overflow");
  expect_error([] { cosize(L("(4,3):(1@0,1@1)")); }, "scaled basis");
}

TEST(Layout, RankAndDepth) {
  // ((2,(2,2)),3): two top-level modes; nesting 3 deep.
  const Layout l = L("((2,(2,2)),3):((1,(2,4)),8)");
  EXPECT_EQ(rank(l), 2u);
  EXPECT_EQ(depth(l), 3);
  EXPECT_EQ(rank(L("8:1")), 1u);
  EXPECT_EQ(depth(L("8:1")), 0);
  EXPECT_EQ(rank(L("(4,3,2):(1,4,12)")), 3u);
  EXPECT_EQ(depth(L("(4,3,2):(1,4,12)")), 1);
}

TEST(Layout, Mode) {
  const Layout l = L("((2,(2,2)),3):((1,(2,4)),8)");
  EXPECT_EQ(mode(l, 0), L("(2,(2,2)):(1,(2,4))"));
  EXPECT_EQ(mode(l, 1), L("3:8"));
  expect_error([&] { mode(l, 2); }, "out of range");
  // A leaf layout has one mode, itself.
  EXPECT_EQ(mode(L("8:2"), 0), L("8:2"));
  expect_error([] { mode(L("8:2"), 1); }, "out of range");
}

TEST(Layout, Select) {
  // select<2,0>((4,3,2):(1,4,12)) = (2,4):(12,1).
  EXPECT_EQ(select(L("(4,3,2):(1,4,12)"), {2, 0}), L("(2,4):(12,1)"));
  EXPECT_EQ(select(L("(4,3,2):(1,4,12)"), {1}), L("(3):(4)"));
  expect_error([] { select(L("(4,3):(1,4)"), {0, 2}); }, "out of range");
}

TEST(Layout, Flatten) {
  EXPECT_EQ(flatten(L("((2,(2,2)),3):((1,(2,4)),8)")), L("(2,2,2,3):(1,2,4,8)"));
  EXPECT_EQ(flatten(L("8:1")), L("8:1"));
}

TEST(Layout, GroupModes) {
  // group<1,3>((2,3,4,5):(1,2,6,24)) = (2,(3,4),5):(1,(2,6),24).
  EXPECT_EQ(group_modes(L("(2,3,4,5):(1,2,6,24)"), 1, 3), L("(2,(3,4),5):(1,(2,6),24)"));
  // Whole range: one mode holding all.
  EXPECT_EQ(group_modes(L("(2,3):(1,2)"), 0, 2), L("((2,3)):((1,2))"));
  // Empty range [1,1) inserts an empty mode (take<1,1> is ()).
  EXPECT_EQ(group_modes(L("(2,3):(1,2)"), 1, 1), L("(2,(),3):(1,(),2)"));
  EXPECT_EQ(group_modes(L("(2,3):(1,2)"), 2, 2), L("(2,3,()):(1,2,())"));
  expect_error([] { group_modes(L("(2,3):(1,2)"), 1, 3); }, "group_modes");
  expect_error([] { group_modes(L("(2,3):(1,2)"), 2, 1); }, "group_modes");
}

TEST(Layout, AppendPrependMakeFromModes) {
  // append((4,3):(1,4), 2:12) adds an outer mode: (4,3,2):(1,4,12).
  EXPECT_EQ(append(L("(4,3):(1,4)"), L("2:12")), L("(4,3,2):(1,4,12)"));
  EXPECT_EQ(prepend(L("(4,3):(1,4)"), L("2:12")), L("(2,4,3):(12,1,4)"));
  // A leaf layout is wrapped first: append(8:1, 2:8) = (8,2):(1,8).
  EXPECT_EQ(append(L("8:1"), L("2:8")), L("(8,2):(1,8)"));
  // A tuple mode stays one mode.
  EXPECT_EQ(append(L("8:1"), L("(2,2):(8,16)")), L("(8,(2,2)):(1,(8,16))"));
  EXPECT_EQ(make_layout_from_modes({L("4:1"), L("(2,2):(4,8)")}), L("(4,(2,2)):(1,(4,8))"));
  EXPECT_EQ(make_layout_from_modes({}), L("():()"));
}

}  // namespace layout_test
