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

// Where the walk puts the modes it keeps. Out: std::size_t size(); Leaf& last_shape() and
// const Leaf& last_stride() (the last kept mode, @pre size() > 0); void push(shape, stride)
// (keeps a mode after the others). ModesOut (appends to two vectors) and ModesInPlace (over
// the vectors the walk reads) below; the model has one that writes a result's form.

// The walk, one mode at a time: after each push(shape, stride) of the modes in order, `out`
// holds the kept modes of those pushed so far (coalesce_step decides each). Every coalesce
// runs its modes through this, so there is one walk (the one the laws are proved over),
// whether the modes are read from a vector, a view of an operand or a producer's output.
// @pre out is empty when the walk starts.
template <class Out, class Ops>
class CoalescingWalk {
 public:
  CoalescingWalk(Out& out, const Ops& ops) : out_(out), ops_(ops) {}
  template <class Leaf>
  void push(const Leaf& shape, const Leaf& stride) {
    const bool has_last = out_.size() > 0;
    const CoalesceStep step = coalesce_step(has_last, has_last ? &out_.last_shape() : nullptr,
                                            has_last ? &out_.last_stride() : nullptr, shape, stride, ops_);
    if (step == CoalesceStep::Kept) out_.push(shape, stride);
  }

 private:
  Out& out_;
  const Ops& ops_;
};

// Appends the kept modes to two vectors (std::vector, SmallVector or InlineFlatInts).
// (finish: nothing left to write; as the model's Outs, which hold their last mode back.)
template <class Vec>
struct ModesOut {
  Vec& shapes;
  Vec& strides;
  void finish() {}
  std::size_t size() const { return shapes.size(); }
  auto& last_shape() { return shapes[shapes.size() - 1]; }
  const auto& last_stride() const { return strides[strides.size() - 1]; }
  template <class Leaf>
  void push(const Leaf& shape, const Leaf& stride) {
    shapes.push_back(shape);
    strides.push_back(stride);
  }
};

// Writes the kept modes over the front of the vectors the walk reads (mode k over mode i >= k,
// which the walk has read already); finish() drops the rest. (Not resize: a symbolic leaf has
// no default value.)
template <class Vec>
class ModesInPlace {
 public:
  ModesInPlace(Vec& shapes, Vec& strides) : shapes_(shapes), strides_(strides) {}
  std::size_t size() const { return n_; }
  auto& last_shape() { return shapes_[n_ - 1]; }
  const auto& last_stride() const { return strides_[n_ - 1]; }
  template <class Leaf>
  void push(const Leaf& shape, const Leaf& stride) {
    if (n_ == shapes_.size()) {  // past the modes read (only coalesce_flat_modes' 1:0 of no mode)
      shapes_.push_back(shape);
      strides_.push_back(stride);
    } else {  // (no self-assignment where the mode read is already where it is kept)
      if (&shapes_[n_] != &shape) shapes_[n_] = shape;
      if (&strides_[n_] != &stride) strides_[n_] = stride;
    }
    ++n_;
  }
  void finish() {
    while (shapes_.size() > n_) {
      shapes_.pop_back();
      strides_.pop_back();
    }
  }

 private:
  Vec& shapes_;
  Vec& strides_;
  std::size_t n_ = 0;
};

// The algorithm in place on flat modes (any vector-like container of leaves): on return
// `shapes` and `strides` hold the kept modes (none when every mode has shape 1).
template <class Vec, class Ops>
void coalesce_modes(Vec& shapes, Vec& strides, const Ops& ops) {
  ModesInPlace<Vec> out(shapes, strides);
  CoalescingWalk<ModesInPlace<Vec>, Ops> walk(out, ops);
  for (std::size_t i = 0; i < shapes.size(); ++i) walk.push(shapes[i], strides[i]);
  out.finish();
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

// The end of a walk over flat modes: the one mode 1:0 (static) when no mode was kept (a
// layout has at least one mode).
template <class P, class Out>
void coalesce_flat_finish(Out& out) {
  if (out.size() == 0) out.push(P::constant(1), P::constant(0));
}

// coalesce of the flat modes (in_shapes[i], in_strides[i]), i < in_shapes.size(), into `out`
// (empty; an Out as CoalescingWalk's): coalesce_modes' walk, and the one mode 1:0 (static)
// when no mode is kept. P: a leaf policy (leaf_ops.hpp). In: size() and operator[] (a vector,
// or a view of an operand's leaves).
template <class P, class InShapes, class InStrides, class Out>
void coalesce_flat_modes_to(const InShapes& in_shapes, const InStrides& in_strides, Out& out) {
  const CoalesceOps<P> ops{};
  CoalescingWalk<Out, CoalesceOps<P>> walk(out, ops);
  for (std::size_t i = 0; i < in_shapes.size(); ++i) walk.push(in_shapes[i], in_strides[i]);
  coalesce_flat_finish<P>(out);
}

// The same in place.
template <class P, class Vec>
void coalesce_flat_modes(Vec& shapes, Vec& strides) {
  ModesInPlace<Vec> out(shapes, strides);
  coalesce_flat_modes_to<P>(shapes, strides, out);
  out.finish();
}

// filter on flat modes into `out` (as coalesce_flat_modes_to): filter = coalesce o
// filter_zeros, so a stride-0 mode gets the shape 1 (a select, not a branch), which the walk
// then drops.
// @post out holds the flat modes of filter(L) for L's flattened modes; the single mode 1:0
// when L has no mode of size > 1 and non-zero stride.
template <class P, class InShapes, class InStrides, class Out>
void filter_flat_modes_to(const InShapes& in_shapes, const InStrides& in_strides, Out& out) {
  using A = LeafArith<P>;
  const CoalesceOps<P> ops{};
  CoalescingWalk<Out, CoalesceOps<P>> walk(out, ops);
  for (std::size_t k = 0; k < in_shapes.size(); ++k) {
    const auto& stride = in_strides[k];
    walk.push(A::select(A::value(stride) == A::k(0), P::constant(1), in_shapes[k]), stride);
  }
  coalesce_flat_finish<P>(out);
}

// The same in place.
template <class P, class Vec>
void filter_flat_modes(Vec& shapes, Vec& strides) {
  ModesInPlace<Vec> out(shapes, strides);
  filter_flat_modes_to<P>(shapes, strides, out);
  out.finish();
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
