// swizzle_for: the expected swizzles and counts derived by hand from the bank rule
// (smem_banks.hpp: ldmatrix phases are the 8 rows of one matrix, 16 bytes each; a phase takes as
// many wavefronts as the most distinct words in one bank), each derivation in a comment.
#include <gtest/gtest.h>

#include "atoms/swizzle_synthesis.hpp"
#include "pointer_swizzle.hpp"

#include <iostream>
#include "function_table.hpp"
#include "notation.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace swizzle_synthesis_test {

using namespace cuteref;
using cuteref::test::eval;
using cuteref::test::expect_error;

namespace {

Layout L(const std::string& text) { return std::get<Layout>(eval(text).data); }
TiledCopy copy(const std::string& text) { return tiled_copy_arg({eval(text)}, 0, "test"); }
SwizzleAccess access(TiledCopy c, CopySide side) { return {std::move(c), side, std::nullopt, 0}; }

const std::string kMma = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (2,2,1):(1,2,0))";

std::int64_t member_total(const SwizzleSynthesis& s, int b, int m, int sh) {
  for (const SwizzleMember& x : s.family)
    if (x.swizzle && *x.swizzle == Swizzle(b, m, sh)) return x.feasible ? x.total : -1;
  return -2;
}

}  // namespace

// Row-major (32,64) halves: a row is 128 bytes, so ldmatrix's 8 rows of one matrix start at the
// same bank: 8 distinct words per bank, 8 wavefronts per phase; 16 ldmatrix.x4 (the 32x16 A tile
// of 2x2 atoms, four K-steps) x 4 phases x 8 = 512, ideal 64. Sw<3,4,3> (bytes) XORs row % 8
// into the 16-byte chunk: the 8 rows land in 8 chunks, conflict-free: 64. Sw<2,4,3> XORs row % 4:
// 4 chunks, two rows each: 2 per phase, 128 (the next best). The family is 1 + 2 * 9 * (10 + 9 + 8
// + 7 + 6) = 721 members (M in 0..8, |S| in B..10 for B = 1..5, S of either sign); with S > 0 and
// M in 1..3 a bit at or above 4 is XOR-ed into a bit of the 16-byte row: the row's bytes move
// apart, 3 * 40 = 120 infeasible; with S < 0 and M in 1..3 the row's own bit M (inside the 16
// bytes, not inside the 2-byte element) is XOR-ed into bit M + |S|: 120 more; at least 240.
TEST(SwizzleSynthesis, LdsmNRowMajorReachesTheIdeal) {
  const SwizzleSynthesis s = swizzle_for(L("(32,64):(64,1)"), {access(copy("make_tiled_copy_A(SM75_U32x4_LDSM_N, 16, " + kMma + ")"), CopySide::Auto)});
  EXPECT_EQ(s.family.size(), 721u);
  EXPECT_GE(s.infeasible, 240);
  EXPECT_EQ(s.family.front().total, 512);
  EXPECT_EQ(s.ideal_total, 64);
  ASSERT_TRUE(s.family[s.best].swizzle.has_value());
  EXPECT_EQ(*s.family[s.best].swizzle, Swizzle(3, 4, 3));
  EXPECT_EQ(s.family[s.best].total, 64);
  EXPECT_EQ(member_total(s, 2, 4, 3), 128);
  ASSERT_TRUE(s.next_best.has_value());
  EXPECT_EQ(s.family[*s.next_best].total, 128);
  EXPECT_EQ(swizzle_for_layout(s).to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (32,64):(64,1)");
  // Padding: ldmatrix rows must stay 16-byte aligned, so pads of 1..7 halves are refused; a row
  // pitch of 72 halves (144 bytes) puts row r at chunk r % 8 of a 128-byte line: 64, the ideal,
  // for a cosize of 31 * 72 + 64 = 2296 halves instead of 2048: 496 more bytes.
  ASSERT_TRUE(s.padding.found);
  EXPECT_EQ(s.padding.pad, 8);
  EXPECT_EQ(s.padding.total, 64);
  EXPECT_EQ(s.padding.extra_bytes, 496);
  // Through the expression language, bank_conflicts of the answer: (16, 64, 64).
  const std::string c = "make_tiled_copy_A(SM75_U32x4_LDSM_N, 16, " + kMma + ")";
  EXPECT_EQ(eval("bank_conflicts(" + c + ", swizzle_for((32,64):(64,1), " + c + "))").to_string(), "(16,64,64)");
}

// M-major (32,64):(1,32): a K-column of 32 halves is 64 bytes. ldmatrix.trans rows are 8 halves
// along M at consecutive k: byte 64k (+ the M chunk), so 8 rows cover 2 chunk positions of a
// 128-byte line: 4 rows per bank group, 4 wavefronts per phase: 16 x 4 x 4 = 256. Sw<2,4,3> XORs
// (k/2) % 4 into the chunk bits 4-5: the 8 rows take the chunks (k%2)*4 + ((k/2)%4 ^ c): 8
// distinct: 64, the ideal. Sw<3,4,3> does the same for k < 8 (bit 9 is 0 there), also 64; the
// tie goes to the smaller B. Sw<1,4,3> XORs only (k/2)%2: 4 chunks, 2 per phase: 128.
TEST(SwizzleSynthesis, LdsmTColumnMajorReachesTheIdeal) {
  const SwizzleSynthesis s = swizzle_for(L("(32,64):(1,32)"), {access(copy("make_tiled_copy_A(SM75_U16x8_LDSM_T, 16, " + kMma + ")"), CopySide::Auto)});
  EXPECT_EQ(s.family.front().total, 256);
  EXPECT_EQ(s.ideal_total, 64);
  EXPECT_EQ(*s.family[s.best].swizzle, Swizzle(2, 4, 3));
  EXPECT_EQ(member_total(s, 3, 4, 3), 64);
  EXPECT_EQ(member_total(s, 1, 4, 3), 128);
  EXPECT_EQ(s.family[*s.next_best].total, 128);
  // Padding: a K-column pitch of 40 halves (80 bytes) puts k = 0..7 at bytes 0, 80, 160 = 32 mod
  // 128, 112, 64, 16, 96, 48: 8 distinct chunks, 64; cosize 31 + 63 * 40 + 1 = 2552 halves, 1008
  // more bytes than 2048.
  EXPECT_EQ(s.padding.pad, 8);
  EXPECT_EQ(s.padding.total, 64);
  EXPECT_EQ(s.padding.extra_bytes, 1008);
  const std::string c = "make_tiled_copy_A(SM75_U16x8_LDSM_T, 16, " + kMma + ")";
  EXPECT_EQ(eval("bank_conflicts(" + c + ", swizzle_for((32,64):(1,32), " + c + "))").to_string(), "(16,64,64)");
}

// 128-bit loads of a row-major (64,64) tile, 8 threads per 128-byte row: each quarter-warp phase
// reads one whole row, 32 distinct banks: already ideal, so no swizzle is chosen. Two accesses
// (the same copy twice) add: 2 x the single total.
TEST(SwizzleSynthesis, ConflictFreeKeepsTheLayoutAndAccessesAdd) {
  const TiledCopy v = copy("make_tiled_copy(UniversalCopy<uint128_t>, 16, (16,8):(8,1), (1,8))");
  const SwizzleSynthesis s = swizzle_for(L("(64,64):(64,1)"), {access(v, CopySide::Source)});
  EXPECT_FALSE(s.family[s.best].swizzle.has_value());
  EXPECT_EQ(s.family[s.best].total, s.ideal_total);
  // 4 instructions per warp (64 rows / 16 rows per pass), 4 warps, 4 phases each: 64.
  EXPECT_EQ(s.ideal_total, 64);
  const SwizzleSynthesis twice = swizzle_for(L("(64,64):(64,1)"), {access(v, CopySide::Source), access(v, CopySide::Source)});
  EXPECT_EQ(twice.family[twice.best].total, 128);
  EXPECT_EQ(eval("swizzle_for((64,64):(64,1), make_tiled_copy(UniversalCopy<uint128_t>, 16, (16,8):(8,1), (1,8)))").to_string(),
            "(64,64):(64,1)");
}

// The instruction form: ldmatrix.x4 at the rows of a 64-half row-major tile ((32,8):(64,1): row
// t of matrix t/8 at element 64t, 8 rows per matrix 128 bytes apart: 8 wavefronts each, 32);
// Sw<3,4,3> puts row % 8 into the chunk: 4, the ideal.
// The search moves the unswizzled partitions' offsets; bank_conflicts partitions the composed
// layout itself. On every member of the family, for both acceptance copies, the two agree: the
// same feasibility and the same wavefronts.
TEST(SwizzleSynthesis, EveryMemberEqualsBankConflictsOfTheComposedLayout) {
  int compared = 0, negative = 0;
  for (const auto& [smem, atom] : {std::pair<std::string, std::string>{"(32,64):(64,1)", "SM75_U32x4_LDSM_N"},
                                   std::pair<std::string, std::string>{"(32,64):(1,32)", "SM75_U16x8_LDSM_T"}}) {
    const TiledCopy c = copy("make_tiled_copy_A(" + atom + ", 16, " + kMma + ")");
    const SwizzleSynthesis s = swizzle_for(L(smem), {access(c, CopySide::Auto)});
    for (const SwizzleMember& m : s.family) {
      std::optional<std::int64_t> direct;
      try {
        direct = bank_conflicts(c, swizzled_smem(s.smem, m.swizzle, 16)).wavefronts;
      } catch (const Error&) {
      }
      EXPECT_EQ(direct.has_value(), m.feasible) << smem << " " << (m.swizzle ? m.swizzle->to_string() : "none");
      if (direct && m.feasible) {
        EXPECT_EQ(*direct, m.total) << smem << " " << (m.swizzle ? m.swizzle->to_string() : "none");
      }
      // S < 0 XORs lower bits into higher ones: on 16-byte rows (bits 0..3 of an access are 0)
      // the bank-group bits 4..6 of the result are a bijection of the address's, so the count is
      // the unswizzled one.
      if (m.feasible && m.swizzle && m.swizzle->shift() < 0) {
        EXPECT_EQ(m.total, s.family.front().total) << smem << " " << m.swizzle->to_string();
        ++negative;
      }
      ++compared;
    }
  }
  EXPECT_EQ(compared, 2 * 721);
  EXPECT_GT(negative, 0);
}

TEST(SwizzleSynthesis, InstructionForm) {
  const SwizzleSynthesis s =
      swizzle_for(L("(32,8):(64,1)"), {SwizzleAccess{TiledCopy{}, CopySide::Auto, smem_instruction("ldmatrix.x4"), 16}});
  EXPECT_EQ(s.family.front().total, 32);
  EXPECT_EQ(s.ideal_total, 4);
  EXPECT_EQ(*s.family[s.best].swizzle, Swizzle(3, 4, 3));
  EXPECT_EQ(s.family[s.best].total, 4);
}

TEST(SwizzleSynthesis, Diagnostics) {
  expect_error([] { swizzle_for(L("(32,64):(64,1)"), {}); }, "no tiled copy given");
  expect_error([] {
    swizzle_for(L("(32,64):(64,1)"), {access(copy("make_tiled_copy_A(SM75_U32x4_LDSM_N, 16, " + kMma + ")"), CopySide::Auto),
                                      access(copy("make_tiled_copy(UniversalCopy<uint32_t>, 32, (32,1):(1,0))"), CopySide::Auto)});
  }, "different widths");
  expect_error([] { swizzle_for(L("(32,64):(64,1)"), {access(copy("make_tiled_copy_A(SM75_U32x4_LDSM_N, 16, " + kMma + ")"), CopySide::Destination)}); },
               "reads shared memory");
  expect_error([] { eval("swizzle_for((32,64):(64,1), 3)"); }, "must be a tiled copy");
}

// One 32-bit load per lane down a column of a row-major (32,32) float tile: lane t reads byte
// 128t, every lane in bank 0: 32 wavefronts, ideal 1. Only Sw<5,2,5> (bits 7..11, the row, XOR-ed
// into bits 2..6, the bank) gives 32 distinct banks: 1. The TMA/GMMA modes XOR at most bits 7..9
// into 4..6: Sw<3,4,3> puts the rows in 8 bank groups of 4 banks, 4 rows per group: 4; Sw<2,4,3>
// 8; Sw<1,4,3> 16. So with a TMA or GMMA side the answer is Sw<3,4,3> at 4, of a family of 4.
TEST(SwizzleSynthesis, TmaGmmaSideKeepsTheAnswerToTheirModes) {
  const SwizzleAccess column{TiledCopy{}, CopySide::Auto, smem_instruction("ld.shared.b32"), 32};
  const SwizzleSynthesis any = swizzle_for(L("(32,1):(32,1)"), {column});
  EXPECT_EQ(any.family.front().total, 32);
  EXPECT_EQ(any.ideal_total, 1);
  ASSERT_TRUE(any.family[any.best].swizzle.has_value());
  EXPECT_EQ(*any.family[any.best].swizzle, Swizzle(5, 2, 5));
  EXPECT_EQ(any.family[any.best].total, 1);
  // S < 0 on 4-byte accesses (bits 0..1 are 0): the bank bits 2..6 of the result are a bijection
  // of the address's, and every lane is in bank 0 before: 32 for every feasible such member.
  int negative = 0;
  for (const SwizzleMember& m : any.family)
    if (m.feasible && m.swizzle && m.swizzle->shift() < 0) {
      EXPECT_EQ(m.total, 32) << m.swizzle->to_string();
      ++negative;
    }
  EXPECT_GT(negative, 0);
  const SwizzleSynthesis tma = swizzle_for(L("(32,1):(32,1)"), {column}, SwizzleModes::TmaGmma);
  EXPECT_EQ(tma.family.size(), 4u);
  ASSERT_TRUE(tma.family[tma.best].swizzle.has_value());
  EXPECT_EQ(*tma.family[tma.best].swizzle, Swizzle(3, 4, 3));
  EXPECT_EQ(tma.family[tma.best].total, 4);
  EXPECT_EQ(member_total(tma, 2, 4, 3), 8);
  EXPECT_EQ(member_total(tma, 1, 4, 3), 16);
  EXPECT_EQ(tma.least, std::vector<std::int64_t>{4});
  // Through the expression language: the flag is the last argument.
  EXPECT_EQ(eval("swizzle_for((32,1):(32,1), ld.shared.b32, 32, TMA)").to_string(), "Sw<3,4,3> o smem_ptr[32b](unset) o (32,1):(32,1)");
  EXPECT_EQ(eval("swizzle_for((32,1):(32,1), ld.shared.b32, 32, GMMA)").to_string(), "Sw<3,4,3> o smem_ptr[32b](unset) o (32,1):(32,1)");
  EXPECT_EQ(eval("swizzle_for((32,1):(32,1), ld.shared.b32, 32)").to_string(), "Sw<5,2,5> o smem_ptr[32b](unset) o (32,1):(32,1)");
  expect_error([] { eval("swizzle_for((32,64):(64,1), make_tiled_copy(UniversalCopy<uint32_t>, 32, (32,1):(1,0)), TMB)"); }, "must be S or D");
}

// The family definition (swizzle_family.hpp) against the box, enumerated: 721 members, S < 0 in
// half of them; 4 with TmaGmma. Its element-form test equals pointer_swizzle's (element_swizzle
// refuses exactly those members) for every member and every element width of 1 to 128 bytes.
TEST(SwizzleSynthesis, FamilyDefinitionEnumerated) {
  int any = 0, negative = 0, tma = 0, compared = 0;
  for (int b = 0; b <= kSwizzleFamilyMaxBits; ++b)
    for (int m = 0; m <= kSwizzleFamilyMaxBase; ++m)
      for (int s = -kSwizzleFamilyMaxShift; s <= kSwizzleFamilyMaxShift; ++s) {
        const bool member = swizzle_family_member<CheckedInt>(b, m, s, SwizzleModes::Any);
        any += member;
        negative += member && s < 0;
        tma += swizzle_family_member<CheckedInt>(b, m, s, SwizzleModes::TmaGmma);
        if (!member) continue;
        for (int e = 0; e <= 7; ++e) {
          bool refused = false;
          try {
            (void)element_swizzle(Swizzle(b, m, s), 8 << e);
          } catch (const Error&) {
            refused = true;
          }
          EXPECT_EQ(swizzle_moves_whole_elements<CheckedInt>(b, m, s, e), !refused) << b << "," << m << "," << s << " e=" << e;
          ++compared;
        }
      }
  EXPECT_EQ(any, 721);
  EXPECT_EQ(negative, 360);
  EXPECT_EQ(tma, 4);
  EXPECT_EQ(compared, 721 * 8);
  std::cout << "[ swizzle family ] " << compared << " (member, element width) pairs compared\n";
}

}  // namespace swizzle_synthesis_test
