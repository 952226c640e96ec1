// The one definition of coalesce's algorithm, generic over the leaf representation, so
// the model runs it on IntTuple leaves and the proofs on symbolic ScalarTuple leaves.
//
// Algorithm: walk the flattened modes left to right; drop a mode of shape 1; merge a mode
// into the previous kept mode when its stride equals the previous shape * stride (then the
// two modes enumerate one arithmetic progression); otherwise keep it. No kept mode gives
// 1:0, one kept mode a leaf layout.
//
// The two decisions ("is this shape 1", "does this mode continue the previous one") are
// asked of `ops` (CoalesceOps below, for every leaf). For concrete leaves they are plain
// comparisons. For symbolic leaves each becomes ScalarOps<Scalar>::decide(condition): a case split. The
// proof driver runs the algorithm once per branch combination and proves the claim under
// that path's condition, so every merge decision the model could take is covered and the
// result on each path is the model's own output, not a restatement of it.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "layout_eval.hpp"
#include "leaf_ops.hpp"

namespace cuteref {

// What one step of the walk did with a mode.
enum class CoalesceStep { Dropped, Merged, Kept };

// One step of the walk: mode (shape, stride) against the last kept mode (`last_shape`,
// `last_stride`, absent when `has_last` is false). The step reads nothing else of the
// modes already walked: the law coalesce_preserves_every_rank proves, by induction over
// the walk, that it keeps the function for every rank, running this function on a symbolic
// last mode and a symbolic summary of the modes before it.
// Merged: last_shape becomes the merged shape. Kept: the caller appends the mode.
// Ops: bool is_unit(shape leaf); bool continues(prev shape, prev stride, stride);
//      Tree merge(prev shape, shape).
template <class Leaf, class Ops>
CoalesceStep coalesce_step(bool has_last, Leaf* last_shape, const Leaf* last_stride, const Leaf& shape,
                           const Leaf& stride, const Ops& ops) {
  if (ops.is_unit(shape)) return CoalesceStep::Dropped;
  if (has_last && ops.continues(*last_shape, *last_stride, stride)) {
    *last_shape = ops.merge(*last_shape, shape);
    return CoalesceStep::Merged;
  }
  return CoalesceStep::Kept;
}

// The algorithm in place on flat modes (any vector-like container of leaves): on return
// `shapes` and `strides` hold the kept modes (none when every mode has shape 1).
template <class Vec, class Ops>
void coalesce_modes(Vec& shapes, Vec& strides, const Ops& ops) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const bool has_last = kept > 0;
    const CoalesceStep step = coalesce_step(has_last, has_last ? &shapes[kept - 1] : nullptr,
                                            has_last ? &strides[kept - 1] : nullptr, shapes[i], strides[i], ops);
    if (step != CoalesceStep::Kept) continue;
    if (kept != i) {
      shapes[kept] = std::move(shapes[i]);
      strides[kept] = std::move(strides[i]);
    }
    ++kept;
  }
  // (not resize: a symbolic leaf has no default value)
  while (shapes.size() > kept) {
    shapes.pop_back();
    strides.pop_back();
  }
}

// coalesce's decisions, written once over a leaf policy (leaf_ops.hpp): the model's
// (FlatIntLeaf, IntTupleLeaf), the proofs' (ScalarTupleLeaf<SymInt>, ScalarLeaf<SymInt>).
// They serve coalesce_step and coalesce_unbounded_step (composition_generic.hpp).
template <class P>
struct CoalesceOps {
  using Leaf = typename P::Leaf;
  using A = LeafArith<P>;
  bool is_unit(const Leaf& s) const { return A::is(s, 1); }
  // prev_shape * prev_stride == stride: the mode continues the previous one's progression (a
  // product past int64 continues nothing: (2,2):(2^62,1) keeps both modes, as pycute's exact
  // integers do).
  bool continues(const Leaf& prev_shape, const Leaf& prev_stride, const Leaf& stride) const {
    return A::scaled_is(prev_shape, prev_stride, stride);
  }
  Leaf merge(const Leaf& a, const Leaf& b) const { return A::mul(a, b); }
  Leaf unit_shape() const { return P::constant(1); }
  Leaf zero_stride() const { return P::constant(0); }
};

// On the leaves of ScalarTuple<Scalar> trees (coalesce_tree).
template <class Scalar>
using ScalarCoalesceOps = CoalesceOps<ScalarTupleLeaf<Scalar>>;

// coalesce of flat modes, in place: coalesce_modes, and the one mode 1:0 (static) when no
// mode is kept. P: a leaf policy (leaf_ops.hpp).
template <class P, class Vec>
void coalesce_flat_modes(Vec& shapes, Vec& strides) {
  coalesce_modes(shapes, strides, CoalesceOps<P>{});
  if (shapes.empty()) {
    shapes.push_back(P::constant(1));
    strides.push_back(P::constant(0));
  }
}

// filter on flat modes, in place: filter = coalesce o filter_zeros, so a stride-0 mode gets
// the shape 1 (a select, not a branch), then coalesce_flat_modes drops it.
// @post the flat modes of filter(L) for L's flattened modes; the single mode 1:0 when L has
// no mode of size > 1 and non-zero stride.
template <class P, class Vec>
void filter_flat_modes(Vec& shapes, Vec& strides) {
  using A = LeafArith<P>;
  for (std::size_t k = 0; k < shapes.size(); ++k)
    shapes[k] = A::select(A::value(strides[k]) == A::k(0), P::constant(1), shapes[k]);
  coalesce_flat_modes<P>(shapes, strides);
}

// coalesce of a (shape, stride) tree. Ops as coalesce_modes, and Tree unit_shape(),
// Tree zero_stride() for the result 1:0 when no mode is kept.
template <class Tree, class Ops>
std::pair<Tree, Tree> coalesce_tree(const Tree& shape, const Tree& stride, const Ops& ops) {
  std::vector<Tree> shapes, strides;
  flatten_leaves(shape, shapes);
  flatten_leaves(stride, strides);
  coalesce_modes(shapes, strides, ops);
  if (shapes.empty()) return {ops.unit_shape(), ops.zero_stride()};
  if (shapes.size() == 1) return {shapes[0], strides[0]};
  return {Tree::tuple(std::move(shapes)), Tree::tuple(std::move(strides))};
}

// coalesce(L, profile): a leaf profile coalesces L whole (`coalesce_whole`); a tuple profile
// of rank k coalesces mode i of L by element i for i < k and keeps L's other modes as they
// are. Only the profile's structure is read (Profile: is_tuple(), rank(), operator[], as
// IntTuple and ScalarTuple). ModeOps: rank(L), mode(L, i), from_modes(modes) (the
// tiler_generic.hpp glue). Errors: profile_too_long(profile, L), which throws.
// @pre at every tuple level rank(profile) <= rank(L)
// @post the same function as L, weakly congruent to the profile
template <class LayoutT, class Profile, class ModeOps, class CoalesceWhole, class Errors>
LayoutT coalesce_by_profile(const LayoutT& l, const Profile& profile, const ModeOps& ops,
                            const CoalesceWhole& coalesce_whole, const Errors& errors) {
  if (!profile.is_tuple()) return coalesce_whole(l);
  if (profile.rank() > ops.rank(l)) errors.profile_too_long(profile, l);
  std::vector<LayoutT> modes;
  for (std::size_t i = 0; i < ops.rank(l); ++i)
    modes.push_back(i < profile.rank() ? coalesce_by_profile(ops.mode(l, i), profile[i], ops, coalesce_whole, errors)
                                       : ops.mode(l, i));
  return ops.from_modes(modes);
}

}  // namespace cuteref
