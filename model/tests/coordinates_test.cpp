// Unit tests of crd2idx, idx2crd, layout application and slicing (coordinates.hpp).
// Expected values are derived by hand from CuTe's definitions: an integer coordinate over a
// tuple mode is split colexicographically (c % size(s0), then (c / size(s0)) over the rest),
// the last mode taking the remaining quotient, so an index past the domain lands past the
// last mode's extent; slicing keeps the `_` modes (nested coordinate tuples are spliced, as
// CuTe's slice uses filter_tuple) and Layout::operator() with `_` drops the offset.
#include <gtest/gtest.h>

#include "test_support.hpp"

#include <cstdint>
#include <string>

#include "coordinates.hpp"
#include "error.hpp"
#include "layout.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace coordinates_test {

using namespace cuteref;
using namespace cuteref::test;


TEST(Crd2Idx, TupleCoordinate) {
  // (4,3):(1,4) at (2,1): 2*1 + 1*4 = 6 (seed 001's worked example, correct).
  EXPECT_EQ(apply(L("(4,3):(1,4)"), C("(2,1)")), I(6));
  // ((2,2),3):((1,4),8) at ((1,1),2): 1 + 4 + 16 = 21.
  EXPECT_EQ(apply(L("((2,2),3):((1,4),8)"), C("((1,1),2)")), I(21));
  EXPECT_EQ(crd2idx(C("((1,1),2)"), C("((2,2),3)"), C("((1,4),8)")), I(21));
}

TEST(Crd2Idx, IntegerCoordinateOverTupleMode) {
  // 5 over ((2,2),3): 5 % 4 = 1 -> (1,0) in (2,2) -> 1; 5 / 4 = 1 -> 1*8. Total 9.
  EXPECT_EQ(apply(L("((2,2),3):((1,4),8)"), I(5)), I(9));
  // (3,1): 3 over mode (2,2) is (1,1) -> 1 + 4 = 5; 1*8 = 8. Total 13.
  EXPECT_EQ(apply(L("((2,2),3):((1,4),8)"), C("(3,1)")), I(13));
  // Seed 001: m = 27 over (8,2,4):(1,16,32): 27 = 3 + 8*1 + 16*1 -> 3 + 16 + 32 = 51.
  EXPECT_EQ(apply(L("(8,2,4):(1,16,32)"), I(27)), I(51));
}

TEST(Crd2Idx, PastTheDomainTheLastModeTakesTheQuotient) {
  // 13 over (4,3):(1,4): 13 % 4 = 1, 13 / 4 = 3 (not reduced mod 3) -> 1 + 12 = 13.
  EXPECT_EQ(apply(L("(4,3):(1,4)"), I(13)), I(13));
  // (1,7) over ((2,2),3): the last mode is not bounded: 1 + 7*8 = 57.
  EXPECT_EQ(apply(L("((2,2),3):((1,4),8)"), C("(1,7)")), I(57));
  // Inside a nested last mode too: 9 over (2,(2,2)):(1,(2,4)): 9%2=1, 9/2=4 over (2,2):
  // 4%2=0, 4/2=2 -> 1 + 0 + 2*4 = 9.
  EXPECT_EQ(apply(L("(2,(2,2)):(1,(2,4))"), I(9)), I(9));
}

TEST(Crd2Idx, StaticPropagation) {
  // All static participants give a static result.
  EXPECT_EQ(crd2idx(S(5), C("(_4,_3)"), C("(_1,_4)")), S(5));
  // A dynamic stride makes it dynamic.
  EXPECT_EQ(crd2idx(S(5), C("(_4,_3)"), C("(_1,4)")), I(5));
  EXPECT_EQ(crd2idx(I(5), C("(_4,_3)"), C("(_1,_4)")), I(5));
}

TEST(Crd2Idx, ScaledBasisStridesGiveCoordinates) {
  // (4,3):(1@0,1@1) is the identity on coordinates: 5 -> (1,1), (2,1) -> (2,1).
  const Layout id = L("(4,3):(1@0,1@1)");
  EXPECT_TRUE(apply(id, I(5)).same_values(C("(1,1)")));
  EXPECT_TRUE(apply(id, C("(2,1)")).same_values(C("(2,1)")));
  // 2@1 with coordinate 3 is (0,6).
  EXPECT_TRUE(apply(L("4:2@1"), I(3)).same_values(C("(0,6)")));
}

TEST(Crd2Idx, Errors) {
  expect_error([] { crd2idx(C("(1,_)"), C("(2,3)"), C("(1,2)")); }, "_");
  expect_error([] { crd2idx(C("(1,2,3)"), C("(2,3)"), C("(1,2)")); }, "rank");
  expect_error([] { crd2idx(C("(1,2)"), I(6), I(1)); }, "tuple coordinate");
  expect_error([] { apply(L("(4,3):(1,4)"), I(-1)); }, "negative");
  expect_error([] { apply_index(L("(4,3):(1,4)"), -1); }, "negative");
  // Overflow of the offset: 2 * 2^62 = 2^63.
  expect_error([] { apply(L("4:4611686018427387904"), I(2)); }, "overflow");
}

TEST(Idx2Crd, Colexicographic) {
  // 7 = 1 + 2*(1 + 2*1) in (2,(2,2)).
  EXPECT_EQ(idx2crd(I(7), C("(2,(2,2))")), C("(1,(1,1))"));
  // Seed 001: 27 in (8,2,4) = 3 + 8*1 + 16*1.
  EXPECT_EQ(idx2crd(I(27), C("(8,2,4)")), C("(3,1,1)"));
  // Static index and shape give static coordinates.
  EXPECT_EQ(idx2crd(S(7), C("(_2,(_2,_2))")), C("(_1,(_1,_1))"));
  // A leaf shape keeps the index as it is.
  EXPECT_EQ(idx2crd(I(11), I(4)), I(11));
}

TEST(Idx2Crd, PastTheDomainAndTupleIndex) {
  // 13 in (4,3): (13 % 4, 13 / 4) = (1,3): the last mode is not reduced.
  EXPECT_EQ(idx2crd(I(13), C("(4,3)")), C("(1,3)"));
  // A tuple index congruent at the top level splits elementwise: (5,2) in ((2,3),4) is ((1,2),2).
  EXPECT_EQ(idx2crd(C("(5,2)"), C("((2,3),4)")), C("((1,2),2)"));
  expect_error([] { idx2crd(C("(1,2,3)"), C("(2,3)")); }, "rank");
  expect_error([] { idx2crd(C("(1,2)"), I(6)); }, "tuple index");
}

TEST(Coordinates, EnumerationMatchesNestedLoops) {
  // ((2,3),(2,2)):((1,8),(2,24)): walk the coordinates in colexicographic order with nested
  // loops (innermost = first mode) and compute the offset as the dot product with the strides.
  const Layout l = L("((2,3),(2,2)):((1,8),(2,24))");
  const IntTuple shape = l.shape();
  std::int64_t idx = 0;
  int checked = 0;
  for (std::int64_t j1 = 0; j1 < 2; ++j1)
    for (std::int64_t j0 = 0; j0 < 2; ++j0)
      for (std::int64_t i1 = 0; i1 < 3; ++i1)
        for (std::int64_t i0 = 0; i0 < 2; ++i0, ++idx) {
          const std::int64_t offset = i0 * 1 + i1 * 8 + j0 * 2 + j1 * 24;
          const IntTuple crd = T({T({I(i0), I(i1)}), T({I(j0), I(j1)})});
          EXPECT_EQ(idx2crd(I(idx), shape), crd) << idx;
          EXPECT_EQ(apply(l, I(idx)), I(offset)) << idx;
          EXPECT_EQ(apply(l, crd), I(offset)) << idx;
          EXPECT_EQ(apply_index(l, idx), offset) << idx;
          // A partially-flat coordinate: mode 0 as one integer.
          EXPECT_EQ(apply(l, T({I(i0 + 2 * i1), T({I(j0), I(j1)})})), I(offset)) << idx;
          ++checked;
        }
  EXPECT_EQ(checked, 24);
  std::printf("[coordinates] enumeration: %d indices checked\n", checked);
}

TEST(Slice, KeepsUnderscoreModesAndDropsOffset) {
  // Seed 001: (4,3,2):(1,4,12) sliced at (_,_,0) is (4,3):(1,4).
  EXPECT_EQ(slice(C("(_,_,0)"), L("(4,3,2):(1,4,12)")), L("(4,3):(1,4)"));
  // Fixing the last coordinate at 1: the layout is the same (the offset 1*12 is dropped).
  auto [l1, off1] = slice_and_offset(C("(_,_,1)"), L("(4,3,2):(1,4,12)"));
  EXPECT_EQ(l1, L("(4,3):(1,4)"));
  EXPECT_EQ(off1, I(12));
  // (2,_,1): offset 2*1 + 1*12 = 14, layout (3):(4) (a rank-1 tuple, as CuTe's slice returns).
  auto [l2, off2] = slice_and_offset(C("(2,_,1)"), L("(4,3,2):(1,4,12)"));
  EXPECT_EQ(l2, L("(3):(4)"));
  EXPECT_EQ(off2, I(14));
}

TEST(Slice, NestedUnderscoresAreSpliced) {
  const Layout l = L("((2,3),4):((1,2),6)");
  // ((_,1),_): the inner `_` keeps 2:1, spliced next to the outer 4:6 -> (2,4):(1,6);
  // offset 1*2 = 2.
  auto [a, oa] = slice_and_offset(T({T({U(), I(1)}), U()}), l);
  EXPECT_EQ(a, L("(2,4):(1,6)"));
  EXPECT_EQ(oa, I(2));
  // ((1,_),2): keeps 3:2 -> (3):(2); offset 1*1 + 2*6 = 13.
  auto [b, ob] = slice_and_offset(T({T({I(1), U()}), I(2)}), l);
  EXPECT_EQ(b, L("(3):(2)"));
  EXPECT_EQ(ob, I(13));
  // (_,2): the whole first mode is kept as one mode -> ((2,3)):((1,2)); offset 12.
  auto [c, oc] = slice_and_offset(T({U(), I(2)}), l);
  EXPECT_EQ(c, L("((2,3)):((1,2))"));
  EXPECT_EQ(oc, I(12));
  // An integer coordinate for a tuple mode fixes that mode by its colexicographic index:
  // (5,_): 5 in (2,3) is (1,2) -> 1 + 4 = 5.
  auto [d, od] = slice_and_offset(T({I(5), U()}), l);
  EXPECT_EQ(d, L("(4):(6)"));
  EXPECT_EQ(od, I(5));
}

TEST(Slice, DegenerateCoordinates) {
  const Layout l = L("(4,3):(1,4)");
  // `_` alone keeps everything, offset 0.
  auto [a, oa] = slice_and_offset(U(), l);
  EXPECT_EQ(a, l);
  EXPECT_EQ(oa, S(0));
  // No `_`: the empty layout and the full offset 3 + 2*4 = 11.
  auto [b, ob] = slice_and_offset(C("(3,2)"), l);
  EXPECT_EQ(b, L("():()"));
  EXPECT_EQ(ob, I(11));
  auto [c, oc] = slice_and_offset(I(7), l);
  EXPECT_EQ(c, L("():()"));
  EXPECT_EQ(oc, I(7));
  expect_error([&] { slice(C("(_,1,2)"), l); }, "rank");
  expect_error([&] { slice(C("((_,1),2)"), l); }, "does not match");
}

}  // namespace coordinates_test
