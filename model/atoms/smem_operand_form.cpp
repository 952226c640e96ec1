#include "atoms/smem_operand_form.hpp"

#include <optional>

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "coordinates.hpp"
#include "enumeration_budget.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "mode_comparison.hpp"

namespace cuteref {

namespace {

constexpr std::int64_t kDescriptorField14 = (1 << 14) - 1;

// A distance of `units` 16-byte units, for a diagnostic: in bytes, or in units where the bytes
// do not fit in int64 (a layout's strides may be anything up to that bound).
std::string bytes_text(std::int64_t units) {
  std::int64_t bytes;
  if (__builtin_mul_overflow(units, 16, &bytes)) return std::to_string(units) + " 16-byte units";
  return std::to_string(bytes) + " bytes";
}

int log2_ceil(std::int64_t v) {
  int r = 0;
  while ((std::int64_t{1} << r) < v) ++r;
  return r;
}

// The layout type's name in the dialect's own spelling (GMMA::LayoutType, UMMA::LayoutType).
std::string swizzle_name(SmemOperandSwizzle s, const SmemOperandDialect& d) {
  const bool umma = d.family == "UMMA";
  switch (s) {
    case SmemOperandSwizzle::None: return umma ? "SWIZZLE_NONE" : "INTERLEAVE";
    case SmemOperandSwizzle::B32: return umma ? "SWIZZLE_32B" : "B32";
    case SmemOperandSwizzle::B64: return umma ? "SWIZZLE_64B" : "B64";
    case SmemOperandSwizzle::B128: return umma ? "SWIZZLE_128B" : "B128";
    case SmemOperandSwizzle::B128Base32B: return "SWIZZLE_128B_BASE32B";
  }
  return "?";
}

}  // namespace

SmemOperandFields read_smem_operand(const Value& smem, int bits, std::int64_t base, const SmemOperandDialect& dialect) {
  const std::string& fn = dialect.function;
  auto not_canonical = [&](const std::string& what) {
    throw Error(fn + ": " + smem.to_string() + " is not a canonical " + dialect.family + " layout: " + what);
  };
  if (bits != 8 && bits != 16 && bits != 32)
    throw Error(fn + ": element width must be 8, 16 or 32 bits, got " + std::to_string(bits));
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
        throw Error(fn + ": the layout is for " + std::to_string(c.offset->pointer_element_bits) + "-bit elements (" +
                    c.offset->pointer_token + ") but the element width given is " + std::to_string(bits));
      byte_swizzle = c.swizzle;
    } else {
      if (c.offset && c.offset->value->value() != 0)
        not_canonical("a composed layout with a non-zero integer offset has no fixed byte address");
      // A swizzle on element offsets moves to byte addresses by the element size.
      const int shift = log2_ceil(bits / 8);
      byte_swizzle = Swizzle(c.swizzle.bits(), c.swizzle.base() + shift, c.swizzle.shift());
    }
  } else {
    throw Error(fn + ": argument 1 must be a layout or composed layout, got " + smem.kind_name());
  }
  SmemOperandFields out;
  int wu = 1;    // swizzle width in 16-byte units
  int rows = 8;  // rows of one swizzle atom (MN-major: K rows per group)
  if (byte_swizzle && byte_swizzle->bits() != 0) {
    const Swizzle& sw = *byte_swizzle;
    if (dialect.base32b && sw.bits() == 2 && sw.base() == 5 && sw.shift() == 2) {
      wu = 8;
      rows = 4;
      out.swizzle = SmemOperandSwizzle::B128Base32B;
    } else {
      if (sw.base() != 4 || sw.shift() != 3 || sw.bits() > 3)
        not_canonical("swizzle " + sw.to_string() + " on byte addresses is not a " + dialect.family +
                      " swizzle (Sw<1,4,3>, Sw<2,4,3>, Sw<3,4,3>" + (dialect.base32b ? ", Sw<2,5,2>" : "") + " or none)");
      wu = 1 << sw.bits();
      out.swizzle = sw.bits() == 1 ? SmemOperandSwizzle::B32 : sw.bits() == 2 ? SmemOperandSwizzle::B64 : SmemOperandSwizzle::B128;
    }
  }
  const std::string type_name = swizzle_name(out.swizzle, dialect);

  // 2. Shape: rank 2, K spans 32 bytes.
  if (rank(*layout) != 2) not_canonical("expected a rank-2 (MN, K) layout, got rank " + std::to_string(rank(*layout)));
  const std::int64_t mn = size_value(mode(*layout, 0)), k = size_value(mode(*layout, 1));
  if (checked_mul(k, bits) != 256)
    not_canonical("K extent " + std::to_string(k) + " of " + std::to_string(bits) + "-bit elements is " +
                  std::to_string(k * bits / 8) + " bytes; a " + dialect.instruction + " operand tile spans 32 bytes of K");
  // Element offset of (i, j).
  auto g = [&](std::int64_t i, std::int64_t j) { return apply_index(*layout, i + mn * j); };

  // 3. Majorness: which mode holds 16 contiguous bytes.
  const std::int64_t t = 128 / bits;  // elements per 16 bytes
  const bool k_major = g(0, 1) == 1;
  const bool mn_major = !k_major && mn > 1 && g(1, 0) == 1;
  if (!k_major && !mn_major)
    not_canonical("neither mode has stride 1 at the origin (step along MN: " + std::to_string(mn > 1 ? g(1, 0) : 0) +
                  ", along K: " + std::to_string(g(0, 1)) + "), so no core-matrix row is 16 contiguous bytes");
  out.major = k_major ? GmmaMajor::K : GmmaMajor::MN;
  if (k_major && out.swizzle == SmemOperandSwizzle::B128Base32B)
    not_canonical("the 128B_BASE32B swizzle Sw<2,5,2> is for MN-major tiles only, and this tile is K-major");
  const std::int64_t contiguous_extent = k_major ? k : mn;
  if (contiguous_extent % t != 0)
    not_canonical("the contiguous extent " + std::to_string(contiguous_extent) + " is not a whole number of 16-byte (" +
                  std::to_string(t) + "-element) units");

  // 4. The canonical form, read from a few elements (u(a, b): the offset in 16-byte units of
  // 16-byte unit (a, b), i.e. of its first element), then the whole layout compared with it
  // by their modes (mode_comparison.hpp), without visiting the elements.
  if (layout->has_basis_strides()) not_canonical("a stride is a scaled basis, not a shared-memory offset");
  const std::int64_t umn = k_major ? mn : mn / t;  // MN extent in 16-byte units (MN-major)
  auto u = [&](std::int64_t a, std::int64_t b) {
    return k_major ? floor_div(g(a, b * t), t) : floor_div(g(a * t, b), t);
  };
  auto I = [](std::int64_t v) { return IntTuple::integer(v); };
  const bool inter = out.swizzle == SmemOperandSwizzle::None;
  Layout canonical = *layout;  // the canonical layout in elements, over the same (MN, K) domain
  std::string form;
  auto check_fields = [&](std::int64_t sbo, std::int64_t lbo) {
    if (sbo < 0 || sbo > kDescriptorField14 || lbo < 0 || lbo > kDescriptorField14)
      not_canonical("an offset does not fit the 14-bit descriptor field (SBO " + std::to_string(sbo) + ", LBO " +
                    std::to_string(lbo) + " in 16-byte units)");
    out.stride_byte_offset = static_cast<std::uint32_t>(sbo);
    out.leading_byte_offset = static_cast<std::uint32_t>(lbo);
  };
  if (k_major) {
    if (mn % 8 != 0) not_canonical("MN extent " + std::to_string(mn) + " is not a multiple of 8 (the rows of a core matrix)");
    const std::int64_t n = mn / 8;
    const std::int64_t row = u(1, 0);
    if (row != wu)
      not_canonical("consecutive rows of a core matrix are " + bytes_text(row) + " apart; layout type " + type_name +
                    " needs " + bytes_text(wu));
    const std::int64_t sbo = n > 1 ? u(8, 0) : 0;
    const std::int64_t lbo = u(0, 1);
    if (!inter && lbo != 1)
      not_canonical("the two 16-byte K units of a row are " + bytes_text(lbo) +
                    " apart; a swizzled K-major layout keeps them adjacent");
    // Unit (a, b) at (a % 8) * W + (a / 8) * SBO + b * LBO; element (i, j) at unit (i, j / t),
    // element j % t of it: ((8,n),(t,2)) : ((W*t, SBO*t), (1, LBO*t)).
    form = "((8,n),2):((" + std::to_string(wu) + ",SBO=" + std::to_string(sbo) + ")," + std::to_string(lbo) + ")";
    canonical = Layout(IntTuple::tuple({IntTuple::tuple({I(8), I(n)}), IntTuple::tuple({I(t), I(2)})}),
                       IntTuple::tuple({IntTuple::tuple({I(wu * t), I(checked_mul(sbo, t))}),
                                        IntTuple::tuple({I(1), I(checked_mul(lbo, t))})}));
    check_fields(sbo, inter ? lbo : 1);
  } else {
    if (k % rows != 0)
      not_canonical("K extent " + std::to_string(k) + " is not a multiple of " + std::to_string(rows) +
                    " (the rows of a " + (rows == 8 ? std::string("core matrix") : type_name + " atom") + ")");
    if (umn % wu != 0)
      not_canonical("MN extent " + std::to_string(mn) + " is not a multiple of the swizzle width (" + std::to_string(wu * t) +
                    " elements)");
    const std::int64_t n = umn / wu, kg = k / rows;
    if (wu > 1 && u(1, 0) != 1)
      not_canonical("the 16-byte units of a swizzled MN-major row are " + bytes_text(u(1, 0)) + " apart; they must be adjacent");
    const std::int64_t row = u(0, 1);
    if (row != wu)
      not_canonical("consecutive K rows of a core matrix are " + bytes_text(row) + " apart; layout type " + type_name +
                    " needs " + bytes_text(wu));
    const std::int64_t s01 = n > 1 ? u(wu, 0) : 0;
    const std::int64_t s11 = kg > 1 ? u(0, rows) : 0;
    const std::int64_t s00 = wu > 1 ? 1 : 0;
    // Unit (a, b) at (a % W) * s00 + (a / W) * s01 + (b % R) * W + (b / R) * s11; element (i, j)
    // at unit (i / t, j), element i % t of it: ((t,W,n),(R,k)) : ((1,s00*t,s01*t), (W*t, s11*t)).
    form = "((" + std::to_string(wu) + ",n),(" + std::to_string(rows) + ",k)):((1," + std::to_string(s01) + "),(" +
           std::to_string(wu) + "," + std::to_string(s11) + "))";
    canonical = Layout(IntTuple::tuple({IntTuple::tuple({I(t), I(wu), I(n)}), IntTuple::tuple({I(rows), I(kg)})}),
                       IntTuple::tuple({IntTuple::tuple({I(1), I(s00 * t), I(checked_mul(s01, t))}),
                                        IntTuple::tuple({I(wu * t), I(checked_mul(s11, t))})}));
    check_fields(inter ? s01 : s11, inter ? s11 : s01);
  }
  // The first index where the layout leaves the canonical form, if any: by modes, or (modes
  // that do not line up, e.g. an MN extent of 24 = 8 * 3 against 16) by enumeration, at most
  // kMaxEnumeratedEquality elements.
  std::optional<std::int64_t> first;
  const ModeComparison by_modes = compare_by_modes(coalesce(*layout), coalesce(canonical));
  if (by_modes.result == ModeComparison::Result::Differ) first = by_modes.first_difference;
  if (by_modes.result == ModeComparison::Result::Undecided) {
    if (mn * k > kMaxEnumeratedEquality)
      not_canonical("its modes do not line up with the canonical form " + form + "'s, and its " + std::to_string(mn * k) +
                    " elements are more than the " + std::to_string(kMaxEnumeratedEquality) + " compared one by one");
    charge_enumeration(mn * k, fn.c_str());
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
      not_canonical("element (" + std::to_string(i) + "," + std::to_string(j) + ") at offset " + std::to_string(g(i, j)) +
                    " breaks the 16-byte unit starting at offset " + std::to_string(head) +
                    " (a core-matrix row is 16 contiguous, 16-byte aligned bytes)");
    const std::int64_t a = k_major ? i : i / t, b = k_major ? j / t : j;
    not_canonical("in 16-byte units, unit (" + std::to_string(a) + "," + std::to_string(b) + ") is at " +
                  std::to_string(u(a, b)) + " but the form " + form + " puts it at " +
                  std::to_string(floor_div(apply_index(canonical, *first), t)));
  }

  // 5. Start address.
  if (base < 0 || base % 16 != 0)
    throw Error(fn + ": base address " + std::to_string(base) + " is not a non-negative multiple of 16 bytes");
  if (!inter) {
    const std::int64_t repeat = std::int64_t{16} * rows * wu;  // R rows of the swizzle width
    if (base % repeat != 0)
      throw Error(fn + ": base address " + std::to_string(base) + " is not aligned to the " + std::to_string(repeat) +
                  "-byte repeat of the " + type_name + " swizzle (CuTe writes base_offset 0 and assumes it)");
  }
  // A layout maps (0,0) to offset 0, so the tile starts at the base address.
  if ((base >> 4) > kDescriptorField14)
    throw Error(fn + ": start address " + std::to_string(base) +
                " does not fit the 14-bit field (shared-memory addresses below 256 KiB)");
  out.start_address = static_cast<std::uint32_t>(base >> 4);
  return out;
}

}  // namespace cuteref
