// Unit tests of composition with a swizzle on the right (composition_swizzle.hpp). Expected
// values by hand (which bits of x land where in A(x)); the definition (A o Sw)(x) == A(Sw(x))
// is checked by enumeration.
#include <gtest/gtest.h>

#include "composition_swizzle.hpp"
#include "coordinates.hpp"
#include "evaluate.hpp"
#include "notation.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace composition_swizzle_test {

using namespace cuteref;
using namespace cuteref::test;

TEST(CompositionSwizzle, SwizzleMovedThroughATranspose) {
  // A = (4,256):(256,1): x's bits 0-1 become bits 8-9 of A(x), bits 2-9 become bits 0-7.
  // Sw<2,0,2> XORs x's bits 2-3 into bits 0-1, i.e. A(x)'s bits 0-1 into its bits 8-9:
  // the swizzle with source bits [0,2) and destination [8,10) is Sw<2,0,-8>.
  const Layout a = L("(_4,_256):(_256,_1)");
  const Swizzle sw(2, 0, 2);
  const ComposedLayout r = composition(a, sw);
  EXPECT_EQ(r.swizzle.to_string(), "Sw<2,0,-8>");
  for (std::int64_t x = 0; x < 1024; ++x) ASSERT_EQ(at(r, x), apply_index(a, sw(x))) << x;
}

TEST(CompositionSwizzle, ComposedOnTheRight) {
  // A = 512:2 doubles every offset, so A o (Sw<3,4,3> o 0 o B) is the swizzle moved up one
  // bit, Sw<3,5,3>, over A o B = (8,64):(128,2) (CuTe 4.2 prints Sw<3,5,3> o _0 o
  // (_8,_64):(_128,_2), by a g++ probe).
  const Layout a = L("_512:_2");
  const ComposedLayout b = CL("Sw<3,4,3> o 0 o (_8,_64):(_64,_1)");
  const ComposedLayout r = composition(a, b);
  EXPECT_EQ(r.to_string(), "Sw<3,5,3> o _0 o (_8,_64):(_128,_2)");
  for (std::int64_t x = 0; x < 512; ++x) ASSERT_EQ(at(r, x), 2 * at(b, x)) << x;
}

TEST(CompositionSwizzle, RefusesWhereCuteConstructionIsWrong) {
  // A = (8,64):(64,1) has 512 elements; Sw<3,4,3> reads x's bits 7-9, which A(896) evaluates
  // past its domain. CuTe 4.2 answers Sw<3,1,3> o _0 o A, whose value at 1 is Sw<3,1,3>(64) = 72
  // (64 = bit 6 lies in the source bits [4,7), XOR-ed into bit 3), but A(Sw(1)) = A(1) = 64.
  expect_error([] { composition(L("(_8,_64):(_64,_1)"), Swizzle(3, 4, 3)); }, "at x = 1, A(Sw(x)) = 64");
  // CuTe requires the offset 0 of a composed layout on the right.
  expect_error([] { composition(L("_512:_1"), CL("Sw<3,4,3> o 3 o (_8,_64):(_64,_1)")); }, "offset 0");
}

TEST(CompositionSwizzle, SwizzleOnTheLeft) {
  // CuTe's unit-test input: composition(Sw<3,0,3>, (_8,_8):(_8,_1)) is Sw<3,0,3> o _0 o L as it is
  // (CuTe 4.2 prints the same, oracles/probes/corpus_vendor_probe.cpp). At 9 = (1,1): L = 8 + 1 = 9
  // = 0b001001, whose bits 3..5 (001) XOR into bits 0..2 (001): 8.
  const ComposedLayout r = composition(Swizzle(3, 0, 3), L("(_8,_8):(_8,_1)"));
  EXPECT_EQ(r.to_string(), "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)");
  EXPECT_EQ(at(r, 9), 8);
}

TEST(CompositionSwizzle, ComposedWithComposed) {
  // CuTe's unit-test input: A = Sw<2,0,3> o _0 o (_8,_8):(_8,_1), B = Sw<2,0,-3> o _0 o the same.
  // Inside, (_8,_8):(_8,_1) o Sw<2,0,-3> moves the swizzle through the row-major layout, which
  // swaps the two 3-bit fields: Sw<2,0,3> over (_8,_8):(_1,_8). CuTe prints
  // Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8) and evaluates it to 0..63 (probe): the two
  // equal swizzles cancel, and the model answers the layout.
  const Value r = composition(CL("Sw<2,0,3> o _0 o (_8,_8):(_8,_1)"), CL("Sw<2,0,-3> o _0 o (_8,_8):(_8,_1)"));
  ASSERT_TRUE(r.is_layout());
  EXPECT_EQ(r.to_string(), "(_8,_8):(_1,_8)");
  // The inner swizzle the identity: the outer one stays.
  const Value s = composition(CL("Sw<1,0,1> o 2 o _4:_1"), CL("Sw<0,0,1> o _0 o _4:_1"));
  EXPECT_EQ(s.to_string(), "Sw<1,0,1> o 2 o _4:_1");
  // Two swizzles that make no single one: refused, naming CuTe's nested answer (probe: CuTe prints
  // Sw<2,0,3> o _0 o Sw<1,0,3> o _0 o (_8,_8):(_1,_8)).
  expect_error([] { composition(CL("Sw<2,0,3> o _0 o (_8,_8):(_8,_1)"), CL("Sw<1,0,-3> o _0 o (_8,_8):(_8,_1)")); },
               "CuTe's answer is Sw<2,0,3> o _0 o Sw<1,0,3> o _0 o (_8,_8):(_1,_8)");
}

}  // namespace composition_swizzle_test
