// SM100 tcgen05.mma atoms. Expected values: hand derivations from CuTe's MMA_Traits shapes
// (umma_mma_atom.hpp) and the instruction descriptor's bit positions (umma_instr_desc.hpp),
// each written out; the atoms against CuTe 4.2 are oracles/atoms/dump_sm100. The bijection test
// enumerates every (CTA count, M, N, K) the model accepts, exhaustively.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <vector>

#include "atoms/umma_mma_atom.hpp"
#include "coordinates.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace umma_mma_atom_test {

using namespace cuteref;
using cuteref::test::expect_error;

namespace {
Value eval(const std::string& e) { return parse_and_evaluate(e, &standard_functions()); }
std::string ev(const std::string& e) { return eval(e).to_string(); }
}  // namespace

TEST(UmmaMmaAtom, OneCtaLayouts) {
  const std::string a = "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>";
  EXPECT_EQ(ev("mma_layout(" + a + ", C)"), "(_1,(_128,_256)):(_0,(_1,_128))");
  EXPECT_EQ(ev("mma_layout(" + a + ", A)"), "(_1,(_128,_16)):(_0,(_1,_128))");
  EXPECT_EQ(ev("mma_layout(" + a + ", B)"), "(_1,(_256,_16)):(_0,(_1,_256))");
  EXPECT_EQ(ev("mma_thrid(" + a + ")"), "_1:_0");
  EXPECT_EQ(ev("mma_shape(" + a + ")"), "(_128,_256,_16)");
  EXPECT_EQ(ev("mma_types(" + a + ")"), "(f32,f16,f16,f32)");
  // K is 32 bytes: 8 tf32, 32 int8; F8F6F4 is 32 for every width.
  EXPECT_EQ(ev("mma_shape(SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,64,8,MN,MN>)"), "(_64,_8,_8)");
  EXPECT_EQ(ev("mma_shape(SM100_MMA_S8_TS<int8_t,uint8_t,int32_t,128,16,K,K>)"), "(_128,_16,_32)");
  EXPECT_EQ(ev("mma_shape(SM100_MMA_F8F6F4_SS<float_e2m3_t,float_e2m3_t,float,128,64,K,K>)"), "(_128,_64,_32)");
  EXPECT_EQ(ev("mma_types(SM100_MMA_F8F6F4_TS<float_e4m3_t,float_e5m2_t,half_t,64,8,K,K>)"), "(f16,e4m3,e5m2,f16)");
}

TEST(UmmaMmaAtom, TwoCtaLayouts) {
  // Peer CTA v holds rows v * M/2.. of A and C and columns v * N/2.. of B.
  const std::string a = "SM100_MMA_F16BF16_2x1SM_SS<bfloat16_t,bfloat16_t,float,256,128,K,MN>";
  EXPECT_EQ(ev("mma_thrid(" + a + ")"), "_2:_1");
  EXPECT_EQ(ev("mma_layout(" + a + ", A)"), "(_2,(_128,_16)):(_128,(_1,_256))");
  EXPECT_EQ(ev("mma_layout(" + a + ", B)"), "(_2,(_64,_16)):(_64,(_1,_128))");
  EXPECT_EQ(ev("mma_layout(" + a + ", C)"), "(_2,(_128,_128)):(_128,(_1,_256))");
  // CTA 1's first accumulator element is row 128 of C.
  EXPECT_EQ(ev("mma_layout(" + a + ", C)(1)"), "128");
}

TEST(UmmaMmaAtom, InstructionDescriptorByHand) {
  // f16 x f16 -> f32 (D format 1 at bit 4), M 128 (8 at bit 24), N 256 (32 at bit 17).
  EXPECT_EQ(ev("umma_instr_desc(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>)"),
            std::to_string(std::uint64_t{0x08400010} << 32));
  // tf32 (format 2 at bits 7 and 10), both MN-major (bits 15, 16), N 8, M 64.
  EXPECT_EQ(ev("umma_instr_desc(SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,64,8,MN,MN>)"),
            std::to_string(std::uint64_t{0x10 | 0x100 | 0x800 | 0x8000 | 0x10000 | 0x20000 | 0x4000000} << 32));
  // u8 x s8 -> s32 saturating: saturate bit 3, D format 2, B format 1, A MN-major.
  EXPECT_EQ(ev("umma_instr_desc(SM100_MMA_S8_SS<uint8_t,int8_t,int32_t,64,8,MN,K,True>)"),
            std::to_string(std::uint64_t{0x8 | 0x20 | 0x400 | 0x8000 | 0x20000 | 0x4000000} << 32));
  // e4m3 x e2m3 -> f16, negate B (bit 14), two CTAs: M is the pair's 256 (16 at bit 24), N 32.
  EXPECT_EQ(ev("umma_instr_desc(SM100_MMA_F8F6F4_2x1SM_SS<float_e4m3_t,float_e2m3_t,half_t,256,32,K,K,One,Neg>)"),
            std::to_string(std::uint64_t{0xC00 | 0x4000 | 0x80000 | 0x10000000} << 32));
  // The 32-bit descriptor decodes back to its fields.
  const UmmaInstrDescriptor d = *umma_mma_atom("SM100_MMA_F16BF16_TS<bfloat16_t,bfloat16_t,float,64,8,K,MN,Neg,Neg>").umma_idesc;
  EXPECT_EQ(UmmaInstrDescriptor::decode(d.encode()), d);
  EXPECT_EQ(d.a_format, 1u);
  EXPECT_EQ(d.negate_a + d.negate_b, 2u);
  EXPECT_EQ(d.b_major, 1u);
  EXPECT_THROW(eval("umma_instr_desc(SM90_64x128x16_F32F16F16_SS)"), Error);
  // The operands of a tiled SM100 MMA are descriptors (or tensor memory): the register-fragment
  // functions refuse them rather than answer with a register layout.
  const std::string tiled = "make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>)";
  EXPECT_THROW(eval("make_fragment_A(" + tiled + ", partition_A(" + tiled + ", 0, (_128,_16):(_16,_1)))"), Error);
  EXPECT_THROW(eval("make_fragment_B(" + tiled + ", partition_B(" + tiled + ", 0, (_256,_16):(_16,_1)))"), Error);
}

TEST(UmmaMmaAtom, Refusals) {
  const std::pair<std::string, const char*> bad[] = {
      {"SM100_MMA_F16BF16_SS<half_t,half_t,float,96,64,K,K>", "M must be 64 or 128"},
      {"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,12,K,K>", "multiple of 8"},
      {"SM100_MMA_F16BF16_TS<half_t,half_t,float,128,8,K,K>", "multiple of 16"},
      {"SM100_MMA_F16BF16_2x1SM_TS<half_t,half_t,float,256,16,K,K>", "multiple of 32"},
      {"SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,64,64,K,K>", "128 or 256"},
      {"SM100_MMA_F16BF16_TS<half_t,half_t,float,128,64,MN,K>", "K-major"},
      {"SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,half_t,128,64,K,K>", "tf32 kind"},
      {"SM100_MMA_F16BF16_SS<bfloat16_t,bfloat16_t,half_t,128,64,K,K>", "f16 kind"},
      {"SM100_MMA_F8F6F4_SS<float_e2m1_t,float_e4m3_t,float,128,64,K,K>", "E5M2"},
      {"SM100_MMA_F8F6F4_SS<float_e3m2_t,float_e4m3_t,float,128,64,MN,K>", "K-major only"},
      {"SM100_MMA_S8_SS<int8_t,int8_t,int32_t,128,24,K,K>", "8 or a multiple of 16"},
      {"SM100_MMA_S8_SS<int8_t,int8_t,int32_t,128,64,K,K,True,True>", "template arguments"},
      {"SM100_MMA_S8_TS<int8_t,int8_t,int32_t,128,64,K,K,Neg>", "no negation"},
      {"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,64,K,K,One,One,True>", "template arguments"},
      {"SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,128,64,K,K>", "the kind"},
      {"SM100_MMA_F16BF16_SS", "template arguments"},
  };
  for (const auto& [name, what] : bad) {
    try {
      umma_mma_atom(name);
      ADD_FAILURE() << name << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << name << ": " << e.what();
    }
  }
}

// Every atom shape the model accepts (one CTA: M 64|128, N 8..256; two CTAs: M 128|256,
// N 16..256; K 8, 16, 32): the A, B, C layouts are bijections from (CTA, value) onto the
// column-major M x K, N x K, M x N tiles, and ThrID onto the CTAs. Exhaustive.
TEST(UmmaMmaAtom, LayoutsAreBijectionsOntoTheirTiles) {
  long atoms = 0, points = 0;
  auto bijective = [&](const Layout& l, std::int64_t extent) {
    const std::int64_t n = size_value(l);
    if (n != extent) return false;
    std::vector<bool> seen(static_cast<std::size_t>(extent), false);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t v = apply_index(l, i);
      if (v < 0 || v >= extent || seen[static_cast<std::size_t>(v)]) return false;
      seen[static_cast<std::size_t>(v)] = true;
      ++points;
    }
    return true;
  };
  const std::pair<const char*, const char*> kinds[] = {
      {"TF32", "tfloat32_t,tfloat32_t,float"}, {"F16BF16", "half_t,half_t,float"}, {"S8", "int8_t,int8_t,int32_t"}};
  for (const auto& [kind, types] : kinds)
    for (bool pair : {false, true})
      for (std::int64_t m : pair ? std::vector<std::int64_t>{128, 256} : std::vector<std::int64_t>{64, 128})
        for (std::int64_t n = 8; n <= 256; n += 8) {
          const std::string name = std::string("SM100_MMA_") + kind + (pair ? "_2x1SM" : "") + "_SS<" + types + "," +
                                   std::to_string(m) + "," + std::to_string(n) + ",K,K>";
          MmaAtom a;
          try {
            a = umma_mma_atom(name);
          } catch (const Error&) {
            continue;  // an N this kind does not have (checked in Refusals)
          }
          ++atoms;
          EXPECT_TRUE(bijective(a.thr_id, pair ? 2 : 1)) << name;
          EXPECT_TRUE(bijective(a.a_layout, m * a.k)) << name << " A";
          EXPECT_TRUE(bijective(a.b_layout, n * a.k)) << name << " B";
          EXPECT_TRUE(bijective(a.c_layout, m * n)) << name << " C";
        }
  std::printf("umma atoms: %ld atoms, %ld (CTA, value) points enumerated\n", atoms, points);
  // 1 CTA: 32 N x 2 M for tf32/f16, (1 + 16) x 2 for s8; 2 CTAs: 16 x 2, 8 x 2 for s8.
  EXPECT_EQ(atoms, 2 * 64 + 34 + 2 * 32 + 16);
}

// Every value of every instruction-descriptor field round-trips, with the other fields all zero
// and all at their maximum; the fields' bit ranges are disjoint and leave exactly the reserved
// bits 6, 23 and 29 uncovered, which decode ignores; a value too wide for its field is refused.
TEST(UmmaInstrDescriptor, EncodeDecodeEveryFieldValue) {
  struct FieldRange {
    std::uint32_t UmmaInstrDescriptor::*member;
    std::uint32_t max;
  };
  using D = UmmaInstrDescriptor;
  const FieldRange fields[] = {{&D::sparse_id2, 3}, {&D::sparse, 1},   {&D::saturate, 1}, {&D::d_format, 3}, {&D::a_format, 7},
                               {&D::b_format, 7},   {&D::negate_a, 1}, {&D::negate_b, 1}, {&D::a_major, 1},  {&D::b_major, 1},
                               {&D::n_dim, 63},     {&D::m_dim, 31},   {&D::max_shift, 3}};
  D all_max;
  for (const auto& f : fields) all_max.*f.member = f.max;
  long checked = 0;
  std::uint32_t covered = 0;
  for (const auto& f : fields) {
    for (const D& background : {D{}, all_max}) {
      for (std::uint32_t v = 0; v <= f.max; ++v) {
        D d = background;
        d.*f.member = v;
        ASSERT_EQ(D::decode(d.encode()), d);
        EXPECT_EQ(d.runtime(), std::uint64_t{d.encode()} << 32);
        ++checked;
      }
      D wide = background;
      wide.*f.member = f.max + 1;
      EXPECT_THROW(wide.encode(), Error);
    }
    D only;
    only.*f.member = f.max;
    EXPECT_EQ(only.encode() & covered, 0u) << "fields overlap";
    covered |= only.encode();
  }
  const std::uint32_t reserved = (1u << 6) | (1u << 23) | (1u << 29);
  EXPECT_EQ(covered, ~reserved);
  EXPECT_EQ(D::decode(all_max.encode() | reserved), all_max);
  std::printf("umma instruction descriptor round trip: %ld descriptors\n", checked);
  EXPECT_EQ(checked, 2 * (4 + 2 + 2 + 4 + 8 + 8 + 2 + 2 + 2 + 2 + 64 + 32 + 4));
}

// The accumulator in tensor memory (umma_tmem_fragment.hpp), by hand: a lane is 2^16 in CuTe's
// logical TMEM address, one f32 per 32-bit column.
TEST(UmmaTmemFragment, HandDerivedAllocations) {
  // One CTA, M 128, N 256, a 128 x 512 tile: row m in lane m, column n; the second N tile at
  // column 256.
  EXPECT_EQ(ev("partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>), (_128,_512):(_1,_128))"),
            "((_128,_256),_1,_2):((_65536,_1),_0,_256)");
  // A CTA pair, M 128: each CTA holds 64 rows; the second half of N goes to lanes 64.. (64 * 2^16)
  // of the same columns, so a 256-wide N takes 128 columns.
  EXPECT_EQ(ev("partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,128,256,K,K>), "
               "(_128,_512):(_1,_128))"),
            "((_64,(_128,_2)),_1,_2):((_65536,(_1,_4194304)),_0,_128)");
  // f16 accumulators: two per 32-bit column, so a lane is 2^17 and a column 2.
  EXPECT_EQ(ev("partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,half_t,256,16,K,K>), "
               "(_256,_16):(_1,_256))"),
            "((_128,_16),_1,_1):((_131072,_2),_0,_0)");
  // More than 128 lanes x 512 columns of 32 bits is refused (CuTe: "Requesting more TMEM than is
  // available").
  EXPECT_THROW(eval("partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>), "
                    "(_256,_512):(_1,_256))"),
               Error);
}

// A 16-bit accumulator still takes a whole 32-bit column: CuTe's tmem_frg allocates C with a
// 32-bit storage type (uint32_t or int32_t) and asserts size(fragment) * 32 <= 128 * 512 * 32
// bits, so at most 2^16 accumulators of any width fit, 512 columns of 128 lanes.
TEST(UmmaTmemFragment, SixteenBitAccumulatorTakesAWholeColumn) {
  // 128 x 512 of f16 on the 128x256 atom: 2^16 accumulators, exactly TMEM. A lane is 2^17 and a
  // column 2 (two f16 addresses per 32-bit column); the second N tile starts at column 256,
  // address 512.
  EXPECT_EQ(ev("partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,half_t,128,256,K,K>), "
               "(_128,_512):(_1,_128))"),
            "((_128,_256),_1,_2):((_131072,_2),_0,_512)");
  // 128 x 1024 on the 128x128 atom: 2^17 accumulators, 1,024 columns.
  expect_error([] { eval("partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,half_t,128,128,K,K>), "
                         "(128,1024):(1,128))"); },
               "needs 131072 accumulators, more than TMEM's 128 lanes x 512 columns (one 16-bit accumulator per 32-bit column)");
  // 128 x 768 on the 128x256 atom: 98,304 accumulators, 768 columns.
  expect_error([] { eval("partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,half_t,128,256,K,K>), "
                         "(128,768):(1,128))"); },
               "needs 98304 accumulators");
  // The CTA pair over 256 x 512 x 2: each CTA holds 128 rows of 256 x 512, twice: 2^17.
  expect_error([] { eval("partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,half_t,256,256,K,K>), "
                         "(256,512,2):(1,256,131072))"); },
               "needs 131072 accumulators");
  // The same pair over 256 x 512 alone is 2^16 per CTA and fits: 128 lanes, the second N tile at
  // column 256 (address 512).
  EXPECT_EQ(ev("partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,half_t,256,256,K,K>), "
               "(_256,_512):(_1,_256))"),
            "((_128,_256),_1,_2):((_131072,_2),_0,_512)");
}

}  // namespace umma_mma_atom_test
