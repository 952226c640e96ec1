// Unit tests of the flat hand-offs divide and product use (composition_of_flat,
// composition_of_pair with flat modes): each must give exactly what the layout form gives,
// result (static flags included) or diagnostic (the same message), since divide and product
// rely on that equality. (complement itself is complement_flat's result as a layout, so
// there is nothing to compare there.) The layout forms are checked against hand
// derivations, CuTe's examples and the vendor differential elsewhere; here every pair of
// small operands is compared, failing cases included. The same holds for the overloads that
// hold the modes in place (InlineFlatModes), which the operations take when their operands are
// held as forms with room; and those operations, on operands too wide for a form (nine more
// size-1 modes, which change none of their results), take the vector paths: both must agree.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "complement.hpp"
#include "composition.hpp"
#include "error.hpp"
#include "divide.hpp"
#include "flat_coalesce.hpp"
#include "inline_flat_ints.hpp"
#include "product.hpp"
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

// m's modes copied into the inline holder. @pre m has at most kInlineLeaves modes.
InlineFlatModes inline_copy(const FlatModesOfInts& m) {
  InlineFlatModes r;
  for (std::size_t i = 0; i < m.shapes.size(); ++i) {
    r.shapes.push_back(m.shapes[i]);
    r.strides.push_back(m.strides[i]);
  }
  return r;
}

std::vector<IntTuple> cotargets() { return {I(1), I(16), S(32), I(96), T({I(4), I(8)}), T({S(3), I(0)})}; }

}  // namespace

TEST(FlatHandoff, CompositionOfFlatEqualsComposition) {
  // A: complement results (coalesced, integer strides), the only A composition_of_flat takes.
  long checked = 0, failing = 0, checked_inline = 0, checked_pairs = 0;
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
        if (a.shapes.size() <= kInlineLeaves) {
          ASSERT_EQ(outcome([&] { return composition_of_flat(inline_copy(a), b); }), want)
              << "inline: A = " << a.layout().to_string() << ", B = " << b.to_string();
          // The same composition written after a first mode's leaves (logical_product's
          // pair): the pair made from the two layouts, or the composition's error.
          for (const Layout& m0 : {x, b}) {
            const std::string want_pair =
                outcome([&] { return make_layout_from_modes({m0, composition(a.layout(), b)}); });
            ASSERT_EQ(outcome([&] { return pair_with_composition_of_flat(m0, inline_copy(a), b); }), want_pair)
                << "pair: m0 = " << m0.to_string() << ", A = " << a.layout().to_string() << ", B = " << b.to_string();
            ++checked_pairs;
          }
          ++checked_inline;
        }
        failing += want.rfind("error", 0) == 0;
        ++checked;
      }
    }
  std::printf("composition_of_flat(A, B) == composition(A, B) on %ld pairs (%ld failing ones; %ld with the modes "
              "in place; %ld written after a first mode)\n", checked, failing, checked_inline, checked_pairs);
  EXPECT_EQ(checked_pairs, 2 * checked_inline);
  EXPECT_GT(checked, 1000);
  EXPECT_EQ(checked_inline, checked);
  EXPECT_GT(failing, 50);
}

TEST(FlatHandoff, CompositionOfPairEqualsCompositionWithThePair) {
  long checked = 0, failing = 0, checked_inline = 0;
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
          if (a.leaves() != nullptr) {
            ASSERT_EQ(outcome([&] {
                        InlineFlatModes a_modes;  // working storage: A is read from its form
                        return composition_of_pair(a, std::move(a_modes), b0, inline_copy(b1));
                      }),
                      want)
                << "inline: A = " << a.to_string() << ", B = " << pair.to_string();
            ++checked_inline;
          }
          failing += want.rfind("error", 0) == 0;
          ++checked;
        }
  std::printf("composition_of_pair(A, B0, B1) == composition(A, (B0, B1)) on %ld triples (%ld failing ones; %ld "
              "with the modes in place)\n", checked, failing, checked_inline);
  EXPECT_GT(checked, 2000);
  EXPECT_GT(checked_inline, 1500);
  EXPECT_GT(failing, 100);
}

TEST(FlatHandoff, ComplementWithModesInPlaceEqualsTheVectorPath) {
  long checked = 0, failing = 0;
  for (const Layout& a : operands()) {
    if (a.leaves() == nullptr) continue;
    for (const std::vector<FlatInt>& cot :
         {std::vector<FlatInt>{{1, false}}, {{16, false}}, {{32, true}}, {{4, false}, {8, false}}, {{0, false}},
          {{3, true}, {5, false}, {2, false}}}) {
      const std::string want = outcome([&] {
        FlatModesOfInts r;
        complement_flat_of_shape_leaves(a, cot.data(), cot.size(), r);
        return r.layout();
      });
      ASSERT_EQ(outcome([&] {
                  InlineFlatModes r;
                  complement_flat_of_shape_leaves(a, cot.data(), cot.size(), r);
                  return r.layout();
                }),
                want)
          << "A = " << a.to_string();
      failing += want.rfind("error", 0) == 0;
      ++checked;
      if (cot.size() != 1) continue;
      const std::string want_modes = outcome([&] {
        FlatModesOfInts m, r;
        flat_int_modes(a, m);
        complement_flat_of_modes(a, m, cot[0], r);
        return r.layout();
      });
      // logical_product's form path gives complement A's form and the one leaf.
      ASSERT_EQ(outcome([&] {
                  InlineFlatModes r;
                  complement_flat_of_shape_leaves(a, &cot[0], 1, r);
                  return r.layout();
                }),
                want_modes)
          << "A = " << a.to_string();
      ++checked;
    }
  }
  std::printf("complement with the modes in place == the vector path on %ld cases (%ld failing ones)\n", checked,
              failing);
  EXPECT_GT(checked, 150);
  EXPECT_GT(failing, 20);
}

TEST(FlatHandoff, OperandsPastTheFormTakeTheVectorPathsAndAgree) {
  // complement, logical_divide and composition of a widened operand equal those of the
  // operand itself (the size-1 modes are filtered or coalesced away); logical_product's
  // second mode too (its first is A itself). Results compared as text, static flags included.
  long checked = 0, failing = 0;
  const std::vector<Layout> ops = operands();
  for (const Layout& a : ops) {
    if (a.has_basis_strides()) continue;
    const Layout wide = widened(a);
    ASSERT_EQ(wide.leaves(), nullptr) << wide.to_string();
    // Diagnostics name the operands, so only the verdicts compare there.
    const auto verdict = [](const std::string& o) { return o.rfind("error", 0) == 0 ? std::string("error") : o; };
    for (const IntTuple& m : cotargets()) {
      const std::string want = verdict(outcome([&] { return complement(a, m); }));
      ASSERT_EQ(verdict(outcome([&] { return complement(wide, m); })), want) << "complement: A = " << a.to_string();
      ++checked;
    }
    for (const Layout& b : ops) {
      if (b.has_basis_strides()) continue;
      const auto product_copies = [](const Layout& x, const Layout& y) {
        return [&x, &y] { return mode(logical_product(x, y), 1); };
      };
      const std::string want_divide = verdict(outcome([&] { return logical_divide(a, b); }));
      ASSERT_EQ(verdict(outcome([&] { return logical_divide(wide, b); })), want_divide)
          << "logical_divide: A = " << a.to_string() << ", B = " << b.to_string();
      const std::string want_product = verdict(outcome(product_copies(a, b)));
      ASSERT_EQ(verdict(outcome(product_copies(wide, b))), want_product)
          << "logical_product: A = " << a.to_string() << ", B = " << b.to_string();
      const std::string want_composition = verdict(outcome([&] { return composition(a, b); }));
      ASSERT_EQ(verdict(outcome([&] { return composition(wide, b); })), want_composition)
          << "composition: A = " << a.to_string() << ", B = " << b.to_string();
      failing += want_divide == "error";
      checked += 3;
    }
  }
  std::printf("operands past the form: %ld results equal to the form's path (%ld failing divides)\n", checked,
              failing);
  EXPECT_GT(checked, 1000);
  EXPECT_GT(failing, 20);
}

}  // namespace flat_handoff_test
