// GMMA SMEM layout atoms and the evaluation of `Sw o smem_ptr[Nb] o L`.
// Expected values: the vendor oracle (CuTe 4.2's GMMA::Layout_*_Atom<T> printed by a probe
// compiled against the wheel's headers), seed 002's correct atom claims, and hand derivations
// of the byte-address swizzle written out in the tests.
#include <gtest/gtest.h>

#include <set>

#include "atoms/gmma_smem_atom.hpp"
#include "coordinates.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace gmma_smem_atom_test {

using namespace cuteref;

namespace {
const GmmaSwizzle kAll[] = {GmmaSwizzle::Inter, GmmaSwizzle::SW32, GmmaSwizzle::SW64, GmmaSwizzle::SW128};
}

TEST(GmmaSmemAtom, VendorPrintouts) {
  struct Case {
    GmmaMajor major;
    GmmaSwizzle sw;
    int bits;
    const char* printed;
  };
  const Case cases[] = {
      {GmmaMajor::MN, GmmaSwizzle::Inter, 16, "Sw<0,4,3> o smem_ptr[16b](unset) o (_8,_8):(_1,_8)"},
      {GmmaMajor::MN, GmmaSwizzle::SW32, 8, "Sw<1,4,3> o smem_ptr[8b](unset) o (_32,_8):(_1,_32)"},
      {GmmaMajor::MN, GmmaSwizzle::SW64, 32, "Sw<2,4,3> o smem_ptr[32b](unset) o (_16,_8):(_1,_16)"},
      {GmmaMajor::MN, GmmaSwizzle::SW128, 16, "Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64)"},
      {GmmaMajor::K, GmmaSwizzle::Inter, 32, "Sw<0,4,3> o smem_ptr[32b](unset) o (_8,_4):(_4,_1)"},
      {GmmaMajor::K, GmmaSwizzle::SW32, 16, "Sw<1,4,3> o smem_ptr[16b](unset) o (_8,_16):(_16,_1)"},
      {GmmaMajor::K, GmmaSwizzle::SW64, 8, "Sw<2,4,3> o smem_ptr[8b](unset) o (_8,_64):(_64,_1)"},
      {GmmaMajor::K, GmmaSwizzle::SW128, 16, "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"},
  };
  for (const auto& c : cases) EXPECT_EQ(gmma_smem_atom(c.major, c.sw, c.bits).to_string(), c.printed);
  std::printf("[ checked ] %zu vendor atom printouts\n", std::size(cases));
}

// The contiguous span of every atom is the swizzle width in bytes, the other mode is 8 rows,
// and the atom is a bijection onto [0, 8 * span) (seed 002: "contiguous-byte span = swizzle name").
TEST(GmmaSmemAtom, SpanAndBijection) {
  int checked = 0;
  for (GmmaMajor major : {GmmaMajor::MN, GmmaMajor::K})
    for (GmmaSwizzle sw : kAll)
      for (int bits : {8, 16, 32}) {
        const ComposedLayout a = gmma_smem_atom(major, sw, bits);
        const std::int64_t span = swizzle_width_bytes(sw) * 8 / bits;  // elements
        const std::size_t contiguous = major == GmmaMajor::MN ? 0 : 1;
        EXPECT_EQ(size_value(mode(a.layout, contiguous)), span);
        EXPECT_EQ(size_value(mode(a.layout, 1 - contiguous)), 8);
        std::set<std::int64_t> image;
        for (std::int64_t i = 0; i < 8 * span; ++i) image.insert(apply_composed(a, i));
        EXPECT_EQ(static_cast<std::int64_t>(image.size()), 8 * span);
        EXPECT_EQ(*image.begin(), 0);
        EXPECT_EQ(*image.rbegin(), 8 * span - 1);
        ++checked;
      }
  std::printf("[ checked ] %d atoms: span = swizzle width, bijective\n", checked);
}

// Hand derivation of CuTe's meaning: element e of a T-bit type sits at byte a = e * T / 8;
// Sw<b,4,3> XORs byte-address bits [7, 7+b) (the row within the 8-row period) into bits
// [4, 4+b) (the 16-byte chunk); the element is then a' * 8 / T.
TEST(GmmaSmemAtom, SwizzleActsOnByteAddresses) {
  long checked = 0;
  for (GmmaMajor major : {GmmaMajor::MN, GmmaMajor::K})
    for (GmmaSwizzle sw : kAll)
      for (int bits : {8, 16, 32}) {
        const ComposedLayout a = gmma_smem_atom(major, sw, bits);
        const int b = static_cast<int>(sw);
        for (std::int64_t i = 0; i < size_value(a.layout); ++i, ++checked) {
          const std::int64_t byte = apply_index(a.layout, i) * bits / 8;
          const std::int64_t swizzled = byte ^ (((byte >> 7) & ((1 << b) - 1)) << 4);
          ASSERT_EQ(apply_composed(a, i), swizzled * 8 / bits) << a.to_string() << " at " << i;
        }
      }
  // MN SW128 for 16-bit: (m, k) -> (m XOR 8k) + 64k, the 16-byte chunk of m XOR-ed with k.
  const ComposedLayout mn128 = gmma_smem_atom(GmmaMajor::MN, GmmaSwizzle::SW128, 16);
  for (int k = 0; k < 8; ++k)
    for (int m = 0; m < 64; ++m, ++checked) ASSERT_EQ(apply_composed(mn128, m + 64 * k), (m ^ (8 * k)) + 64 * k);
  std::printf("[ checked ] %ld swizzled element positions\n", checked);
}

// Upcasting the bit atom is consistent: bit atom at the first bit of an element == bits * element atom.
TEST(GmmaSmemAtom, ElementAtomIsTheUpcastBitAtom) {
  long checked = 0;
  for (GmmaMajor major : {GmmaMajor::MN, GmmaMajor::K})
    for (GmmaSwizzle sw : kAll) {
      const ComposedLayout bit_atom = gmma_smem_atom_bits(major, sw);
      EXPECT_EQ(bit_atom.offset->pointer_element_bits, 1);
      for (int bits : {8, 16, 32}) {
        const ComposedLayout a = gmma_smem_atom(major, sw, bits);
        const std::int64_t rows_or_cols = size_value(mode(a.layout, 0));
        const std::int64_t bit_rows = size_value(mode(bit_atom.layout, 0));
        for (std::int64_t i = 0; i < size_value(a.layout); ++i, ++checked) {
          std::int64_t r = i % rows_or_cols, c = i / rows_or_cols;
          // The contiguous mode is scaled by `bits` in the bit atom.
          if (major == GmmaMajor::MN) r *= bits;
          else c *= bits;
          ASSERT_EQ(apply_composed(bit_atom, r + bit_rows * c), bits * apply_composed(a, i));
        }
      }
    }
  std::printf("[ checked ] %ld bit/element atom positions\n", checked);
}

TEST(GmmaSmemAtom, Diagnostics) {
  EXPECT_THROW(gmma_smem_atom(GmmaMajor::K, GmmaSwizzle::SW64, 4), Error);
  EXPECT_THROW(gmma_smem_atom(GmmaMajor::K, GmmaSwizzle::SW64, 64), Error);
  // 256-bit elements are wider than the 16-byte units Sw<3,4,3> permutes: a swizzled address
  // would fall inside an element, so evaluation is refused.
  const Value wide = parse_and_evaluate("Sw<3,4,3> o smem_ptr[256b](unset) o 8:1", &standard_functions());
  EXPECT_THROW(evaluate_at(wide, 1), Error);
}

TEST(GmmaSmemAtom, ExpressionLanguage) {
  const auto& f = standard_functions();
  auto eval = [&](const std::string& e) { return parse_and_evaluate(e, &f).to_string(); };
  EXPECT_EQ(eval("gmma_atom(K, SW64, 8) == Sw<2,4,3> o smem_ptr[8b](unset) o (8,64):(64,1)"), "true");
  EXPECT_EQ(eval("gmma_atom(MN, SW128, 16)"), "Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64)");
  // K SW64, 8-bit, index 7 = (row 7, col 0): byte 448 = row 3 of the 4-row period -> chunk 0 ^ 3 -> 496.
  EXPECT_EQ(eval("gmma_atom(K, SW64, 8)(7)"), "496");
  // For 16-bit elements the byte swizzle Sw<3,4,3> is Sw<3,3,3> on element offsets, not Sw<3,4,3>:
  // element 64 (row 1) is byte 128, row 1 of the period -> chunk 1 -> byte 144 = element 72.
  EXPECT_EQ(eval("gmma_atom(K, SW128, 16) == Sw<3,3,3> o (8,64):(64,1)"), "true");
  EXPECT_EQ(eval("gmma_atom(K, SW128, 16)(1)"), "72");
  EXPECT_EQ(eval("gmma_atom(K, SW128, 16) == Sw<3,4,3> o (8,64):(64,1)").rfind("false", 0), 0u);
}

}  // namespace gmma_smem_atom_test
