// The one definition of layout evaluation, generic over the scalar type.
//
// `Scalar` follows scalar.hpp (CheckedInt in the model, Z3 bit-vectors in the proofs).
// Shapes and strides are trees: either the model's IntTuple (concrete leaves) or a
// ScalarTuple<Scalar> (leaves that are Scalars, e.g. symbolic extents in a proof); the
// index is a Scalar.
//
// CuTe's conventions (cute/stride.hpp semantics, restated):
//   crd2idx(c, s, d) for an integer c and a tuple shape (s0, s1, ..., sn):
//     the first n modes take c mod size(si) and pass c div size(si) on; the last mode
//     takes the whole remaining quotient (no modulo), which is how CuTe extends a layout
//     past its domain.
//   crd2idx(c, s, d) for leaf s: c * d.
//   idx2crd(c, s) splits c the same way into a coordinate congruent to s.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "error.hpp"
#include "int_tuple.hpp"
#include "scalar.hpp"

namespace cuteref {

// A tree whose leaves are Scalars: shapes, strides and coordinates with unknown values.
template <class Scalar>
struct ScalarTuple {
  std::optional<Scalar> leaf;  // set for a leaf
  std::vector<ScalarTuple> elements;

  static ScalarTuple of(Scalar v) {
    ScalarTuple t;
    t.leaf = std::move(v);
    return t;
  }
  static ScalarTuple tuple(std::vector<ScalarTuple> e) {
    ScalarTuple t;
    t.elements = std::move(e);
    return t;
  }
  bool is_tuple() const { return !leaf.has_value(); }
  std::size_t rank() const { return is_tuple() ? elements.size() : 1; }
  const ScalarTuple& operator[](std::size_t i) const { return is_tuple() ? elements[i] : *this; }
};

// The value of a leaf as a Scalar. An IntTuple leaf must be an integer (a scaled-basis
// stride produces a coordinate, which this integer-valued evaluation does not cover).
template <class Scalar>
Scalar leaf_scalar(const IntTuple& t) {
  if (!t.is_integer()) throw Error("evaluation: stride " + t.to_string() + " is not an integer");
  return ScalarOps<Scalar>::constant(t.value());
}
template <class Scalar>
Scalar leaf_scalar(const ScalarTuple<Scalar>& t) {
  return *t.leaf;
}

// A ScalarTuple with the values of an IntTuple (integer leaves).
template <class Scalar>
ScalarTuple<Scalar> to_scalar_tuple(const IntTuple& t) {
  if (!t.is_tuple()) return ScalarTuple<Scalar>::of(leaf_scalar<Scalar>(t));
  std::vector<ScalarTuple<Scalar>> e;
  for (const auto& x : t.elements()) e.push_back(to_scalar_tuple<Scalar>(x));
  return ScalarTuple<Scalar>::tuple(std::move(e));
}

// Product of the leaves (1 for ()), with Scalar's checks.
template <class Scalar, class Tree>
Scalar tuple_product(const Tree& t) {
  if (!t.is_tuple()) return leaf_scalar<Scalar>(t);
  Scalar p = ScalarOps<Scalar>::constant(1);
  for (std::size_t i = 0; i < t.rank(); ++i) p = p * tuple_product<Scalar>(t[i]);
  return p;
}

// crd2idx of an integer (1-D) coordinate into (shape, stride).
// Precondition: shape and stride congruent, integer strides.
template <class Scalar, class Tree>
Scalar crd2idx_index(const Scalar& index, const Tree& shape, const Tree& stride) {
  if (!shape.is_tuple()) return index * leaf_scalar<Scalar>(stride);
  const std::size_t r = shape.rank();
  if (r == 0) return ScalarOps<Scalar>::constant(0);
  Scalar rest = index;
  Scalar sum = ScalarOps<Scalar>::constant(0);
  for (std::size_t i = 0; i + 1 < r; ++i) {
    const Scalar mode_size = tuple_product<Scalar>(shape[i]);
    sum = sum + crd2idx_index(rest % mode_size, shape[i], stride[i]);
    rest = rest / mode_size;
  }
  return sum + crd2idx_index(rest, shape[r - 1], stride[r - 1]);
}

// L(index): the model's application of a layout to an integer index, crd2idx_index with its
// precondition index >= 0 (a negative index has no coordinate), checked: an error for a
// value, a side condition for a term.
template <class Scalar, class Tree>
Scalar layout_apply_index(const Scalar& index, const Tree& shape, const Tree& stride) {
  using Ops = ScalarOps<Scalar>;
  Ops::require(index >= Ops::constant(0),
               [&] { return "layout application: index " + Ops::text(index) + " is negative"; });
  return crd2idx_index(index, shape, stride);
}

// idx2crd of an integer index into a shape: the coordinate, congruent to the shape.
template <class Scalar, class Tree>
ScalarTuple<Scalar> idx2crd_index(const Scalar& index, const Tree& shape) {
  if (!shape.is_tuple()) return ScalarTuple<Scalar>::of(index);
  std::vector<ScalarTuple<Scalar>> crd;
  Scalar rest = index;
  for (std::size_t i = 0; i < shape.rank(); ++i) {
    if (i + 1 == shape.rank()) {
      crd.push_back(idx2crd_index(rest, shape[i]));
      break;
    }
    const Scalar mode_size = tuple_product<Scalar>(shape[i]);
    crd.push_back(idx2crd_index(rest % mode_size, shape[i]));
    rest = rest / mode_size;
  }
  return ScalarTuple<Scalar>::tuple(std::move(crd));
}

// Flatten a tree's leaves, left to right.
template <class Tree>
void flatten_leaves(const Tree& t, std::vector<Tree>& out) {
  if (!t.is_tuple()) {
    out.push_back(t);
    return;
  }
  for (std::size_t i = 0; i < t.rank(); ++i) flatten_leaves(t[i], out);
}

}  // namespace cuteref
