// UMMA SMEM layout atoms. Expected values: hand derivations from the atoms' definition in bits
// (umma_smem_atom.hpp: CuTe's UMMA namespace takes GMMA's eight atoms over, and adds
// Sw<2,5,2> o (1024,4):(1,1024) bits), with the byte-address swizzle worked out by hand; the
// full set against CuTe 4.2 is oracles/atoms/dump_sm100.
#include <gtest/gtest.h>

#include "atoms/umma_smem_atom.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace umma_smem_atom_test {

using namespace cuteref;

namespace {
Value eval(const std::string& e) { return parse_and_evaluate(e, &standard_functions()); }
}  // namespace

TEST(UmmaSmemAtom, Sw128Base32bIsFourRowsOf128Bytes) {
  // 1024 bits of MN are 1024 / T elements; the 4 K rows are one 128-byte row apart.
  EXPECT_EQ(umma_smem_atom(GmmaMajor::MN, UmmaSwizzle::SW128_32B, 16).to_string(),
            "Sw<2,5,2> o smem_ptr[16b](unset) o (_64,_4):(_1,_64)");
  EXPECT_EQ(umma_smem_atom(GmmaMajor::MN, UmmaSwizzle::SW128_32B, 32).to_string(),
            "Sw<2,5,2> o smem_ptr[32b](unset) o (_32,_4):(_1,_32)");
  EXPECT_EQ(umma_smem_atom(GmmaMajor::MN, UmmaSwizzle::SW128_32B, 8).to_string(),
            "Sw<2,5,2> o smem_ptr[8b](unset) o (_128,_4):(_1,_128)");
  EXPECT_EQ(umma_smem_atom(GmmaMajor::MN, UmmaSwizzle::SW128_32B, 4).to_string(),
            "Sw<2,5,2> o smem_ptr[4b](unset) o (_256,_4):(_1,_256)");
  EXPECT_EQ(eval("umma_atom(MN, SW128_32B, 16)").to_string(), "Sw<2,5,2> o smem_ptr[16b](unset) o (_64,_4):(_1,_64)");
}

TEST(UmmaSmemAtom, Sw128Base32bSwizzlesThe32ByteChunkByTheRow) {
  // 16-bit element (i, j) = index i + 64 j is byte 2i + 128j; Sw<2,5,2> XORs the row j (byte
  // bits 7-8) into the 32-byte chunk (bits 5-6).
  // (16, 1): byte 160 = chunk 1 of row 1 -> chunk 0: byte 128, element 64.
  EXPECT_EQ(eval("umma_atom(MN, SW128_32B, 16)(80)").to_string(), "64");
  // (0, 3): byte 384 = chunk 0 of row 3 -> chunk 3: byte 480, element 240.
  EXPECT_EQ(eval("umma_atom(MN, SW128_32B, 16)(192)").to_string(), "240");
  // Row 0 is not moved: (40, 0) stays at element 40.
  EXPECT_EQ(eval("umma_atom(MN, SW128_32B, 16)(40)").to_string(), "40");
}

TEST(UmmaSmemAtom, TheGmmaAtomsUnchanged) {
  const GmmaMajor majors[] = {GmmaMajor::MN, GmmaMajor::K};
  const UmmaSwizzle swizzles[] = {UmmaSwizzle::Inter, UmmaSwizzle::SW32, UmmaSwizzle::SW64, UmmaSwizzle::SW128};
  int n = 0;
  for (GmmaMajor m : majors)
    for (UmmaSwizzle s : swizzles)
      for (int bits : {8, 16, 32}) {
        EXPECT_EQ(umma_smem_atom(m, s, bits), gmma_smem_atom(m, static_cast<GmmaSwizzle>(static_cast<int>(s)), bits));
        ++n;
      }
  EXPECT_EQ(n, 24);
  // 4-bit elements, by hand: the K-major SW64 atom spans 512 bits = 128 elements of K.
  EXPECT_EQ(umma_smem_atom(GmmaMajor::K, UmmaSwizzle::SW64, 4).to_string(), "Sw<2,4,3> o smem_ptr[4b](unset) o (_8,_128):(_128,_1)");
}

TEST(UmmaSmemAtom, Refusals) {
  try {
    umma_smem_atom(GmmaMajor::K, UmmaSwizzle::SW128_32B, 16);
    ADD_FAILURE() << "K-major SW128_32B accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("MN-major tiles only"), std::string::npos) << e.what();
  }
  EXPECT_THROW(umma_smem_atom(GmmaMajor::MN, UmmaSwizzle::SW128, 6), Error);
  EXPECT_THROW(umma_smem_atom(GmmaMajor::MN, UmmaSwizzle::SW128, 64), Error);
  EXPECT_THROW(eval("umma_atom(MN, SW256, 16)"), Error);
  EXPECT_THROW(eval("umma_atom(KM, SW128, 16)"), Error);
}

}  // namespace umma_smem_atom_test
