#include "atoms/umma_descriptor.hpp"

#include "atoms/smem_operand_form.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

constexpr std::uint64_t kUmmaField14 = (1u << 14) - 1;

bool is_layout_type(std::uint64_t v) { return v == 0 || v == 1 || v == 2 || v == 4 || v == 6; }

}  // namespace

std::string to_string(UmmaLayoutType t) {
  switch (t) {
    case UmmaLayoutType::SwizzleNone: return "SWIZZLE_NONE";
    case UmmaLayoutType::Swizzle128BBase32B: return "SWIZZLE_128B_BASE32B";
    case UmmaLayoutType::Swizzle128B: return "SWIZZLE_128B";
    case UmmaLayoutType::Swizzle64B: return "SWIZZLE_64B";
    case UmmaLayoutType::Swizzle32B: return "SWIZZLE_32B";
  }
  return "?";
}

std::uint64_t UmmaDescriptor::encode() const {
  if (start_address > kUmmaField14 || leading_byte_offset > kUmmaField14 || stride_byte_offset > kUmmaField14 || version > 3 ||
      base_offset > 7 || lbo_mode > 1)
    throw Error("UmmaDescriptor::encode: a field exceeds its width (14 bits for the address and offsets, 2 for the version, "
                "3 for the base offset, 1 for the LBO mode)");
  const auto type = static_cast<std::uint64_t>(layout_type);
  if (!is_layout_type(type))
    throw Error("UmmaDescriptor::encode: layout type " + std::to_string(type) + " is not one of 0, 1, 2, 4, 6");
  return std::uint64_t{start_address} | (std::uint64_t{leading_byte_offset} << 16) | (std::uint64_t{stride_byte_offset} << 32) |
         (std::uint64_t{version} << 46) | (std::uint64_t{base_offset} << 49) | (std::uint64_t{lbo_mode} << 52) | (type << 61);
}

UmmaDescriptor UmmaDescriptor::decode(std::uint64_t w) {
  const std::uint64_t type = w >> 61;
  if (!is_layout_type(type))
    throw Error("UmmaDescriptor::decode: bits [61,64) hold " + std::to_string(type) +
                ", not a layout type (0 none, 1 128B_BASE32B, 2 128B, 4 64B, 6 32B)");
  UmmaDescriptor d;
  d.start_address = static_cast<std::uint32_t>(w & kUmmaField14);
  d.leading_byte_offset = static_cast<std::uint32_t>((w >> 16) & kUmmaField14);
  d.stride_byte_offset = static_cast<std::uint32_t>((w >> 32) & kUmmaField14);
  d.version = static_cast<std::uint32_t>((w >> 46) & 3);
  d.base_offset = static_cast<std::uint32_t>((w >> 49) & 7);
  d.lbo_mode = static_cast<std::uint32_t>((w >> 52) & 1);
  d.layout_type = static_cast<UmmaLayoutType>(type);
  return d;
}

UmmaDescriptorResult make_umma_desc(const Value& smem, int bits, std::int64_t base) {
  const SmemOperandFields f = read_smem_operand(smem, bits, base, SmemOperandDialect{"umma_desc", "UMMA", "tcgen05.mma", true});
  UmmaDescriptor d;
  switch (f.swizzle) {
    case SmemOperandSwizzle::None: d.layout_type = UmmaLayoutType::SwizzleNone; break;
    case SmemOperandSwizzle::B32: d.layout_type = UmmaLayoutType::Swizzle32B; break;
    case SmemOperandSwizzle::B64: d.layout_type = UmmaLayoutType::Swizzle64B; break;
    case SmemOperandSwizzle::B128: d.layout_type = UmmaLayoutType::Swizzle128B; break;
    case SmemOperandSwizzle::B128Base32B: d.layout_type = UmmaLayoutType::Swizzle128BBase32B; break;
  }
  d.start_address = f.start_address;
  d.leading_byte_offset = f.leading_byte_offset;
  d.stride_byte_offset = f.stride_byte_offset;
  d.version = 1;   // SM100
  d.base_offset = 0;
  d.lbo_mode = 0;  // legacy
  return {d, f.major};
}

}  // namespace cuteref
