// Unit tests of F2 layouts (f2_layout.hpp, f2_algebra.hpp) and of their EXPR notation.
// Expected values: by hand (which bits go where, derivations in the comments), PyCuTe's own
// examples (NVlabs/CuTe docs/06_swizzle.md and test/test_swizzle.py, read, not run: PyCuTe is not
// installed here), or enumeration against the reference functions written below (a carry-less
// product by repeated doubling, the swizzle restated from its definition, flat integer layouts
// evaluated here), never the model's own output.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "equality.hpp"
#include "f2_algebra.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace f2_layout_test {

using namespace cuteref;
using namespace cuteref::test;

namespace {

F2Layout F2(const std::string& text) { return std::get<F2Layout>(eval(text).data); }

// Carry-less product restated: for every set bit k of a, XOR in b shifted by k.
std::int64_t reference_clmul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  for (int k = 0; k < 63; ++k)
    if ((a >> k) & 1) r ^= b << k;
  return r;
}

// A flat F2 layout evaluated from its definition: colexicographic coordinates, XOR of the
// carry-less products.
std::int64_t reference_f2(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& stride,
                          std::int64_t i) {
  std::int64_t r = 0;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    r ^= reference_clmul(i % shape[k], stride[k]);
    i /= shape[k];
  }
  return r;
}

std::int64_t reference_int(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& stride,
                           std::int64_t i) {
  std::int64_t r = 0;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    r += (i % shape[k]) * stride[k];
    i /= shape[k];
  }
  return r;
}

std::string flat_text(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& stride, bool f2) {
  std::string s = "(", d = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (k) s += ',', d += ',';
    if (f2) d += 'F';
    s += std::to_string(shape[k]);
    d += std::to_string(stride[k]);
  }
  s += "):";
  s += d;
  s += ')';
  return s;
}

}  // namespace

TEST(F2Layout, CarrylessProductByHandAndPyCuTeExamples) {
  // 0b11 x 0b11 = 0b101 (the carries of 3*3 = 9 are dropped).
  EXPECT_EQ(carryless_multiply(3, 3), 5);
  // PyCuTe docs/06_swizzle.md: F2(0b1010) * 2 == F20, 3 * F2(0b1010) == F30; test_swizzle.py:
  // F2(5) * 3 == 15 (5 x 3 = 0b101 ^ 0b1010 = 0b1111).
  EXPECT_EQ(carryless_multiply(2, 0b1010), 20);
  EXPECT_EQ(carryless_multiply(3, 0b1010), 30);
  EXPECT_EQ(carryless_multiply(3, 5), 15);
  EXPECT_EQ(carryless_multiply(0, 7), 0);
  expect_error([] { carryless_multiply(std::int64_t{1} << 62, 2); }, "overflows 63 bits");
  expect_error([] { carryless_multiply(-1, 2); }, "non-negative");
  int checked = 0;
  for (std::int64_t a = 0; a < 64; ++a)
    for (std::int64_t b = 0; b < 64; ++b, ++checked) ASSERT_EQ(carryless_multiply(a, b), reference_clmul(a, b));
  std::cout << "F2 carry-less product: " << checked << " pairs checked against the reference\n";
}

TEST(F2Layout, EvaluationPyCuTeExamples) {
  // PyCuTe test_swizzle.py TestF2Layout: Layout((4,8),(F2(1),F2(8))) gives c0 ^ 8*c1.
  const F2Layout l = F2("(4,8):(F1,F8)");
  int checked = 0;
  for (std::int64_t c0 = 0; c0 < 4; ++c0)
    for (std::int64_t c1 = 0; c1 < 8; ++c1, ++checked) EXPECT_EQ(apply_index(l, c0 + 4 * c1), c0 ^ (8 * c1));
  // docs/06_swizzle.md: L(2,1) == F10.
  EXPECT_EQ(eval("(4,8):(F1,F8)((2,1))").to_string(), "10");
  EXPECT_EQ(eval("(4,8):(F1,F8)(6)").to_string(), "10");
  std::cout << "F2 evaluation: " << checked << " PyCuTe values checked\n";
}

TEST(F2Layout, NotationPrintsAsPyCuTeAndRefusesMixing) {
  EXPECT_EQ(eval("(8,8):(F1,F9)").to_string(), "(8,8):(F1,F9)");
  EXPECT_EQ(eval("((_4,2),8):((F1,F4),F64)").to_string(), "((_4,2),8):((F1,F4),F64)");
  EXPECT_EQ(eval("(8,8):(F1,F9)").kind_name(), "an F2 layout");
  expect_error([] { eval("(8,8):(F1,9)"); }, "F2 and non-zero integer strides cannot be mixed");
  expect_error([] { eval("(8,8):(1,F9)"); }, "F2 and non-zero integer strides cannot be mixed");
  // PyCuTe's Layout((4,8),(F2(1),0)): the integer 0 is F2's additive identity, F0.
  EXPECT_EQ(eval("(4,8):(F1,0)").to_string(), "(4,8):(F1,F0)");
  EXPECT_EQ(eval("(4,8):(_0,F1)").to_string(), "(4,8):(F0,F1)");
  expect_error([] { eval("(8,8):(F1,0@1)"); }, "cannot be mixed");
  expect_error([] { eval("(8,8):(F1,F)"); }, "expected the digits of an F2 stride");
  expect_error([] { eval("8:F-1"); }, "expected the digits of an F2 stride");
  expect_error([] { eval("8:F1@0"); }, "an F2 stride cannot be a scaled basis");
  expect_error([] { eval("(8,8):(F1)"); }, "not congruent");
  expect_error([] { eval("(0,8):(F1,F2)"); }, "positive integer");
}

TEST(F2Layout, EqualityWithSwizzledLayouts) {
  // Sw<3,0,3> o (8,8):(1,8): row r at 8r, whose bits 3..5 are XOR-ed into bits 0..2: 8r ^ r,
  // i.e. r x 9; column c < 8 has no source bit: c x 1.
  EXPECT_EQ(eval("(8,8):(F1,F9) == Sw<3,0,3> o (8,8):(1,8)").to_string(), "true");
  EXPECT_EQ(eval("Sw<3,0,3> o (8,8):(1,8) == (8,8):(F1,F9)").to_string(), "true");
  EXPECT_EQ(eval("(8,8):(F1,F8) == (8,8):(1,8)").to_string(), "true");  // disjoint bits: XOR is +
  EXPECT_EQ(eval("(8,8):(F1,F9) == (8,8):(1,9)").to_string(), "false: at index 9: left gives 8, right gives 10");
  EXPECT_EQ(eval("(8,8):(F1,F9) == (4,16):(F1,F9)").to_string().rfind("false", 0), 0u);
  // Beyond the 2^22 indices compared one by one: two F2 layouts of power-of-two shape compare by
  // their bits. 2^23:F1 is the identity; (2^22,2):(F1,F(2^22 + 1)) differs first at bit 22, where
  // it gives 2^22 ^ 1.
  EXPECT_EQ(eval("8388608:F1 == (4194304,2):(F1,F4194304)").to_string(), "true");
  EXPECT_EQ(eval("8388608:F1 == (4194304,2):(F1,F4194305)").to_string(),
            "false: at index 4194304: left gives 4194304, right gives 4194305");
}

TEST(F2Layout, ToF2AndFromF2ByHand) {
  EXPECT_EQ(eval("to_f2(Sw<3,0,3> o (8,8):(1,8))").to_string(), "(8,8):(F1,F9)");
  EXPECT_EQ(eval("from_f2((8,8):(F1,F9))").to_string(), "Sw<3,0,3> o (8,8):(1,8)");
  // No swizzle needed: the integer layout itself.
  EXPECT_EQ(eval("from_f2((4,8):(F8,F1))").to_string(), "(4,8):(8,1)");
  // Behind an smem_ptr of 16-bit elements, Sw<3,4,3> on bytes is Sw<3,3,3> on elements: row r at
  // 64r, bits 6..8 XOR-ed into 3..5: 64r ^ 8r = r x 72; a column c < 64 has no source bit.
  EXPECT_EQ(eval("to_f2(Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1))").to_string(), "(8,64):(F72,F1)");
  EXPECT_EQ(eval("from_f2((8,64):(F72,F1))").to_string(), "Sw<3,3,3> o (8,64):(64,1)");
  // A mode whose bits the function does not send to doubling values is split into its bits:
  // Sw<1,0,1> o 4:1 sends 1 -> 1, 2 -> 3: 4:F1 would give 2 at index 2.
  EXPECT_EQ(eval("to_f2(Sw<1,0,1> o 4:1)").to_string(), "(2,2):(F1,F3)");
  expect_error([] { eval("to_f2((2,2):(1,1))"); }, "not an F2 layout: at index 3 the function gives 2");
  expect_error([] { eval("to_f2(4:-1)"); }, "negative");
  expect_error([] { eval("from_f2((3,2):(F1,F4))"); }, "not a power of two");
  // Bit values 3, 1: Sw<1,0,1> sends 3 to 2, leaving 1: (2,2):(2,1), disjoint bits.
  EXPECT_EQ(eval("from_f2((2,2):(F3,F1))").to_string(), "Sw<1,0,1> o (2,2):(2,1)");
  // 3 ^ 5 == 6: any swizzle (a bijection, linear) keeps three non-zero dependent values, which
  // cannot share no bit, so no integer layout L has them.
  expect_error([] { eval("from_f2((2,2,2):(F3,F5,F6))"); }, "neither an integer layout nor Sw<B,M,S> o L");
  expect_error([] { eval("from_f2(8:1)"); }, "must be an F2 layout");
}

// PyCuTe's test suite, test_coshape_f2_stride_is_a_power_of_two: the coshape of an F2 layout is
// the smallest power of two spanning its bit fields.
TEST(F2Layout, CosizePyCuTeExamples) {
  EXPECT_EQ(eval("cosize((8,8):(F1,F9))").to_string(), "64");
  EXPECT_EQ(eval("cosize((8,8):(F9,F1))").to_string(), "64");
  EXPECT_EQ(eval("cosize((4,8):(F1,F4))").to_string(), "32");
  EXPECT_EQ(eval("cosize((4,4):(F1,F1))").to_string(), "4");
  EXPECT_EQ(eval("cosize(8:F0)").to_string(), "1");
  EXPECT_EQ(eval("cosize(4:F3)").to_string(), "8");  // the image reaches 6
  // Not a power-of-two shape: (3,2):(F5,F1) reaches 2 x 5 = 10 (4 bits): 16.
  EXPECT_EQ(eval("cosize((3,2):(F5,F1))").to_string(), "16");
  expect_error([] { eval("cosize(2:F4611686018427387904)"); }, "overflows 64 bits");
}

// Every GMMA shared-memory atom of the model (vendor-checked against CuTe: oracles/atoms): its F2
// layout, turned back with from_f2(F, bits), is the atom's swizzle behind an smem_ptr of the same
// element width, with the same function at every index (the INTERLEAVE atoms, Sw<0,4,3>, have no
// swizzle: the integer layout).
TEST(F2Layout, FromF2BehindSmemPtrGivesTheGmmaAtomsBack) {
  int atoms = 0, swizzled = 0;
  for (const char* major : {"K", "MN"})
    for (const char* sw : {"INTER", "SW32", "SW64", "SW128"})
      for (int bits : {8, 16, 32}) {
        const std::string atom = std::string("gmma_atom(") + major + ", " + sw + ", " + std::to_string(bits) + ")";
        const Value x = eval(atom);
        const Value back = from_f2(to_f2(x), bits);
        EXPECT_EQ(functional_equal(back, x).holds, true) << atom << " vs " << back.to_string();
        if (back.is_composed()) {
          EXPECT_EQ(std::get<ComposedLayout>(back.data).swizzle, std::get<ComposedLayout>(x.data).swizzle) << atom;
          ++swizzled;
        } else {
          EXPECT_EQ(std::get<ComposedLayout>(x.data).swizzle.bits(), 0) << atom;
        }
        ++atoms;
      }
  std::cout << "from_f2 behind smem_ptr: " << atoms << " GMMA atoms round-tripped (" << swizzled
            << " with their swizzle), each equal at every index\n";
  EXPECT_EQ(eval("from_f2((8,64):(F72,F1), 16)").to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)");
  expect_error([] { eval("from_f2((8,64):(F72,F1), 12)"); }, "power of two of at least 8 bits");
}

TEST(F2Layout, CoalesceByHand) {
  EXPECT_EQ(eval("coalesce((2,4,(2,2)):(F1,F2,(F8,F16)))").to_string(), "32:F1");
  EXPECT_EQ(eval("coalesce((2,2):(F0,F0))").to_string(), "4:F0");
  EXPECT_EQ(eval("coalesce((3,2):(F0,F0))").to_string(), "6:F0");
  EXPECT_EQ(eval("coalesce((1,1):(F5,F7))").to_string(), "1:F0");
  // 3 is no power of two: index 4 = (1,1) gives 1 ^ 3 = 2, 6:F1 would give 4.
  EXPECT_EQ(eval("coalesce((3,2):(F1,F3))").to_string(), "(3,2):(F1,F3)");
  // 2 x F1 then F4: not F2 (2 x F1 = F2): kept apart.
  EXPECT_EQ(eval("coalesce((2,2):(F1,F4))").to_string(), "(2,2):(F1,F4)");
  EXPECT_EQ(eval("coalesce((8,8):(F1,F9))").to_string(), "(8,8):(F1,F9)");
  expect_error([] { eval("coalesce((2,2):(F1,F2), (1,1))"); }, "profile is not defined");
}

TEST(F2Layout, InversesAndComplementByHand) {
  // (8,8):(F1,F9) is its own inverse: applying it twice XORs r into the low bits twice.
  EXPECT_EQ(eval("right_inverse((8,8):(F1,F9)) == (8,8):(F1,F9)").to_string(), "true");
  EXPECT_EQ(eval("left_inverse((8,8):(F1,F9)) == (8,8):(F1,F9)").to_string(), "true");
  // 4:F2 reaches {0,2,4,6}: bit 0 is not reached, so the right inverse is 1:F0; the left inverse
  // reads bits 1..2 of 0..7: (2,4):(F0,F1).
  // PyCuTe's right_inverse docstring: right_inverse(Layout((8,8),(F2(9),F2(1)))) is (8,8):(F8,F9).
  EXPECT_EQ(eval("right_inverse((8,8):(F9,F1))").to_string(), "(8,8):(F8,F9)");
  EXPECT_EQ(eval("right_inverse(4:F2)").to_string(), "1:F0");
  EXPECT_EQ(eval("left_inverse(4:F2)").to_string(), "(2,4):(F0,F1)");
  // 4:F1 within 16: the complement is bits 2..3, 4:F4.
  EXPECT_EQ(eval("complement(4:F1, 16)").to_string(), "4:F4");
  EXPECT_EQ(eval("complement(4:F2, 8)").to_string(), "2:F1");
  EXPECT_EQ(eval("complement((8,8):(F1,F9))").to_string(), "1:F0");
  expect_error([] { eval("complement((2,2):(F1,F1))"); }, "not injective: indices 0 and 3 both give 0");
  expect_error([] { eval("left_inverse((2,2):(F1,F1))"); }, "not injective");
  expect_error([] { eval("complement(4:F1, 12)"); }, "must be a power of two");
  expect_error([] { eval("right_inverse((3,2):(F1,F4))"); }, "not a power of two");
}

TEST(F2Layout, CompositionByHand) {
  // (8,8):(8,1) o (8,8):(F1,F9): the transpose of the swizzle's bits: r' = c ^ r, c' = r.
  EXPECT_EQ(eval("composition((8,8):(8,1), (8,8):(F1,F9))").to_string(), "(8,8):(F8,F9)");
  // (2,4):(F1,F4) o 8:1: index 1 -> 1, 2 -> 4, 4 -> 8: the 8 splits at bit 1.
  EXPECT_EQ(eval("composition((2,4):(F1,F4), 8:1)").to_string(), "(2,4):(F1,F4)");
  EXPECT_EQ(eval("composition((8,8):(F1,F9), (8,8):(F1,F9)) == 64:F1").to_string(), "true");
  EXPECT_EQ(eval("composition(Sw<3,0,3> o (8,8):(1,8), (8,8):(F1,F9)) == 64:F1").to_string(), "true");
  expect_error([] { eval("composition(8:F1, (2,2):(1,1))"); }, "not an F2 layout");
  expect_error([] { eval("composition(8:F1, (2,2))"); }, "expected a layout, composed layout or F2 layout");
}

// Every Sw<B,M,S> with 1 <= B, B + M + |S| <= 7, over every two-mode layout of power-of-two
// extents (2^a, 2^b), a + b <= 10, in either order of its compact strides: the F2 layout is the
// swizzled layout at every index, and from_f2 gives back a swizzled layout of the same function.
TEST(F2Layout, EverySmallSwizzleOverPowerOfTwoLayouts) {
  long swizzles = 0, layouts = 0, indices = 0, back = 0;
  for (int b = 1; b <= 7; ++b)
    for (int m = 0; b + m <= 7; ++m)
      for (int s = -7; s <= 7; ++s) {
        if (std::abs(s) < b || b + m + std::abs(s) > 7) continue;
        ++swizzles;
        for (int ea = 0; ea <= 10; ++ea)
          for (int eb = 0; ea + eb <= 10; ++eb)
            for (bool row_major : {false, true}) {
              const std::vector<std::int64_t> shape{std::int64_t{1} << ea, std::int64_t{1} << eb};
              const std::vector<std::int64_t> stride =
                  row_major ? std::vector<std::int64_t>{shape[1], 1} : std::vector<std::int64_t>{1, shape[0]};
              std::string swizzled = "Sw<";
              swizzled += std::to_string(b);
              swizzled += ',';
              swizzled += std::to_string(m);
              swizzled += ',';
              swizzled += std::to_string(s);
              swizzled += "> o ";
              swizzled += flat_text(shape, stride, false);
              const F2Layout f = to_f2(eval(swizzled));
              ++layouts;
              const std::int64_t n = shape[0] * shape[1];
              for (std::int64_t i = 0; i < n; ++i, ++indices)
                ASSERT_EQ(apply_index(f, i), reference_swizzle(b, m, s, reference_int(shape, stride, i)))
                    << swizzled << " at " << i;
              const Value recovered = from_f2(f);
              for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(evaluate_at(recovered, i).value(), apply_index(f, i));
              ++back;
            }
      }
  std::cout << "F2 exhaustive: " << swizzles << " swizzles x power-of-two layouts = " << layouts << " to_f2, " << indices
            << " indices checked; " << back << " from_f2 round trips checked at every index\n";
  EXPECT_GT(indices, 0);
}

// Random F2 layouts of power-of-two shape (seeded): each operation's defining law by enumeration.
TEST(F2Layout, LawsOnRandomF2Layouts) {
  std::mt19937_64 rng(20261126);
  long right = 0, left = 0, left_refused = 0, compl_checked = 0, composed = 0, coalesced = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<std::int64_t> shape, stride;
    const int modes = 1 + static_cast<int>(rng() % 4);
    int bits = 0;
    for (int k = 0; k < modes; ++k) {
      const int e = static_cast<int>(rng() % 3);
      if (bits + e > 9) break;
      bits += e;
      shape.push_back(std::int64_t{1} << e);
      // small strides a quarter of the time, so that some layouts are not injective
      stride.push_back(static_cast<std::int64_t>(rng() % (trial % 4 == 0 ? 8 : 1024)));
    }
    if (shape.empty()) continue;
    const std::string text = flat_text(shape, stride, true);
    const F2Layout f = F2(text);
    std::int64_t n = 1;
    for (std::int64_t s : shape) n *= s;
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(apply_index(f, i), reference_f2(shape, stride, i)) << text;
    // coalesce keeps the function
    const F2Layout c = coalesce(f);
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(apply_index(c, i), apply_index(f, i)) << text;
    ++coalesced;
    // right inverse: F(R(y)) == y, R(y) an index of F
    const F2Layout r = right_inverse(f);
    for (std::int64_t y = 0; y < size_value(r); ++y) {
      ASSERT_LT(apply_index(r, y), n) << text;
      ASSERT_EQ(apply_index(f, apply_index(r, y)), y) << text;
    }
    ++right;
    // injective: left inverse G(F(i)) == i; complement: (F, C) a bijection onto [0, 2^m)
    std::vector<bool> seen(std::size_t{1} << 13, false);
    bool injective = true;
    for (std::int64_t i = 0; i < n && injective; ++i) {
      const std::int64_t v = apply_index(f, i);
      if (seen[v]) injective = false;
      seen[v] = true;
    }
    if (!injective) {
      expect_error([&] { left_inverse(f); }, "not injective");
      ++left_refused;
    } else {
      const F2Layout g = left_inverse(f);
      for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(apply_index(g, apply_index(f, i)), i) << text;
      ++left;
      const F2Layout comp = complement(f);
      const std::int64_t total = n * size_value(comp);
      std::vector<bool> hit(total, false);
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < size_value(comp); ++j) {
          const std::int64_t v = apply_index(f, i) ^ apply_index(comp, j);
          ASSERT_LT(v, total) << text;
          ASSERT_FALSE(hit[v]) << text;
          hit[v] = true;
        }
      ++compl_checked;
    }
    // composition with an integer permutation layout on the right: A(B(i)) at every index
    const F2Layout ab = f2_composition(Value(f), Value(Layout(IntTuple::integer(n), IntTuple::integer(1))));
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(apply_index(ab, i), apply_index(f, i)) << text;
    // F o F when F's values stay in its domain (a permutation of [0, n)): F(F(i))
    if (injective && size_value(complement(f)) == 1) {
      const F2Layout ff = f2_composition(Value(f), Value(f));
      for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(apply_index(ff, i), apply_index(f, apply_index(f, i))) << text;
    }
    ++composed;
  }
  std::cout << "F2 laws on random layouts: coalesce " << coalesced << ", right_inverse " << right << ", left_inverse "
            << left << " (+" << left_refused << " refused, not injective), complement " << compl_checked
            << ", composition " << composed << " checked by enumeration\n";
  EXPECT_GT(left, 0);
  EXPECT_GT(left_refused, 0);
}

// PyCuTe's layout_add over F2 strides (NVlabs/CuTe test/test_layout_add.py), each value by hand:
// the sum of F2 values is XOR, and c x d is linear in d, so on a common mode the strides XOR.
TEST(F2Layout, LayoutAddByHand) {
  EXPECT_EQ(eval("layout_add(8:F1, 8:F8)").to_string(), "8:F9");                            // disjoint bits
  EXPECT_EQ(eval("layout_add(8:F1, 8:F2)").to_string(), "8:F3");                            // 1 ^ 2
  EXPECT_EQ(eval("layout_add(8:F7, 8:F0)").to_string(), "8:F7");                            // F0 is the identity
  EXPECT_EQ(eval("layout_add(8:F7, 8:0)").to_string(), "8:F7");                             // so is the integer 0
  EXPECT_EQ(eval("layout_add(8:0, 8:F7)").to_string(), "8:F7");
  EXPECT_EQ(eval("layout_add((4,8):(F1,F8), (4,8):(F2,F16))").to_string(), "(4,8):(F3,F24)");
  // 16:F1 against (4,4):(F2,F8) = 16:F2 (4 x F2 = F8): 16:F3.
  EXPECT_EQ(eval("layout_add(16:F1, (4,4):(F2,F8))").to_string(), "16:F3");
  // Not powers of two, on the same modes: (3,2):(F1^F2, F4^F8).
  EXPECT_EQ(eval("layout_add((3,2):(F1,F4), (3,2):(F2,F8))").to_string(), "(3,2):(F3,F12)");
  // A + A is 0 everywhere.
  EXPECT_TRUE(std::get<Verdict>(eval("layout_add((8,8):(F1,F9), (8,8):(F1,F9)) == 64:F0").data).holds);
  expect_error([] { eval("layout_add(8:F1, 8:1)"); }, "an F2 value and a non-zero integer have no sum");
  expect_error([] { eval("layout_add(16:F9, 8:F1)"); }, "size(A) == size(B)");
  expect_error([] { eval("layout_add((5,3):(F1,F8), (3,5):(F1,F8))"); }, "no common refinement");
  // PyCuTe's own pending case: 9:F1 + (3,3):(F2,F4) on (3,3): index 4 = (1,1) gives 4 ^ (2 ^ 4) = 2,
  // the strides 1^2 = 3 and 3 ^ (1 x 4) = 7 give 3 ^ 7 = 4: no F2 layout is the sum.
  expect_error([] { eval("layout_add(9:F1, (3,3):(F2,F4))"); }, "not an F2 layout: at index 4");
}

// coalesce_z over F2 strides (PyCuTe's test_coalesce_z_f2 inputs), each value by hand.
TEST(F2Layout, CoalesceZByHand) {
  EXPECT_EQ(eval("coalesce_z((2,2,3):(F1,F2,F4))").to_string(), "12:F1");  // 4 x F1 = F4: merges
  EXPECT_EQ(eval("coalesce_z((3,2,2):(F1,F3,F6))").to_string(), "(3,4):(F1,F3)");
  EXPECT_EQ(eval("coalesce_z(((2,2),(3,2)):((F1,F2),(F4,F12)))").to_string(), "(12,2):(F1,F12)");  // 12: no power of two
  EXPECT_EQ(eval("coalesce_z((2,1,2):(F1,F7,F2))").to_string(), "4:F1");
  // A trailing size-1 mode stays unless it continues the last one: (4,1):(F1,F4) is 4:F1 past its
  // size too, (4,1):(F1,F5) at index 4 gives 5, 4:F1 would give 4.
  EXPECT_EQ(eval("coalesce_z((4,1):(F1,F4))").to_string(), "4:F1");
  EXPECT_EQ(eval("coalesce_z((4,1):(F1,F5))").to_string(), "(4,1):(F1,F5)");
  EXPECT_EQ(eval("coalesce_z((4,1):(F1,F5))(4)").to_string(), "5");
  EXPECT_EQ(eval("coalesce_z(1:F5)").to_string(), "1:F5");
  expect_error([] { eval("coalesce_z((2,2):(F1,F2), (1,1))"); }, "profile is not defined");
}

// layout_add and coalesce_z laws on random F2 layouts, by enumeration against reference_f2:
// R(i) == A(i) ^ B(i); coalesce_z keeps every value, past the size too, and is idempotent.
TEST(F2Layout, LayoutAddAndCoalesceZLawsOnRandomLayouts) {
  std::mt19937_64 rng(20261127);
  // The value past the size: the last mode's coordinate takes the whole quotient.
  auto extended = [](const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& stride, std::int64_t i) {
    std::int64_t r = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      const bool last = k + 1 == shape.size();
      r ^= reference_clmul(last ? i : i % shape[k], stride[k]);
      i /= shape[k];
    }
    return r;
  };
  long added = 0, refused = 0, coalesced = 0;
  for (int trial = 0; trial < 300; ++trial) {
    // Two power-of-two shapes of 2^bits elements split differently: always a common domain.
    const int bits = 1 + static_cast<int>(rng() % 7);
    std::vector<std::int64_t> sa, da, sb, db;
    for (auto* v : {&sa, &sb}) {
      int left = bits;
      while (left > 0) {
        const int e = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(left));
        v->push_back(std::int64_t{1} << e);
        left -= e;
      }
    }
    for (std::size_t k = 0; k < sa.size(); ++k) da.push_back(static_cast<std::int64_t>(rng() % 256));
    for (std::size_t k = 0; k < sb.size(); ++k) db.push_back(static_cast<std::int64_t>(rng() % 256));
    const F2Layout r = std::get<F2Layout>(
        eval("layout_add(" + flat_text(sa, da, true) + ", " + flat_text(sb, db, true) + ")").data);
    const std::int64_t n = std::int64_t{1} << bits;
    ASSERT_EQ(size_value(r), n);
    for (std::int64_t i = 0; i < n; ++i)
      ASSERT_EQ(apply_index(r, i), reference_f2(sa, da, i) ^ reference_f2(sb, db, i)) << flat_text(sa, da, true);
    ++added;
    // Shapes 1..3 with size-1 modes: any shape, the same values at every index below size + 10.
    std::vector<std::int64_t> s, d;
    const int modes = 1 + static_cast<int>(rng() % 5);
    for (int k = 0; k < modes; ++k) {
      s.push_back(1 + static_cast<std::int64_t>(rng() % 4));
      d.push_back(static_cast<std::int64_t>(rng() % 3 == 0 ? (k ? d.back() * s[k - 1] : 0) : rng() % 64));
    }
    const std::string text = flat_text(s, d, true);
    const F2Layout z = std::get<F2Layout>(eval("coalesce_z(" + text + ")").data);
    std::int64_t m = 1;
    for (std::int64_t v : s) m *= v;
    ASSERT_EQ(size_value(z), m) << text;
    for (std::size_t k = 0; z.shape().is_tuple() && k < z.shape().rank(); ++k) ASSERT_FALSE(z.shape()[k].is_tuple()) << text;
    std::vector<std::int64_t> zs, zd;
    for (const F2Mode& mode : flat_modes(z)) zs.push_back(mode.shape), zd.push_back(mode.stride);
    for (std::int64_t i = 0; i < m + 10; ++i) ASSERT_EQ(extended(zs, zd, i), extended(s, d, i)) << text << " at " << i;
    ASSERT_EQ(coalesce_z(z), z) << text;
    ++coalesced;
  }
  // Refused: shapes with no common refinement, and a sum that is no F2 layout.
  for (const char* no_sum : {"layout_add((3,2):(F1,F2), (2,3):(F1,F2))", "layout_add(9:F1, (3,3):(F2,F4))"}) {
    expect_error([&] { eval(no_sum); }, "layout_add");
    ++refused;
  }
  std::cout << "F2 layout_add: " << added << " random pairs checked by enumeration, " << refused
            << " refused by hand; coalesce_z: " << coalesced << " random layouts checked past their size\n";
}

}  // namespace f2_layout_test
