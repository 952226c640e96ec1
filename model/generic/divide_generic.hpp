// The one definition of logical_divide's layout form, generic over the layout
// representation (the model's Layout in divide.cpp; symbolic layouts in the proofs):
//   logical_divide(A, T) = composition(A, (T, complement(T, shape(coalesce(A)))))
// The tiles are counted within A's coalesced shape, not its size: CuTe passes the shape as
// complement's cotarget, whose rest mode is ceil_div'ed mode by mode.
// Ops: coalesced_shape(A), complement(T, shape), pair(T, R) (the layout with modes T and R),
//      composition(A, B).
#pragma once

namespace cuteref {

template <class LayoutT, class Ops>
LayoutT logical_divide_layout(const LayoutT& a, const LayoutT& tiler, const Ops& ops) {
  const auto rest = ops.complement(tiler, ops.coalesced_shape(a));
  return ops.composition(a, ops.pair(tiler, rest));
}

}  // namespace cuteref
