// Unit tests of make_layout_tv (layout_tv.hpp). The expected values are read off the table
// in the CuTe DSL's documentation of make_layout_tv (a 4x6 tile, thread layout (2,3):(3,1),
// value layout (2,2):(2,1)), and the defining property is checked by enumeration.
#include <gtest/gtest.h>

#include "coordinates.hpp"
#include "layout_tv.hpp"
#include "product.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace layout_tv_test {

using namespace cuteref;
using namespace cuteref::test;

TEST(LayoutTV, DocumentedTable) {
  // The table (row m, column n) of the 4x6 tile: row 0 is T0V0 T0V1 T1V0 T1V1 T2V0 T2V1,
  // row 1 T0V2 T0V3 T1V2 T1V3 T2V2 T2V3, rows 2-3 the same for threads 3-5. (t, v) is the
  // index t + 6v of layout_tv; its value the column-major tile index m + 4n:
  //   T0V1 -> (0,1) -> 4; T1V0 -> (0,2) -> 8; T3V0 -> (2,0) -> 2; T0V2 -> (1,0) -> 1;
  //   T5V3 -> (3,5) -> 23.
  const LayoutTV r = make_layout_tv(L("(2,3):(3,1)"), L("(2,2):(2,1)"));
  EXPECT_EQ(r.tiler_mn.to_string(), "(4,6)");
  EXPECT_EQ(size_value(r.layout_tv), 24);
  EXPECT_EQ(apply_index(r.layout_tv, 0 + 6 * 1), 4);
  EXPECT_EQ(apply_index(r.layout_tv, 1 + 6 * 0), 8);
  EXPECT_EQ(apply_index(r.layout_tv, 3 + 6 * 0), 2);
  EXPECT_EQ(apply_index(r.layout_tv, 0 + 6 * 2), 1);
  EXPECT_EQ(apply_index(r.layout_tv, 5 + 6 * 3), 23);
}

TEST(LayoutTV, InverseOfTheRakedProduct) {
  // For compact thread and value layouts, layout_mn = raked_product(thr, val) sends the tile
  // index layout_tv(t + T*v) back to t + T*v, for every thread t < T and value v < V.
  int checked = 0;
  for (const char* thr : {"(2,3):(3,1)", "(4,2):(1,4)", "8:1", "(2,(2,2)):(4,(1,2))"})
    for (const char* val : {"(2,2):(2,1)", "(1,4):(4,1)", "3:1", "(2,3):(1,2)"}) {
      const LayoutTV r = make_layout_tv(L(thr), L(val));
      const Layout mn = raked_product(L(thr), L(val));
      ASSERT_EQ(size_value(r.layout_tv), size_value(mn));
      for (std::int64_t i = 0; i < size_value(mn); ++i) ASSERT_EQ(apply_index(mn, apply_index(r.layout_tv, i)), i);
      ++checked;
    }
  EXPECT_EQ(checked, 16);
}

TEST(LayoutTV, RefusesANonCompactThreadLayout) {
  // (2,2):(1,1) sends two threads to one index: no thread-value layout (CuTe's complement
  // inside raked_product refuses it as non-injective).
  expect_error([] { make_layout_tv(L("(2,2):(1,1)"), L("(2,2):(2,1)")); }, "injective");
}

}  // namespace layout_tv_test
