// ldmatrix copy atoms. Expected values come from
//  (a) the vendor oracle: CuTe 4.2's Copy_Traits<SM75_*_LDSM_*> and Copy_Atom<..., uint16_t>
//      printed by oracles/atoms_probe/copy_ldsm_probe.cpp (compiled with g++ against the wheel);
//  (b) the PTX ISA's ldmatrix description, written below as a table from (lane, register,
//      half) to (matrix, row, column) of the stored matrices, not as CuTe's strides:
//      lanes 8j..8j+7 address the rows 0..7 of matrix j; lane l receives in register j the
//      elements (row l/4, columns 2(l%4), 2(l%4)+1) of matrix j, or with .trans those of the
//      transposed matrix, i.e. (rows 2(l%4), 2(l%4)+1, column l/4) of the stored one;
//  (c) enumeration: the destination is a bijection onto all copied bits, every lane that
//      addresses a row sources a distinct row.
#include <gtest/gtest.h>

#include <set>

#include "atoms/copy_atom.hpp"
#include "coordinates.hpp"
#include "equality.hpp"
#include "recast.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace copy_atom_test {

using namespace cuteref;
using cuteref::test::expect_error;

namespace {

std::int64_t at(const Layout& l, std::int64_t thr, std::int64_t val) {
  return apply_index(l, thr + size_value(mode(l, 0)) * val);
}

void expect_layout(const Layout& got, const std::string& want, const std::string& what) {
  const Layout w = parse_layout(want);
  EXPECT_TRUE(functional_equal(Value(got), Value(w)).holds) << what << ": got " << got.to_string() << ", want " << want;
  EXPECT_TRUE(got.shape().same_values(w.shape())) << what << ": shape " << got.to_string() << " vs " << want;
}

// Bit of the copied data holding bit b of element (row, column) of matrix j.
std::int64_t data_bit(std::int64_t j, std::int64_t row, std::int64_t column, std::int64_t b) {
  return 1024 * j + 128 * row + 16 * column + b;
}

}  // namespace

// (a) vendor printouts: Copy_Traits in bits, Copy_Atom<Traits, uint16_t> in 16-bit values.
TEST(CopyAtom, VendorPrintouts) {
  struct Case {
    const char *name, *src, *dst, *src16, *dst16;
  };
  const Case cases[] = {
      {"SM75_U32x1_LDSM_N", "((_8,_4),_128):((_128,_0),_1)", "(_32,_32):(_32,_1)", "((_8,_4),_8):((_8,_0),_1)",
       "(_32,_2):(_2,_1)"},
      {"SM75_U32x2_LDSM_N", "((_16,_2),_128):((_128,_0),_1)", "(_32,(_32,_2)):(_32,(_1,_1024))",
       "((_16,_2),_8):((_8,_0),_1)", "(_32,(_2,_2)):(_2,(_1,_64))"},
      {"SM75_U32x4_LDSM_N", "(_32,_128):(_128,_1)", "(_32,(_32,_4)):(_32,(_1,_1024))", "(_32,_8):(_8,_1)",
       "(_32,(_2,_4)):(_2,(_1,_64))"},
      {"SM75_U16x2_LDSM_T", "((_8,_4),_128):((_128,_0),_1)", "((_4,_8),(_16,_2)):((_256,_16),(_1,_128))",
       "((_8,_4),_8):((_8,_0),_1)", "((_4,_8),(_1,_2)):((_16,_1),(_1,_8))"},
      {"SM75_U16x4_LDSM_T", "((_16,_2),_128):((_128,_0),_1)", "((_4,_8),(_16,_2,_2)):((_256,_16),(_1,_128,_1024))",
       "((_16,_2),_8):((_8,_0),_1)", "((_4,_8),(_1,_2,_2)):((_16,_1),(_1,_8,_64))"},
      {"SM75_U16x8_LDSM_T", "(_32,_128):(_128,_1)", "((_4,_8),(_16,_2,_4)):((_256,_16),(_1,_128,_1024))",
       "(_32,_8):(_8,_1)", "((_4,_8),(_1,_2,_4)):((_16,_1),(_1,_8,_64))"},
  };
  for (const Case& c : cases) {
    const CopyAtom a = copy_atom(c.name);
    EXPECT_EQ(a.name, c.name);
    expect_layout(a.thr_id, "_32:_1", std::string(c.name) + " ThrID");
    expect_layout(a.src_layout, c.src, std::string(c.name) + " Src");
    expect_layout(a.dst_layout, c.dst, std::string(c.name) + " Dst");
    expect_layout(a.ref_layout, c.dst, std::string(c.name) + " Ref");
    expect_layout(recast(a.src_layout, 1, 16), c.src16, std::string(c.name) + " Src as 16-bit values");
    expect_layout(recast(a.dst_layout, 1, 16), c.dst16, std::string(c.name) + " Dst as 16-bit values");
  }
}

// (b) the PTX ISA description, bit by bit, for every lane.
TEST(CopyAtom, PtxFragmentTable) {
  int checked = 0;
  for (bool trans : {false, true})
    for (int n : {1, 2, 4}) {
      const CopyAtom a = ldmatrix_atom(n, trans);
      EXPECT_EQ(a.matrices, n);
      EXPECT_EQ(a.transpose, trans);
      ASSERT_EQ(size_value(mode(a.dst_layout, 1)), 32 * n) << a.name;
      ASSERT_EQ(size_value(mode(a.src_layout, 1)), 128) << a.name;
      for (std::int64_t lane = 0; lane < 32; ++lane) {
        // Destination: register j, half h, bit b is the thread's value bit 32j + 16h + b.
        for (std::int64_t j = 0; j < n; ++j)
          for (std::int64_t h = 0; h < 2; ++h)
            for (std::int64_t b = 0; b < 16; ++b) {
              const std::int64_t row = trans ? 2 * (lane % 4) + h : lane / 4;
              const std::int64_t col = trans ? lane / 4 : 2 * (lane % 4) + h;
              ASSERT_EQ(at(a.dst_layout, lane, 32 * j + 16 * h + b), data_bit(j, row, col, b))
                  << a.name << " lane " << lane << " register " << j << " half " << h << " bit " << b;
              ++checked;
            }
        // Source: the addressing lane (lane mod 8n) hands in row (lane % 8) of matrix lane / 8.
        const std::int64_t addressing = lane % (8 * n);
        for (std::int64_t bit = 0; bit < 128; ++bit) {
          ASSERT_EQ(at(a.src_layout, lane, bit), data_bit(addressing / 8, addressing % 8, bit / 16, bit % 16))
              << a.name << " lane " << lane << " bit " << bit;
          ++checked;
        }
      }
    }
  // sources: 6 atoms x 32 lanes x 128 bits; destinations: (1+2+4) registers x 2 flavours x 32 lanes x 32 bits.
  EXPECT_EQ(checked, 6 * 32 * 128 + (1 + 2 + 4) * 2 * 32 * 32);
}

// (c) enumeration: every copied bit reaches exactly one (lane, value bit), and the addressing
// lanes source pairwise distinct rows covering the data.
TEST(CopyAtom, DestinationIsBijectionAndSourcesCoverTheData) {
  for (bool trans : {false, true})
    for (int n : {1, 2, 4}) {
      const CopyAtom a = ldmatrix_atom(n, trans);
      const std::int64_t bits = 1024 * n;
      ASSERT_EQ(size_value(a.dst_layout), bits) << a.name;
      std::set<std::int64_t> seen;
      for (std::int64_t i = 0; i < bits; ++i) seen.insert(apply_index(a.dst_layout, i));
      EXPECT_EQ(static_cast<std::int64_t>(seen.size()), bits) << a.name;
      EXPECT_EQ(*seen.begin(), 0) << a.name;
      EXPECT_EQ(*seen.rbegin(), bits - 1) << a.name;
      std::set<std::int64_t> src;
      for (std::int64_t lane = 0; lane < 8 * n; ++lane)
        for (std::int64_t bit = 0; bit < 128; ++bit) src.insert(at(a.src_layout, lane, bit));
      EXPECT_EQ(src, seen) << a.name;
    }
}

TEST(CopyAtom, Diagnostics) {
  expect_error([] { copy_atom("SM75_U32x3_LDSM_N"); }, "not a supported copy atom");
  expect_error([] { copy_atom("SM75_U16x2_LDSM_N"); }, "SM75_U16x2_LDSM_T");
  expect_error([] { copy_atom(""); }, "copy atom ``");
  expect_error([] { ldmatrix_atom(3, false); }, "must be 1, 2 or 4");
}

}  // namespace copy_atom_test
