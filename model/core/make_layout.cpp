#include "make_layout.hpp"

#include <algorithm>
#include <vector>

#include "error.hpp"

namespace cuteref {

namespace {

// The stride of one shape leaf in a compact layout whose running product is `running`,
// advancing it. A static _1 mode gets the stride _0, as CuTe's compact_major does (its
// coordinate is always 0; a dynamic 1 keeps the running product, as in CuTe).
IntTuple compact_leaf_stride(const IntTuple& shape, IntTuple& running) {
  if (!shape.is_integer()) throw Error("make_layout: shape leaf " + shape.to_string() + " must be an integer");
  if (shape.is_static() && shape.value() == 1) return IntTuple::static_int(0);
  IntTuple stride = running;
  running = leaf_mul(running, shape);
  return stride;
}

IntTuple col_major_strides(const IntTuple& shape, IntTuple& running) {
  if (!shape.is_tuple()) return compact_leaf_stride(shape, running);
  std::vector<IntTuple> strides;
  strides.reserve(shape.rank());
  for (const auto& e : shape.elements()) strides.push_back(col_major_strides(e, running));
  return IntTuple::tuple(std::move(strides));
}

IntTuple row_major_strides(const IntTuple& shape, IntTuple& running) {
  if (!shape.is_tuple()) return compact_leaf_stride(shape, running);
  std::vector<IntTuple> strides(shape.rank());
  for (std::size_t i = shape.rank(); i-- > 0;) strides[i] = row_major_strides(shape[i], running);
  return IntTuple::tuple(std::move(strides));
}

// Pairs each leaf of `order` with the sub-shape it stands for.
void pair_order(const IntTuple& shape, const IntTuple& order, std::vector<std::pair<IntTuple, IntTuple>>& out,
                const IntTuple& whole_shape, const IntTuple& whole_order) {
  if (!order.is_tuple()) {
    if (!order.is_integer())
      throw Error("make_ordered_layout: order leaf " + order.to_string() + " must be an integer");
    out.emplace_back(order, shape);
    return;
  }
  if (!shape.is_tuple() || shape.rank() != order.rank())
    throw Error("make_ordered_layout: order " + whole_order.to_string() + " is not weakly congruent to shape " +
                whole_shape.to_string());
  for (std::size_t i = 0; i < order.rank(); ++i) pair_order(shape[i], order[i], out, whole_shape, whole_order);
}

IntTuple ordered_strides(const IntTuple& shape, const IntTuple& order,
                         const std::vector<std::pair<IntTuple, IntTuple>>& pairs) {
  if (!order.is_tuple()) {
    IntTuple start = IntTuple::static_int(1);
    for (const auto& [o, s] : pairs)
      if (o.value() < order.value()) start = leaf_mul(start, product(s));
    return compact_col_major(shape, start);
  }
  std::vector<IntTuple> strides;
  for (std::size_t i = 0; i < order.rank(); ++i) strides.push_back(ordered_strides(shape[i], order[i], pairs));
  return IntTuple::tuple(std::move(strides));
}

}  // namespace

IntTuple compact_col_major(const IntTuple& shape, const IntTuple& start) {
  IntTuple running = start;
  return col_major_strides(shape, running);
}

Layout make_layout(const IntTuple& shape) { return Layout(shape, compact_col_major(shape, IntTuple::static_int(1))); }

Layout make_layout_right(const IntTuple& shape) {
  IntTuple running = IntTuple::static_int(1);
  IntTuple stride = row_major_strides(shape, running);
  return Layout(shape, stride);
}

Layout make_ordered_layout(const IntTuple& shape, const IntTuple& order) {
  std::vector<std::pair<IntTuple, IntTuple>> pairs;
  pair_order(shape, order, pairs, shape, order);
  // A repeated order value gives its sub-shapes the same starting stride (CuTe's compact_order):
  // harmless when at most one of them has more than one element, an aliasing layout otherwise.
  for (std::size_t i = 0; i < pairs.size(); ++i)
    for (std::size_t j = i + 1; j < pairs.size(); ++j)
      if (pairs[i].first.value() == pairs[j].first.value() && product(pairs[i].second).value() > 1 &&
          product(pairs[j].second).value() > 1)
        throw Error("make_ordered_layout: order " + order.to_string() + " repeats the value " +
                    std::to_string(pairs[i].first.value()) +
                    " for two sub-shapes of more than one element; such order values must be distinct");
  return Layout(shape, ordered_strides(shape, order, pairs));
}

}  // namespace cuteref
