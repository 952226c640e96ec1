#include "composition_swizzle.hpp"

#include <bit>
#include <cstdint>
#include <optional>
#include <string>

#include "composition.hpp"
#include "coordinates.hpp"
#include "enumeration_budget.hpp"
#include "error.hpp"
#include "evaluate.hpp"

namespace cuteref {

namespace {

constexpr std::int64_t kMaxChecked = kMaxSwizzleMoveChecked;

std::string what(const Layout& a, const std::string& b) { return "; A = " + a.to_string() + ", B = " + b; }

}  // namespace

Swizzle swizzle_from_mask_images(std::int64_t y, std::int64_t z, const std::string& operands) {
  if (y < 0 || z < 0)
    throw Error("composition: A's images of the swizzle's masks are negative (" + std::to_string(y) + ", " +
                std::to_string(z) + "): no swizzle of offsets" + operands);
  const int bits = std::popcount(static_cast<std::uint64_t>(y));
  if (bits != std::popcount(static_cast<std::uint64_t>(z)))
    throw Error("composition: A maps the swizzle's masks to " + std::to_string(y) + " and " + std::to_string(z) +
                ", which have different numbers of bits (CuTe: \"Number of bits in Y and Z don't match\")" + operands);
  if (bits == 0) return Swizzle(0, 0, 0);
  const int ty = std::countr_zero(static_cast<std::uint64_t>(y));
  const int tz = std::countr_zero(static_cast<std::uint64_t>(z));
  const int m = std::min(ty, tz), s = ty - tz;
  if (std::abs(s) < bits)
    throw Error("composition: A maps the swizzle's masks to overlapping bit runs " + std::to_string(y) + " and " +
                std::to_string(z) + " (no swizzle has them)" + operands);
  const Swizzle out(bits, m, s);
  if ((y | z) != (out.source_mask() | out.destination_mask()))
    throw Error("composition: A maps the swizzle's masks to " + std::to_string(y) + " and " + std::to_string(z) +
                ", which are not runs of contiguous bits (CuTe's make_swizzle: \"Something went wrong.\")" + operands);
  return out;
}

namespace {

Swizzle pushed_swizzle(const Layout& a, const Swizzle& b, const std::string& b_text) {
  if (a.has_basis_strides()) throw Error("composition: A's strides must be integers to move a swizzle" + what(a, b_text));
  return swizzle_from_mask_images(apply_index(a, b.source_mask()), apply_index(a, b.destination_mask()), what(a, b_text));
}

void check_size(std::int64_t n, const Layout& a, const std::string& b) {
  if (n > kMaxChecked)
    throw Error("composition: the domain has " + std::to_string(n) + " elements; the model checks a swizzle moved through A "
                "on every element and does so up to 2^22" + what(a, b));
  charge_enumeration(n, "composition");
}

}  // namespace

Swizzle swizzle_moved_through(const Layout& a, const Swizzle& b) { return pushed_swizzle(a, b, b.to_string()); }

ComposedLayout composition(const Layout& a, const Swizzle& b) {
  const std::string bt = b.to_string();
  const Swizzle moved = pushed_swizzle(a, b, bt);
  const std::int64_t n = size_value(a);
  check_size(n, a, bt);
  for (std::int64_t x = 0; x < n; ++x) {
    const std::int64_t want = apply_index(a, b(x)), got = moved(apply_index(a, x));
    if (want != got)
      throw Error("composition: CuTe's construction " + moved.to_string() + " o 0 o A is not A o " + bt + " here: at x = " +
                  std::to_string(x) + ", A(Sw(x)) = " + std::to_string(want) + " but " + moved.to_string() + "(A(x)) = " +
                  std::to_string(got) + what(a, bt));
  }
  return ComposedLayout{moved, ComposedOffset{IntTuple::static_int(0), "", 0}, a};
}

ComposedLayout composition(const Layout& a, const ComposedLayout& b) {
  const std::string bt = b.to_string();
  const bool zero_offset = !b.offset || (b.offset->value && b.offset->value->value() == 0);
  if (!zero_offset)
    throw Error("composition: a composed layout on the right must have the offset 0 (CuTe: \"Require offset == 0.\")" +
                what(a, bt));
  const Swizzle moved = pushed_swizzle(a, b.swizzle, bt);
  const Layout ab = composition(a, b.layout);
  const std::int64_t n = size_value(b.layout);
  check_size(n, a, bt);
  for (std::int64_t x = 0; x < n; ++x) {
    const std::int64_t want = apply_index(a, b.swizzle(apply_index(b.layout, x)));
    const std::int64_t got = moved(apply_index(ab, x));
    if (want != got)
      throw Error("composition: CuTe's construction " + moved.to_string() + " o 0 o (A o B) is not A o " + bt +
                  " here: at x = " + std::to_string(x) + ", A(Sw(B(x))) = " + std::to_string(want) + " but " +
                  moved.to_string() + "((A o B)(x)) = " + std::to_string(got) + what(a, bt));
  }
  return ComposedLayout{moved, ComposedOffset{IntTuple::static_int(0), "", 0}, ab};
}

ComposedLayout composition(const Swizzle& a, const Layout& b) {
  return ComposedLayout{a, ComposedOffset{IntTuple::static_int(0), "", 0}, b};
}

Value composition(const ComposedLayout& a, const ComposedLayout& b) {
  const ComposedLayout inner = composition(a.layout, b);  // Sw' o _0 o (A o B), checked
  const bool integer_offset = !a.offset || a.offset->value.has_value();
  const bool zero_offset = !a.offset || (a.offset->value && a.offset->value->value() == 0);
  if (!integer_offset)
    throw Error("composition(" + a.to_string() + ", " + b.to_string() +
                "): the left composed layout's offset is a pointer; the model composes two composed layouts only "
                "with an integer offset on the left");
  std::optional<Value> result;
  if (inner.swizzle.bits() == 0) result = Value(ComposedLayout{a.swizzle, a.offset, inner.layout});
  else if (zero_offset && a.swizzle.bits() == 0) result = Value(inner);
  else if (zero_offset && a.swizzle.source_mask() == inner.swizzle.source_mask() &&
           a.swizzle.destination_mask() == inner.swizzle.destination_mask())
    result = Value(inner.layout);
  if (!result)
    throw Error("composition(" + a.to_string() + ", " + b.to_string() + "): CuTe's answer is " + a.swizzle.to_string() +
                " o " + (a.offset ? a.offset->to_string() : std::string("_0")) + " o " + inner.to_string() +
                ", a composed layout inside a composed layout, which the model does not represent (it does where the "
                "two swizzles make at most one: one of them the identity, or both the same with the offset 0)");
  // The definition on the whole domain (inner was checked against A o (Sw_b o 0 o B) already).
  const std::int64_t n = size_value(b.layout);
  for (std::int64_t x = 0; x < n; ++x) {
    const std::int64_t off = a.offset && a.offset->value ? a.offset->value->value() : 0;
    const std::int64_t want = a.swizzle(checked_add(off, inner.swizzle(apply_index(inner.layout, x))));
    const std::int64_t got = result->is_layout() ? apply_index(std::get<Layout>(result->data), x)
                                                 : apply_composed(std::get<ComposedLayout>(result->data), x);
    if (want != got)
      throw Error("composition(" + a.to_string() + ", " + b.to_string() + "): the combined form " + result->to_string() +
                  " differs from the definition at x = " + std::to_string(x) + " (" + std::to_string(got) + " vs " +
                  std::to_string(want) + ")");
  }
  return *result;
}

}  // namespace cuteref
