// max_common_vector and max_common_layout (CuTe's, used to pick vector widths for copies
// between two layouts), written once over the layout representation: the model runs it on
// its Layout (max_common.cpp), the proofs on symbolic layouts (proofs/symbolic_algebra.*).
//
// Ops: right_inverse_full(L), compose(A, B), coalesce(L) (the representation's own, each the
//      model's algorithm); is_leaf(L), mode(L, i); bool has_unit_stride(leaf mode) (a
//      branch: a case split when symbolic); Size shape(leaf mode), Size one() (the count 1);
//      L unit_layout() (_1:_0).
#pragma once

namespace cuteref {

// The first mode of coalesce(A o right_inverse_full(B)), in `front`, and whether it is
// contiguous (stride 1). The model decides on the values, where CuTe C++ asks that mode to
// be static too (a dynamic one gives 1).
template <class LayoutT, class Ops>
bool contiguous_common_front(const LayoutT& a, const LayoutT& inv_b, const Ops& ops, LayoutT& front) {
  const LayoutT common = ops.coalesce(ops.compose(a, inv_b));
  front = ops.is_leaf(common) ? common : ops.mode(common, 0);
  return ops.has_unit_stride(front);
}

// max_common_vector(A, B): the size of that front when it is contiguous, else 1.
// @post N >= 1; for 0 <= n < N: A(right_inverse_full(B)(n)) == n.
template <class LayoutT, class Ops>
auto max_common_vector_of(const LayoutT& a, const LayoutT& b, const Ops& ops) {
  LayoutT front = a;
  if (contiguous_common_front(a, ops.right_inverse_full(b), ops, front)) return ops.shape(front);
  return ops.one();
}

// max_common_layout(A, B): right_inverse_full(B) o front when the front is contiguous, else
// _1:_0. @post for 0 <= i < size(R): A(R(i)) == i and B(R(i)) == i.
template <class LayoutT, class Ops>
LayoutT max_common_layout_of(const LayoutT& a, const LayoutT& b, const Ops& ops) {
  const LayoutT inv_b = ops.right_inverse_full(b);
  LayoutT front = a;
  if (contiguous_common_front(a, inv_b, ops, front)) return ops.compose(inv_b, front);
  return ops.unit_layout();
}

}  // namespace cuteref
