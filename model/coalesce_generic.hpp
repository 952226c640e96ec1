// The one definition of coalesce's algorithm, generic over the leaf representation, so
// the model runs it on IntTuple leaves and the proofs on symbolic ScalarTuple leaves.
//
// Algorithm: walk the flattened modes left to right; drop a mode of shape 1; merge a mode
// into the previous kept mode when its stride equals the previous shape * stride (then the
// two modes enumerate one arithmetic progression); otherwise keep it. No kept mode gives
// 1:0, one kept mode a leaf layout.
//
// The two decisions ("is this shape 1", "does this mode continue the previous one") are
// asked of `ops`. For concrete leaves they are plain comparisons. For symbolic leaves
// (ScalarCoalesceOps) each becomes ScalarOps<Scalar>::decide(condition): a case split. The
// proof driver runs the algorithm once per branch combination and proves the claim under
// that path's condition, so every merge decision the model could take is covered and the
// result on each path is the model's own output, not a restatement of it.
#pragma once

#include <utility>
#include <vector>

#include "layout_eval.hpp"

namespace cuteref {

// Ops: bool is_unit(shape leaf); bool continues(prev shape, prev stride, stride);
//      Tree merge(prev shape, shape); Tree unit_shape(); Tree zero_stride().
template <class Tree, class Ops>
std::pair<Tree, Tree> coalesce_tree(const Tree& shape, const Tree& stride, const Ops& ops) {
  std::vector<Tree> shapes, strides, out_shape, out_stride;
  flatten_leaves(shape, shapes);
  flatten_leaves(stride, strides);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (ops.is_unit(shapes[i])) continue;
    if (!out_shape.empty() && ops.continues(out_shape.back(), out_stride.back(), strides[i])) {
      out_shape.back() = ops.merge(out_shape.back(), shapes[i]);
      continue;
    }
    out_shape.push_back(shapes[i]);
    out_stride.push_back(strides[i]);
  }
  if (out_shape.empty()) return {ops.unit_shape(), ops.zero_stride()};
  if (out_shape.size() == 1) return {out_shape[0], out_stride[0]};
  return {Tree::tuple(std::move(out_shape)), Tree::tuple(std::move(out_stride))};
}

// Decisions on Scalar leaves, through ScalarOps<Scalar>::decide (a case split when symbolic).
template <class Scalar>
struct ScalarCoalesceOps {
  using Tree = ScalarTuple<Scalar>;
  using Ops = ScalarOps<Scalar>;
  bool is_unit(const Tree& s) const { return Ops::decide(*s.leaf == Ops::constant(1)); }
  bool continues(const Tree& prev_shape, const Tree& prev_stride, const Tree& stride) const {
    return Ops::decide(*prev_shape.leaf * *prev_stride.leaf == *stride.leaf);
  }
  Tree merge(const Tree& a, const Tree& b) const { return Tree::of(*a.leaf * *b.leaf); }
  Tree unit_shape() const { return Tree::of(Ops::constant(1)); }
  Tree zero_stride() const { return Tree::of(Ops::constant(0)); }
};

}  // namespace cuteref
