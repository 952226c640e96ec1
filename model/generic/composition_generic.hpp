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
#include <vector>

#include "small_vector.hpp"

namespace cuteref {

// CuTe's coalesce_x on A's flattened modes, in place: merge adjacent modes like coalesce,
// back to front, but keep the last mode even when its size is 1 (the last mode is unbounded:
// it takes the whole quotient of an index past the domain, so its stride still matters).
// Ops: bool is_one(shape); bool continues(shape, stride, next_stride) (shape * stride equals
// the next kept mode's stride); Leaf mul(a, b). @pre shapes.size() == strides.size() >= 1.
// Vec: std::vector or SmallVector of leaves.
template <class Vec, class Ops>
void coalesce_unbounded_modes(Vec& shapes, Vec& strides, const Ops& ops) {
  // The result is [w, n), w only decreasing, always above k.
  std::size_t w = shapes.size() - 1;
  for (std::size_t k = shapes.size() - 1; k-- > 0;) {
    if (ops.is_one(shapes[k])) continue;
    if (ops.continues(shapes[k], strides[k], strides[w])) {
      // s:d followed by s':(s*d) is (s*s'):d.
      shapes[w] = ops.mul(shapes[k], shapes[w]);
      strides[w] = std::move(strides[k]);
      continue;
    }
    --w;
    if (w != k) {
      shapes[w] = std::move(shapes[k]);
      strides[w] = std::move(strides[k]);
    }
  }
  shapes.erase(shapes.begin(), shapes.begin() + static_cast<std::ptrdiff_t>(w));
  strides.erase(strides.begin(), strides.begin() + static_cast<std::ptrdiff_t>(w));
}

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

  void touch(std::size_t i) {
    if (!modes[i].touched) ++touched_count;
    modes[i].touched = true;
  }
};

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
  while (occ.modes.size() < r)
    occ.modes.push_back(typename CompositionOccupancy<Sum>::Mode{{ops.zero_sum(), ops.zero_sum()}, false});
  const int sign = negative ? 1 : 0;
  if (ops.above_one(n0)) (negative ? occ.negative : occ.positive) = true;
  std::size_t emitted = 0;
  Leaf rest_shape = n0;
  Leaf rest_stride = ops.abs(d0);  // the sign is applied to the emitted strides
  auto signed_stride = [&](const Leaf& mag) { return negative ? ops.neg(mag) : mag; };
  for (std::size_t i = 0; i + 1 < r; ++i) {
    ops.check_stride_divisibility(rest_shape, rest_stride, i);
    Leaf next_shape = ops.ceil_div(s[i], rest_stride);
    Leaf next_stride = ops.ceil_div(rest_stride, s[i]);
    ops.check_exactness(rest_shape, rest_stride, next_shape, i);
    if (ops.is_one(next_shape) || ops.is_one(rest_shape)) {
      rest_stride = next_stride;
      continue;
    }
    Leaf new_shape = ops.min(next_shape, rest_shape);
    ops.check_shape_divisibility(rest_shape, rest_stride, new_shape, i);
    occ.touch(i);
    ops.add_digits(occ.modes[i].digit_sum[sign], new_shape, rest_stride);
    ops.check_carry(rest_shape, rest_stride, occ.modes[i].digit_sum[sign], i);
    emit(new_shape, ops.scale(signed_stride(rest_stride), t[i]));
    ++emitted;
    rest_shape = ops.div(rest_shape, new_shape);
    rest_stride = next_stride;
  }
  if (ops.above_one(rest_shape)) occ.touch(r - 1);
  if (occ.negative && occ.positive && occ.touched_count > 1) ops.check_signs();
  Leaf last_stride = ops.scale(signed_stride(rest_stride), t[r - 1]);
  if (emitted == 0 || !ops.is_one(rest_shape)) emit(rest_shape, last_stride);
}

}  // namespace cuteref
