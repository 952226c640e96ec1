// The one definition of composition's core step, generic over the leaf (as
// coalesce_generic.hpp): one leaf mode n0:d0 of B (d0 an integer) composed into A, where A
// is already coalesced (CuTe's coalesce_x) and is a leaf or a flat tuple of leaves. The model
// runs it on IntTuple leaves (composition.cpp), the proofs on symbolic leaves
// (proofs/symbolic_algebra.*). composition.hpp states the algorithm's pre/post-conditions.
//
// Data-dependent steps are asked of `ops` (plain comparisons and throws for the model; case
// splits and proof obligations for symbolic leaves):
//   bool is_zero(x), is_negative(x), is_one(x), above_one(x)   branches;
//   Leaf abs(x), neg(x), ceil_div(a, b), div(a, b), min(a, b), scale(c, stride);
//   void check_stride_divisibility(rest_shape, rest_stride, i),
//        check_exactness(rest_shape, rest_stride, next_shape, i),
//        check_shape_divisibility(rest_shape, rest_stride, new_shape, i),
//        check_carry(rest_shape, rest_stride, digit_sum, i), check_signs()
//                                                  preconditions (composition.hpp), at A's mode i;
//   Sum zero_sum(); void add_digits(Sum&, new_shape, rest_stride)   the no-carry bookkeeping.
// `emit(shape, stride)` receives the result's modes in order; one emitted mode is a leaf result.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "coalesce_generic.hpp"
#include "leaf_ops.hpp"
#include "small_vector.hpp"

namespace cuteref {

// One step of coalesce_unbounded_modes' walk, which goes back to front: mode (shape : stride)
// against the first mode kept so far (first_shape : first_stride). Dropped: shape 1. Merged:
// s:d followed by s':(s*d) is (s*s'):d, written into the first kept mode. Kept: the caller
// puts the mode in front. It reads nothing else: the law composition_every_rank proves, by
// induction over the walk, that the kept modes are A's function (the last mode unbounded).
template <class Leaf, class Ops>
CoalesceStep coalesce_unbounded_step(Leaf& first_shape, Leaf& first_stride, const Leaf& shape, const Leaf& stride,
                                     const Ops& ops) {
  if (ops.is_unit(shape)) return CoalesceStep::Dropped;
  if (!ops.continues(shape, stride, first_stride)) return CoalesceStep::Kept;
  first_shape = ops.merge(shape, first_shape);
  first_stride = stride;
  return CoalesceStep::Merged;
}

// coalesce_unbounded_modes' walk without its final erase, reading the modes from
// (in_shapes, in_strides) (In: size() and operator[]; a view of A's form, or the vectors
// themselves) and writing the result into the back of (shapes, strides): modes [w, n) with
// w the returned index, n = in_shapes.size(); slots [0, w) are left as they were (for a
// caller that reads the result as a view and never reads them). When the input is the
// vectors themselves (InPlace), a mode already where it is kept is not copied.
// @pre n >= 1; shapes and strides have room for n modes (the caller sets their size).
template <bool InPlace, class InShapes, class InStrides, class Vec, class Ops>
std::size_t coalesce_unbounded_back_from(const InShapes& in_shapes, const InStrides& in_strides, Vec& shapes,
                                         Vec& strides, const Ops& ops) {
  // The result is [w, n), w only decreasing, always above k.
  const std::size_t n = in_shapes.size();
  std::size_t w = n - 1;
  if constexpr (!InPlace) {
    shapes[w] = in_shapes[w];
    strides[w] = in_strides[w];
  }
  for (std::size_t k = n - 1; k-- > 0;) {
    if (coalesce_unbounded_step(shapes[w], strides[w], in_shapes[k], in_strides[k], ops) != CoalesceStep::Kept)
      continue;
    --w;
    if constexpr (InPlace) {
      if (w != k) {
        shapes[w] = std::move(shapes[k]);
        strides[w] = std::move(strides[k]);
      }
    } else {
      shapes[w] = in_shapes[k];
      strides[w] = in_strides[k];
    }
  }
  return w;
}

// The same in place.
// @pre shapes.size() == strides.size() >= 1.
template <class Vec, class Ops>
std::size_t coalesce_unbounded_back(Vec& shapes, Vec& strides, const Ops& ops) {
  return coalesce_unbounded_back_from<true>(shapes, strides, shapes, strides, ops);
}

// CuTe's coalesce_x on A's flattened modes, in place: merge adjacent modes like coalesce,
// back to front, but keep the last mode even when its size is 1 (the last mode is unbounded:
// it takes the whole quotient of an index past the domain, so its stride still matters).
// Ops: coalesce's decisions (CoalesceOps): bool is_unit(shape); bool continues(shape, stride,
// next_stride) (shape * stride equals the next kept mode's stride); Leaf merge(a, b).
// @pre shapes.size() == strides.size() >= 1.
// Vec: std::vector or SmallVector of leaves.
template <class Vec, class Ops>
void coalesce_unbounded_modes(Vec& shapes, Vec& strides, const Ops& ops) {
  const std::size_t w = coalesce_unbounded_back(shapes, strides, ops);
  shapes.erase(shapes.begin(), shapes.begin() + static_cast<std::ptrdiff_t>(w));
  strides.erase(strides.begin(), strides.begin() + static_cast<std::ptrdiff_t>(w));
}

// compose_leaf_mode's preconditions (composition.hpp), each written once as a condition on
// values that holds when the check passes: the model's Ops evaluate it on CheckedInt (a
// bool, a failure throws its diagnostic), the proofs' on SymInt (a formula, an obligation or,
// in the step lemmas, a hypothesis). si: A's shape at mode i; ni, ri: the rest of B's leaf
// (shape, stride magnitude) reaching that mode.
template <class Scalar>
auto composition_stride_divisible(const Scalar& ri, const Scalar& si) {
  return ri % si == ScalarOps<Scalar>::constant(0) || ri < si;
}
template <class Scalar>
auto composition_exact(const Scalar& ni, const Scalar& ri, const Scalar& si, const Scalar& next_shape) {
  return !(ri < si && next_shape < ni && !(si % ri == ScalarOps<Scalar>::constant(0)));
}
template <class Scalar>
auto composition_shape_divisible(const Scalar& ni, const Scalar& new_shape) {
  return ni % new_shape == ScalarOps<Scalar>::constant(0);
}
template <class Scalar>
auto composition_no_carry(const Scalar& digit_sum, const Scalar& si) {
  return digit_sum < si;
}
// The no-carry bookkeeping: a leaf of new_shape digits at rest_stride reaches digit
// (new_shape - 1) * rest_stride of A's mode; the leaves' reaches add up.
template <class Scalar>
Scalar composition_add_reach(const Scalar& sum, const Scalar& new_shape, const Scalar& rest_stride) {
  return sum + (new_shape - ScalarOps<Scalar>::constant(1)) * rest_stride;
}

// compose_leaf_mode's decisions, checks and leaf arithmetic, written once over a leaf policy
// P (leaf_ops.hpp): the model's (FlatIntLeaf, IntTupleLeaf), the proofs' (ScalarLeaf<SymInt>).
// `s`: A's shapes (coalesce_x's modes), which the checks read at the mode i they name. The
// digit sums are P's Scalar. Diag words the failed preconditions: the model's names the modes
// and the operands, CompositionConditions (the proofs') the condition only:
//   std::string stride_divisibility(i, rest_shape, rest_stride), exactness(i, rest_shape,
//   rest_stride), shape_divisibility(i, rest_shape, rest_stride), no_carry(i, rest_shape,
//   rest_stride, digit_sum), signs().
template <class P, class Diag>
struct CompositionOps {
  using Leaf = typename P::Leaf;
  using Scalar = typename P::Scalar;
  using A = LeafArith<P>;
  using Ops = ScalarOps<Scalar>;
  const Leaf* s;
  Diag diag{};
  bool is_zero(const Leaf& x) const { return A::is(x, 0); }
  bool is_negative(const Leaf& x) const { return A::is_negative(x); }
  bool is_one(const Leaf& x) const { return A::is(x, 1); }
  bool above_one(const Leaf& x) const { return A::at_least(x, 2); }
  Leaf abs(const Leaf& x) const { return A::abs(x); }
  Leaf neg(const Leaf& x) const { return A::neg(x); }
  Leaf ceil_div(const Leaf& a, const Leaf& b) const { return A::ceil_div(a, b); }
  Leaf div(const Leaf& a, const Leaf& b) const { return A::div(a, b); }
  Leaf min(const Leaf& a, const Leaf& b) const { return A::min(a, b); }
  Leaf scale(const Leaf& c, const Leaf& d) const { return A::scale(c, d); }
  Scalar zero_sum() const { return A::k(0); }
  void add_digits(Scalar& sum, const Leaf& new_shape, const Leaf& rest_stride) const {
    sum = composition_add_reach(sum, A::value(new_shape), A::value(rest_stride));
  }
  void check_stride_divisibility(const Leaf& rest_shape, const Leaf& rest_stride, std::size_t i) const {
    Ops::require(composition_stride_divisible(A::value(rest_stride), A::value(s[i])),
                 [&] { return diag.stride_divisibility(i, rest_shape, rest_stride); });
  }
  void check_exactness(const Leaf& rest_shape, const Leaf& rest_stride, const Leaf& next_shape,
                       std::size_t i) const {
    Ops::require(composition_exact(A::value(rest_shape), A::value(rest_stride), A::value(s[i]), A::value(next_shape)),
                 [&] { return diag.exactness(i, rest_shape, rest_stride); });
  }
  void check_shape_divisibility(const Leaf& rest_shape, const Leaf& rest_stride, const Leaf& new_shape,
                                std::size_t i) const {
    Ops::require(composition_shape_divisible(A::value(rest_shape), A::value(new_shape)),
                 [&] { return diag.shape_divisibility(i, rest_shape, rest_stride); });
  }
  void check_carry(const Leaf& rest_shape, const Leaf& rest_stride, const Scalar& digit_sum, std::size_t i) const {
    Ops::require(composition_no_carry(digit_sum, A::value(s[i])),
                 [&] { return diag.no_carry(i, rest_shape, rest_stride, digit_sum); });
  }
  // Reached only when the precondition fails (compose_leaf_mode decides when).
  void check_signs() const { Ops::require(Ops::truth(false), [&] { return diag.signs(); }); }
};

// The preconditions as conditions only (symbolic leaves are not printed).
struct CompositionConditions {
  template <class Leaf>
  std::string stride_divisibility(std::size_t, const Leaf&, const Leaf&) const {
    return "composition: stride divisibility";
  }
  template <class Leaf>
  std::string exactness(std::size_t, const Leaf&, const Leaf&) const {
    return "composition: exactness";
  }
  template <class Leaf>
  std::string shape_divisibility(std::size_t, const Leaf&, const Leaf&) const {
    return "composition: shape divisibility";
  }
  template <class Leaf, class Sum>
  std::string no_carry(std::size_t, const Leaf&, const Leaf&, const Sum&) const {
    return "composition: no carry";
  }
  std::string signs() const { return "composition: B's strides of both signs reach several modes of A"; }
};

// What B's leaf modes already occupy of one (coalesced) sub-layout of A: per mode and per
// stride sign, the sum of the largest digits B's leaves reach in that mode, and the modes
// any leaf reaches at all (composition.hpp's no-carry precondition).
template <class Sum>
struct CompositionOccupancy {
  struct Mode {
    Sum digit_sum[2];  // [0]: positive strides, [1]: negative strides
    bool touched = false;
  };
  SmallVector<Mode, 8> modes;  // inline for the usual few modes of A
  std::size_t touched_count = 0;
  bool positive = false, negative = false;

  // User-provided: value-initialization (as a member of an aggregate) must not zero the
  // inline storage of `modes`.
  CompositionOccupancy() noexcept {}

  // Modes [size, r) added with zero sums, untouched. One growth, not one push per mode: this
  // runs once per leaf of B.
  void cover(std::size_t r, const Sum& zero) {
    if (modes.size() >= r) return;
    if constexpr (std::is_trivially_copyable_v<Mode>) {
      const std::size_t added = r - modes.size();
      Mode* m = modes.append_uninitialized(added);
      for (std::size_t k = 0; k < added; ++k) m[k] = Mode{{zero, zero}, false};
    } else {
      while (modes.size() < r) modes.push_back(Mode{{zero, zero}, false});
    }
  }

  void touch(std::size_t i) {
    if (!modes[i].touched) ++touched_count;
    modes[i].touched = true;
  }
};

// One step of compose_leaf_mode's walk: what is left of B's leaf, rest_shape:rest_stride
// (the stride's magnitude; `negative` its sign), against A's mode i = (s_i : t_i), which is
// not A's last mode. Emits at most one mode and updates the rest for A's next mode; returns
// whether it emitted. It reads nothing of A's other modes: the law composition_every_rank
// proves, by induction over the walk, that the emitted modes are A(d0 * c), running this
// function on one symbolic mode and an uninterpreted rest of A.
// @pre rest_shape >= 1, rest_stride >= 1, s_i >= 1; occ.modes.size() > i.
template <class Leaf, class Sum, class Ops, class Emit>
bool compose_mode_step(const Leaf& s_i, const Leaf& t_i, std::size_t i, bool negative, Leaf& rest_shape,
                       Leaf& rest_stride, CompositionOccupancy<Sum>& occ, const Ops& ops, Emit&& emit) {
  // next_stride before the divisibility check, which divides the same pair (rest_stride by
  // s_i): the model's compiler then takes both from one division. Neither can fail first
  // (s_i >= 1, so ceil_div's divisor is positive).
  Leaf next_stride = ops.ceil_div(rest_stride, s_i);
  ops.check_stride_divisibility(rest_shape, rest_stride, i);
  Leaf next_shape = ops.ceil_div(s_i, rest_stride);
  ops.check_exactness(rest_shape, rest_stride, next_shape, i);
  if (ops.is_one(next_shape) || ops.is_one(rest_shape)) {
    rest_stride = next_stride;
    return false;
  }
  Leaf new_shape = ops.min(next_shape, rest_shape);
  ops.check_shape_divisibility(rest_shape, rest_stride, new_shape, i);
  occ.touch(i);
  ops.add_digits(occ.modes[i].digit_sum[negative ? 1 : 0], new_shape, rest_stride);
  ops.check_carry(rest_shape, rest_stride, occ.modes[i].digit_sum[negative ? 1 : 0], i);
  emit(new_shape, ops.scale(negative ? ops.neg(rest_stride) : rest_stride, t_i));
  rest_shape = ops.div(rest_shape, new_shape);
  rest_stride = next_stride;
  return true;
}

// The walk's end at A's last mode (s_last : t_last), unbounded: the rest of B is one mode
// at stride rest_stride * t_last, unless it is a single point and a mode was emitted already.
template <class Leaf, class Ops, class Emit>
void compose_last_mode(const Leaf& t_last, bool negative, const Leaf& rest_shape, const Leaf& rest_stride,
                       bool emitted_any, const Ops& ops, Emit&& emit) {
  if (emitted_any && ops.is_one(rest_shape)) return;
  emit(rest_shape, ops.scale(negative ? ops.neg(rest_stride) : rest_stride, t_last));
}

// A's modes (s[i] : t[i]), i < r; a leaf A is s = &shape, t = &stride, r = 1, a_is_leaf.
// @pre n0 >= 1, s[i] >= 1.
template <class Leaf, class Sum, class Ops, class Emit>
void compose_leaf_mode(const Leaf* s, const Leaf* t, std::size_t r, bool a_is_leaf, const Leaf& n0, const Leaf& d0,
                       CompositionOccupancy<Sum>& occ, const Ops& ops, Emit&& emit) {
  if (ops.is_zero(d0)) return emit(n0, d0);  // every c maps to A(0) = 0
  if (a_is_leaf) return emit(n0, ops.scale(d0, t[0]));
  const bool negative = ops.is_negative(d0);
  // A multi-mode A is additive on B's leaves only when their digits never carry. Leaves of
  // one sign must not carry together; leaves of both signs must all stay within one mode
  // of A (else the truncating digits of p - q are not the differences of the digits).
  occ.cover(r, ops.zero_sum());
  if (ops.above_one(n0)) (negative ? occ.negative : occ.positive) = true;
  bool emitted_any = false;
  Leaf rest_shape = n0;
  Leaf rest_stride = ops.abs(d0);  // the sign is applied to the emitted strides
  for (std::size_t i = 0; i + 1 < r; ++i)
    emitted_any = compose_mode_step(s[i], t[i], i, negative, rest_shape, rest_stride, occ, ops, emit) || emitted_any;
  if (ops.above_one(rest_shape)) occ.touch(r - 1);
  if (occ.negative && occ.positive && occ.touched_count > 1) ops.check_signs();
  compose_last_mode(t[r - 1], negative, rest_shape, rest_stride, emitted_any, ops, emit);
}

// The view of A that compose_leaf_mode reads, from A's flattened modes, in place: a tuple A
// through coalesce_unbounded_modes (CuTe's coalesce_x), a leaf A as it is, whatever its
// size. Returns whether the view is one mode (then A composes as a leaf layout).
// Ops: coalesce's decisions (CoalesceOps). @pre shapes.size() == strides.size() >= 1.
template <class Vec, class Ops>
bool coalesce_x_view(Vec& shapes, Vec& strides, bool a_is_tuple, const Ops& ops) {
  if (a_is_tuple) coalesce_unbounded_modes(shapes, strides, ops);
  return shapes.size() == 1;
}

// composition over B's modes by right-distributivity, A o (B0, B1, ...) = (A o B0, A o B1,
// ...), in B's leaf order (B's leaves share A's occupancy, so the order is part of the
// result's checks): a leaf mode of B is composed by leaf(shape, stride, out_shape,
// out_stride); a tuple mode's result is built by tuple(n, out_shape, out_stride, fill), which
// calls fill(i, out_shape_i, out_stride_i) for i = 0, ..., n - 1 in order.
template <class Tree, class Out, class Leaf, class Tuple>
void compose_over_modes(const Tree& shape, const Tree& stride, Out& out_shape, Out& out_stride, const Leaf& leaf,
                        const Tuple& tuple) {
  if (!shape.is_tuple()) return leaf(shape, stride, out_shape, out_stride);
  tuple(shape.rank(), out_shape, out_stride, [&](std::size_t i, Out& s, Out& d) {
    compose_over_modes(shape[i], stride[i], s, d, leaf, tuple);
  });
}

}  // namespace cuteref
