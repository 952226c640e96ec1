// register_permutation: the expected answers come from the PTX ISA's register fragment figures
// (wgmma .m64nNk16 / .m64nNk32 accumulator and A-in-registers fragments, mma.m16n8k16's C and A),
// written below as formulas of (lane, value) and enumerated over every thread and value; and
// from small hand-made TV layouts whose movement is derived in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>

#include "atoms/register_permutation.hpp"
#include "coordinates.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace register_permutation_test {

using namespace cuteref;
using cuteref::test::expect_error;

namespace {

Layout L(const std::string& text) { return std::get<Layout>(parse_and_evaluate(text, &standard_functions()).data); }

RegisterFragment mma(const std::string& atom, MmaOperand op) {
  return mma_register_fragment(make_tiled_mma(mma_atom(atom), L("(_1,_1,_1):(_0,_0,_0)")), op, 0);
}

// (row, col) of thread t's value v, from the PTX ISA's figures; thread t = 32 * warp + lane.
using Fragment = std::function<std::pair<std::int64_t, std::int64_t>(std::int64_t t, std::int64_t v)>;

// wgmma accumulator (f32, m64nN): d[v], v = c + 2i + 4j: row 16w + lane/4 + 8i, col 8j + 2(lane%4) + c.
std::pair<std::int64_t, std::int64_t> wgmma_d(std::int64_t t, std::int64_t v) {
  const std::int64_t w = t / 32, l = t % 32;
  return {16 * w + l / 4 + 8 * ((v / 2) % 2), 8 * (v / 4) + 2 * (l % 4) + v % 2};
}
// wgmma A in registers, 16-bit (m64k16): a[v], v = c + 2i + 4h: row 16w + lane/4 + 8i, col 2(lane%4) + c + 8h.
std::pair<std::int64_t, std::int64_t> wgmma_a16(std::int64_t t, std::int64_t v) {
  const std::int64_t w = t / 32, l = t % 32;
  return {16 * w + l / 4 + 8 * ((v / 2) % 2), 2 * (l % 4) + v % 2 + 8 * (v / 4)};
}
// wgmma A in registers, 8-bit (m64k32): a[v], v = c + 4i + 8h: row 16w + lane/4 + 8i, col 4(lane%4) + c + 16h.
std::pair<std::int64_t, std::int64_t> wgmma_a8(std::int64_t t, std::int64_t v) {
  const std::int64_t w = t / 32, l = t % 32;
  return {16 * w + l / 4 + 8 * ((v / 4) % 2), 4 * (l % 4) + v % 4 + 16 * (v / 8)};
}
// mma.m16n8k16 C: c[v], v = c + 2i: row lane/4 + 8i, col 2(lane%4) + c.
std::pair<std::int64_t, std::int64_t> mma16816_c(std::int64_t l, std::int64_t v) { return {l / 4 + 8 * (v / 2), 2 * (l % 4) + v % 2}; }
// mma.m16n8k16 A: a[v], v = c + 2i + 4h: row lane/4 + 8i, col 2(lane%4) + c + 8h.
std::pair<std::int64_t, std::int64_t> mma16816_a(std::int64_t l, std::int64_t v) {
  return {l / 4 + 8 * ((v / 2) % 2), 2 * (l % 4) + v % 2 + 8 * (v / 4)};
}

// The fragment's TV layout agrees with the PTX formula at every (thread, value).
void expect_fragment(const RegisterFragment& f, const Fragment& ptx, std::int64_t threads, std::int64_t values) {
  ASSERT_EQ(size_value(mode(f.layout_tv, 0)), threads) << f.name;
  ASSERT_EQ(size_value(mode(f.layout_tv, 1)), values) << f.name;
  for (std::int64_t t = 0; t < threads; ++t)
    for (std::int64_t v = 0; v < values; ++v) {
      const auto [row, col] = ptx(t, v);
      ASSERT_EQ(apply_index(f.layout_tv, t + threads * v), row + f.rows * col) << f.name << " t" << t << " v" << v;
    }
}

}  // namespace

// The f16 / bf16 handoff: the accumulator's values j = 2s, 2s+1 (columns 16s..16s+15) are, with
// the same (c, i), A's K-slice s values h = 0, 1 (A's col 8h + 2q + c of slice s = C's col
// 16s + 8h + 2q + c, C's j = 2s + h): C value c + 2i + 4j = A value c + 2i + 4h + 8s, the
// extended A index. So nothing moves, for every N (the A tile repeats N/16 times along K).
TEST(RegisterPermutation, Sm90F16AndBf16AccumulatorIsTheRsAOperand) {
  int checked = 0;
  for (const char* types : {"F32F16F16", "F32BF16BF16"})
    for (int n = 64; n <= 256; n += 16) {
      const std::string base = "SM90_64x" + std::to_string(n) + "x16_" + types;
      const RegisterFragment c = mma(base + "_SS", MmaOperand::C), a = mma(base + "_RS", MmaOperand::A);
      expect_fragment(c, wgmma_d, 128, n / 2);
      expect_fragment(a, wgmma_a16, 128, 8);
      const RegisterPermutation r = register_permutation(c, a);
      EXPECT_EQ(r.move, RegisterMove::Identity) << base;
      EXPECT_EQ(r.tile_rows, 64);
      EXPECT_EQ(r.tile_cols, n);
      EXPECT_EQ(r.values, n / 2);
      EXPECT_EQ(r.bits, 16);
      EXPECT_NE(r.algebra_check.find("agrees"), std::string::npos) << r.algebra_check;
      EXPECT_EQ(describe(r).rfind("identity", 0), 0u);
      // C's tile (64, n) and A's (64, 16) differ: the report says each is repeated to (64, n).
      EXPECT_NE(describe(r).find("the tiles differ: FROM's (64," + std::to_string(n) + "), TO's (64,16); each is repeated to the "
                                 "common tile (64," + std::to_string(n) + ")"),
                std::string::npos) << describe(r);
      ++checked;
    }
  EXPECT_EQ(checked, 26);
}

// The fp8 handoff. Thread q = lane%4 holds, per 32 columns, C's columns {8j + 2q + c0} (c0 < 2,
// j < 4) and A's {4q + c + 16h} (c < 4, h < 2): different sets, so without a relabeling data
// crosses lanes. Relabel A's column k = c + 4q + 16h' as PI(k) = 2q + (c%2) + 8(c/2) + 16h'
// (V's rows read in that order): thread q then holds the same columns in both. Within the
// thread, A's value v = c + 4i + 8h + 16s (s the 32-column slice) is C's value
// (c%2) + 2i + 4(c/2 + 2h + 4s): rows 8i differ inside a register, so bytes move: A's register
// d (values 4d..4d+3, i = d%2) takes bytes 2i, 2i+1 of C's registers 2(d/2) and 2(d/2)+1:
// prmt selector 0x5410 (i = 0) or 0x7632 (i = 1).
TEST(RegisterPermutation, Sm90Fp8AccumulatorNeedsARelabelAndAByteShuffleInThread) {
  int checked = 0;
  for (const char* types : {"F32E4M3E4M3", "F32E5M2E5M2"})
    for (int n = 64; n <= 256; n += 32) {
      const std::string base = "SM90_64x" + std::to_string(n) + "x32_" + types;
      const RegisterFragment c = mma(base + "_SS_TN", MmaOperand::C), a = mma(base + "_RS_TN", MmaOperand::A);
      expect_fragment(c, wgmma_d, 128, n / 2);
      expect_fragment(a, wgmma_a8, 128, 16);
      const RegisterPermutation r = register_permutation(c, a);
      ASSERT_EQ(r.move, RegisterMove::Relabel) << base;
      EXPECT_EQ(r.bits, 8);
      EXPECT_EQ(r.from_bits, 32);  // the f32 accumulator: P can rename its registers before the conversion
      ASSERT_EQ(r.relabel.size(), static_cast<std::size_t>(n));
      for (std::int64_t k = 0; k < n; ++k) {
        const std::int64_t c4 = k % 4, q = (k / 4) % 4, h = k / 16;
        EXPECT_EQ(r.relabel[k], 2 * q + c4 % 2 + 8 * (c4 / 2) + 16 * h) << base << " k " << k;
      }
      ASSERT_TRUE(r.value_moves);
      ASSERT_TRUE(r.value_permutation.has_value());
      for (std::int64_t v = 0; v < r.values; ++v) {
        const std::int64_t c4 = v % 4, i = (v / 4) % 2, hs = v / 8;  // hs = h + 2s
        EXPECT_EQ(apply_index(*r.value_permutation, v), c4 % 2 + 2 * i + 4 * (c4 / 2 + 2 * hs)) << base << " v " << v;
      }
      ASSERT_EQ(r.prmt.size(), static_cast<std::size_t>(n / 8));
      for (std::size_t d = 0; d < r.prmt.size(); ++d) {
        const std::string lo = std::to_string(2 * (d / 2)), hi = std::to_string(2 * (d / 2) + 1);
        EXPECT_EQ(r.prmt[d], "TO[" + std::to_string(d) + "] = prmt(FROM[" + lo + "], FROM[" + hi + "], " +
                                 (d % 2 == 0 ? "0x5410" : "0x7632") + ")");
      }
      ++checked;
    }
  EXPECT_EQ(checked, 14);
}

// mma.sync m16n8k16: the C tile is 16x8, the A tile 16x16; C repeated twice along N gives
// values c + 2i + 4r with col 8r + 2q + c, which is A's value c + 2i + 4h with h = r. Identity.
TEST(RegisterPermutation, Sm80AccumulatorIsTheAOperand) {
  const RegisterFragment c = mma("SM80_16x8x16_F32F16F16F32_TN", MmaOperand::C);
  const RegisterFragment a = mma("SM80_16x8x16_F32F16F16F32_TN", MmaOperand::A);
  expect_fragment(c, mma16816_c, 32, 4);
  expect_fragment(a, mma16816_a, 32, 8);
  const RegisterPermutation r = register_permutation(c, a);
  EXPECT_EQ(r.move, RegisterMove::Identity);
  EXPECT_EQ(r.tile_rows, 16);
  EXPECT_EQ(r.tile_cols, 16);
  EXPECT_EQ(r.values, 8);
}

// Within-thread: FROM (4,(2,2)):(1,(4,8)) and TO (4,(2,2)):(1,(8,4)) over (4,4): TO's value
// 1 is the element FROM holds at value 2 and vice versa: P = (2,2):(2,1). 16-bit values, two per
// register: TO register 0 = values 0, 1 = FROM values 0, 2 = bytes 0-1 of FROM[0] and FROM[1]
// (0x5410); TO register 1 = FROM values 1, 3 = bytes 2-3 of both (0x7632).
TEST(RegisterPermutation, PermuteWithinThreadGivesPrmtSelectors) {
  const RegisterPermutation r = register_permutation(tv_register_fragment(L("(4,(2,2)):(1,(4,8))"), 4, 4, 16, "FROM"),
                                                     tv_register_fragment(L("(4,(2,2)):(1,(8,4))"), 4, 4, 16, "TO"));
  ASSERT_EQ(r.move, RegisterMove::Permute);
  ASSERT_TRUE(r.value_permutation.has_value());
  EXPECT_EQ(r.value_permutation->to_string(), "(2,2):(2,1)");
  ASSERT_EQ(r.prmt.size(), 2u);
  EXPECT_EQ(r.prmt[0], "TO[0] = prmt(FROM[0], FROM[1], 0x5410)");
  EXPECT_EQ(r.prmt[1], "TO[1] = prmt(FROM[0], FROM[1], 0x7632)");
  // 32-bit values: the same permutation is a renaming of registers, no prmt.
  const RegisterPermutation r32 = register_permutation(tv_register_fragment(L("(4,(2,2)):(1,(4,8))"), 4, 4, 32, "FROM"),
                                                       tv_register_fragment(L("(4,(2,2)):(1,(8,4))"), 4, 4, 32, "TO"));
  EXPECT_EQ(r32.move, RegisterMove::Permute);
  EXPECT_TRUE(r32.prmt.empty());
}

// Across lanes: FROM (32,1):(1,0), thread t holds element t of a 32x1 tile; TO (2,16):(16,1)
// read as (32 threads, 1 value): thread t = a + 2b holds element 16a + b, held by FROM's thread
// 16a + b. Every lane receives one word and sends one: one shuffle round; no column relabeling
// helps (one column). The source map is (2,16):(16,1) itself.
TEST(RegisterPermutation, ShuffleAcrossLanes) {
  const RegisterPermutation r = register_permutation(tv_register_fragment(L("(32,1):(1,0)"), 32, 1, 32, "FROM"),
                                                     tv_register_fragment(L("((2,16),1):((16,1),0)"), 32, 1, 32, "TO"));
  ASSERT_EQ(r.move, RegisterMove::Shuffle);
  EXPECT_FALSE(r.crosses_warps);
  EXPECT_EQ(r.shuffle_lower_bound, 1);
  EXPECT_EQ(r.shuffle_rounds, 1);
  ASSERT_TRUE(r.source_layout.has_value());
  for (std::int64_t t = 0; t < 32; ++t) EXPECT_EQ(apply_index(*r.source_layout, t), 16 * (t % 2) + t / 2);
  // FROM (32,(2,2)):(1,(32,64)) over (32,4): thread t holds row t, value v = column v. TO
  // (32,(2,2)):(2,(1,64)): thread t < 16 holds rows 2t, 2t+1 at columns 0 and 2, i.e. values 0 and 2
  // of threads 2t and 2t+1. 16-bit values: FROM's value 0 is in register 0, value 2 in register 1,
  // so thread t in 2..15 receives 4 registers (2 from each of two other lanes): 4 rounds at least;
  // every lane sends at most its 2 registers; the greedy schedule meets the bound.
  const RegisterPermutation pairs = register_permutation(tv_register_fragment(L("(32,(2,2)):(1,(32,64))"), 32, 4, 16, "FROM"),
                                                         tv_register_fragment(L("(32,(2,2)):(2,(1,64))"), 32, 4, 16, "TO"));
  ASSERT_EQ(pairs.move, RegisterMove::Shuffle);
  EXPECT_EQ(pairs.max_words_received, 4);
  EXPECT_EQ(pairs.shuffle_lower_bound, 4);
  EXPECT_EQ(pairs.shuffle_rounds, 4);
  for (std::int64_t t = 0; t < 16; ++t) {
    EXPECT_EQ(pairs.source[t].thread, 2 * t);
    EXPECT_EQ(pairs.source[t].value, 0);
    EXPECT_EQ(pairs.source[t + 32].thread, 2 * t + 1);
    EXPECT_EQ(pairs.source[t + 64].value, 2);
  }
  // 64 threads: ((32,2),1):((1,32),0) is thread t -> element t, FROM itself: identity.
  // ((2,32),1):((32,1),0): thread a + 2b holds element 32a + b, FROM's thread 32a + b: thread 1
  // takes thread 32's value, in the other warp.
  const RegisterPermutation w = register_permutation(tv_register_fragment(L("(64,1):(1,0)"), 64, 1, 32, "FROM"),
                                                     tv_register_fragment(L("((32,2),1):((1,32),0)"), 64, 1, 32, "TO"));
  EXPECT_EQ(w.move, RegisterMove::Identity);
  const RegisterPermutation x = register_permutation(tv_register_fragment(L("(64,1):(1,0)"), 64, 1, 32, "FROM"),
                                                     tv_register_fragment(L("((2,32),1):((32,1),0)"), 64, 1, 32, "TO"));
  EXPECT_EQ(x.move, RegisterMove::Shuffle);
  EXPECT_TRUE(x.crosses_warps);
}

// A relabeling by itself, over a (1,4) tile: FROM (4,1):(1,0), thread t holds column t; TO
// ((2,2),1):((2,1),0), thread t = a + 2b holds column k = 2a + b. Reading TO's column k as
// PI(k) = a + 2b (the column FROM's thread t holds): PI = [0,2,1,3]; no value moves.
TEST(RegisterPermutation, RelabelAlone) {
  const RegisterPermutation r = register_permutation(tv_register_fragment(L("(4,1):(1,0)"), 1, 4, 32, "FROM"),
                                                     tv_register_fragment(L("((2,2),1):((2,1),0)"), 1, 4, 32, "TO"));
  ASSERT_EQ(r.move, RegisterMove::Relabel);
  EXPECT_EQ(r.relabel, (std::vector<std::int64_t>{0, 2, 1, 3}));
  EXPECT_FALSE(r.value_moves);
}

TEST(RegisterPermutation, Diagnostics) {
  expect_error([] { mma("SM90_64x64x16_F32F16F16_SS", MmaOperand::A); }, "read from shared memory through a descriptor");
  expect_error([] { mma("SM90_64x64x16_F32F16F16_RS", MmaOperand::B); }, "read from shared memory through a descriptor");
  expect_error([] { register_permutation(mma("SM80_16x8x16_F32F16F16F32_TN", MmaOperand::C), mma("SM90_64x64x16_F32F16F16_RS", MmaOperand::A)); },
               "different thread counts");
  expect_error([] { register_permutation(tv_register_fragment(L("(4,1):(2,0)"), 8, 1, 32, "F"), tv_register_fragment(L("(4,1):(1,0)"), 8, 1, 32, "T")); },
               "holds no register with element (1,0)");
  expect_error([] { register_permutation(tv_register_fragment(L("(4,1):(2,0)"), 4, 1, 32, "F"), tv_register_fragment(L("(4,1):(1,0)"), 4, 1, 32, "T")); },
               "outside its tile");
  expect_error([] { register_permutation(tv_register_fragment(L("(4,1):(1,0)"), 4, 1, 12, "F"), tv_register_fragment(L("(4,1):(1,0)"), 4, 1, 12, "T")); },
               "8, 16, 32 or 64 bits");
  expect_error([] { tv_register_fragment(L("4:1"), 4, 1, 32, "F"); }, "rank 2");
}

// layout_of_table: [0,2,1,3] is (2,2):(2,1); [0,2,1,4] is no layout (index 2 would be 2*2 + 0
// for a mode of stride 2 and extent > 2, and a new mode at index 2 needs table[3] = 1 + 2).
TEST(RegisterPermutation, LayoutOfTable) {
  EXPECT_EQ(layout_of_table({0, 2, 1, 3})->to_string(), "(2,2):(2,1)");
  EXPECT_EQ(layout_of_table({0, 1, 2, 3})->to_string(), "4:1");
  EXPECT_FALSE(layout_of_table({0, 2, 1, 4}).has_value());
  EXPECT_FALSE(layout_of_table({1, 0}).has_value());
  EXPECT_FALSE(layout_of_table({}).has_value());
}

// Exhaustive: over a 4x4 tile (column-major index m + 4k), every TV layout whose four shape-2
// modes take the strides 1, 2, 4, 8 in some order (24 bijections), split as 2, 4 or 8 threads,
// for every pair (FROM, TO): the answer against a brute-force oracle that tries every one of the
// 24 column permutations PI: identity when FROM(i) == TO(i) everywhere; permute when each thread
// holds the same set of elements in both; relabel when some PI (none of the above) makes each
// thread's sets equal; shuffle otherwise. And the sources the model gives hold the elements TO
// needs: FROM(source(i)) == TO(i) with TO's column read through PI.
TEST(RegisterPermutation, ExhaustiveSmallTilesAgainstBruteForce) {
  const std::vector<std::int64_t> strides{1, 2, 4, 8};
  std::vector<std::vector<std::int64_t>> orders;
  std::vector<std::int64_t> o = strides;
  do orders.push_back(o);
  while (std::next_permutation(o.begin(), o.end()));
  int pairs = 0, counts[4] = {0, 0, 0, 0};
  for (int thread_modes : {1, 2, 3}) {
    const std::int64_t threads = std::int64_t{1} << thread_modes;
    auto make = [&](const std::vector<std::int64_t>& st) {
      std::string shape = "((", stride = "((";
      for (int i = 0; i < 4; ++i) {
        const bool sep = i == thread_modes;
        shape += std::string(i == 0 ? "" : sep ? "),(" : ",") + "2";
        stride += std::string(i == 0 ? "" : sep ? "),(" : ",") + std::to_string(st[i]);
      }
      return L(shape + "))" + ":" + stride + "))");
    };
    std::vector<Layout> layouts;
    for (const auto& st : orders) layouts.push_back(make(st));
    std::vector<std::vector<std::int64_t>> pis;
    std::vector<std::int64_t> p{0, 1, 2, 3};
    do pis.push_back(p);
    while (std::next_permutation(p.begin(), p.end()));
    for (const Layout& f : layouts)
      for (const Layout& t : layouts) {
        // Brute force: each thread's element set, TO's with its column k read as pi[k].
        auto sets_equal = [&](const std::vector<std::int64_t>& pi) {
          for (std::int64_t th = 0; th < threads; ++th) {
            std::vector<std::int64_t> a, b;
            for (std::int64_t v = 0; v < 16 / threads; ++v) {
              a.push_back(apply_index(f, th + threads * v));
              const std::int64_t e = apply_index(t, th + threads * v);
              b.push_back(e % 4 + 4 * pi[e / 4]);
            }
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            if (a != b) return false;
          }
          return true;
        };
        bool same = true;
        for (std::int64_t i = 0; i < 16; ++i) same = same && apply_index(f, i) == apply_index(t, i);
        RegisterMove want = RegisterMove::Shuffle;
        if (same) want = RegisterMove::Identity;
        else if (sets_equal(pis.front())) want = RegisterMove::Permute;
        else
          for (const auto& pi : pis)
            if (sets_equal(pi)) want = RegisterMove::Relabel;
        const RegisterPermutation r = register_permutation(tv_register_fragment(f, 4, 4, 16, "F"), tv_register_fragment(t, 4, 4, 16, "T"));
        ASSERT_EQ(r.move, want) << f.to_string() << " -> " << t.to_string();
        std::vector<std::int64_t> pi = r.relabel.empty() ? pis.front() : r.relabel;
        for (std::int64_t i = 0; i < 16; ++i) {
          const std::int64_t e = apply_index(t, i);
          const RegisterSource& s = r.source[i];
          ASSERT_EQ(apply_index(f, s.thread + threads * s.value), e % 4 + 4 * pi[e / 4]) << f.to_string() << " -> " << t.to_string();
          if (r.move != RegisterMove::Shuffle) {
            ASSERT_EQ(s.thread, i % threads);
          }
        }
        ++counts[static_cast<int>(r.move)];
        ++pairs;
      }
  }
  EXPECT_EQ(pairs, 3 * 24 * 24);
  // Every kind of answer occurs in the universe (the oracle is not vacuous).
  for (int k = 0; k < 4; ++k) EXPECT_GT(counts[k], 0) << to_string(static_cast<RegisterMove>(k));
  std::printf("[register_permutation] %d pairs: %d identity, %d permute, %d relabel, %d shuffle\n", pairs, counts[0], counts[1],
              counts[2], counts[3]);
}

}  // namespace register_permutation_test
