// Unit tests of the layout constructors (make_layout.hpp). Expected values are derived by
// hand from CuTe's definitions (stride.hpp): LayoutLeft strides are the exclusive prefix
// products of the shape leaves starting at _1; LayoutRight the exclusive suffix products;
// make_ordered_layout lays the sub-shapes out in increasing order value. Static-ness
// follows CuTe: a stride is static iff it is a product of static values, so the first
// stride is always _1 (e.g. CuTe prints make_layout(make_shape(4,3)) as (4,3):(_1,4)).
#include <gtest/gtest.h>

#include "test_support.hpp"

#include <string>

#include "error.hpp"
#include "function_table.hpp"
#include "make_layout.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace make_layout_test {

using namespace cuteref;
using namespace cuteref::test;


TEST(MakeLayout, ColumnMajor) {
  // (4,3): strides (_1, 1*4) = (_1,4); the 4 is dynamic because the shape 4 is.
  EXPECT_EQ(make_layout(C("(4,3)")).to_string(), "(4,3):(_1,4)");
  // (_4,3): _1 * _4 = _4 stays static.
  EXPECT_EQ(make_layout(C("(_4,3)")).to_string(), "(_4,3):(_1,_4)");
  // Nested: ((2,2),3): leaves 2,2,3 get 1, 2, 4.
  EXPECT_EQ(make_layout(C("((2,2),3)")).to_string(), "((2,2),3):((_1,2),4)");
  // A single integer: 1:_1 (CuTe's make_layout(1)).
  EXPECT_EQ(make_layout(C("1")).to_string(), "1:_1");
  EXPECT_EQ(make_layout(C("_8")).to_string(), "_8:_1");
}

TEST(MakeLayout, RowMajor) {
  // LayoutRight (4,3): last leaf _1, first 3*1 = 3.
  EXPECT_EQ(make_layout_right(C("(4,3)")).to_string(), "(4,3):(3,_1)");
  // ((2,2),3): leaves right to left: 3 -> _1, inner 2 -> 3, outer-left 2 -> 6.
  EXPECT_EQ(make_layout_right(C("((2,2),3)")).to_string(), "((2,2),3):((6,3),_1)");
  EXPECT_EQ(make_layout_right(C("(_2,_4)")).to_string(), "(_2,_4):(_4,_1)");
}

TEST(MakeLayout, CompactColMajorFromAStart) {
  // start _2: strides _2, then _2*2 = 4 (dynamic).
  EXPECT_EQ(compact_col_major(C("(2,3)"), C("_2")).to_string(), "(_2,4)");
}

TEST(MakeLayout, ShapeLeavesMustBeValid) {
  expect_error([] { make_layout(C("(4,0)")); }, ">= 1");
  expect_error([] { make_layout(C("(4,_)")); }, "must be an integer");
}

TEST(MakeOrderedLayout, FlatOrder) {
  // order (1,0,2): mode 1 (size 3) first with stride _1, then mode 0 (size 4) with 3, then
  // mode 2 with 3*4 = 12.
  EXPECT_EQ(make_ordered_layout(C("(4,3,2)"), C("(_1,_0,_2)")).to_string(), "(4,3,2):(3,_1,12)");
  // Dynamic order values are compared as integers in the model.
  EXPECT_EQ(make_ordered_layout(C("(4,3)"), C("(1,0)")).to_string(), "(4,3):(3,_1)");
  // Order (0,1) is column-major.
  EXPECT_EQ(make_ordered_layout(C("(4,3)"), C("(0,1)")).to_string(), make_layout(C("(4,3)")).to_string());
}

TEST(MakeOrderedLayout, OrderWeaklyCongruent) {
  // order (1,0) over ((2,2),3): the leaf 3 first (stride _1), then the sub-shape (2,2)
  // column-major from 3: (3, 6).
  EXPECT_EQ(make_ordered_layout(C("((2,2),3)"), C("(_1,_0)")).to_string(), "((2,2),3):((3,6),_1)");
}

// A repeated order value among sub-shapes of one element: each starts at the product of the
// sub-shapes of smaller order, as CuTe's compact_order does. Order (_0,_64,_0) over (_1,4,_1):
// the _1 modes have nothing smaller (start 1; a static _1 takes stride _0), the 4 starts at
// 1 * 1 = 1. Vendor (CuTe 4.2, print): make_ordered_layout((_1,4,_1), (_0,_64,_0)) =
// (_1,4,_1):(_0,_1,_0); make_ordered_layout((4,_1), (_0,_0)) = (4,_1):(_1,_0).
TEST(MakeOrderedLayout, RepeatedOrderAmongSingleElementModes) {
  EXPECT_EQ(make_ordered_layout(C("(_1,4,_1)"), C("(_0,_64,_0)")).to_string(), "(_1,4,_1):(_0,_1,_0)");
  // One tied sub-shape of several elements is still no aliasing: (4,_1) with order (0,0).
  EXPECT_EQ(make_ordered_layout(C("(4,_1)"), C("(_0,_0)")).to_string(), "(4,_1):(_1,_0)");
}

TEST(MakeOrderedLayout, Errors) {
  expect_error([] { make_ordered_layout(C("(4,3)"), C("(0,0)")); }, "distinct");
  expect_error([] { make_ordered_layout(C("(4,3)"), C("(0,1,2)")); }, "weakly congruent");
  expect_error([] { make_ordered_layout(C("4"), C("(0,1)")); }, "weakly congruent");
}

// CuTe's compact_major gives a static _1 mode the stride _0 (its coordinate is always 0) and
// leaves the running product unchanged; a dynamic 1 keeps the running product. Vendor (CuTe
// 4.2, print of make_layout / make_ordered_layout / tile_to_shape):
//   make_layout((_2,_1)) = (_2,_1):(_1,_0); make_layout((_2,_1,_3)) = (_2,_1,_3):(_1,_0,_2);
//   make_layout((2,1,3)) = (2,1,3):(_1,2,2); make_layout((_1,_4)) = (_1,_4):(_0,_1);
//   make_layout((_2,_1), LayoutRight) = (_2,_1):(_1,_0);
//   make_ordered_layout((_2,_1,_3), (_2,_0,_1)) = (_2,_1,_3):(_3,_0,_1);
//   tile_to_shape((_2,_2):(_1,_2), (_4,_2)) = ((_2,_2),(_2,_1)):((_1,_4),(_2,_0)).
TEST(MakeLayout, StaticUnitModesGetStrideZero) {
  EXPECT_EQ(make_layout(C("(_2,_1)")).to_string(), "(_2,_1):(_1,_0)");
  EXPECT_EQ(make_layout(C("(_2,_1,_3)")).to_string(), "(_2,_1,_3):(_1,_0,_2)");
  EXPECT_EQ(make_layout(C("(2,1,3)")).to_string(), "(2,1,3):(_1,2,2)");
  EXPECT_EQ(make_layout(C("(_1,_4)")).to_string(), "(_1,_4):(_0,_1)");
  EXPECT_EQ(make_layout_right(C("(_2,_1)")).to_string(), "(_2,_1):(_1,_0)");
  EXPECT_EQ(make_ordered_layout(C("(_2,_1,_3)"), C("(_2,_0,_1)")).to_string(), "(_2,_1,_3):(_3,_0,_1)");
  EXPECT_EQ(parse_and_evaluate("tile_to_shape((_2,_2):(_1,_2), (_4,_2))", &standard_functions()).to_string(),
            "((_2,_2),(_2,_1)):((_1,_4),(_2,_0))");
}

}  // namespace make_layout_test
