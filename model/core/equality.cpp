#include "equality.hpp"

#include <optional>
#include <utility>

#include "coalesce.hpp"
#include "coordinates.hpp"
#include "enumeration_budget.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "f2_layout.hpp"
#include "layout_value_stream.hpp"
#include "mode_comparison.hpp"

namespace cuteref {

namespace {
bool layout_like(const Value& v) { return v.is_layout() || v.is_composed() || v.is_f2_layout(); }

Verdict differ_at(const Value& a, const Value& b, std::int64_t i) {
  const IntTuple va = evaluate_at(a, i), vb = evaluate_at(b, i);
  return {false, "at index " + std::to_string(i) + ": left gives " + va.to_string() + ", right gives " + vb.to_string()};
}

bool integer_layout(const Layout& l) { return !l.has_basis_strides(); }

// The inner layouts whose functions decide a == b without enumerating: a and b themselves when
// both are integer layouts, or their inner layouts when both are composed layouts with the same
// swizzle and integer offset (x -> Sw(off + L(x)) with Sw a bijection: the composed layouts differ
// exactly where the inner layouts do, at the same indices). Not behind an smem_ptr token, where
// the model refuses some elements (before the pointer, or a swizzle inside an element), nor
// where off + L(x) can overflow: enumeration reports those at their index.
std::optional<std::pair<Layout, Layout>> decided_by_inner_layouts(const Value& a, const Value& b) {
  if (a.is_layout() && b.is_layout()) return std::pair{std::get<Layout>(a.data), std::get<Layout>(b.data)};
  if (!a.is_composed() || !b.is_composed()) return std::nullopt;
  const auto& ca = std::get<ComposedLayout>(a.data);
  const auto& cb = std::get<ComposedLayout>(b.data);
  const auto offset_value = [](const ComposedLayout& c) -> std::optional<std::int64_t> {
    if (!c.offset) return 0;
    if (c.offset->value && c.offset->value->is_integer()) return c.offset->value->value();
    return std::nullopt;
  };
  const auto oa = offset_value(ca), ob = offset_value(cb);
  if (!(ca.swizzle == cb.swizzle) || !oa || !ob || *oa != *ob) return std::nullopt;
  if (!integer_layout(ca.layout) || !integer_layout(cb.layout)) return std::nullopt;
  try {
    // Every value off + L(x) of both fits in int64 (the stream's precondition, checked).
    LayoutValueStream(ca.layout, *oa);
    LayoutValueStream(cb.layout, *ob);
  } catch (const Error&) {
    return std::nullopt;
  }
  return std::pair{ca.layout, cb.layout};
}

// Two F2 layouts of power-of-two shape (and equal size) are linear in the bits of the index:
// they are equal iff their values at every 2^j are. The first j where they differ, -1 when none;
// nullopt when the pair is not of that kind (decided otherwise).
std::optional<int> first_differing_f2_bit(const Value& a, const Value& b) {
  if (!a.is_f2_layout() || !b.is_f2_layout()) return std::nullopt;
  const auto& fa = std::get<F2Layout>(a.data);
  const auto& fb = std::get<F2Layout>(b.data);
  if (!has_power_of_two_shape(fa) || !has_power_of_two_shape(fb)) return std::nullopt;
  const auto ba = f2_index_bases(fa, "=="), bb = f2_index_bases(fb, "==");
  for (std::size_t j = 0; j < ba.size(); ++j)
    if (ba[j] != bb[j]) return static_cast<int>(j);
  return -1;
}

}  // namespace

Verdict functional_equal(const Value& a, const Value& b) {
  if (layout_like(a) && layout_like(b)) {
    const std::int64_t na = layout_like_size(a), nb = layout_like_size(b);
    if (na != nb)
      return {false, "sizes differ: " + std::to_string(na) + " vs " + std::to_string(nb)};
    if (const auto bit = first_differing_f2_bit(a, b)) {
      if (*bit < 0) return {true, ""};
      return differ_at(a, b, std::int64_t{1} << *bit);
    }
    const auto inner = decided_by_inner_layouts(a, b);
    if (inner && integer_layout(inner->first) && integer_layout(inner->second)) {
      // Coalescing keeps each function and lines up more modes (e.g. (2,3):(1,2) is 6:1).
      const ModeComparison c = compare_by_modes(coalesce(inner->first), coalesce(inner->second));
      if (c.result == ModeComparison::Result::Equal) return {true, ""};
      if (c.result == ModeComparison::Result::Differ) return differ_at(a, b, c.first_difference);
    }
    if (na > kMaxEnumeratedEquality)
      throw Error("==: size " + std::to_string(na) + " is more than the " + std::to_string(kMaxEnumeratedEquality) +
                  " indices compared one by one (composed layouts, scaled-basis strides, or modes that do not line "
                  "up, e.g. 2 against 3); use `cuteref prove`");
    charge_enumeration(na, "==");
    auto sa = stream_layout_like(a), sb = stream_layout_like(b);
    if (sa && sb) {
      for (std::int64_t i = 0; i < na; ++i) {
        if (sa->value() != sb->value()) return differ_at(a, b, i);
        if (i + 1 < na) sa->next(), sb->next();
      }
      return {true, ""};
    }
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
