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
    if (!c.offset->value)
      throw Error("evaluating " + c.to_string() + ": the offset " + c.offset->pointer_token +
                  " is a pointer whose meaning depends on the element type; evaluate the atom it came from instead");
    offset = c.offset->value->value();
  }
  return c.swizzle(checked_add(offset, apply_index(c.layout, index)));
}

IntTuple evaluate_at(const Value& v, std::int64_t index) {
  if (v.is_layout()) return apply(std::get<Layout>(v.data), IntTuple::integer(index));
  if (v.is_composed()) return IntTuple::integer(apply_composed(std::get<ComposedLayout>(v.data), index));
  throw Error("expected a layout or composed layout, got " + v.kind_name());
}

}  // namespace cuteref
