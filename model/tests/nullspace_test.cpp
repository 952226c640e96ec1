// Unit tests of nullspace (nullspace.hpp). Expected values by hand (each derivation next to
// it) and CuTe's post-conditions checked by enumeration on every layout of a small universe.
#include <gtest/gtest.h>

#include "coordinates.hpp"
#include "nullspace.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace nullspace_test {

using namespace cuteref;
using namespace cuteref::test;

TEST(Nullspace, HandDerived) {
  // (2,4,3):(0,1,0): modes 0 and 2 have stride 0; in the 1-D domain mode 0 steps by 1 and
  // mode 2 by 2*4 = 8, so the nullspace is (2,3):(1,8) (indices 0 1 8 9 16 17, all -> 0).
  EXPECT_EQ(nullspace(L("(_2,_4,_3):(_0,_1,_0)")).to_string(), "(_2,_3):(_1,_8)");
  // One zero mode: a leaf, not a 1-tuple. (4,(3,2)):(1,(0,4)): the 3 steps by 4.
  EXPECT_EQ(nullspace(L("(_4,(_3,_2)):(_1,(_0,_4))")).to_string(), "_3:_4");
  // No zero stride: _1:_0.
  EXPECT_EQ(nullspace(L("(4,3):(1,4)")).to_string(), "_1:_0");
  // A dynamic shape before the zero mode makes its step dynamic (CuTe's compact_major).
  EXPECT_EQ(nullspace(L("(4,3):(1,0)")).to_string(), "3:4");
  // A mode of shape 1 and stride 0 is kept; its step is CuTe's compact stride of a static _1
  // mode, _0 (CuTe 4.2 prints _1:_0 for nullspace(Layout<_1,_0>{}), by a g++ probe).
  EXPECT_EQ(nullspace(L("(_1,_4):(_0,_1)")).to_string(), "_1:_0");
  EXPECT_EQ(nullspace(L("_1:_0")).to_string(), "_1:_0");
}

TEST(Nullspace, PostconditionsByEnumeration) {
  // Every layout (s0,s1,s2):(d0,d1,d2) with s in {1,2,3} and d in {0,1,3}: L(R(i)) == 0, size(R)
  // is the product of the zero-stride shapes, and nullspace(R) is the function _1:_0.
  int checked = 0;
  for (int s0 = 1; s0 <= 3; ++s0)
    for (int s1 = 1; s1 <= 3; ++s1)
      for (int s2 = 1; s2 <= 3; ++s2)
        for (int d0 : {0, 1, 3})
          for (int d1 : {0, 1, 3})
            for (int d2 : {0, 1, 3}) {
              const Layout l(T({I(s0), I(s1), I(s2)}), T({I(d0), I(d1), I(d2)}));
              const Layout r = nullspace(l);
              std::int64_t zero_size = (d0 == 0 ? s0 : 1) * (d1 == 0 ? s1 : 1) * (d2 == 0 ? s2 : 1);
              ASSERT_EQ(size_value(r), zero_size) << l.to_string();
              for (std::int64_t i = 0; i < size_value(r); ++i) {
                ASSERT_EQ(apply_index(l, apply_index(r, i)), 0) << l.to_string() << " at " << i;
              }
              // as a function (R's dynamic shape-1 modes keep a non-zero step)
              const Layout rr = nullspace(r);
              ASSERT_EQ(size_value(rr), 1) << l.to_string();
              ASSERT_EQ(apply_index(rr, 0), 0) << l.to_string();
              ++checked;
            }
  EXPECT_EQ(checked, 729);
}

}  // namespace nullspace_test
