// smem_wavefronts: counts derived by hand from the rule in smem_banks.hpp (each derivation in a
// comment: which words fall in which bank), and the diagnostics. The hardware's own counts for
// 967 (instruction, addresses) pairs are corpus/gpu/smem_wavefronts_h100.txt (the corpus suite).
#include <gtest/gtest.h>

#include "atoms/smem_banks.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace smem_banks_test {

using namespace cuteref;
using cuteref::test::expect_error;

namespace {

std::int64_t wavefronts(const std::string& instr, const std::string& addr, int bits) {
  const SmemInstruction in = smem_instruction(instr);
  return smem_wavefronts(in, smem_accesses(in, parse_and_evaluate(addr, &standard_functions()), bits)).wavefronts;
}

}  // namespace

// 32-bit words at stride s: lane t reads word s*t, in bank (s*t) % 32. Stride 2: banks 0,2,..,30,
// each holding words {b, b+32} -> 2. Stride 8: banks 0,8,16,24, each 8 distinct words -> 8.
// Stride 32: all 32 words in bank 0 -> 32. Stride 33: bank t for lane t -> 1. Stride 16: banks 0
// and 16, 16 words each -> 16. Stride 0: one word, read once -> 1. Stride 1: one word per bank -> 1.
TEST(SmemBanks, WordStrides) {
  const std::pair<int, int> cases[] = {{2, 2}, {8, 8}, {32, 32}, {33, 1}, {16, 16}, {0, 1}, {1, 1}, {3, 1}, {64, 32}};
  for (const auto& [stride, want] : cases) {
    const std::string addr = "(32,1):(" + std::to_string(stride) + ",0)";
    EXPECT_EQ(wavefronts("ld.shared.b32", addr, 32), want) << "stride " << stride;
    EXPECT_EQ(wavefronts("st.shared.b32", addr, 32), want) << "stride " << stride;
  }
}

// Sub-word accesses share their word: 32 bytes at stride 1 lie in words 0..7 -> 1 wavefront;
// at stride 128 bytes every byte is in bank 0, each in its own word -> 32. 16-bit values at
// stride 2 elements (4 bytes): one word each, banks 0..31 -> 1.
TEST(SmemBanks, SubWordAccesses) {
  EXPECT_EQ(wavefronts("ld.shared.b8", "(32,1):(1,0)", 8), 1);
  EXPECT_EQ(wavefronts("st.shared.b8", "(32,1):(128,0)", 8), 32);
  EXPECT_EQ(wavefronts("ld.shared.b16", "(32,1):(2,0)", 16), 1);
  EXPECT_EQ(wavefronts("ld.shared.b16", "(32,1):(64,0)", 16), 32);
}

// 8-byte accesses: two phases of 16 threads. Contiguous: each half-warp reads 128 bytes, one word
// per bank -> 1 + 1. At a 16-byte stride: threads 0..15 read bytes 16t..16t+7, i.e. words 4t,
// 4t+1; threads t and t+8 fall in the same banks with different words -> 2 per phase -> 4.
// Every lane loading one address: pairs t, t^1 agree -> one phase of 32 (rule 2) -> 1; the same
// store is not packed -> 2.
TEST(SmemBanks, EightByteAccesses) {
  EXPECT_EQ(wavefronts("ld.shared.v2.b32", "(32,2):(2,1)", 32), 2);
  EXPECT_EQ(wavefronts("st.shared.v2.b32", "(32,2):(4,1)", 32), 4);
  EXPECT_EQ(wavefronts("ld.shared.v2.b32", "(32,2):(0,1)", 32), 1);
  EXPECT_EQ(wavefronts("st.shared.v2.b32", "(32,2):(0,1)", 32), 2);
  EXPECT_EQ(wavefronts("ld.shared.b64", "(32,1):(1,0)", 64), 2);
}

// 16-byte accesses: four phases of 8 threads. Contiguous: 128 bytes per quarter -> 4. At a
// 32-byte stride: threads t and t+4 of a quarter share banks -> 2 per phase -> 8. One address for
// all lanes: loads pack to two phases of 16 -> 2; stores stay at 4. Pairs t, t^1 sharing an
// address with the pairs 32 bytes apart: a load packs to phases 0..15, 16..31 of 8 pairs each,
// pairs p and p+4 collide -> 2 + 2; the store keeps quarters, 4 pairs at bytes 0,32,64,96 of
// banks 0-3, 8-11, 16-19, 24-27 -> 1 each -> 4.
TEST(SmemBanks, SixteenByteAccesses) {
  EXPECT_EQ(wavefronts("ld.shared.v4.b32", "(32,4):(4,1)", 32), 4);
  EXPECT_EQ(wavefronts("ld.shared.v4.b32", "(32,4):(8,1)", 32), 8);
  EXPECT_EQ(wavefronts("ld.shared.v4.b32", "(32,4):(0,1)", 32), 2);
  EXPECT_EQ(wavefronts("st.shared.v4.b32", "(32,4):(0,1)", 32), 4);
  EXPECT_EQ(wavefronts("ld.shared.v4.b32", "((2,16),4):((0,8),1)", 32), 4);
  EXPECT_EQ(wavefronts("st.shared.v4.b32", "((2,16),4):((0,8),1)", 32), 4);
}

// ldmatrix / stmatrix: lane t supplies row t % 8 of matrix t / 8, 16 bytes. A row-major 64x64
// half tile read row after row: rows 128 bytes apart all start in bank 0 -> the 8 rows of a
// matrix are 8 distinct words in banks 0..3 -> 8 per matrix, 32 for .x4. With the SW128 swizzle
// (bits 7..9 of the byte address XOR-ed into 4..6) row r's chunk moves to chunk r % 8: one per
// bank quad -> 1 per matrix, 4. A 144-byte pitch (64 halves + 8 padding) puts row r at chunk
// 9r % 8 = r % 8 -> 4 as well. .x1 reads only threads 0..7's addresses.
TEST(SmemBanks, MatrixRows) {
  EXPECT_EQ(wavefronts("ldmatrix.x4", "(32,8):(64,1)", 16), 32);
  EXPECT_EQ(wavefronts("ldmatrix.x4.trans", "(32,8):(64,1)", 16), 32);
  EXPECT_EQ(wavefronts("stmatrix.x4", "(32,8):(64,1)", 16), 32);
  EXPECT_EQ(wavefronts("ldmatrix.x4", "Sw<3,4,3> o smem_ptr[16b](unset) o (32,8):(64,1)", 16), 4);
  EXPECT_EQ(wavefronts("stmatrix.x4.trans", "Sw<3,4,3> o smem_ptr[16b](unset) o (32,8):(64,1)", 16), 4);
  EXPECT_EQ(wavefronts("ldmatrix.x4", "(32,8):(72,1)", 16), 4);
  EXPECT_EQ(wavefronts("ldmatrix.x2", "(32,8):(64,1)", 16), 16);
  // .x1: lanes 8..31 point anywhere (here at rows of bank 0 too): only lanes 0..7 count.
  EXPECT_EQ(wavefronts("ldmatrix.x1", "((8,4),8):((8,64),1)", 16), 1);
  // Explicit addresses: rows of matrix 0 at bytes 0,16,..,112; one matrix, no conflict.
  EXPECT_EQ(wavefronts("ldmatrix.x1", "(0,8,16,24,32,40,48,56)", 16), 1);
  // The 4 matrices over the same 8 rows still take 4 (phases never share a wavefront).
  EXPECT_EQ(wavefronts("ldmatrix.x4", "((8,4),8):((8,0),1)", 16), 4);
}

TEST(SmemBanks, ReportNamesTheCollidingThreads) {
  const SmemInstruction in = smem_instruction("ldmatrix.x1");
  const auto w = smem_wavefronts(in, smem_accesses(in, parse_and_evaluate("(32,8):(64,1)", &standard_functions()), 16));
  EXPECT_EQ(w.wavefronts, 8);
  EXPECT_EQ(w.ideal, 1);
  ASSERT_EQ(w.phases.size(), 1u);
  EXPECT_EQ(w.phases[0].worst_words.size(), 8u);
  const std::string d = describe(in, w);
  EXPECT_NE(d.find("8 wavefronts (ideal 1, 7 extra from bank conflicts)"), std::string::npos) << d;
  EXPECT_NE(d.find("bank 0 holds 8 distinct words: [byte 0: t0] [byte 128: t1]"), std::string::npos) << d;
}

TEST(SmemBanks, Diagnostics) {
  expect_error([] { smem_instruction("ld.global.b32"); }, "not a known shared-memory instruction");
  expect_error([] { smem_instruction("ldmatrix.x3"); }, "not a known shared-memory instruction");
  // A row of ldmatrix must be 16 contiguous bytes.
  expect_error([] { wavefronts("ldmatrix.x4", "(32,8):(64,2)", 16); }, "not one row of 16 contiguous bytes");
  expect_error([] { wavefronts("ldmatrix.x4", "(32,4):(64,1)", 16); }, "the instruction accesses 16 bytes per row");
  expect_error([] { wavefronts("ld.shared.v4.b32", "(32,4):(2,1)", 32); }, "is not aligned to 16 bytes");
  expect_error([] { wavefronts("ld.shared.b32", "(32,1):(-1,0)", 32); }, "< 0");
  expect_error([] { wavefronts("ld.shared.b32", "(16,2):(1,1)", 16); }, "shape (32, V)");
  expect_error([] { wavefronts("ld.shared.b32", "(32,1):(1,0)", 4); }, "multiple of 8 bits");
}

}  // namespace smem_banks_test
