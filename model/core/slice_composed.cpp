#include "slice_composed.hpp"

#include "composed_advance.hpp"
#include "coordinates.hpp"
#include "error.hpp"

namespace cuteref {

std::pair<ComposedLayout, IntTuple> slice_and_offset(const IntTuple& coord, const ComposedLayout& c) {
  auto [slice, off] = slice_and_offset(coord, c.layout);
  if (!off.is_integer())
    throw Error("slice_and_offset: the offset " + off.to_string() + " of the fixed coordinates is not an integer; C = " +
                c.to_string());
  return {advance_composed(c, std::move(slice), off.value()), IntTuple::static_int(0)};
}

}  // namespace cuteref
