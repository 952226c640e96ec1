#include "evaluate.hpp"

#include "checked_math.hpp"
#include "coordinates.hpp"
#include "error.hpp"

namespace cuteref {

std::int64_t layout_like_size(const Value& v) {
  if (v.is_layout()) return size_value(std::get<Layout>(v.data));
  if (v.is_composed()) return size_value(std::get<ComposedLayout>(v.data).layout);
  throw Error("expected a layout or composed layout, got " + v.kind_name());
}

std::int64_t apply_composed(const ComposedLayout& c, std::int64_t index) {
  std::int64_t offset = 0;
  if (c.offset) {
    if (!c.offset->value) return apply_smem_ptr_composed(c, index);
    offset = c.offset->value->value();
  }
  return c.swizzle(checked_add(offset, apply_index(c.layout, index)));
}

std::int64_t apply_smem_ptr_composed(const ComposedLayout& c, std::int64_t index) {
  const int w = c.offset ? c.offset->pointer_element_bits : 0;
  if (!c.offset || c.offset->value || w < 1 || (w & (w - 1)) != 0)
    throw Error("evaluating " + c.to_string() + ": expected an smem_ptr[Nb] offset with N a power of two");
  // The swizzle acts on byte addresses; on bit addresses it is the same swizzle with its base
  // raised by 3. It leaves the low M+3 bits alone, so an element start stays an element start
  // only if the element is at most 2^(M+3) bits wide.
  const int base_bits = c.swizzle.base() + 3;
  if (base_bits < 62 && w > (std::int64_t{1} << base_bits))
    throw Error("evaluating " + c.to_string() + ": " + std::to_string(w) + "-bit elements are wider than the " +
                std::to_string(std::int64_t{1} << c.swizzle.base()) +
                "-byte units the swizzle permutes, so a swizzled address is not an element boundary");
  const Swizzle on_bits(c.swizzle.bits(), base_bits, c.swizzle.shift());
  const std::int64_t bit_address = checked_mul(apply_index(c.layout, index), w);
  if (bit_address < 0)
    throw Error("evaluating " + c.to_string() + ": negative offset " + std::to_string(bit_address / w) +
                " at index " + std::to_string(index) + " (smem addresses are non-negative)");
  return on_bits(bit_address) / w;
}

IntTuple evaluate_at(const Value& v, std::int64_t index) {
  if (v.is_layout()) return apply(std::get<Layout>(v.data), IntTuple::integer(index));
  if (v.is_composed()) return IntTuple::integer(apply_composed(std::get<ComposedLayout>(v.data), index));
  throw Error("expected a layout or composed layout, got " + v.kind_name());
}

}  // namespace cuteref
