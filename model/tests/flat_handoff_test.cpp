// Unit tests of the flat hand-offs divide and product use (composition_of_flat,
// composition_of_pair with flat modes): each must give exactly what the layout form gives,
// result (static flags included) or diagnostic (the same message), since divide and product
// rely on that equality. (complement itself is complement_flat's result as a layout, so
// there is nothing to compare there.) The layout forms are checked against hand
// derivations, CuTe's examples and the vendor differential elsewhere; here every pair of
// small operands is compared, failing cases included.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "complement.hpp"
#include "composition.hpp"
#include "error.hpp"
#include "flat_coalesce.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace flat_handoff_test {

using namespace cuteref;
using namespace cuteref::test;

namespace {

// A result or the diagnostic, as text that keeps static flags.
std::string outcome(const std::function<Layout()>& f) {
  try {
    return "ok " + f().to_string();
  } catch (const Error& e) {
    return std::string("error ") + e.what();
  }
}

std::vector<Layout> operands() {
  std::vector<Layout> out;
  for (const char* text :
       {"1:0", "_1:_0", "4:1", "_4:_2", "8:-1", "6:0", "(2,4):(1,2)", "(_2,_4):(_1,_2)", "(2,4):(4,1)",
        "(4,2):(1,8)", "(2,2):(1,1)", "(3,2):(2,3)", "((2,2),3):((1,4),16)", "(2,(3,4)):(12,(1,3))",
        "(4,(1,2)):(1,(1,4))", "(2,4):(1,-2)", "(8,4):(0,8)", "(2,4):(1@0,1@1)", "(2,3):(2@0,0)", "12:3",
        "(2,2,2):(1,2,4)", "(_2,(2,_3)):(_6,(_1,2))"})
    out.push_back(L(text));
  return out;
}

std::vector<IntTuple> cotargets() { return {I(1), I(16), S(32), I(96), T({I(4), I(8)}), T({S(3), I(0)})}; }

}  // namespace

TEST(FlatHandoff, CompositionOfFlatEqualsComposition) {
  // A: complement results (coalesced, integer strides), the only A composition_of_flat takes.
  long checked = 0, failing = 0;
  for (const Layout& x : operands())
    for (const IntTuple& m : cotargets()) {
      FlatModesOfInts a;
      try {
        complement_flat(x, m, a);
      } catch (const Error&) {
        continue;
      }
      for (const Layout& b : operands()) {
        const std::string want = outcome([&] { return composition(a.layout(), b); });
        const std::string got = outcome([&] {
          FlatModesOfInts copy = a;
          return composition_of_flat(std::move(copy), b);
        });
        ASSERT_EQ(got, want) << "A = " << a.layout().to_string() << ", B = " << b.to_string();
        failing += want.rfind("error", 0) == 0;
        ++checked;
      }
    }
  std::printf("composition_of_flat(A, B) == composition(A, B) on %ld pairs (%ld failing ones)\n", checked, failing);
  EXPECT_GT(checked, 1000);
  EXPECT_GT(failing, 50);
}

TEST(FlatHandoff, CompositionOfPairEqualsCompositionWithThePair) {
  long checked = 0, failing = 0;
  const std::vector<Layout> ops = operands();
  for (const Layout& a : ops)
    for (const Layout& b0 : ops)
      for (const Layout& x : {L("4:1"), L("(2,4):(1,4)"), L("(3,2):(4,1)")})
        for (const IntTuple& m : {I(8), T({I(4), I(8)})}) {
          FlatModesOfInts b1;
          try {
            complement_flat(x, m, b1);
          } catch (const Error&) {
            continue;
          }
          const Layout pair = make_layout_from_modes({b0, b1.layout()});
          const std::string want = outcome([&] { return composition(a, pair); });
          ASSERT_EQ(outcome([&] { return composition_of_pair(a, b0, b1); }), want)
              << "A = " << a.to_string() << ", B = " << pair.to_string();
          ASSERT_EQ(outcome([&] { return composition_of_pair(a, b0, b1.layout()); }), want)
              << "A = " << a.to_string() << ", B = " << pair.to_string();
          failing += want.rfind("error", 0) == 0;
          ++checked;
        }
  std::printf("composition_of_pair(A, B0, B1) == composition(A, (B0, B1)) on %ld triples (%ld failing ones)\n",
              checked, failing);
  EXPECT_GT(checked, 2000);
  EXPECT_GT(failing, 100);
}

}  // namespace flat_handoff_test
