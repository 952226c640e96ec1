#include "equality.hpp"

#include "coordinates.hpp"
#include "error.hpp"
#include "evaluate.hpp"

namespace cuteref {

namespace {
bool layout_like(const Value& v) { return v.is_layout() || v.is_composed(); }
}  // namespace

Verdict functional_equal(const Value& a, const Value& b) {
  if (layout_like(a) && layout_like(b)) {
    const std::int64_t na = layout_like_size(a), nb = layout_like_size(b);
    if (na != nb)
      return {false, "sizes differ: " + std::to_string(na) + " vs " + std::to_string(nb)};
    if (na > kMaxEnumeratedEquality)
      throw Error("==: size " + std::to_string(na) + " is too large to compare by enumeration (limit " +
                  std::to_string(kMaxEnumeratedEquality) + "); use `cuteref prove`");
    for (std::int64_t i = 0; i < na; ++i) {
      IntTuple va = evaluate_at(a, i), vb = evaluate_at(b, i);
      if (!va.same_values(vb))
        return {false, "at index " + std::to_string(i) + ": left gives " + va.to_string() + ", right gives " +
                           vb.to_string()};
    }
    return {true, ""};
  }
  if (a.is_int_tuple() && b.is_int_tuple()) {
    const auto& ta = std::get<IntTuple>(a.data);
    const auto& tb = std::get<IntTuple>(b.data);
    if (ta.same_values(tb)) return {true, ""};
    return {false, ta.to_string() + " differs from " + tb.to_string()};
  }
  if (a.kind_name() != b.kind_name())
    return {false, "left is " + a.kind_name() + ", right is " + b.kind_name()};
  if (a.to_string() == b.to_string()) return {true, ""};
  return {false, a.to_string() + " differs from " + b.to_string()};
}

}  // namespace cuteref
