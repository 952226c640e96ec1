// tcgen05.ld/st copy atoms. Expected values: hand derivations from the instruction shapes
// (tmem_copy_atom.hpp), written out per case; all 148 atoms against CuTe 4.2's Copy_Traits are
// oracles/atoms/dump_sm100. The bijection test enumerates every atom exhaustively.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "atoms/copy_atom.hpp"
#include "coordinates.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace tmem_copy_atom_test {

using namespace cuteref;

namespace {
std::string ev(const std::string& e) { return parse_and_evaluate(e, &standard_functions()).to_string(); }
}  // namespace

TEST(TmemCopyAtom, HandDerivedLayouts) {
  // 32x32b.x1: thread t holds lane t's 32-bit column; logical bit c + 32 * lane.
  EXPECT_EQ(ev("copy_layout(SM100_TMEM_LOAD_32dp32b1x, Dst)"), "(_32,_32):(_32,_1)");
  EXPECT_EQ(ev("copy_layout(SM100_TMEM_LOAD_32dp32b1x, Src)"), "(_32,_1024):(_0,_1)");
  EXPECT_EQ(ev("copy_thrid(SM100_TMEM_LOAD_32dp32b1x)"), "_32:_1");
  // x4: a lane's row is 128 bits; 4 registers of 32 bits.
  EXPECT_EQ(ev("copy_layout(SM100_TMEM_LOAD_32dp32b4x, Dst)"), "(_32,_128):(_128,_1)");
  EXPECT_EQ(ev("copy_layout(SM100_TMEM_LOAD_32dp32b4x, Dst, 32)"), "(_32,_4):(_4,_1)");
  // 16x32bx2.x1: 16 lanes of 64 bits; thread t reads half t/16 of lane t%16.
  EXPECT_EQ(ev("copy_layout(SM100_TMEM_LOAD_16dp32b1x, Dst)"), "((_16,_2),_32):((_64,_32),_1)");
  // 16x128b.x1: 32-bit word t%4 of lane t/4 (128 bits a lane), then lane + 8 (8 * 128 = 1024).
  EXPECT_EQ(ev("copy_layout(SM100_TMEM_LOAD_16dp128b1x, Dst)"), "((_4,_8),(_32,_2)):((_32,_128),(_1,_1024))");
  // 16x256b.x2: a lane's row is 512 bits; word t%4 is 64 bits; lane + 8 at 4096; repeat at 256.
  EXPECT_EQ(ev("copy_layout(SM100_TMEM_LOAD_16dp256b2x, Dst)"), "((_4,_8),(_64,_2,_2)):((_64,_512),(_1,_4096,_256))");
  // Stores are loads reversed; Ref is the collective TMEM side.
  EXPECT_EQ(ev("copy_layout(SM100_TMEM_STORE_16dp64b1x, Src)"), "((_2,_2,_8),_32):((_512,_32,_64),_1)");
  EXPECT_EQ(ev("copy_layout(SM100_TMEM_STORE_16dp64b1x, Dst)"), "(_32,_1024):(_0,_1)");
  EXPECT_EQ(ev("copy_layout(SM100_TMEM_STORE_16dp64b1x, Ref)"), "(_32,_1024):(_0,_1)");
  // ValID: bit c of lane l at TMEM bit address c + 2^21 l; _16b takes 16 bits of each column.
  EXPECT_EQ(ev("tmem_valid(SM100_TMEM_LOAD_32dp32b1x)"), "(_32,_32):(_1,_2097152)");
  EXPECT_EQ(ev("tmem_valid(SM100_TMEM_LOAD_32dp32b1x_16b)"), "((_16,_2),_32):((_1,_32),_2097152)");
  EXPECT_EQ(ev("tmem_valid(SM100_TMEM_STORE_16dp256b1x_16b)"), "((_16,_16),_16):((_1,_32),_2097152)");
}

TEST(TmemCopyAtom, Refusals) {
  const std::pair<std::string, const char*> bad[] = {
      {"copy_layout(SM100_TMEM_LOAD_16dp256b64x, Dst)", "from 1 to 32"},
      {"copy_layout(SM100_TMEM_LOAD_32dp32b3x, Dst)", "power of two"},
      {"copy_layout(SM100_TMEM_LOAD_8dp32b1x, Dst)", "the shape must be"},
      {"copy_layout(SM100_TMEM_LOAD_32dp32b1x_8b, Dst)", "suffix"},
      {"copy_layout(SM100_TMEM_STORE_32dp32b, Dst)", "repeat count"},
      {"copy_layout(SM100_TMEM_STORE_32dp32b01x, Dst)", "leading zeros"},
      {"tmem_valid(SM75_U32x4_LDSM_N)", "not a tensor-memory copy atom"},
      {"bank_conflicts(make_tiled_copy(SM100_TMEM_LOAD_32dp32b1x, 32, (32,1):(1,0), (1,32)), (32,32):(32,1))", "not shared memory"},
  };
  for (const auto& [expr, what] : bad) {
    try {
      ev(expr);
      ADD_FAILURE() << expr << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << expr << ": " << e.what();
    }
  }
}

// Every tcgen05.ld/st atom: the register side (thread, bit) is a bijection onto the L x R*B
// bits the instruction moves, and ValID is injective with every lane's bits inside one lane
// (addresses below 2^21 after removing the lane). Exhaustive over the 148 atoms.
TEST(TmemCopyAtom, RegisterLayoutsAreBijectionsOntoTheTile) {
  const std::pair<const char*, int> shapes[] = {{"32dp32b", 128}, {"16dp32b", 128}, {"16dp64b", 128}, {"16dp128b", 64}, {"16dp256b", 32}};
  long atoms = 0, points = 0;
  for (const auto& [shape, max_r] : shapes)
    for (int r = 1; r <= max_r; r *= 2)
      for (const char* dir : {"LOAD", "STORE"})
        for (const char* suffix : {"", "_16b"}) {
          const CopyAtom a = copy_atom(std::string("SM100_TMEM_") + dir + "_" + shape + std::to_string(r) + "x" + suffix);
          const Layout& regs = a.kind == CopyKind::TmemLoad ? a.dst_layout : a.src_layout;
          const std::int64_t total = size_value(regs);
          EXPECT_EQ(size_value(mode(regs, 0)), 32) << a.name;
          EXPECT_EQ(total, size_value(a.tmem_val_id)) << a.name;
          std::vector<bool> seen(static_cast<std::size_t>(total), false);
          bool ok = true;
          for (std::int64_t i = 0; i < total && ok; ++i, ++points) {
            const std::int64_t v = apply_index(regs, i);
            ok = v >= 0 && v < total && !seen[static_cast<std::size_t>(v)];
            if (ok) seen[static_cast<std::size_t>(v)] = true;
          }
          EXPECT_TRUE(ok) << a.name << " " << regs.to_string();
          const std::int64_t lanes = std::string(shape).rfind("32dp", 0) == 0 ? 32 : 16;
          std::vector<bool> address_seen(static_cast<std::size_t>(lanes) << 21, false);
          for (std::int64_t i = 0; i < total; ++i, ++points) {
            const std::int64_t addr = apply_index(a.tmem_val_id, i);
            ASSERT_TRUE(addr >= 0 && addr < (lanes << 21)) << a.name;
            ASSERT_FALSE(address_seen[static_cast<std::size_t>(addr)]) << a.name;
            address_seen[static_cast<std::size_t>(addr)] = true;
            // Logical bit i is in lane i / (R*B): ValID keeps a lane's row in that lane.
            EXPECT_EQ(addr >> 21, i / (total / lanes)) << a.name;
          }
          ++atoms;
        }
  std::printf("tmem copy atoms: %ld atoms, %ld points enumerated\n", atoms, points);
  EXPECT_EQ(atoms, 148);
}

}  // namespace tmem_copy_atom_test
