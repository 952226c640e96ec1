#include "recast_composed.hpp"

#include <string>

#include "checked_math.hpp"
#include "error.hpp"
#include "recast.hpp"

namespace cuteref {

namespace {

// log2(n) for a power of two n >= 1, else an error naming the operation.
int log2_of_power_of_two(std::int64_t n, const char* fn, const ComposedLayout& c) {
  if (n < 1 || (n & (n - 1)) != 0)
    throw Error(std::string(fn) + ": precondition violated: the factor " + std::to_string(n) +
                " must be a power of two to move a swizzle (CuTe: \"N must be a power of two\"); C = " + c.to_string());
  int k = 0;
  while ((std::int64_t{1} << k) < n) ++k;
  return k;
}

bool on_pointer(const ComposedLayout& c) { return c.offset && !c.offset->value; }

ComposedOffset pointer_offset(int bits) {  // the vendor's token, as the notation reads it
  return ComposedOffset{std::nullopt, "smem_ptr[" + std::to_string(bits) + "b](unset)", bits};
}

IntTuple offset_value(const ComposedLayout& c) {
  return c.offset ? *c.offset->value : IntTuple::static_int(0);
}

}  // namespace

ComposedLayout upcast(const ComposedLayout& c, std::int64_t n) {
  if (n == 1) return c;
  if (on_pointer(c)) {
    const std::int64_t bits = checked_mul(c.offset->pointer_element_bits, n);
    if (bits > 1024) throw Error("upcast: the element width " + std::to_string(bits) + " bits is too large; C = " + c.to_string());
    return ComposedLayout{c.swizzle, pointer_offset(static_cast<int>(bits)), upcast(c.layout, n)};
  }
  const int k = log2_of_power_of_two(n, "upcast", c);
  const Swizzle& s = c.swizzle;
  const int new_base = s.base() - k;
  const Swizzle moved = new_base >= 0 ? Swizzle(s.bits(), new_base, s.shift())
                                      : Swizzle(std::max(s.bits() + new_base, 0), 0, s.shift());
  const IntTuple o = offset_value(c);
  if (o.value() % n != 0)
    throw Error("upcast: precondition violated: the offset " + o.to_string() + " is not a multiple of " + std::to_string(n) +
                " (CuTe's safe_div); C = " + c.to_string());
  return ComposedLayout{moved, ComposedOffset{IntTuple::integer(o.value() / n, o.is_static()), "", 0}, upcast(c.layout, n)};
}

ComposedLayout downcast(const ComposedLayout& c, std::int64_t n) {
  if (n == 1) return c;
  if (on_pointer(c)) {
    const int bits = c.offset->pointer_element_bits;
    if (n < 1 || bits % n != 0)
      throw Error("downcast: precondition violated: the factor " + std::to_string(n) + " must divide the pointer's element width " +
                  std::to_string(bits) + " bits; C = " + c.to_string());
    return ComposedLayout{c.swizzle, pointer_offset(static_cast<int>(bits / n)), downcast(c.layout, n)};
  }
  const int k = log2_of_power_of_two(n, "downcast", c);
  const Swizzle& s = c.swizzle;
  const IntTuple o = offset_value(c);
  return ComposedLayout{Swizzle(s.bits(), s.base() + k, s.shift()),
                        ComposedOffset{IntTuple::integer(checked_mul(o.value(), n), o.is_static()), "", 0},
                        downcast(c.layout, n)};
}

ComposedLayout recast(const ComposedLayout& c, std::int64_t old_bits, std::int64_t new_bits) {
  if (old_bits < 1 || new_bits < 1)
    throw Error("recast: precondition violated: element widths must be >= 1 bit, got old = " + std::to_string(old_bits) +
                ", new = " + std::to_string(new_bits) + "; C = " + c.to_string());
  const std::int64_t g = gcd64(old_bits, new_bits);
  const std::int64_t num = new_bits / g, den = old_bits / g;
  return downcast(upcast(c, num), den);
}

}  // namespace cuteref
