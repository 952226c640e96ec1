// make_basis_like / make_identity_layout, and evaluation of layouts with scaled-basis
// strides. Expected values: vendor oracle output (CuTe 4.2 headers compiled on the host:
// print(make_identity_layout(...)) and L(i)), hand derivations in the comments, and an
// exhaustive comparison with idx2crd.
#include <gtest/gtest.h>

#include <iostream>

#include "coordinates.hpp"
#include "error.hpp"
#include "identity_layout.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace identity_layout_test {

using namespace cuteref;

namespace {
IntTuple T(const char* text) { return parse_int_tuple(text); }
Layout L(const char* text) { return parse_layout(text); }
}  // namespace

// Vendor: print(make_identity_layout(make_shape(4,8))) -> (4,8):(_1@0,_1@1).
TEST(IdentityLayout, FlatShapePrintsAsCuTe) {
  EXPECT_EQ(make_identity_layout(T("(4,8)")).to_string(), "(4,8):(_1@0,_1@1)");
  EXPECT_EQ(make_basis_like(T("(4,8)")).to_string(), "(_1@0,_1@1)");
}

// Vendor: make_identity_layout(make_shape(make_shape(2,3),4)) -> ((2,3),4):((_1@0@0,_1@1@0),_1@1):
// the leaf at position (0,1) is E<0,1>, printed innermost index first as 1@1@0.
TEST(IdentityLayout, NestedShapePrintsAsCuTe) {
  EXPECT_EQ(make_identity_layout(T("((2,3),4)")).to_string(), "((2,3),4):((_1@0@0,_1@1@0),_1@1)");
}

// Vendor: make_identity_layout(8) -> 8:_1 (E<> is the integer _1).
TEST(IdentityLayout, LeafShape) { EXPECT_EQ(make_identity_layout(T("8")).to_string(), "8:_1"); }

// Vendor: L(5) = ((1,2),0) and L(17) = ((1,2),2) for L = make_identity_layout(((2,3),4)).
// By hand: 17 = 1 + 2*(2 + 3*2): coordinate ((1,2),2).
TEST(IdentityLayout, ValuesAreCoordinates) {
  const Layout l = make_identity_layout(T("((2,3),4)"));
  EXPECT_TRUE(apply(l, IntTuple::integer(5)).same_values(T("((1,2),0)")));
  EXPECT_TRUE(apply(l, IntTuple::integer(17)).same_values(T("((1,2),2)")));
  // 5 = 1 + 4*1 in (4,8).
  EXPECT_TRUE(apply(make_identity_layout(T("(4,8)")), IntTuple::integer(5)).same_values(T("(1,1)")));
}

// For every index of the domain the identity layout gives idx2crd(i, shape).
TEST(IdentityLayout, ExhaustiveAgainstIdx2crd) {
  const char* shapes[] = {"(4,8)", "((2,3),4)", "(2,(3,(2,2)))", "(5)", "7", "((2,2),(3,1),2)", "(1,(1,1))"};
  int checked = 0;
  for (const char* s : shapes) {
    const IntTuple shape = T(s);
    const Layout l = make_identity_layout(shape);
    for (std::int64_t i = 0; i < size_value(l); ++i, ++checked) {
      const IntTuple want = idx2crd(IntTuple::integer(i), shape);
      const IntTuple got = apply(l, IntTuple::integer(i));
      ASSERT_TRUE(got.same_values(want)) << s << " at " << i << ": " << got.to_string() << " vs " << want.to_string();
    }
  }
  std::cout << "[ identity ] " << checked << " indices checked against idx2crd\n";
  EXPECT_EQ(checked, 32 + 24 + 24 + 5 + 7 + 24 + 1);
}

TEST(IdentityLayout, EmptyShape) {
  const Layout l = make_identity_layout(T("()"));
  EXPECT_EQ(l.to_string(), "():()");
  EXPECT_EQ(size_value(l), 1);
}

TEST(IdentityLayout, RejectsNonIntegerShape) {
  EXPECT_THROW(make_basis_like(T("(4,_)")), Error);
  EXPECT_THROW(make_identity_layout(T("(4,0)")), Error);  // shape leaves must be >= 1
}

// Multi-index bases read as CuTe prints ScaledBasis (innermost index first).
// Vendor: make_layout(make_shape(3), make_stride(E<1,0>{})) at 2 prints 2@0@1, i.e. (0,(2)).
TEST(ScaledBasis, MultiIndexReading) {
  EXPECT_TRUE(apply(L("3:1@0@1"), IntTuple::integer(2)).same_values(T("(0,(2))")));
  // 5 in (2,3) is (1,2): 1*E<1,0> + 2*E<1,1> = (0,(1,2)).
  EXPECT_TRUE(apply(L("(2,3):(1@0@1,1@1@1)"), IntTuple::integer(5)).same_values(T("(0,(1,2))")));
  // 1*E<0,1> + 2*E<0,0> = ((2,1)).
  EXPECT_TRUE(apply(L("(2,3):(1@1@0,1@0@0)"), IntTuple::integer(5)).same_values(T("((2,1))")));
  // Scaled counts: 5 -> (1,1) -> 16*E<0> + 1*E<1> = (16,1).
  EXPECT_TRUE(apply(L("(4,8):(16@0,1@1)"), IntTuple::integer(5)).same_values(T("(16,1)")));
}

TEST(ScaledBasis, MixedIntegerAndBasisIsRejected) {
  // 1*1 + 1*E<1>: an integer offset cannot be added to a coordinate.
  EXPECT_THROW(apply(L("(2,2):(1,1@1)"), IntTuple::integer(3)), Error);
}

}  // namespace identity_layout_test
