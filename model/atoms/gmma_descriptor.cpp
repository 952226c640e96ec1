#include "atoms/gmma_descriptor.hpp"

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "coordinates.hpp"
#include "enumeration_budget.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "mode_comparison.hpp"

namespace cuteref {

namespace {

constexpr std::uint32_t kField14 = (1u << 14) - 1;

// A distance of `units` 16-byte units, for a diagnostic: in bytes, or in units where the bytes
// do not fit in int64 (a layout's strides may be anything up to that bound).
std::string bytes_text(std::int64_t units) {
  std::int64_t bytes;
  if (__builtin_mul_overflow(units, 16, &bytes)) return std::to_string(units) + " 16-byte units";
  return std::to_string(bytes) + " bytes";
}

[[noreturn]] void not_canonical(const Value& smem, const std::string& what) {
  throw Error("gmma_desc: " + smem.to_string() + " is not a canonical GMMA layout: " + what);
}

int log2_exact(std::int64_t v) {
  int r = 0;
  while ((std::int64_t{1} << r) < v) ++r;
  return r;
}

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
  if (start_address > kField14 || leading_byte_offset > kField14 || stride_byte_offset > kField14 || base_offset > 7)
    throw Error("GmmaDescriptor::encode: a field exceeds its width (14 bits for addresses/offsets, 3 for base offset)");
  return std::uint64_t{start_address} | (std::uint64_t{leading_byte_offset} << 16) |
         (std::uint64_t{stride_byte_offset} << 32) | (std::uint64_t{base_offset} << 49) |
         (std::uint64_t{static_cast<std::uint8_t>(layout_type)} << 62);
}

GmmaDescriptor GmmaDescriptor::decode(std::uint64_t w) {
  GmmaDescriptor d;
  d.start_address = static_cast<std::uint32_t>(w & kField14);
  d.leading_byte_offset = static_cast<std::uint32_t>((w >> 16) & kField14);
  d.stride_byte_offset = static_cast<std::uint32_t>((w >> 32) & kField14);
  d.base_offset = static_cast<std::uint32_t>((w >> 49) & 7);
  d.layout_type = static_cast<GmmaLayoutType>((w >> 62) & 3);
  return d;
}

GmmaDescriptorResult make_gmma_desc(const Value& smem, int bits, std::int64_t base) {
  if (bits != 8 && bits != 16 && bits != 32)
    throw Error("gmma_desc: element width must be 8, 16 or 32 bits, got " + std::to_string(bits));
  // 1. The layout and the swizzle on byte addresses.
  std::optional<Swizzle> byte_swizzle;
  const Layout* layout = nullptr;
  if (smem.is_layout()) {
    layout = &std::get<Layout>(smem.data);
  } else if (smem.is_composed()) {
    const auto& c = std::get<ComposedLayout>(smem.data);
    layout = &c.layout;
    if (c.offset && !c.offset->value) {
      if (c.offset->pointer_element_bits != bits)
        throw Error("gmma_desc: the layout is for " + std::to_string(c.offset->pointer_element_bits) +
                    "-bit elements (" + c.offset->pointer_token + ") but the element width given is " +
                    std::to_string(bits));
      byte_swizzle = c.swizzle;
    } else {
      if (c.offset && c.offset->value->value() != 0)
        not_canonical(smem, "a composed layout with a non-zero integer offset has no fixed byte address");
      // A swizzle on element offsets moves to byte addresses by the element size.
      const int shift = log2_exact(bits / 8);
      byte_swizzle = Swizzle(c.swizzle.bits(), c.swizzle.base() + shift, c.swizzle.shift());
    }
  } else {
    throw Error("gmma_desc: argument 1 must be a layout or composed layout, got " + smem.kind_name());
  }
  GmmaLayoutType type = GmmaLayoutType::Interleave;
  int wu = 1;  // swizzle width in 16-byte units
  if (byte_swizzle && byte_swizzle->bits() != 0) {
    const Swizzle& sw = *byte_swizzle;
    if (sw.base() != 4 || sw.shift() != 3 || sw.bits() > 3)
      not_canonical(smem, "swizzle " + sw.to_string() +
                              " on byte addresses is not a GMMA swizzle (Sw<1,4,3>, Sw<2,4,3>, Sw<3,4,3> or none)");
    wu = 1 << sw.bits();
    type = sw.bits() == 1 ? GmmaLayoutType::B32 : sw.bits() == 2 ? GmmaLayoutType::B64 : GmmaLayoutType::B128;
  }

  // 2. Shape: rank 2, K spans 32 bytes.
  if (rank(*layout) != 2) not_canonical(smem, "expected a rank-2 (MN, K) layout, got rank " + std::to_string(rank(*layout)));
  const std::int64_t mn = size_value(mode(*layout, 0)), k = size_value(mode(*layout, 1));
  if (checked_mul(k, bits) != 256)
    not_canonical(smem, "K extent " + std::to_string(k) + " of " + std::to_string(bits) + "-bit elements is " +
                            std::to_string(k * bits / 8) + " bytes; a wgmma operand tile spans 32 bytes of K");
  // Element offset of (i, j).
  auto g = [&](std::int64_t i, std::int64_t j) { return apply_index(*layout, i + mn * j); };

  // 3. Majorness: which mode holds 16 contiguous bytes.
  const std::int64_t t = 128 / bits;  // elements per 16 bytes
  const bool k_major = g(0, 1) == 1;
  const bool mn_major = !k_major && mn > 1 && g(1, 0) == 1;
  if (!k_major && !mn_major)
    not_canonical(smem, "neither mode has stride 1 at the origin (step along MN: " + std::to_string(mn > 1 ? g(1, 0) : 0) +
                            ", along K: " + std::to_string(g(0, 1)) + "), so no core-matrix row is 16 contiguous bytes");
  const GmmaMajor major = k_major ? GmmaMajor::K : GmmaMajor::MN;
  const std::int64_t contiguous_extent = k_major ? k : mn;
  if (contiguous_extent % t != 0)
    not_canonical(smem, "the contiguous extent " + std::to_string(contiguous_extent) + " is not a whole number of 16-byte (" +
                            std::to_string(t) + "-element) units");

  // 4. The canonical form, read from a few elements (u(a, b): the offset in 16-byte units of
  // 16-byte unit (a, b), i.e. of its first element), then the whole layout compared with it
  // by their modes (mode_comparison.hpp), without visiting the elements.
  if (layout->has_basis_strides()) not_canonical(smem, "a stride is a scaled basis, not a shared-memory offset");
  const std::int64_t umn = k_major ? mn : mn / t;  // MN extent in 16-byte units (MN-major)
  auto u = [&](std::int64_t a, std::int64_t b) {
    return k_major ? floor_div(g(a, b * t), t) : floor_div(g(a * t, b), t);
  };
  auto I = [](std::int64_t v) { return IntTuple::integer(v); };
  GmmaDescriptor d;
  d.layout_type = type;
  const bool inter = type == GmmaLayoutType::Interleave;
  Layout canonical = *layout;  // the canonical layout in elements, over the same (MN, K) domain
  std::string form;
  if (k_major) {
    if (mn % 8 != 0)
      not_canonical(smem, "MN extent " + std::to_string(mn) + " is not a multiple of 8 (the rows of a core matrix)");
    const std::int64_t n = mn / 8;
    const std::int64_t row = u(1, 0);
    if (row != wu)
      not_canonical(smem, "consecutive rows of a core matrix are " + bytes_text(row) + " apart; layout type " +
                              to_string(type) + " needs " + bytes_text(wu));
    const std::int64_t sbo = n > 1 ? u(8, 0) : 0;
    const std::int64_t lbo = u(0, 1);
    if (!inter && lbo != 1)
      not_canonical(smem, "the two 16-byte K units of a row are " + bytes_text(lbo) +
                              " apart; a swizzled K-major layout keeps them adjacent");
    // Unit (a, b) at (a % 8) * W + (a / 8) * SBO + b * LBO; element (i, j) at unit (i, j / t),
    // element j % t of it: ((8,n),(t,2)) : ((W*t, SBO*t), (1, LBO*t)).
    form = "((8,n),2):((" + std::to_string(wu) + ",SBO=" + std::to_string(sbo) + ")," + std::to_string(lbo) + ")";
    canonical = Layout(IntTuple::tuple({IntTuple::tuple({I(8), I(n)}), IntTuple::tuple({I(t), I(2)})}),
                       IntTuple::tuple({IntTuple::tuple({I(wu * t), I(checked_mul(sbo, t))}),
                                        IntTuple::tuple({I(1), I(checked_mul(lbo, t))})}));
    if (sbo < 0 || sbo > kField14 || lbo < 0 || lbo > kField14)
      not_canonical(smem, "an offset does not fit the 14-bit descriptor field (SBO " + std::to_string(sbo) + ", LBO " +
                              std::to_string(lbo) + " in 16-byte units)");
    d.stride_byte_offset = static_cast<std::uint32_t>(sbo);
    d.leading_byte_offset = static_cast<std::uint32_t>(inter ? lbo : 1);
  } else {
    if (k % 8 != 0) not_canonical(smem, "K extent " + std::to_string(k) + " is not a multiple of 8 (the rows of a core matrix)");
    if (umn % wu != 0)
      not_canonical(smem, "MN extent " + std::to_string(mn) + " is not a multiple of the swizzle width (" +
                              std::to_string(wu * t) + " elements)");
    const std::int64_t n = umn / wu, kg = k / 8;
    if (wu > 1 && u(1, 0) != 1)
      not_canonical(smem, "the 16-byte units of a swizzled MN-major row are " + bytes_text(u(1, 0)) +
                              " apart; they must be adjacent");
    const std::int64_t row = u(0, 1);
    if (row != wu)
      not_canonical(smem, "consecutive K rows of a core matrix are " + bytes_text(row) + " apart; layout type " +
                              to_string(type) + " needs " + bytes_text(wu));
    const std::int64_t s01 = n > 1 ? u(wu, 0) : 0;
    const std::int64_t s11 = kg > 1 ? u(0, 8) : 0;
    const std::int64_t s00 = wu > 1 ? 1 : 0;
    // Unit (a, b) at (a % W) * s00 + (a / W) * s01 + (b % 8) * W + (b / 8) * s11; element (i, j)
    // at unit (i / t, j), element i % t of it: ((t,W,n),(8,k)) : ((1,s00*t,s01*t), (W*t, s11*t)).
    form = "((" + std::to_string(wu) + ",n),(8,k)):((1," + std::to_string(s01) + "),(" + std::to_string(wu) + "," +
           std::to_string(s11) + "))";
    canonical = Layout(IntTuple::tuple({IntTuple::tuple({I(t), I(wu), I(n)}), IntTuple::tuple({I(8), I(kg)})}),
                       IntTuple::tuple({IntTuple::tuple({I(1), I(s00 * t), I(checked_mul(s01, t))}),
                                        IntTuple::tuple({I(wu * t), I(checked_mul(s11, t))})}));
    const std::int64_t sbo = inter ? s01 : s11, lbo = inter ? s11 : s01;
    if (sbo < 0 || sbo > kField14 || lbo < 0 || lbo > kField14)
      not_canonical(smem, "an offset does not fit the 14-bit descriptor field (SBO " + std::to_string(sbo) + ", LBO " +
                              std::to_string(lbo) + " in 16-byte units)");
    d.stride_byte_offset = static_cast<std::uint32_t>(sbo);
    d.leading_byte_offset = static_cast<std::uint32_t>(lbo);
  }
  // The first index where the layout leaves the canonical form, if any: by modes, or (modes
  // that do not line up, e.g. an MN extent of 24 = 8 * 3 against 16) by enumeration, at most
  // kMaxEnumeratedEquality elements.
  std::optional<std::int64_t> first;
  const ModeComparison by_modes = compare_by_modes(coalesce(*layout), coalesce(canonical));
  if (by_modes.result == ModeComparison::Result::Differ) first = by_modes.first_difference;
  if (by_modes.result == ModeComparison::Result::Undecided) {
    if (mn * k > kMaxEnumeratedEquality)
      not_canonical(smem, "its modes do not line up with the canonical form " + form + "'s, and its " +
                              std::to_string(mn * k) + " elements are more than the " +
                              std::to_string(kMaxEnumeratedEquality) + " compared one by one");
    charge_enumeration(mn * k, "gmma_desc");
    for (std::int64_t x = 0; x < mn * k && !first; ++x)
      if (apply_index(*layout, x) != apply_index(canonical, x)) first = x;
  }
  if (first) {
    // Elements before it are canonical, so the unit it belongs to starts at a 16-byte
    // aligned offset unless it is that unit's first element.
    const std::int64_t i = *first % mn, j = *first / mn;
    const std::int64_t c = k_major ? j : i, c0 = c - c % t;
    const std::int64_t head = k_major ? g(i, c0) : g(c0, j);
    if (c % t != 0 || floor_mod(head, t) != 0)
      not_canonical(smem, "element (" + std::to_string(i) + "," + std::to_string(j) + ") at offset " +
                              std::to_string(g(i, j)) + " breaks the 16-byte unit starting at offset " +
                              std::to_string(head) + " (a core-matrix row is 16 contiguous, 16-byte aligned bytes)");
    const std::int64_t a = k_major ? i : i / t, b = k_major ? j / t : j;
    not_canonical(smem, "in 16-byte units, unit (" + std::to_string(a) + "," + std::to_string(b) + ") is at " +
                            std::to_string(u(a, b)) + " but the form " + form + " puts it at " +
                            std::to_string(floor_div(apply_index(canonical, *first), t)));
  }

  // 6. Start address.
  if (base < 0 || base % 16 != 0)
    throw Error("gmma_desc: base address " + std::to_string(base) + " is not a non-negative multiple of 16 bytes");
  if (!inter) {
    const std::int64_t repeat = std::int64_t{128} * wu;  // 8 rows of the swizzle width
    if (base % repeat != 0)
      throw Error("gmma_desc: base address " + std::to_string(base) + " is not aligned to the " + std::to_string(repeat) +
                  "-byte repeat of the " + to_string(type) + " swizzle (CuTe writes base_offset 0 and assumes it)");
  }
  // A layout maps (0,0) to offset 0, so the tile starts at the base address.
  const std::int64_t start = base;
  if ((start >> 4) > kField14)
    throw Error("gmma_desc: start address " + std::to_string(start) +
                " does not fit the 14-bit field (shared-memory addresses below 256 KiB)");
  d.start_address = static_cast<std::uint32_t>(start >> 4);
  d.base_offset = 0;
  return {d, major};
}

}  // namespace cuteref
