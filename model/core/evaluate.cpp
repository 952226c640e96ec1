#include "evaluate.hpp"

#include "checked_math.hpp"
#include "composed_eval.hpp"
#include "coordinates.hpp"
#include "error.hpp"

#include <algorithm>

namespace cuteref {

std::int64_t layout_like_size(const Value& v) {
  if (v.is_layout()) return size_value(std::get<Layout>(v.data));
  if (v.is_composed()) return size_value(std::get<ComposedLayout>(v.data).layout);
  if (v.is_f2_layout()) return size_value(std::get<F2Layout>(v.data));
  throw Error("expected a layout, composed layout or F2 layout, got " + v.kind_name());
}

std::int64_t apply_composed(const ComposedLayout& c, std::int64_t index) {
  if (index < 0) throw Error("layout application: index " + std::to_string(index) + " is negative");
  const std::int64_t inner = apply_index(c.layout, index);
  if (!c.offset || c.offset->value) {
    // Offsets of any sign: the swizzle XORs the two's-complement pattern, as CuTe's does
    // (offset + L(i) is overflow-checked there).
    return composed_value<CheckedInt>(c, index).v;
  }
  // `Sw o smem_ptr[Nb](unset) o L` (CuTe's GMMA atoms): the swizzle acts on the *byte*
  // address of the N-bit element L(i) (CuTe turns it into a swizzle_ptr). As a function of
  // element indices: i -> the swizzle's element form (pointer_swizzle.hpp) of L(i).
  // Precondition: the swizzle has an element form (it permutes whole elements).
  try {
    element_swizzle(c.swizzle, c.offset->pointer_element_bits);
  } catch (const Error& e) {
    throw Error("evaluating " + c.to_string() + ": " + e.what());
  }
  // The swizzle acts on the byte address, which the model takes from an aligned base; an
  // element before the pointer has no address the model knows (CuTe swizzles the real one).
  if (inner < 0)
    throw Error("evaluating " + c.to_string() + ": element offset " + std::to_string(inner) +
                " is negative, before the smem pointer, whose base address the model does not know");
  return composed_value<CheckedInt>(c, index).v;
}

IntTuple evaluate_at(const Value& v, std::int64_t index) {
  if (v.is_layout()) return apply(std::get<Layout>(v.data), IntTuple::integer(index));
  if (v.is_composed()) return IntTuple::integer(apply_composed(std::get<ComposedLayout>(v.data), index));
  if (v.is_f2_layout()) return IntTuple::integer(apply_index(std::get<F2Layout>(v.data), index));
  throw Error("expected a layout, composed layout or F2 layout, got " + v.kind_name());
}

}  // namespace cuteref
