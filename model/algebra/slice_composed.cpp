#include "slice_composed.hpp"

#include "checked_math.hpp"
#include "coordinates.hpp"
#include "error.hpp"

namespace cuteref {

std::pair<ComposedLayout, IntTuple> slice_and_offset(const IntTuple& coord, const ComposedLayout& c) {
  if (c.offset && !c.offset->value)
    throw Error("slice_and_offset: the composed layout " + c.to_string() +
                " has a pointer offset; the model slices composed layouts with an integer offset only");
  auto [slice, off] = slice_and_offset(coord, c.layout);
  if (!off.is_integer())
    throw Error("slice_and_offset: the offset " + off.to_string() + " of the fixed coordinates is not an integer; C = " +
                c.to_string());
  const IntTuple o = c.offset ? *c.offset->value : IntTuple::static_int(0);
  const IntTuple sum = IntTuple::integer(checked_add(o.value(), off.value()), o.is_static() && off.is_static());
  return {ComposedLayout{c.swizzle, ComposedOffset{sum, "", 0}, std::move(slice)}, IntTuple::static_int(0)};
}

}  // namespace cuteref
