// MMA atom layouts. Expected values come from
//  (a) the vendor oracle: CuTe 4.2's MMA_Traits printed by a probe program compiled with g++
//      against the wheel's headers (cute/atom/mma_traits_sm70/sm80/sm90_gmma(_ext).hpp);
//  (b) the PTX ISA fragment tables (mma.m8n8k4, mma.m16n8k*, wgmma .m64nNk*), transcribed
//      below as formulas (thread, register index) -> (row, column), independent of CuTe's layouts;
//  (c) enumeration: every C layout is a bijection onto the M x N tile, register A/B layouts
//      onto their tiles, SS A/B layouts give every thread the whole tile.
#include <gtest/gtest.h>

#include <set>

#include "atoms/mma_atom.hpp"
#include "coordinates.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace mma_atom_test {

using namespace cuteref;

namespace {

std::int64_t at(const Layout& l, std::int64_t thr, std::int64_t val) {
  const std::int64_t threads = size_value(mode(l, 0));
  return apply_index(l, thr + threads * val);
}

void expect_layout(const Layout& got, const std::string& want, const std::string& what) {
  const Layout w = parse_layout(want);
  EXPECT_TRUE(functional_equal(Value(got), Value(w)).holds) << what << ": got " << got.to_string() << ", want " << want;
  EXPECT_EQ(got.shape().same_values(w.shape()), true) << what << ": shape " << got.to_string() << " vs " << want;
}

// Every (thread, value) maps to a distinct index and the image is [0, extent).
void expect_bijection(const Layout& l, std::int64_t extent, const std::string& what) {
  ASSERT_EQ(size_value(l), extent) << what;
  std::set<std::int64_t> seen;
  for (std::int64_t i = 0; i < extent; ++i) {
    const std::int64_t v = apply_index(l, i);
    EXPECT_TRUE(v >= 0 && v < extent) << what << " index " << i << " -> " << v;
    seen.insert(v);
  }
  EXPECT_EQ(static_cast<std::int64_t>(seen.size()), extent) << what << " is not injective";
}

// Thread mode has stride 0 and the value mode enumerates the rows x K tile column-major.
void expect_whole_tile(const Layout& l, std::int64_t rows, std::int64_t k, const std::string& what) {
  ASSERT_EQ(size_value(mode(l, 0)), 128) << what;
  ASSERT_EQ(size_value(mode(l, 1)), rows * k) << what;
  for (std::int64_t thr : {0, 1, 77, 127})
    for (std::int64_t v = 0; v < rows * k; ++v) ASSERT_EQ(at(l, thr, v), v) << what << " thr " << thr << " v " << v;
}

}  // namespace

// (a) vendor printouts.
TEST(MmaAtom, VendorPrintouts) {
  struct Case {
    const char* name;
    const char *shape, *thr, *a, *b, *c;
  };
  const Case cases[] = {
      {"SM70_8x8x4_F32F16F16F32_NT", "(_8,_8,_4)", "(_4,_2):(_1,_16)", "((_4,_2),_4):((_8,_4),_1)", "((_4,_2),_4):((_8,_4),_1)",
       "((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))"},
      {"SM70_8x8x4_F16F16F16F16_TN", "(_8,_8,_4)", "(_4,_2):(_1,_16)", "(_8,_4):(_1,_8)", "(_8,_4):(_1,_8)", "(_8,_8):(_1,_8)"},
      {"SM70_8x8x4_F32F16F16F32_NN", "(_8,_8,_4)", "(_4,_2):(_1,_16)", "((_4,_2),_4):((_8,_4),_1)", "(_8,_4):(_1,_8)",
       "((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))"},
      {"SM70_8x8x4_F32F16F16F32_TT", "(_8,_8,_4)", "(_4,_2):(_1,_16)", "(_8,_4):(_1,_8)", "((_4,_2),_4):((_8,_4),_1)",
       "((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))"},
      {"SM80_16x8x8_F16F16F16F16_TN", "(_16,_8,_8)", "_32:_1", "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))",
       "((_4,_8),_2):((_16,_1),_8)", "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"},
      {"SM80_16x8x16_F32BF16BF16F32_TN", "(_16,_8,_16)", "_32:_1", "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))",
       "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))", "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"},
      {"SM80_16x8x8_F32TF32TF32F32_TN", "(_16,_8,_8)", "_32:_1", "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",
       "((_4,_8),_2):((_8,_1),_32)", "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"},
      {"SM80_16x8x32_S32S8U8S32_TN", "(_16,_8,_32)", "_32:_1", "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))",
       "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))", "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"},
      {"SM90_64x128x16_F32F16F16_SS", "(_64,_128,_16)", "_128:_1", "(_128,(_64,_16)):(_0,(_1,_64))",
       "(_128,(_128,_16)):(_0,(_1,_128))", "((_4,_8,_4),(_2,_2,_16)):((_128,_1,_16),(_64,_8,_512))"},
      {"SM90_64x24x16_F16F16F16_RS<K,MN>", "(_64,_24,_16)", "_128:_1", "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))",
       "(_128,(_24,_16)):(_0,(_1,_24))", "((_4,_8,_4),(_2,_2,_3)):((_128,_1,_16),(_64,_8,_512))"},
      {"SM90_64x40x8_F32TF32TF32_RS_TN", "(_64,_40,_8)", "_128:_1", "((_4,_8,_4),(_2,_2)):((_64,_1,_16),(_8,_256))",
       "(_128,(_40,_8)):(_0,(_1,_40))", "((_4,_8,_4),(_2,_2,_5)):((_128,_1,_16),(_64,_8,_512))"},
      {"SM90_64x48x32_S32U8S8_RS_TN", "(_64,_48,_32)", "_128:_1", "((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))",
       "(_128,(_48,_32)):(_0,(_1,_48))", "((_4,_8,_4),(_2,_2,_6)):((_128,_1,_16),(_64,_8,_512))"},
      {"SM90_64x256x32_F16E4M3E5M2_SS_TN", "(_64,_256,_32)", "_128:_1", "(_128,(_64,_32)):(_0,(_1,_64))",
       "(_128,(_256,_32)):(_0,(_1,_256))", "((_4,_8,_4),(_2,_2,_32)):((_128,_1,_16),(_64,_8,_512))"},
  };
  for (const auto& c : cases) {
    const MmaAtom a = mma_atom(c.name);
    EXPECT_EQ(a.shape_mnk.to_string(), c.shape) << c.name;
    expect_layout(a.thr_id, c.thr, std::string(c.name) + " ThrID");
    expect_layout(a.a_layout, c.a, std::string(c.name) + " A");
    expect_layout(a.b_layout, c.b, std::string(c.name) + " B");
    expect_layout(a.c_layout, c.c, std::string(c.name) + " C");
  }
  std::printf("[ checked ] %zu vendor MMA_Traits printouts\n", std::size(cases));
}

// Seed 003's worked (T, V) -> (m, n) positions for the SM70 F32 accumulator (m + 8n), which
// agree with the PTX ISA's m8n8k4 .f32 accumulator figure.
TEST(MmaAtom, Sm70AccumulatorWorkedPositions) {
  const Layout c = mma_atom("SM70_8x8x4_F32F16F16F32_NT").c_layout;
  const std::int64_t by_thread[8] = {0, 1, 16, 17, 4, 5, 20, 21};  // (T0..T7, V0)
  const std::int64_t by_value[8] = {0, 8, 2, 10, 32, 40, 34, 42};  // (T0, V0..V7)
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(at(c, i, 0), by_thread[i]) << "T" << i;
    EXPECT_EQ(at(c, 0, i), by_value[i]) << "V" << i;
  }
}

// (b) PTX ISA fragment formulas for mma.m16n8k*, lane = 4 * groupID + threadID_in_group.
TEST(MmaAtom, Sm80MatchesPtxFragments) {
  int checked = 0;
  auto g = [](int lane) { return lane / 4; };
  auto q = [](int lane) { return lane % 4; };
  // C/D of m16n8 (f16x2/f32): row = groupID + 8 * (i >= 2), col = 2 * tig + (i & 1).
  for (const char* name : {"SM80_16x8x8_F16F16F16F16_TN", "SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
                           "SM80_16x8x32_S32U8U8S32_TN"}) {
    const Layout c = mma_atom(name).c_layout;
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < 4; ++i, ++checked)
        ASSERT_EQ(at(c, lane, i), (g(lane) + 8 * (i / 2)) + 16 * (2 * q(lane) + i % 2)) << name << " lane " << lane << " i " << i;
  }
  // m16n8k16 .f16 A: row = groupID + 8 * ((i / 2) % 2), col = 2 * tig + (i & 1) + 8 * (i >= 4).
  // B: row(k) = 2 * tig + (i & 1) + 8 * (i >= 2), col(n) = groupID.
  {
    const MmaAtom a = mma_atom("SM80_16x8x16_F16F16F16F16_TN");
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < 8; ++i, ++checked)
        ASSERT_EQ(at(a.a_layout, lane, i), (g(lane) + 8 * ((i / 2) % 2)) + 16 * (2 * q(lane) + i % 2 + 8 * (i / 4)));
      for (int i = 0; i < 4; ++i, ++checked)
        ASSERT_EQ(at(a.b_layout, lane, i), g(lane) + 8 * (2 * q(lane) + i % 2 + 8 * (i / 2)));
    }
  }
  // m16n8k8 .f16 A: row = groupID + 8 * (i >= 2), col = 2 * tig + (i & 1); B: k = 2 * tig + i, n = groupID.
  {
    const MmaAtom a = mma_atom("SM80_16x8x8_F32BF16BF16F32_TN");
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < 4; ++i, ++checked)
        ASSERT_EQ(at(a.a_layout, lane, i), (g(lane) + 8 * (i / 2)) + 16 * (2 * q(lane) + i % 2));
      for (int i = 0; i < 2; ++i, ++checked) ASSERT_EQ(at(a.b_layout, lane, i), g(lane) + 8 * (2 * q(lane) + i));
    }
  }
  // m16n8k8 .tf32 A: row = groupID + 8 * (i % 2), col = tig + 4 * (i >= 2); B: k = tig + 4 * i, n = groupID.
  {
    const MmaAtom a = mma_atom("SM80_16x8x8_F32TF32TF32F32_TN");
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < 4; ++i, ++checked)
        ASSERT_EQ(at(a.a_layout, lane, i), (g(lane) + 8 * (i % 2)) + 16 * (q(lane) + 4 * (i / 2)));
      for (int i = 0; i < 2; ++i, ++checked) ASSERT_EQ(at(a.b_layout, lane, i), g(lane) + 8 * (q(lane) + 4 * i));
    }
  }
  // m16n8k32 .s8 A: row = groupID + 8 * ((i / 4) % 2), col = 4 * tig + (i % 4) + 16 * (i >= 8);
  // B: k = 4 * tig + (i % 4) + 16 * (i >= 4), n = groupID.
  {
    const MmaAtom a = mma_atom("SM80_16x8x32_S32S8S8S32_TN_SATURATE");
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < 16; ++i, ++checked)
        ASSERT_EQ(at(a.a_layout, lane, i), (g(lane) + 8 * ((i / 4) % 2)) + 16 * (4 * q(lane) + i % 4 + 16 * (i / 8)));
      for (int i = 0; i < 8; ++i, ++checked)
        ASSERT_EQ(at(a.b_layout, lane, i), g(lane) + 8 * (4 * q(lane) + i % 4 + 16 * (i / 4)));
    }
  }
  // m16n8k4 .tf32 A: row = groupID + 8 * i, col = tig; B: k = tig, n = groupID (one register).
  {
    const MmaAtom a = mma_atom("SM80_16x8x4_F32TF32TF32F32_TN");
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < 2; ++i, ++checked) ASSERT_EQ(at(a.a_layout, lane, i), (g(lane) + 8 * i) + 16 * q(lane));
      ++checked;
      ASSERT_EQ(at(a.b_layout, lane, 0), g(lane) + 8 * q(lane));
    }
  }
  // SM89 m16n8k32 .e4m3/.e5m2: the fragments of m16n8k32 .s8 (PTX ISA: the same figures).
  for (const char* name : {"SM89_16x8x32_F32E4M3E4M3F32_TN", "SM89_16x8x32_F16E5M2E4M3F16_TN"}) {
    const MmaAtom a = mma_atom(name);
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < 16; ++i, ++checked)
        ASSERT_EQ(at(a.a_layout, lane, i), (g(lane) + 8 * ((i / 4) % 2)) + 16 * (4 * q(lane) + i % 4 + 16 * (i / 8)));
      for (int i = 0; i < 8; ++i, ++checked)
        ASSERT_EQ(at(a.b_layout, lane, i), g(lane) + 8 * (4 * q(lane) + i % 4 + 16 * (i / 4)));
      for (int i = 0; i < 4; ++i, ++checked)
        ASSERT_EQ(at(a.c_layout, lane, i), (g(lane) + 8 * (i / 2)) + 16 * (2 * q(lane) + i % 2));
    }
  }
  std::printf("[ checked ] %d SM80 (lane, register) positions against the PTX fragment formulas\n", checked);
}

// (b) wgmma: D of m64nN: row = 16 * warp + lane / 4 + 8 * ((i / 2) % 2), col = 2 * (lane % 4) + (i % 2) + 8 * (i / 4).
// A from registers: 16-bit like D over K = 16; tf32 row = 16w + lane/4 + 8 * (i % 2), col = lane % 4 + 4 * (i / 2);
// 8-bit row = 16w + lane/4 + 8 * ((i / 4) % 2), col = 4 * (lane % 4) + i % 4 + 16 * (i / 8).
TEST(MmaAtom, Sm90MatchesPtxFragments) {
  long checked = 0;
  for (int n = 8; n <= 256; n += 8) {
    const MmaAtom a = mma_atom("SM90_64x" + std::to_string(n) + "x16_F32F16F16_SS");
    for (int t = 0; t < 128; ++t)
      for (int i = 0; i < n / 2; ++i, ++checked) {
        const int w = t / 32, lane = t % 32;
        const int row = 16 * w + lane / 4 + 8 * ((i / 2) % 2), col = 2 * (lane % 4) + i % 2 + 8 * (i / 4);
        ASSERT_EQ(at(a.c_layout, t, i), row + 64 * col) << a.name << " t " << t << " i " << i;
      }
  }
  const Layout a16 = mma_atom("SM90_64x64x16_F16F16F16_RS").a_layout;
  const Layout a32 = mma_atom("SM90_64x64x8_F32TF32TF32_RS_TN").a_layout;
  const Layout a8 = mma_atom("SM90_64x64x32_F32E5M2E4M3_RS_TN").a_layout;
  for (int t = 0; t < 128; ++t) {
    const int r0 = 16 * (t / 32) + (t % 32) / 4, q = t % 4;
    for (int i = 0; i < 8; ++i, ++checked)
      ASSERT_EQ(at(a16, t, i), r0 + 8 * ((i / 2) % 2) + 64 * (2 * q + i % 2 + 8 * (i / 4)));
    for (int i = 0; i < 4; ++i, ++checked) ASSERT_EQ(at(a32, t, i), r0 + 8 * (i % 2) + 64 * (q + 4 * (i / 2)));
    for (int i = 0; i < 16; ++i, ++checked)
      ASSERT_EQ(at(a8, t, i), r0 + 8 * ((i / 4) % 2) + 64 * (4 * q + i % 4 + 16 * (i / 8)));
  }
  std::printf("[ checked ] %ld SM90 (thread, register) positions against the PTX wgmma fragment formulas\n", checked);
}

// (c) Every atom the model names: C is a bijection onto M x N; A/B cover their tiles.
TEST(MmaAtom, EveryAtomCoversItsTiles) {
  std::vector<std::string> names;
  for (const char* acc : {"F16F16F16F16", "F32F16F16F32"})
    for (const char* tr : {"NT", "TN", "NN", "TT"}) names.push_back(std::string("SM70_8x8x4_") + acc + "_" + tr);
  for (const char* k : {"8", "16"})
    for (const char* ty : {"F16F16F16F16", "F32F16F16F32", "F32BF16BF16F32"})
      names.push_back(std::string("SM80_16x8x") + k + "_" + ty + "_TN");
  names.push_back("SM80_16x8x8_F32TF32TF32F32_TN");
  for (const char* ty : {"S32S8S8S32", "S32S8U8S32", "S32U8S8S32", "S32U8U8S32"})
    for (const char* sat : {"", "_SATURATE"}) names.push_back(std::string("SM80_16x8x32_") + ty + "_TN" + sat);
  for (int n = 8; n <= 256; n += 8) {
    const std::string mn = "SM90_64x" + std::to_string(n);
    for (const char* src : {"SS", "RS"}) {
      for (const char* ty : {"F16F16F16", "F32F16F16", "F32BF16BF16"})
        for (const char* maj : {"", "<K,K>", "<K,MN>", "<MN,K>", "<MN,MN>"}) {
          if (std::string(src) == "RS" && std::string(maj).rfind("<MN", 0) == 0) continue;
          names.push_back(mn + "x16_" + ty + "_" + src + maj);
        }
      names.push_back(mn + "x8_F32TF32TF32_" + src + "_TN");
      for (const char* d : {"F16", "F32"})
        for (const char* ab : {"E4M3E4M3", "E4M3E5M2", "E5M2E4M3", "E5M2E5M2"})
          names.push_back(mn + "x32_" + d + ab + "_" + src + "_TN");
      if (n <= 32 || n % 16 == 0)
        for (const char* ab : {"S8S8", "S8U8", "U8S8", "U8U8"})
          for (const char* sat : {"", "_SATURATE"}) names.push_back(mn + "x32_S32" + ab + "_" + src + "_TN" + sat);
    }
  }
  // Many atoms share a layout (the C layout depends only on N); each distinct (layout, check)
  // is enumerated once.
  std::set<std::string> done;
  auto once = [&](const Layout& l, const std::string& check, auto&& run) {
    if (done.insert(check + " " + l.to_string()).second) run();
  };
  for (const auto& name : names) {
    const MmaAtom a = mma_atom(name);
    const std::int64_t threads = size_value(a.thr_id);
    ASSERT_EQ(size_value(mode(a.c_layout, 0)), threads) << name;
    const std::string mn = std::to_string(a.m) + "x" + std::to_string(a.n) + "x" + std::to_string(a.k);
    once(a.c_layout, "C" + mn, [&] { expect_bijection(a.c_layout, a.m * a.n, name + " C"); });
    if (a.arch == 90) {
      if (a.a_in_registers) once(a.a_layout, "Ar" + mn, [&] { expect_bijection(a.a_layout, a.m * a.k, name + " A"); });
      else once(a.a_layout, "As" + mn, [&] { expect_whole_tile(a.a_layout, a.m, a.k, name + " A"); });
      once(a.b_layout, "Bs" + mn, [&] { expect_whole_tile(a.b_layout, a.n, a.k, name + " B"); });
    } else {
      once(a.a_layout, "A" + mn, [&] { expect_bijection(a.a_layout, a.m * a.k, name + " A"); });
      once(a.b_layout, "B" + mn, [&] { expect_bijection(a.b_layout, a.n * a.k, name + " B"); });
    }
  }
  std::printf("[ checked ] %zu MMA atoms (%zu distinct layouts enumerated): C bijective onto M x N, A and B cover their tiles\n",
              names.size(), done.size());
}

// Names CuTe does not define are rejected with a diagnostic naming the problem.
TEST(MmaAtom, RejectsWhatCuteDoesNotDefine) {
  const std::pair<const char*, const char*> bad[] = {
      {"SM90_64x12x16_F32F16F16_SS", "multiple of 8"},
      {"SM90_64x264x16_F32F16F16_SS", "multiple of 8 in [8, 256]"},
      {"SM90_64x40x32_S32S8S8_SS_TN", "integer wgmma needs N"},
      {"SM90_64x64x16_F16BF16BF16_SS", "type combination"},
      {"SM90_64x64x8_F32TF32TF32_SS<MN,K>", "K-major only"},
      {"SM90_64x64x8_F32TF32TF32_SS_TN<MN,K>", "no majorness arguments"},
      {"SM90_64x64x8_F32TF32TF32_SS", "_TN"},
      {"SM90_64x64x16_F32F16F16_RS<MN,K>", "majorness of A must be K"},
      {"SM90_64x64x32_F32F16F16_SS", "K must be 16"},
      {"SM90_128x64x16_F32F16F16_SS", "M = 64"},
      {"SM90_64x64x16_F32F16F16_SS<K>", "two majorness arguments"},
      {"SM90_64x64x16_F32F16F16_SS<K,T>", "majorness must be K or MN"},
      {"SM70_8x8x4_F32F16F16F32_XY", "expected NT, TN, NN or TT"},
      {"SM70_8x8x4_F32F16F16F16_NT", "SM70 types"},
      {"SM80_16x8x16_F32TF32TF32F32_TN", "not a supported SM80 atom"},
      {"SM80_16x8x16_F16F16F16F16_NT", "TN only"},
      {"SM75_16x8x8_F32F16F16F32_TN", "unknown architecture"},
      {"SM90_64x64x16_F32F16F16_SS_TN", "template arguments"},
      {"SM90_64x64x16_F32F16F16_SS_TN_SATURATE", "_SATURATE exists only"},
      {"SM90_64x64x32_F32E4M3E4M3_SS_TN_SATURATE", "_SATURATE exists only"},
  };
  for (const auto& [name, what] : bad) {
    try {
      mma_atom(name);
      ADD_FAILURE() << name << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << name << ": " << e.what();
    }
  }
}

TEST(MmaAtom, MajornessAndNames) {
  const MmaAtom a = mma_atom("SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::K>");
  EXPECT_EQ(a.major_a, GmmaMajor::MN);
  EXPECT_EQ(a.major_b, GmmaMajor::K);
  EXPECT_EQ(a.name, "SM90_64x64x16_F16F16F16_SS<MN,K>");
  const MmaAtom d = mma_atom("SM90_64x64x16_F16F16F16_SS");  // defaults to <K,K>
  EXPECT_EQ(d.name, "SM90_64x64x16_F16F16F16_SS<K,K>");
  EXPECT_EQ(d.type_d, "f16");
  const MmaAtom v = mma_atom("SM70_8x8x4_F32F16F16F32_NT");  // NT: A M-major, B N-major
  EXPECT_EQ(v.major_a, GmmaMajor::MN);
  EXPECT_EQ(v.major_b, GmmaMajor::MN);
  EXPECT_EQ(v.type_d, "f32");
  EXPECT_EQ(v.type_a, "f16");
}

}  // namespace mma_atom_test
