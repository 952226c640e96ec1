#include "composed_advance.hpp"

#include "checked_math.hpp"
#include "error.hpp"

namespace cuteref {

ComposedLayout advance_composed(const ComposedLayout& c, Layout inner, std::int64_t advance) {
  if (advance == 0) return ComposedLayout{c.swizzle, c.offset, std::move(inner)};
  if (!c.offset || c.offset->value) {
    const std::int64_t base = c.offset ? c.offset->value->value() : 0;
    return ComposedLayout{c.swizzle, ComposedOffset{IntTuple::integer(checked_add(base, advance)), "", 0}, std::move(inner)};
  }
  const int bits = c.offset->pointer_element_bits;
  int log2_bits = 0;
  while (log2_bits < 30 && (1 << log2_bits) < bits) ++log2_bits;
  if (bits <= 0 || (1 << log2_bits) != bits)
    throw Error("moving the origin of " + c.to_string() + " by " + std::to_string(advance) + ": element width " +
                std::to_string(bits) + " bits is not a power of two");
  const int element_base = c.swizzle.base() + 3 - log2_bits;  // the swizzle's lowest bit, in elements
  if (element_base < 0)
    throw Error("moving the origin of " + c.to_string() + " by " + std::to_string(advance) +
                ": the swizzle moves bits inside a " + std::to_string(bits) +
                "-bit element, so it has no form on element offsets to carry the advance");
  return ComposedLayout{Swizzle(c.swizzle.bits(), element_base, c.swizzle.shift()),
                        ComposedOffset{IntTuple::integer(advance), "", 0}, std::move(inner)};
}

}  // namespace cuteref
