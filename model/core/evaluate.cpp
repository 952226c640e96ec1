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

// x -> Sw(offset + L(x)); behind `smem_ptr[Nb](unset)` (CuTe's GMMA atoms) the swizzle acts on
// the byte address of the N-bit element L(x) (CuTe turns it into a swizzle_ptr). composed_eval.hpp
// states both, with every precondition (x >= 0; behind the pointer L(x) >= 0 and a swizzle that
// permutes whole elements); a refusal behind the pointer names the composed layout.
std::int64_t apply_composed(const ComposedLayout& c, std::int64_t index) {
  if (!c.offset || c.offset->value) return composed_value<CheckedInt>(c, index).v;
  try {
    return composed_value<CheckedInt>(c, index).v;
  } catch (const Error& e) {
    throw Error("evaluating " + c.to_string() + ": " + e.what());
  }
}

IntTuple evaluate_at(const Value& v, std::int64_t index) {
  if (v.is_layout()) return apply(std::get<Layout>(v.data), IntTuple::integer(index));
  if (v.is_composed()) return IntTuple::integer(apply_composed(std::get<ComposedLayout>(v.data), index));
  if (v.is_f2_layout()) return IntTuple::integer(apply_index(std::get<F2Layout>(v.data), index));
  throw Error("expected a layout, composed layout or F2 layout, got " + v.kind_name());
}

}  // namespace cuteref
