#include "composed_advance.hpp"

#include "checked_math.hpp"
#include "error.hpp"
#include "pointer_swizzle.hpp"

namespace cuteref {

ComposedLayout advance_composed(const ComposedLayout& c, Layout inner, std::int64_t advance) {
  if (advance == 0) return ComposedLayout{c.swizzle, c.offset, std::move(inner)};
  if (!c.offset || c.offset->value) {
    const std::int64_t base = c.offset ? c.offset->value->value() : 0;
    return ComposedLayout{c.swizzle, ComposedOffset{IntTuple::integer(checked_add(base, advance)), "", 0}, std::move(inner)};
  }
  // The token cannot carry an offset: the swizzle moves to element offsets, where it can.
  try {
    return ComposedLayout{element_swizzle(c.swizzle, c.offset->pointer_element_bits),
                          ComposedOffset{IntTuple::integer(advance), "", 0}, std::move(inner)};
  } catch (const Error& e) {
    throw Error("moving the origin of " + c.to_string() + " by " + std::to_string(advance) + ": " + e.what());
  }
}

}  // namespace cuteref
