#include "atoms/gmma_descriptor.hpp"

#include "atoms/smem_operand_form.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

constexpr std::uint32_t kGmmaField14 = (1u << 14) - 1;

}  // namespace

std::string to_string(GmmaLayoutType t) {
  switch (t) {
    case GmmaLayoutType::Interleave: return "INTERLEAVE";
    case GmmaLayoutType::B128: return "B128";
    case GmmaLayoutType::B64: return "B64";
    case GmmaLayoutType::B32: return "B32";
  }
  return "?";
}

std::uint64_t GmmaDescriptor::encode() const {
  if (start_address > kGmmaField14 || leading_byte_offset > kGmmaField14 || stride_byte_offset > kGmmaField14 || base_offset > 7)
    throw Error("GmmaDescriptor::encode: a field exceeds its width (14 bits for addresses/offsets, 3 for base offset)");
  return std::uint64_t{start_address} | (std::uint64_t{leading_byte_offset} << 16) |
         (std::uint64_t{stride_byte_offset} << 32) | (std::uint64_t{base_offset} << 49) |
         (std::uint64_t{static_cast<std::uint8_t>(layout_type)} << 62);
}

GmmaDescriptor GmmaDescriptor::decode(std::uint64_t w) {
  GmmaDescriptor d;
  d.start_address = static_cast<std::uint32_t>(w & kGmmaField14);
  d.leading_byte_offset = static_cast<std::uint32_t>((w >> 16) & kGmmaField14);
  d.stride_byte_offset = static_cast<std::uint32_t>((w >> 32) & kGmmaField14);
  d.base_offset = static_cast<std::uint32_t>((w >> 49) & 7);
  d.layout_type = static_cast<GmmaLayoutType>((w >> 62) & 3);
  return d;
}

GmmaDescriptorResult make_gmma_desc(const Value& smem, int bits, std::int64_t base) {
  const SmemOperandFields f = read_smem_operand(smem, bits, base, SmemOperandDialect{"gmma_desc", "GMMA", "wgmma", false});
  GmmaDescriptor d;
  switch (f.swizzle) {
    case SmemOperandSwizzle::None: d.layout_type = GmmaLayoutType::Interleave; break;
    case SmemOperandSwizzle::B32: d.layout_type = GmmaLayoutType::B32; break;
    case SmemOperandSwizzle::B64: d.layout_type = GmmaLayoutType::B64; break;
    case SmemOperandSwizzle::B128: d.layout_type = GmmaLayoutType::B128; break;
    case SmemOperandSwizzle::B128Base32B: throw Error("gmma_desc: the 128B_BASE32B swizzle is UMMA's, not GMMA's");
  }
  d.start_address = f.start_address;
  d.leading_byte_offset = f.leading_byte_offset;
  d.stride_byte_offset = f.stride_byte_offset;
  d.base_offset = 0;
  return {d, f.major};
}

}  // namespace cuteref
