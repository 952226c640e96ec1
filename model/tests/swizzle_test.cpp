// Swizzle<B,M,S> and ComposedLayout size/cosize. Expected values: hand derivations in the
// comments, vendor oracle output (CuTe 4.2 headers compiled on the host), and an
// exhaustive comparison with a bit-by-bit restatement of CuTe's definition.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "error.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "seed_swizzle_hypothesis.hpp"
#include "swizzle.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace swizzle_test {

using namespace cuteref;

namespace {

using test::reference_swizzle;

ComposedLayout composed(const char* text) {
  Value v = parse_and_evaluate(text, nullptr);
  return std::get<ComposedLayout>(v.data);
}

}  // namespace

// 896 = 0b11'1000'0000: bits 7..9 = 0b111 are XOR-ed into bits 4..6: 896 + 112 = 1008.
// Vendor: Swizzle<3,4,3>{}(896) = 1008.
TEST(Swizzle, HandDerivedValues) {
  const Swizzle sw(3, 4, 3);
  EXPECT_EQ(sw(896), 1008);
  EXPECT_EQ(sw(1008), 896);
  // 128 = bit 7 -> bit 4: 144. 64 = bit 6 only (a destination bit, no source bit): 64.
  EXPECT_EQ(sw(128), 144);
  EXPECT_EQ(sw(64), 64);
  // Offsets below 128 have no source bit set: unchanged (the seed claims 0x18 -> 0x28).
  EXPECT_EQ(sw(0x18), 0x18);
  // Source field [7,10) = 896, destination field [4,7) = 112.
  EXPECT_EQ(sw.source_mask(), 896);
  EXPECT_EQ(sw.destination_mask(), 112);
}

// Negative S: the source field is at M, the destination at M + |S|.
// Swizzle<2,3,-3>: source bits [3,5) = 24, destination bits [6,8) = 192.
// 24 = 0b11000: 0b11 -> bits 6,7: 24 ^ 192 = 216. 96 = 0b1100000 has bits 5,6 only: no
// source bit set, unchanged. Vendor: Swizzle<2,3,-3>{}(24) = 216, (96) = 96.
TEST(Swizzle, NegativeShift) {
  const Swizzle sw(2, 3, -3);
  EXPECT_EQ(sw.source_mask(), 24);
  EXPECT_EQ(sw.destination_mask(), 192);
  EXPECT_EQ(sw(24), 216);
  EXPECT_EQ(sw(96), 96);
  EXPECT_EQ(sw(216), 24);
  // Swizzle<1,0,-4>: bit 0 into bit 4: 1 -> 17, 16 -> 16.
  EXPECT_EQ(Swizzle(1, 0, -4)(1), 17);
  EXPECT_EQ(Swizzle(1, 0, -4)(16), 16);
}

// All legal (B,M,S) with B, M <= 4 and |S| <= 6, every offset in [0, 2^12): the swizzle
// agrees with the bit-by-bit definition and is an involution.
TEST(Swizzle, ExhaustiveInvolutionAndDefinition) {
  long long checked = 0;
  int swizzles = 0;
  for (int b = 0; b <= 4; ++b)
    for (int m = 0; m <= 4; ++m)
      for (int s = -6; s <= 6; ++s) {
        if (std::abs(s) < b) continue;
        const Swizzle sw(b, m, s);
        ++swizzles;
        for (std::int64_t x = 0; x < (1 << 12); ++x, ++checked) {
          const std::int64_t y = sw(x);
          ASSERT_EQ(y, reference_swizzle(b, m, s, x)) << sw.to_string() << " at " << x;
          ASSERT_EQ(sw(y), x) << sw.to_string() << " is not an involution at " << x;
        }
      }
  // Legal S per B: 13, 12, 10, 8, 6 values; times 5 values of M.
  EXPECT_EQ(swizzles, (13 + 12 + 10 + 8 + 6) * 5);
  std::cout << "[ swizzle ] " << swizzles << " swizzles x 4096 offsets = " << checked << " cases checked\n";
}

// |S| < B makes the fields overlap; CuTe's static_assert rejects it.
TEST(Swizzle, IllegalParametersAreRejected) {
  int checked = 0;
  for (int b = 1; b <= 4; ++b)
    for (int s = -(b - 1); s <= b - 1; ++s, ++checked) {
      try {
        Swizzle sw(b, 4, s);
        ADD_FAILURE() << "Sw<" << b << ",4," << s << "> was accepted";
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("|S| must be >= B"), std::string::npos) << e.what();
      }
    }
  std::cout << "[ swizzle ] " << checked << " illegal (B,S) pairs rejected\n";
  EXPECT_THROW(Swizzle(-1, 0, 0), Error);
  EXPECT_THROW(Swizzle(0, -1, 0), Error);
  EXPECT_THROW(Swizzle(3, 60, 3), Error);      // source field beyond bit 62
  EXPECT_THROW(Swizzle(1, 0, -2147483647 - 1), Error);  // no overflow in |S|
  EXPECT_THROW(parse_and_evaluate("Sw<3,4,2>", nullptr), ParseError);
}

// The 63-bit limit is inclusive: both bit fields must end at or below bit 63, so the highest
// usable bit is 62 (int64's sign bit is not an offset bit). Sw<1,61,1> moves bit 62 onto bit 61:
// 2^62 -> 2^62 + 2^61, 2^61 (bit 62 clear) -> itself. Sw<1,61,-1> moves bit 61 onto bit 62:
// 2^61 -> 2^61 + 2^62. Sw<2,59,2> moves bits 61-62 onto 59-60. One bit higher is refused
// (Sw<1,62,1>: source bit 63; Sw<1,62,-1>: destination bit 63; Sw<2,60,2>: source bits 62-63).
TEST(Swizzle, FieldsMayEndAtBit63) {
  const std::int64_t bit61 = std::int64_t{1} << 61, bit62 = std::int64_t{1} << 62;
  EXPECT_EQ(Swizzle(1, 61, 1)(bit62), bit62 + bit61);
  EXPECT_EQ(Swizzle(1, 61, 1)(bit61), bit61);
  EXPECT_EQ(Swizzle(1, 61, -1)(bit61), bit61 + bit62);
  EXPECT_EQ(Swizzle(1, 61, -1)(bit62), bit62);
  EXPECT_THROW(Swizzle(1, 62, 1), Error);
  EXPECT_THROW(Swizzle(1, 62, -1), Error);
  EXPECT_EQ(Swizzle(2, 59, 2)(bit62 + bit61), bit62 + bit61 + (bit62 >> 2) + (bit61 >> 2));
  EXPECT_THROW(Swizzle(2, 60, 2), Error);
  std::cout << "[ swizzle ] 8 cases at the 63-bit limit checked\n";
}

// Seed 000's formula (kept for the proofs and the GPU to refute, seed_swizzle_hypothesis.hpp), as
// the seed's own worked examples of swizzle<3,4,3> give it: the 3-bit field at bit S = 3 is XOR-ed
// into bits [4, 7). 0x40 has only bit 6 set, outside the field [3, 6): unchanged. 0x18: field 0b011
// gives 0x18 ^ 0x30 = 0x28. The rows 0x00, 0x08, ..., 0x38 give 0x00, 0x18, 0x30, 0x28, 0x60, 0x78,
// 0x50, 0x48.
TEST(Swizzle, Seed000FormulaAsTheSeedWorksIt) {
  EXPECT_EQ(seed000_swizzle(3, 4, 3, 0x40), 0x40);
  EXPECT_EQ(seed000_swizzle(3, 4, 3, 0x18), 0x28);
  const std::int64_t rows[8] = {0x00, 0x18, 0x30, 0x28, 0x60, 0x78, 0x50, 0x48};
  for (int r = 0; r < 8; ++r) EXPECT_EQ(seed000_swizzle(3, 4, 3, 8 * r), rows[r]) << "row " << r;
  std::cout << "[ swizzle ] 10 cases of seed 000's formula checked\n";
}

// Negative offsets: CuTe's Swizzle XORs the two's-complement pattern of a signed integer.
TEST(Swizzle, NegativeOffsets) {
  // CuTe 4.2 prints Swizzle<1,0,1>{}(-1) as -2 (oracles/probes/corpus_vendor_probe.cpp).
  EXPECT_EQ(Swizzle(1, 0, 1)(-1), -2);
  // -1 has every bit set: bits [7,10) (all 1) flip bits [4,7): -1 ^ 0b1110000 = -113.
  EXPECT_EQ(Swizzle(3, 4, 3)(-1), -113);
  // -896 = ...1111 1100 1000 0000: bits [7,10) = 0b001 flip bit 4: -896 ^ 16 = -880.
  EXPECT_EQ(Swizzle(3, 4, 3)(-896), -880);
  // S < 0 moves bits up: Sw<2,0,-2>(-1): bits [0,2) flip bits [2,4): -1 ^ 0b1100 = -13.
  EXPECT_EQ(Swizzle(2, 0, -2)(-1), -13);
  // Still an involution, and the bits outside the destination field are kept.
  long checked = 0;
  for (const Swizzle sw : {Swizzle(3, 4, 3), Swizzle(2, 0, -2), Swizzle(1, 1, 1), Swizzle(3, 3, 3)})
    for (std::int64_t x = -4096; x < 0; ++x, ++checked) {
      ASSERT_EQ(sw(sw(x)), x) << sw.to_string() << " at " << x;
      ASSERT_EQ(sw(x) & ~sw.destination_mask(), x & ~sw.destination_mask()) << sw.to_string() << " at " << x;
    }
  EXPECT_EQ(checked, 4 * 4096);
}

// Sw<0,M,S> (B = 0) moves no bit: the identity (the seed's "no swizzle" Sw<0,0,0>).
TEST(Swizzle, ZeroBitsIsIdentity) {
  for (std::int64_t x = 0; x < 256; ++x) EXPECT_EQ(Swizzle(0, 0, 0)(x), x);
}

// CuTe: size and cosize of a ComposedLayout are those of its inner layout.
// Vendor: Sw<3,4,3> o _0 o (_8,_64):(_64,_1): size _512, cosize _512.
TEST(ComposedLayout, SizeAndCosizeAreTheInnerLayouts) {
  const ComposedLayout c = composed("Sw<3,4,3> o (8,64):(64,1)");
  EXPECT_EQ(size(c).value(), 512);
  EXPECT_EQ(cosize(c).value(), 512);
  // The offset does not enter cosize: cosize(8:1) = 8.
  EXPECT_EQ(cosize(composed("Sw<3,4,3> o 32 o 8:1")).value(), 8);
  // cosize is CuTe's, not the extent of the image: 129:1 has cosize 129, yet index 128
  // maps to Sw<3,4,3>(128) = 144 (bit 7 into bit 4).
  const ComposedLayout d = composed("Sw<3,4,3> o 129:1");
  EXPECT_EQ(cosize(d).value(), 129);
  EXPECT_EQ(apply_composed(d, 128), 144);
}

// CuTe (layout_composed.hpp): shape, rank and depth of a ComposedLayout are its inner layout's;
// flatten, coalesce and append act on the inner layout and keep the swizzle and the offset;
// complement(C [, M]) is the inner layout's complement (a plain layout). Hand derivations:
//   shape(Sw<3,4,3> o (8,64):(64,1)) = (8,64); ((2,4),64) has rank 2, depth 2;
//   flatten keeps the leaves in order: (2,4,64):(64,128,1);
//   (8,64):(1,8): 1*8 = 8, the modes merge: 512:1; with profile (1,1) nothing merges;
//   append(8:1, 4:8) = (8,4):(1,8);
//   complement(4:2) = complement(4:2, cosize 7): the gap below stride 2 is 2:1, then
//   ceil(7 / 8) = 1 more copies: 2:1; up to 16: (2,2):(1,8).
TEST(ComposedLayout, QueriesAndModeOperationsActOnTheInnerLayout) {
  auto eval = [](const char* text) { return parse_and_evaluate(text, &standard_functions()).to_string(); };
  EXPECT_EQ(eval("shape(Sw<3,4,3> o (8,64):(64,1))"), "(8,64)");
  EXPECT_EQ(eval("rank(Sw<3,4,3> o 32 o ((2,4),64):((64,128),1))"), "_2");
  EXPECT_EQ(eval("depth(Sw<3,4,3> o 32 o ((2,4),64):((64,128),1))"), "_2");
  EXPECT_EQ(eval("flatten(Sw<3,4,3> o 32 o ((2,4),64):((64,128),1))"), "Sw<3,4,3> o 32 o (2,4,64):(64,128,1)");
  EXPECT_EQ(eval("coalesce(Sw<3,4,3> o (8,64):(1,8))"), "Sw<3,4,3> o 512:1");
  EXPECT_EQ(eval("coalesce(Sw<3,4,3> o (8,64):(1,8), (1,1))"), "Sw<3,4,3> o (8,64):(1,8)");
  EXPECT_EQ(eval("append(Sw<3,4,3> o 8:1, 4:8)"), "Sw<3,4,3> o (8,4):(1,8)");
  EXPECT_EQ(eval("complement(Sw<3,4,3> o 4:2)"), "2:_1");
  EXPECT_EQ(eval("complement(Sw<3,4,3> o 4:2, 16)"), "(2,2):(_1,8)");
  // CuTe deletes stride() of a composed layout: the model refuses it with a diagnostic.
  try {
    eval("stride(Sw<3,4,3> o 4:2)");
    ADD_FAILURE() << "stride of a composed layout must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("composed layout"), std::string::npos) << e.what();
  }
}

}  // namespace swizzle_test
