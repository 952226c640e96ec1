// UMMA SMEM descriptors. Expected fields: hand derivations in 16-byte units from the canonical
// forms (smem_operand_form.hpp) and the bit positions of CuTe's UMMA::SmemDescriptor
// (mma_sm100_desc.hpp), written out in each case; the full set against CuTe 4.2's
// make_umma_desc is oracles/atoms/dump_sm100. The encode/decode round trip is checked for every
// value of every field (exhaustive per field; the fields' bit ranges are disjoint, checked too,
// so a descriptor's word is the OR of its fields' words).
#include <gtest/gtest.h>

#include <cstdio>

#include "atoms/umma_descriptor.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace umma_descriptor_test {

using namespace cuteref;

namespace {
Value eval(const std::string& e) { return parse_and_evaluate(e, &standard_functions()); }
}  // namespace

TEST(UmmaDescriptor, HandDerivedFields) {
  // K-major SW128, 16-bit, 64 x 16: rows 128 bytes (8 units) apart, the 8-row groups 64 units
  // apart (SBO), LBO 1 (swizzled K-major); version 1, layout type SWIZZLE_128B = 2.
  EXPECT_EQ(eval("umma_desc(Sw<3,4,3> o smem_ptr[16b](unset) o (64,16):(64,1), 16)").to_string(), "(0,1,64,1,0,0,2)");
  EXPECT_EQ(eval("umma_desc(Sw<3,4,3> o smem_ptr[16b](unset) o (64,16):(64,1), 16, 1024)").to_string(), "(64,1,64,1,0,0,2)");
  // The same with SW32 (type 6) and SW64 (type 4): rows 2 and 4 units apart.
  EXPECT_EQ(eval("umma_desc(Sw<1,4,3> o smem_ptr[16b](unset) o (64,16):(16,1), 16)").to_string(), "(0,1,16,1,0,0,6)");
  EXPECT_EQ(eval("umma_desc(Sw<2,4,3> o smem_ptr[16b](unset) o (64,16):(32,1), 16)").to_string(), "(0,1,32,1,0,0,4)");
  // K-major, no swizzle: core matrices of 8 rows x 16 bytes; ((8,8),(8,2)):((8,64),(1,512))
  // puts the second K unit 512 elements = 64 units away (LBO), the next 8 rows 64 elements =
  // 8 units away (SBO); type 0.
  EXPECT_EQ(eval("umma_desc(((8,8),(8,2)):((8,64),(1,512)), 16)").to_string(), "(0,64,8,1,0,0,0)");
  // MN-major 128B_BASE32B, tf32 (K = 8 = two 4-row groups): tile_to_shape of the atom
  // (32,4):(1,32) to (64,8) is ((32,2),(4,2)):((1,128),(32,256)); in 4-float units the second
  // MN group is 32 units away (LBO), the second K group 64 (SBO); type 1.
  EXPECT_EQ(eval("tile_to_shape(umma_atom(MN, SW128_32B, 32), (_64,_8))").to_string(),
            "Sw<2,5,2> o smem_ptr[32b](unset) o ((_32,_2),(_4,_2)):((_1,_128),(_32,_256))");
  EXPECT_EQ(eval("umma_desc(tile_to_shape(umma_atom(MN, SW128_32B, 32), (_64,_8)), 32)").to_string(), "(0,32,64,1,0,0,1)");
  // Its repeat is 4 rows x 128 bytes = 512 bytes.
  EXPECT_EQ(eval("umma_desc(tile_to_shape(umma_atom(MN, SW128_32B, 32), (_64,_8)), 32, 512)").to_string(), "(32,32,64,1,0,0,1)");
  EXPECT_THROW(eval("umma_desc(tile_to_shape(umma_atom(MN, SW128_32B, 32), (_64,_8)), 32, 256)"), Error);
  EXPECT_EQ(make_umma_desc(eval("tile_to_shape(umma_atom(MN, SW128_32B, 32), (_64,_8))"), 32).major, GmmaMajor::MN);
}

TEST(UmmaDescriptor, HandDerivedWord) {
  // (64,1,64,1,0,0,2): lo = 64 | 1 << 16 = 65600; hi = 64 | 1 << 14 (version) | 2 << 29 (type).
  EXPECT_EQ(eval("umma_desc_word(Sw<3,4,3> o smem_ptr[16b](unset) o (64,16):(64,1), 16, 1024)").to_string(),
            "(65600,1073758272)");
  EXPECT_EQ(eval("umma_desc_decode((65600,1073758272))").to_string(), "(64,1,64,1,0,0,2)");
  // SW32 (type 6 = 0b110) sets bit 63: hi = 16 | 1 << 14 | 6 << 29 = 3221241872, beyond int64 as
  // one word, which is why the language prints the halves.
  EXPECT_EQ(eval("umma_desc_word(Sw<1,4,3> o smem_ptr[16b](unset) o (64,16):(16,1), 16)").to_string(), "(65536,3221241872)");
  EXPECT_EQ(eval("umma_desc_decode((65536,3221241872))").to_string(), "(0,1,16,1,0,0,6)");
  UmmaDescriptor d;
  d.start_address = 64;
  d.leading_byte_offset = 1;
  d.stride_byte_offset = 64;
  d.version = 1;
  d.layout_type = UmmaLayoutType::Swizzle128B;
  EXPECT_EQ(d.encode(), (std::uint64_t{1073758272} << 32) | 65600);
}

TEST(UmmaDescriptor, Refusals) {
  const std::pair<std::string, const char*> bad[] = {
      {"umma_desc(Sw<2,5,2> o smem_ptr[16b](unset) o (8,16):(16,1), 16)", "MN-major tiles only"},
      {"umma_desc(Sw<3,4,3> o smem_ptr[16b](unset) o (64,32):(64,1), 16)", "spans 32 bytes"},
      {"umma_desc(Sw<3,3,3> o smem_ptr[16b](unset) o (64,16):(64,1), 16)", "not a UMMA swizzle"},
      {"umma_desc(Sw<3,4,3> o smem_ptr[16b](unset) o (64,16):(32,1), 16)", "SWIZZLE_128B needs 128"},
      {"umma_desc(Sw<2,5,2> o smem_ptr[32b](unset) o (64,8):(1,64), 32)", "SWIZZLE_128B_BASE32B needs 128 bytes"},
      {"umma_desc_decode((0,1610612736))", "not a layout type"},
      {"umma_desc_decode((0,4294967296))", "32-bit"},
  };
  for (const auto& [expr, what] : bad) {
    try {
      eval(expr);
      ADD_FAILURE() << expr << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << expr << ": " << e.what();
    }
  }
  UmmaDescriptor d;
  d.version = 4;
  EXPECT_THROW(d.encode(), Error);
  d.version = 1;
  d.layout_type = static_cast<UmmaLayoutType>(3);
  EXPECT_THROW(d.encode(), Error);
}

// Every value of every field round-trips, with the other fields all zero and all at their
// maximum; the fields' bit ranges are disjoint and leave exactly the reserved bits
// {14,15,30,31,48,53..60} uncovered; reserved bits are ignored by decode.
TEST(UmmaDescriptor, EncodeDecodeEveryFieldValue) {
  struct FieldRange {
    std::uint32_t UmmaDescriptor::*member;
    std::uint32_t max;
  };
  const FieldRange fields[] = {{&UmmaDescriptor::start_address, (1u << 14) - 1},
                               {&UmmaDescriptor::leading_byte_offset, (1u << 14) - 1},
                               {&UmmaDescriptor::stride_byte_offset, (1u << 14) - 1},
                               {&UmmaDescriptor::version, 3},
                               {&UmmaDescriptor::base_offset, 7},
                               {&UmmaDescriptor::lbo_mode, 1}};
  const UmmaLayoutType types[] = {UmmaLayoutType::SwizzleNone, UmmaLayoutType::Swizzle128BBase32B, UmmaLayoutType::Swizzle128B,
                                  UmmaLayoutType::Swizzle64B, UmmaLayoutType::Swizzle32B};
  auto all_max = [&] {
    UmmaDescriptor d;
    for (const auto& f : fields) d.*f.member = f.max;
    d.layout_type = UmmaLayoutType::Swizzle32B;
    return d;
  };
  long checked = 0;
  std::uint64_t covered = 0;
  for (const auto& f : fields) {
    for (const UmmaDescriptor& background : {UmmaDescriptor{}, all_max()}) {
      for (std::uint32_t v = 0; v <= f.max; ++v) {
        UmmaDescriptor d = background;
        d.*f.member = v;
        ASSERT_EQ(UmmaDescriptor::decode(d.encode()), d);
        ++checked;
      }
    }
    UmmaDescriptor only;
    only.*f.member = f.max;
    const std::uint64_t mask = only.encode();
    EXPECT_EQ(mask & covered, 0u) << "fields overlap";
    covered |= mask;
  }
  for (const UmmaDescriptor& background : {UmmaDescriptor{}, all_max()})
    for (UmmaLayoutType t : types) {
      UmmaDescriptor d = background;
      d.layout_type = t;
      ASSERT_EQ(UmmaDescriptor::decode(d.encode()), d);
      ++checked;
    }
  covered |= std::uint64_t{7} << 61;
  std::uint64_t reserved = (3ull << 14) | (3ull << 30) | (1ull << 48);
  for (int b = 53; b <= 60; ++b) reserved |= 1ull << b;
  EXPECT_EQ(covered, ~reserved);
  EXPECT_EQ(UmmaDescriptor::decode(all_max().encode() | reserved), all_max());
  std::printf("umma descriptor round trip: %ld descriptors\n", checked);
  EXPECT_EQ(checked, 2 * (3 * 16384 + 4 + 8 + 2) + 10);
}

}  // namespace umma_descriptor_test
