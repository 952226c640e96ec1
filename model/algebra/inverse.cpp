#include "inverse.hpp"

#include <string>
#include <vector>

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "error.hpp"
#include "inverse_generic.hpp"
#include "leaf_arith.hpp"
#include "leaf_policies.hpp"
#include "typed_inverse_generic.hpp"

namespace cuteref {

namespace {

// The flat modes of coalesce(L), with the exclusive prefix products of their shapes.
struct Coalesced {
  FlatModes modes;
  std::vector<IntTuple> prefix;
};

Coalesced coalesced_modes(const Layout& l, const char* fn) {
  if (l.has_basis_strides())
    throw Error(std::string(fn) + ": precondition violated: the strides must be integers; L = " + l.to_string());
  Coalesced c;
  const Layout cl = coalesce(l);
  c.modes = flat_modes(cl.shape(), cl.stride());
  IntTuple p = IntTuple::static_int(1);
  for (const auto& s : c.modes.shapes) {
    c.prefix.push_back(p);
    p = leaf_mul(p, s);
  }
  return c;
}

// left_inverse's preconditions worded with the mode and L.
struct InverseDiagnostics {
  const Layout& l;
  const Coalesced& c;
  std::string negative_stride(std::size_t k) const {
    return "left_inverse: precondition violated: the strides must be >= 0 (mode " + c.modes.shapes[k].to_string() +
           ":" + c.modes.strides[k].to_string() + "); L = " + l.to_string();
  }
  std::string not_divisible(std::size_t k, const IntTuple& covered) const {
    const IntTuple& d = c.modes.strides[k];
    return "left_inverse: precondition violated: stride " + d.to_string() + " of mode " +
           c.modes.shapes[k].to_string() + ":" + d.to_string() + " is not divisible by " + covered.to_string() +
           ", the offsets already covered (CuTe's \"Left inverse divisibility condition\"; L is not "
           "injective or its modes interleave); L = " + l.to_string();
  }
};

// inverse_generic.hpp's steps on the model's leaves (InverseOps, the proofs' own).
using LeafInverseOps = InverseOps<IntTupleLeaf, InverseDiagnostics>;
LeafInverseOps inverse_ops(const Layout& l, const Coalesced& c) { return {c.modes.strides.data(), {l, c}}; }

// A layout of flat modes (one mode: a leaf layout).
Layout layout_of_flat_modes(std::vector<IntTuple>&& shapes, std::vector<IntTuple>&& strides) {
  if (shapes.size() == 1) return Layout(shapes[0], strides[0]);
  return Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

}  // namespace

Layout right_inverse(const Layout& l) {
  if (l.has_basis_strides())
    throw Error("right_inverse: precondition violated: the strides must be integers; L = " + l.to_string());
  // typed_inverse_generic.hpp's walk on the model's leaves (their static flags), which the
  // proofs run too.
  const FlatModes m = flat_modes(l.shape(), l.stride());
  std::vector<IntTuple> shapes, strides;
  typed_right_inverse_modes<IntTupleLeaf>(m.shapes, m.strides, shapes, strides);
  return layout_of_flat_modes(std::move(shapes), std::move(strides));
}

Layout right_inverse_full(const Layout& l) {
  const Coalesced c = coalesced_modes(l, "right_inverse_full");
  std::vector<IntTuple> shapes, strides;
  right_inverse_modes(c.modes.shapes, c.modes.strides, c.prefix, inverse_ops(l, c), shapes, strides);
  return coalesce(Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides))));
}

Layout left_inverse(const Layout& l) {
  const Coalesced c = coalesced_modes(l, "left_inverse");
  std::vector<IntTuple> shapes, strides;
  left_inverse_modes(c.modes.shapes, c.modes.strides, c.prefix, inverse_ops(l, c), shapes, strides);
  return coalesce(Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides))));
}

}  // namespace cuteref
