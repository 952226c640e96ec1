#include "equality.hpp"

#include "coalesce.hpp"
#include "coordinates.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "mode_comparison.hpp"

namespace cuteref {

namespace {
bool layout_like(const Value& v) { return v.is_layout() || v.is_composed(); }

Verdict differ_at(const Value& a, const Value& b, std::int64_t i) {
  const IntTuple va = evaluate_at(a, i), vb = evaluate_at(b, i);
  return {false, "at index " + std::to_string(i) + ": left gives " + va.to_string() + ", right gives " + vb.to_string()};
}

bool integer_layout(const Value& v) { return v.is_layout() && !std::get<Layout>(v.data).has_basis_strides(); }
}  // namespace

Verdict functional_equal(const Value& a, const Value& b) {
  if (layout_like(a) && layout_like(b)) {
    const std::int64_t na = layout_like_size(a), nb = layout_like_size(b);
    if (na != nb)
      return {false, "sizes differ: " + std::to_string(na) + " vs " + std::to_string(nb)};
    if (integer_layout(a) && integer_layout(b)) {
      // Coalescing keeps each function and lines up more modes (e.g. (2,3):(1,2) is 6:1).
      const ModeComparison c =
          compare_by_modes(coalesce(std::get<Layout>(a.data)), coalesce(std::get<Layout>(b.data)));
      if (c.result == ModeComparison::Result::Equal) return {true, ""};
      if (c.result == ModeComparison::Result::Differ) return differ_at(a, b, c.first_difference);
    }
    if (na > kMaxEnumeratedEquality)
      throw Error("==: size " + std::to_string(na) + " is more than the " + std::to_string(kMaxEnumeratedEquality) +
                  " indices compared one by one (composed layouts, scaled-basis strides, or modes that do not line "
                  "up, e.g. 2 against 3); use `cuteref prove`");
    for (std::int64_t i = 0; i < na; ++i) {
      IntTuple va = evaluate_at(a, i), vb = evaluate_at(b, i);
      if (!va.same_values(vb)) return differ_at(a, b, i);
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
