// GMMA descriptors. Expected fields: the vendor oracle (CuTe 4.2's GMMA::make_gmma_desc on the
// (MN, K) corner of tile_to_shape(atom, ...), layouts and fields printed by a probe compiled
// with g++ against the wheel's headers; the host build cannot read shared-memory addresses, so
// the start address is checked by hand derivation instead), and the PTX ISA bit positions.
#include <gtest/gtest.h>

#include "atoms/gmma_descriptor.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace gmma_descriptor_test {

using namespace cuteref;

namespace {
Value parse(const std::string& e) { return parse_and_evaluate(e, &standard_functions()); }
}  // namespace

TEST(GmmaDescriptor, VendorFields) {
  struct Case {
    const char* layout;
    int bits;
    std::uint32_t lbo, sbo;
    GmmaLayoutType type;
    GmmaMajor major;
  };
  using T = GmmaLayoutType;
  const auto K = GmmaMajor::K, MN = GmmaMajor::MN;
  const Case cases[] = {
      {"Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_16):(_64,_1)", 16, 1, 64, T::B128, K},
      {"Sw<2,4,3> o smem_ptr[16b](unset) o (_64,_16):(_32,_1)", 16, 1, 32, T::B64, K},
      {"Sw<1,4,3> o smem_ptr[16b](unset) o (_64,_16):(_16,_1)", 16, 1, 16, T::B32, K},
      {"Sw<0,4,3> o smem_ptr[16b](unset) o (_64,(_8,_2)):(_8,(_1,_1024))", 16, 128, 8, T::Interleave, K},
      {"Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_16):(_64,_1)", 16, 1, 0, T::B128, K},
      {"Sw<0,4,3> o smem_ptr[16b](unset) o (_8,(_8,_2)):(_8,(_1,_1024))", 16, 128, 0, T::Interleave, K},
      {"Sw<2,4,3> o smem_ptr[8b](unset) o (_64,_32):(_64,_1)", 8, 1, 32, T::B64, K},
      {"Sw<1,4,3> o smem_ptr[32b](unset) o (_64,_8):(_8,_1)", 32, 1, 16, T::B32, K},
      {"Sw<3,4,3> o smem_ptr[16b](unset) o (_64,(_8,_2)):(_1,(_64,_1024))", 16, 0, 128, T::B128, MN},
      {"Sw<2,4,3> o smem_ptr[16b](unset) o ((_32,_2),(_8,_2)):((_1,_256),(_32,_1024))", 16, 32, 128, T::B64, MN},
      {"Sw<1,4,3> o smem_ptr[16b](unset) o ((_16,_4),(_8,_2)):((_1,_128),(_16,_1024))", 16, 16, 128, T::B32, MN},
      {"Sw<0,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_8,_2)):((_1,_64),(_8,_1024))", 16, 128, 8, T::Interleave, MN},
      {"Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_2)):((_1,_512),(_64,_2048))", 16, 64, 256, T::B128, MN},
      {"Sw<0,4,3> o smem_ptr[16b](unset) o (_8,(_8,_2)):(_1,(_8,_1024))", 16, 128, 0, T::Interleave, MN},
      {"Sw<1,4,3> o smem_ptr[16b](unset) o (_16,(_8,_2)):(_1,(_16,_1024))", 16, 0, 128, T::B32, MN},
      {"Sw<2,4,3> o smem_ptr[8b](unset) o (_64,(_8,_4)):(_1,(_64,_1024))", 8, 0, 64, T::B64, MN},
  };
  for (const auto& c : cases) {
    const GmmaDescriptorResult r = make_gmma_desc(parse(c.layout), c.bits, 0);
    EXPECT_EQ(r.descriptor.leading_byte_offset, c.lbo) << c.layout;
    EXPECT_EQ(r.descriptor.stride_byte_offset, c.sbo) << c.layout;
    EXPECT_EQ(r.descriptor.layout_type, c.type) << c.layout;
    EXPECT_EQ(r.descriptor.base_offset, 0u) << c.layout;
    EXPECT_EQ(r.descriptor.start_address, 0u) << c.layout;
    EXPECT_EQ(r.major, c.major) << c.layout;
  }
  std::printf("[ checked ] %zu vendor make_gmma_desc results\n", std::size(cases));
}

// Start address: the base byte address in 16-byte units (a layout maps (0,0) to offset 0).
TEST(GmmaDescriptor, StartAddress) {
  EXPECT_EQ(make_gmma_desc(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (64,16):(64,1)"), 16, 2048).descriptor.start_address, 128u);
  EXPECT_EQ(make_gmma_desc(parse("(64,(8,2)):(8,(1,512))"), 16, 1040).descriptor.start_address, 65u);
  EXPECT_EQ(make_gmma_desc(parse("(64,(8,2)):(8,(1,512))"), 16, (1 << 18) - 16).descriptor.start_address, 0x3fffu);
}

TEST(GmmaDescriptor, EncodeDecode) {
  // PTX bit positions: start [0,14), LBO [16,30), SBO [32,46), base offset [49,52), type [62,64).
  GmmaDescriptor d;
  d.start_address = 0x40;
  d.leading_byte_offset = 1;
  d.stride_byte_offset = 64;
  d.base_offset = 0;
  d.layout_type = GmmaLayoutType::B128;
  EXPECT_EQ(d.encode(), 0x4000004000010040ull);
  EXPECT_EQ(GmmaDescriptor::decode(0x4000004000010040ull), d);
  GmmaDescriptor e;
  e.start_address = 0x3fff;
  e.leading_byte_offset = 0x2aaa;
  e.stride_byte_offset = 0x1555;
  e.base_offset = 5;
  e.layout_type = GmmaLayoutType::B32;
  // 0x3fff | 0x2aaa << 16 | 0x1555 << 32 | 5 << 49 | 3 << 62
  EXPECT_EQ(e.encode(), 0xC00A15552AAA3FFFull);
  EXPECT_EQ(GmmaDescriptor::decode(e.encode()), e);
  // Bits outside the fields are ignored on decode.
  EXPECT_EQ(GmmaDescriptor::decode(0x4000004000010040ull | 0x0001C000C000C000ull), d);
  e.start_address = 0x4000;
  EXPECT_THROW(e.encode(), Error);
}

TEST(GmmaDescriptor, RejectsNonCanonicalLayouts) {
  const std::pair<std::string, const char*> bad[] = {
      // K spans 64 bytes, not 32.
      {"Sw<3,4,3> o smem_ptr[16b](unset) o (64,32):(64,1)", "spans 32 bytes"},
      // SW128 needs rows 128 bytes apart; these are 64 bytes apart.
      {"Sw<3,4,3> o smem_ptr[16b](unset) o (64,16):(32,1)", "needs 128"},
      // Not a GMMA swizzle.
      {"Sw<3,3,3> o smem_ptr[16b](unset) o (64,16):(64,1)", "not a GMMA swizzle"},
      // Element width of the pointer and the argument disagree.
      {"Sw<3,4,3> o smem_ptr[8b](unset) o (64,16):(64,1)", "element width given is 16"},
      // No contiguous mode.
      {"(64,16):(32,2)", "neither mode has stride 1"},
      // The second 16-byte K unit starts at element 1001: not 16-byte aligned.
      {"(64,(8,2)):(8,(1,1001))", "breaks the 16-byte unit"},
      // A 16-byte unit split in two: k = 0..3 and 4..7 are 100 elements apart.
      {"(64,(4,2,2)):(8,(1,100,1000))", "breaks the 16-byte unit"},
      // 8 rows of a core matrix not evenly spaced (INTER K-major, rows 16 bytes apart then a gap).
      {"((4,16),(8,2)):((8,64),(1,4096))", "the form"},
      // MN extent not a multiple of 8 for K-major.
      {"(4,16):(16,1)", "multiple of 8"},
      // Swizzled K-major whose two K units are not adjacent.
      {"Sw<1,4,3> o smem_ptr[16b](unset) o (64,(8,2)):(16,(1,1024))", "adjacent"},
      // rank 3
      {"(8,16,2):(16,1,128)", "rank-2"},
  };
  for (const auto& [layout, what] : bad) {
    try {
      make_gmma_desc(parse(layout), 16, 0);
      ADD_FAILURE() << layout << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << layout << ": " << e.what();
    }
  }
  // Base address alignment.
  EXPECT_THROW(make_gmma_desc(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (64,16):(64,1)"), 16, 512), Error);
  EXPECT_THROW(make_gmma_desc(parse("(64,(8,2)):(8,(1,512))"), 16, 8), Error);
  EXPECT_NO_THROW(make_gmma_desc(parse("Sw<1,4,3> o smem_ptr[16b](unset) o (64,16):(16,1)"), 16, 256));
  EXPECT_THROW(make_gmma_desc(parse("(64,(8,2)):(8,(1,512))"), 16, 1 << 18), Error);
}

TEST(GmmaDescriptor, ExpressionLanguage) {
  // The K-major SW128 16-bit atom tile: (start, LBO, SBO, base_offset, type) = (0, 1, 64, 0, 1).
  EXPECT_EQ(parse("gmma_desc(Sw<3,4,3> o smem_ptr[16b](unset) o (64,16):(64,1), 16)").to_string(), "(0,1,64,0,1)");
  EXPECT_EQ(parse("gmma_desc(Sw<3,4,3> o smem_ptr[16b](unset) o (64,16):(64,1), 16, 1024)").to_string(), "(64,1,64,0,1)");
  // An element-offset swizzle Sw<3,3,3> on 16-bit elements is the byte swizzle Sw<3,4,3>.
  EXPECT_EQ(parse("gmma_desc(Sw<3,3,3> o (64,16):(64,1), 16)").to_string(), "(0,1,64,0,1)");
}

}  // namespace gmma_descriptor_test
