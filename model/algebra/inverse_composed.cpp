#include "inverse_composed.hpp"

#include <cstdint>
#include <string>

#include "composition_swizzle.hpp"
#include "coordinates.hpp"
#include "enumeration_budget.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "inverse.hpp"

namespace cuteref {

namespace {

constexpr std::int64_t kMaxChecked = std::int64_t{1} << 22;

// L of C = Sw o 0 o L, after checking that the offset is the integer 0.
const Layout& inner_of_zero_offset(const ComposedLayout& c, const std::string& fn) {
  if (c.offset && !c.offset->value)
    throw Error(fn + ": " + c.to_string() + " keeps its swizzle behind " + c.offset->pointer_token +
                " (it acts on byte addresses, not on the layout's element offsets): no inverse of element offsets");
  if (c.offset && c.offset->value->value() != 0)
    throw Error(fn + ": the offset of " + c.to_string() + " is " + c.offset->value->to_string() +
                ", not 0: CuTe 4.2 defines the inverse of a swizzled layout only for the offset _0 (for another offset it "
                "builds R o -O o Sw, which has no size), and the CuTe DSL refuses composed layouts");
  if (c.layout.has_basis_strides()) throw Error(fn + ": " + c.to_string() + " has scaled-basis strides: no inverse of offsets");
  return c.layout;
}

void check_size(std::int64_t n, const std::string& fn, const ComposedLayout& c) {
  if (n > kMaxChecked)
    throw Error(fn + ": " + c.to_string() + ": the domain has " + std::to_string(n) +
                " elements; the model checks the inverse on every element and does so up to 2^22");
}

std::string at(const std::string& fn, const ComposedLayout& c, const ComposedLayout& r) {
  return fn + "(" + c.to_string() + "): CuTe's composition(" + fn + "(L), Sw) = " + r.to_string();
}

// CuTe's composition(inverse, Sw): Sw' o _0 o inverse with Sw' the swizzle moved left through
// the inverse (CuTe's mask rule), or an Error where CuTe's make_swizzle static-asserts.
ComposedLayout moved(const Layout& inverse, const Swizzle& sw, const std::string& fn, const ComposedLayout& c) {
  try {
    return ComposedLayout{swizzle_moved_through(inverse, sw), ComposedOffset{IntTuple::static_int(0), "", 0}, inverse};
  } catch (const Error& e) {
    throw Error(fn + "(" + c.to_string() + ") is composition(" + fn + "(L), Sw) with " + fn + "(L) = " + inverse.to_string() +
                ", and the swizzle cannot be moved through it (CuTe static-asserts): " + e.what());
  }
}

}  // namespace

ComposedLayout right_inverse(const ComposedLayout& c) {
  const std::string fn = "right_inverse";
  const Layout& l = inner_of_zero_offset(c, fn);
  const ComposedLayout r = moved(right_inverse_full(l), c.swizzle, fn, c);
  const std::int64_t n = size_value(r.layout), domain = size_value(l);
  check_size(n, fn, c);
  charge_enumeration(n, "right_inverse");
  for (std::int64_t y = 0; y < n; ++y) {
    const std::int64_t x = apply_composed(r, y);
    if (x < 0 || x >= domain)
      throw Error(at(fn, c, r) + " is not a right inverse: it maps " + std::to_string(y) + " to " + std::to_string(x) +
                  ", outside C's domain [0, " + std::to_string(domain) + ")");
    if (apply_composed(c, x) != y)
      throw Error(at(fn, c, r) + " is not a right inverse: C(R(" + std::to_string(y) + ")) = C(" + std::to_string(x) +
                  ") = " + std::to_string(apply_composed(c, x)));
  }
  return r;
}

ComposedLayout left_inverse(const ComposedLayout& c) {
  const std::string fn = "left_inverse";
  const Layout& l = inner_of_zero_offset(c, fn);
  const Layout inverse_of_l = left_inverse(l);
  const ComposedLayout r = moved(inverse_of_l, c.swizzle, fn, c);
  const std::int64_t n = size_value(l), domain = size_value(r.layout);
  check_size(n, fn, c);
  check_size(domain, fn, c);
  charge_enumeration(n, "left_inverse");
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t y = apply_composed(c, i);
    if (y < 0 || y >= domain)
      throw Error(at(fn, c, r) + " is not a left inverse: C(" + std::to_string(i) + ") = " + std::to_string(y) +
                  " lies outside its domain [0, " + std::to_string(domain) + ")");
    const std::int64_t want = apply_index(inverse_of_l, apply_index(l, i));
    if (apply_composed(r, y) != want)
      throw Error(at(fn, c, r) + " is not a left inverse: R(C(" + std::to_string(i) + ")) = " +
                  std::to_string(apply_composed(r, y)) + ", left_inverse(L)(L(" + std::to_string(i) + ")) = " +
                  std::to_string(want));
  }
  return r;
}

}  // namespace cuteref
