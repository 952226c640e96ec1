// Unit tests of LayoutValueStream (the odometer `==` enumerates with) and of `==` on composed
// layouts. Expected values: the evaluator's L(i) at every index (evaluate_at, a separate path
// through idx2crd and crd2idx), and hand derivations.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "equality.hpp"
#include "layout_value_stream.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace layout_value_stream_test {

using namespace cuteref;
using namespace cuteref::test;

TEST(LayoutValueStream, EveryIndexAsTheEvaluatorOver300Layouts) {
  // Shapes nested up to two levels, strides of every sign and 0, offsets of both signs.
  const std::vector<std::string> shapes = {"1", "5", "(2,3)", "(3,(2,2))", "((2,3),4,1)", "(1,7,(2,1,3))"};
  const std::vector<std::int64_t> pool = {0, 1, -1, 2, 3, -5, 7, 12, -64};
  std::int64_t checked = 0, layouts = 0;
  for (const std::string& shape_text : shapes) {
    for (std::int64_t seed = 0; seed < 50; ++seed) {
      // Stride leaf k of layout `seed`: pool[(seed * 7 + k * 3 + seed / 9) % size].
      // (The stride text copies the shape's parentheses, so L() checks it is congruent.)
      std::int64_t k = 0;
      std::string out;
      for (char ch : shape_text) {
        if (ch >= '0' && ch <= '9') {
          if (!out.empty() && out.back() >= '0' && out.back() <= '9') continue;  // multi-digit leaf
          out += std::to_string(pool[(seed * 7 + k * 3 + seed / 9) % pool.size()]);
          ++k;
        } else {
          out += ch;
        }
      }
      const Layout l = L((shape_text + ":" + out).c_str());
      const std::int64_t offset = (seed % 5) * 11 - 20;
      LayoutValueStream s(l, offset);
      const std::int64_t n = size(l).value();
      for (std::int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(s.value(), offset + evaluate_at(Value(l), i).value()) << l.to_string() << " at " << i;
        ++checked;
        if (i + 1 < n) s.next();
      }
      ++layouts;
    }
  }
  EXPECT_EQ(layouts, 300);
  std::cout << "LayoutValueStream: " << layouts << " layouts, " << checked << " values checked\n";
}

TEST(LayoutValueStream, RefusesWhatItCannotStream) {
  // 2^62 + 2^62 - 1 ... : (3):(2^62) reaches 2 * 2^62 = 2^63, beyond int64.
  expect_error([] { LayoutValueStream(L("3:4611686018427387904"), 0); }, "overflow");
  expect_error([] { LayoutValueStream(L("2:1"), INT64_MAX); }, "overflow");
  expect_error([] { LayoutValueStream(L("(2,2):(1@0,1@1)"), 0); }, "scaled-basis");
}

TEST(ComposedEquality, SameSwizzleAndOffsetDecideByTheInnerLayouts) {
  // composition(2^22:1, Sw<3,4,3>) is Sw<3,4,3> o _0 o 2^22:1 (composition with an identity),
  // the same as the right side: decided by the inner layouts' modes, no enumeration (a fuzz
  // input that took over 10 s under the sanitizers when it enumerated 2^22 indices).
  EXPECT_TRUE(functional_equal(Value(CL("Sw<3,4,3> o _0 o 4194304:1")), Value(CL("Sw<3,4,3> o 0 o (2048,2048):(1,2048)"))).holds);
  // Inner layouts that differ first at index 1 (0,1 against 0,2048): the composed layouts too,
  // there. Sw<3,4,3> XORs bits 7-9 into bits 4-6: 1 and 2048 (bit 11) have none of bits 7-9.
  const Verdict v = functional_equal(Value(CL("Sw<3,4,3> o 0 o (2048,2048):(1,2048)")),
                                     Value(CL("Sw<3,4,3> o 0 o (2048,2048):(2048,1)")));
  EXPECT_FALSE(v.holds);
  EXPECT_EQ(v.reason, "at index 1: left gives 1, right gives 2048");
  // Different offsets: enumerated; 0 + i against 1 + i differ at index 0.
  const Verdict w = functional_equal(Value(CL("Sw<3,4,3> o 0 o 8:1")), Value(CL("Sw<3,4,3> o 1 o 8:1")));
  EXPECT_EQ(w.reason, "at index 0: left gives 0, right gives 1");
  // Where the model cannot evaluate the elements, == says why rather than answer by the inner
  // layouts: Sw<3,0,3> XORs bits 3-5 into bits 0-2 of the byte address, inside a 64-bit element;
  // 2^63 - 1 + 1 overflows at index 1.
  const Value inside = Value(CL("Sw<3,0,3> o smem_ptr[64b](unset) o 8:1"));
  expect_error([&] { functional_equal(inside, inside); }, "so it is not a permutation of elements");
  const Value big = Value(CL("Sw<1,0,1> o 9223372036854775807 o 2:1"));
  expect_error([&] { functional_equal(big, big); }, "arithmetic overflow: 9223372036854775807 + 1");
  // Sw<0,4,3> moves no bit: the identity on 2^22 indices, enumerated against the plain layout.
  EXPECT_TRUE(functional_equal(Value(CL("Sw<0,4,3> o 0 o 4194304:1")), Value(L("4194304:1"))).holds);
  // Sw<1,4,5> XORs bit 9 into bit 4: index 512 (bit 9) goes to 528.
  EXPECT_EQ(functional_equal(Value(CL("Sw<1,4,5> o 0 o 4194304:1")), Value(L("4194304:1"))).reason,
            "at index 512: left gives 528, right gives 512");
}

}  // namespace layout_value_stream_test
