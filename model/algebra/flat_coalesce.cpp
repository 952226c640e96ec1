#include "flat_coalesce.hpp"

#include <utility>

#include "coalesce_generic.hpp"
#include "error.hpp"
#include "inline_flat_ints.hpp"
#include "layout_writer.hpp"
#include "leaf_policies.hpp"

namespace cuteref {

namespace {

// coalesce_modes's decisions (coalesce_generic.hpp's CoalesceOps, the proofs' own) on the
// model's leaves: on the run-time values (static flags only propagate); a stride continues a
// mode when it equals shape * stride, basis included. (On plain values, FlatIntLeaf, through
// coalesce_flat_modes / filter_flat_modes.)
using IntTupleCoalesceOps = CoalesceOps<IntTupleLeaf>;

}  // namespace

Layout FlatModesOfInts::layout() const {
  return flat_layout(shapes.data(), strides.data(), shapes.size());  // valid by the precondition
}

Layout InlineFlatModes::layout() const {
  return flat_layout(shapes.data(), strides.data(), shapes.size());  // valid by the precondition
}

void filter_flat_ints_in_place(FlatModesOfInts& m) { filter_flat_modes<FlatIntLeaf>(m.shapes, m.strides); }

[[gnu::flatten]] void coalesce_flat_ints_in_place(FlatInts& shapes, FlatInts& strides) {
  coalesce_flat_modes<FlatIntLeaf>(shapes, strides);  // coalesce_flat's _1:_0 when none is kept
}

[[gnu::flatten]] Layout coalesce_flat_ints(FlatInts& shapes, FlatInts& strides) {
  coalesce_flat_ints_in_place(shapes, strides);
  // Valid by the precondition, as coalesce_flat's result.
  return flat_layout(shapes.data(), strides.data(), shapes.size());
}

FlatModes filtered_flat_modes(const Layout& l) {
  FlatModes m = flat_modes(l.shape(), l.stride());
  filter_flat_modes<IntTupleLeaf>(m.shapes, m.strides);
  return m;
}

Layout coalesce_flat(FlatModes m) {
  coalesce_modes(m.shapes, m.strides, IntTupleCoalesceOps{});
  // Valid by the precondition: kept leaves are input leaves, merged shapes products of
  // shapes >= 1 (checked), strides unchanged.
  using detail::LayoutFromValidParts;
  if (m.shapes.empty()) return LayoutFromValidParts::make(IntTuple::static_int(1), IntTuple::static_int(0));
  if (m.shapes.size() == 1) return LayoutFromValidParts::make(std::move(m.shapes[0]), std::move(m.strides[0]));
  return LayoutFromValidParts::make(IntTuple::tuple_moved(m.shapes.data(), m.shapes.size()),
                                    IntTuple::tuple_moved(m.strides.data(), m.strides.size()));
}

}  // namespace cuteref
