// Registers the layout functions of the foundation (queries, modes, coordinates,
// coalesce/filter, constructors) and layout/swizzle application in the expression language.
#include <climits>

#include "coalesce.hpp"
#include "composed_advance.hpp"
#include "coordinates.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "make_layout.hpp"
#include "shape_check.hpp"
#include "slice_composed.hpp"

namespace cuteref {

namespace {

using Args = std::vector<Value>;

Value tuple_of_layouts_result(std::vector<Value> elems) { return make_tuple_value(std::move(elems)); }

// The layout that carries a query's answer: a layout itself, or a composed layout's inner
// layout (CuTe's shape/rank/depth of a ComposedLayout are layout_b's).
const Layout& queried_layout(const Args& a, const std::string& function) {
  if (a[0].is_composed()) return std::get<ComposedLayout>(a[0].data).layout;
  return layout_arg(a, 0, function);
}

// `op` on a layout, or on a composed layout's inner layout with its swizzle and offset kept
// (CuTe's flatten/coalesce/append of a ComposedLayout: composition(layout_a, offset, op(layout_b))).
template <class Op>
Value on_layout_or_inner(const Args& a, const std::string& function, Op op) {
  if (a[0].is_composed()) {
    const auto& c = std::get<ComposedLayout>(a[0].data);
    return Value(ComposedLayout{c.swizzle, c.offset, op(c.layout)});
  }
  return Value(op(layout_arg(a, 0, function)));
}

// Application `X(arg)`: layouts (index, coordinate, or slicing with `_`), swizzles on an
// integer, composed layouts on an index.
Value apply_call(const Args& a) {
  const Value& target = a[0];
  if (target.is_layout()) {
    const Layout& l = std::get<Layout>(target.data);
    const IntTuple& coord = int_tuple_arg(a, 1, "layout application");
    if (coord.has_underscore()) return Value(slice(coord, l));
    return Value(apply(l, coord));
  }
  if (target.is_swizzle()) {
    const Swizzle& s = std::get<Swizzle>(target.data);
    return Value(IntTuple::integer(s(integer_arg(a, 1, s.to_string()))));
  }
  if (target.is_composed()) {
    const auto& c = std::get<ComposedLayout>(target.data);
    const IntTuple& arg = int_tuple_arg(a, 1, "composed layout application");
    if (arg.has_underscore())
      throw Error("composed layout application: slicing " + c.to_string() + " with " + arg.to_string() +
                  " would have to drop the slice's offset, which the swizzle acts on; use slice_and_offset, "
                  "which keeps it inside the composed layout");
    // A coordinate: its index in the inner layout's domain (colexicographic), then Sw(O + L(index)).
    const IntTuple index = arg.is_integer() ? arg : crd2idx(arg, c.layout.shape(), make_layout(c.layout.shape()).stride());
    return Value(IntTuple::integer(apply_composed(c, index.value())));
  }
  throw Error("cannot apply " + target.kind_name() + " `" + target.to_string() + "` to arguments");
}

Value size_call(const Args& a) {
  if (a[0].is_layout()) return Value(size(std::get<Layout>(a[0].data)));
  if (a[0].is_composed()) return Value(size(std::get<ComposedLayout>(a[0].data)));
  const IntTuple& shape = int_tuple_arg(a, 0, "size");
  require_shape(shape, "size");
  return Value(product(shape));
}

Value rank_call(const Args& a) {
  if (a[0].is_composed()) return Value(IntTuple::static_int(static_cast<std::int64_t>(rank(queried_layout(a, "rank")))));
  if (a[0].is_layout()) return Value(IntTuple::static_int(static_cast<std::int64_t>(rank(std::get<Layout>(a[0].data)))));
  return Value(IntTuple::static_int(static_cast<std::int64_t>(int_tuple_arg(a, 0, "rank").rank())));
}

Value depth_call(const Args& a) {
  if (a[0].is_composed()) return Value(IntTuple::static_int(depth(queried_layout(a, "depth"))));
  if (a[0].is_layout()) return Value(IntTuple::static_int(depth(std::get<Layout>(a[0].data))));
  return Value(IntTuple::static_int(int_tuple_arg(a, 0, "depth").depth()));
}

// mode(L, i [, j ...]): nested mode selection, CuTe's layout<i, j...>(L).
Value mode_call(const Args& a) {
  if (a[0].is_composed()) {  // CuTe's get<i>(ComposedLayout): the swizzle and offset kept
    const auto& c = std::get<ComposedLayout>(a[0].data);
    Layout l = c.layout;
    for (std::size_t k = 1; k < a.size(); ++k) l = mode(l, index_arg(a, k, "mode"));
    return Value(ComposedLayout{c.swizzle, c.offset, l});
  }
  if (a[0].is_mixed_tuple()) {  // a result tuple such as slice_and_offset's (layout, offset)
    const std::vector<Value>& elements = std::get<MixedTuple>(a[0].data).elements;
    const std::size_t i = index_arg(a, 1, "mode");
    if (i >= elements.size())
      throw Error("mode: index " + std::to_string(i) + " is out of range for the " + std::to_string(elements.size()) +
                  "-tuple `" + a[0].to_string() + "`");
    if (a.size() == 2) return elements[i];
    std::vector<Value> rest{elements[i]};
    rest.insert(rest.end(), a.begin() + 2, a.end());
    return mode_call(rest);
  }
  if (a[0].is_layout()) {
    Layout l = std::get<Layout>(a[0].data);
    for (std::size_t k = 1; k < a.size(); ++k) l = mode(l, index_arg(a, k, "mode"));
    return Value(l);
  }
  IntTuple t = int_tuple_arg(a, 0, "mode");
  for (std::size_t k = 1; k < a.size(); ++k) t = t[index_arg(a, k, "mode")];
  return Value(t);
}

Value select_call(const Args& a) {
  const Layout& l = layout_arg(a, 0, "select");
  std::vector<std::size_t> modes;
  for (std::size_t k = 1; k < a.size(); ++k) modes.push_back(index_arg(a, k, "select"));
  return Value(select(l, modes));
}

Value flatten_call(const Args& a) {
  if (a[0].is_layout() || a[0].is_composed())
    return on_layout_or_inner(a, "flatten", [](const Layout& l) { return flatten(l); });
  return Value(flatten(int_tuple_arg(a, 0, "flatten")));
}

Value make_layout_call(const Args& a) {
  // make_layout(L0, L1, ...): a layout of the given layouts as modes.
  if (a[0].is_layout()) {
    std::vector<Layout> modes;
    for (std::size_t k = 0; k < a.size(); ++k) modes.push_back(layout_arg(a, k, "make_layout"));
    return Value(make_layout_from_modes(modes));
  }
  const IntTuple& shape = int_tuple_arg(a, 0, "make_layout");
  if (a.size() == 1) return Value(make_layout(shape));
  if (a.size() > 2) throw Error("make_layout: with a shape, expected make_layout(shape [, stride | LayoutLeft | LayoutRight])");
  if (std::holds_alternative<MajorTag>(a[1].data))
    return Value(std::get<MajorTag>(a[1].data).row_major ? make_layout_right(shape) : make_layout(shape));
  const IntTuple& stride = int_tuple_arg(a, 1, "make_layout");
  return Value(Layout(shape, stride));
}

Value crd2idx_call(const Args& a) {
  const IntTuple& crd = int_tuple_arg(a, 0, "crd2idx");
  const IntTuple& shape = int_tuple_arg(a, 1, "crd2idx");
  if (a.size() == 3) return Value(crd2idx(crd, shape, int_tuple_arg(a, 2, "crd2idx")));
  // crd2idx(c, s): index within the compact column-major layout of s.
  require_shape(shape, "crd2idx");
  return Value(crd2idx(crd, shape, make_layout(shape).stride()));
}

Value slice_and_offset_call(const Args& a) {
  if (a.at(1).is_composed()) {  // slice_composed.hpp
    auto [c, offset] = slice_and_offset(int_tuple_arg(a, 0, "slice_and_offset"), std::get<ComposedLayout>(a[1].data));
    return tuple_of_layouts_result({Value(std::move(c)), Value(offset)});
  }
  auto [l, offset] = slice_and_offset(int_tuple_arg(a, 0, "slice_and_offset"), layout_arg(a, 1, "slice_and_offset"));
  return tuple_of_layouts_result({Value(l), Value(offset)});
}

Value group_modes_call(const Args& a) {
  if (a[0].is_composed()) {  // CuTe's group<b,e>(ComposedLayout): the swizzle and offset kept
    const auto& c = std::get<ComposedLayout>(a[0].data);
    const Layout grouped = group_modes(c.layout, index_arg(a, 1, "group_modes"), index_arg(a, 2, "group_modes"));
    return Value(ComposedLayout{c.swizzle, c.offset, grouped});
  }
  return Value(group_modes(layout_arg(a, 0, "group_modes"), index_arg(a, 1, "group_modes"), index_arg(a, 2, "group_modes")));
}

}  // namespace

void register_layout_functions(FunctionTable& t) {
  t.add("__apply__", {2, 2, "L(index | coord)", apply_call});
  t.add("size", {1, 1, "size(L | composed layout | shape)", size_call});
  t.add("cosize", {1, 1, "cosize(L | composed layout)", [](const Args& a) {
           if (a[0].is_composed()) return Value(cosize(std::get<ComposedLayout>(a[0].data)));
           return Value(cosize(layout_arg(a, 0, "cosize")));
         }});
  t.add("rank", {1, 1, "rank(L | composed layout | tuple)", rank_call});
  t.add("depth", {1, 1, "depth(L | composed layout | tuple)", depth_call});
  t.add("shape", {1, 1, "shape(L | composed layout)", [](const Args& a) { return Value(queried_layout(a, "shape").shape()); }});
  t.add("stride", {1, 1, "stride(L)", [](const Args& a) {
           if (a[0].is_composed())
             throw Error("stride: argument 1 is a composed layout `" + a[0].to_string() +
                         "`, which has no strides (CuTe deletes stride(ComposedLayout)): the swizzle is not linear");
           return Value(layout_arg(a, 0, "stride").stride());
         }});
  t.add("mode", {2, SIZE_MAX, "mode(L | composed layout | tuple, i [, j ...])", mode_call});
  t.add("select", {2, SIZE_MAX, "select(L, i [, j ...])", select_call});
  t.add("flatten", {1, 1, "flatten(L | composed layout | tuple)", flatten_call});
  t.add("group_modes", {3, 3, "group_modes(L | composed layout, begin, end)", group_modes_call});
  t.add("append", {2, 2, "append(L | composed layout, M)", [](const Args& a) {
           const Layout& m = layout_arg(a, 1, "append");
           return on_layout_or_inner(a, "append", [&](const Layout& l) { return append(l, m); });
         }});
  t.add("prepend", {2, 2, "prepend(L, M)", [](const Args& a) { return Value(prepend(layout_arg(a, 0, "prepend"), layout_arg(a, 1, "prepend"))); }});
  t.add("coalesce", {1, 2, "coalesce(L | composed layout [, profile])", [](const Args& a) {
           if (a.size() == 1) return on_layout_or_inner(a, "coalesce", [](const Layout& l) { return coalesce(l); });
           const IntTuple& profile = int_tuple_arg(a, 1, "coalesce");
           return on_layout_or_inner(a, "coalesce", [&](const Layout& l) { return coalesce(l, profile); });
         }});
  t.add("filter_zeros", {1, 1, "filter_zeros(L)", [](const Args& a) { return Value(filter_zeros(layout_arg(a, 0, "filter_zeros"))); }});
  t.add("filter", {1, 1, "filter(L)", [](const Args& a) { return Value(filter(layout_arg(a, 0, "filter"))); }});
  t.add("make_layout", {1, SIZE_MAX, "make_layout(shape [, stride | LayoutLeft | LayoutRight]) or make_layout(L0, L1, ...)", make_layout_call});
  t.add("make_ordered_layout", {2, 2, "make_ordered_layout(shape, order)", [](const Args& a) {
           return Value(make_ordered_layout(int_tuple_arg(a, 0, "make_ordered_layout"), int_tuple_arg(a, 1, "make_ordered_layout")));
         }});
  t.add("crd2idx", {2, 3, "crd2idx(coord, shape [, stride])", crd2idx_call});
  t.add("idx2crd", {2, 2, "idx2crd(index, shape)", [](const Args& a) {
           return Value(idx2crd(int_tuple_arg(a, 0, "idx2crd"), int_tuple_arg(a, 1, "idx2crd")));
         }});
  t.add("slice_and_offset", {2, 2, "slice_and_offset(coord, L | composed layout)", slice_and_offset_call});
}

}  // namespace cuteref
