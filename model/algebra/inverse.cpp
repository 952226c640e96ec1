#include "inverse.hpp"

#include <string>
#include <vector>

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "error.hpp"
#include "inverse_generic.hpp"
#include "leaf_arith.hpp"
#include "leaf_policies.hpp"

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

// CuTe C++'s coalesce on flat modes (cute/layout.hpp, bw_coalesce), which decides by the types:
// from the last mode backwards, a static _1 shape is skipped, a static _1 front is replaced,
// two modes merge only when the front's shape is static and shape * stride == the front's
// stride is decided statically (all three leaves static); a run-time 1 stays a mode.
Layout coalesce_as_typed(const Layout& l) {
  const FlatModes m = flat_modes(l.shape(), l.stride());
  const auto static_one = [](const IntTuple& t) { return t.is_static() && t.value() == 1; };
  const std::size_t n = m.shapes.size();
  if (n == 0) return Layout(IntTuple::static_int(1), IntTuple::static_int(0));  // the empty layout ():()
  std::vector<IntTuple> shapes{m.shapes[n - 1]}, strides{m.strides[n - 1]};  // reversed: front is back()
  for (std::size_t k = n - 1; k-- > 0;) {
    const IntTuple &s = m.shapes[k], &d = m.strides[k];
    if (static_one(s)) continue;
    if (shapes.size() == 1 && static_one(shapes.back())) {
      shapes.back() = s;
      strides.back() = d;
    } else if (shapes.back().is_static() && s.is_static() && d.is_static() && strides.back().is_static() &&
               checked_mul(s.value(), d.value()) == strides.back().value()) {
      shapes.back() = leaf_mul(s, shapes.back());
      strides.back() = d;
    } else {
      shapes.push_back(s);
      strides.push_back(d);
    }
  }
  if (shapes.size() == 1 && static_one(shapes.back())) return Layout(IntTuple::static_int(1), IntTuple::static_int(0));
  if (shapes.size() == 1) return Layout(shapes[0], strides[0]);
  return Layout(IntTuple::tuple(std::vector<IntTuple>(shapes.rbegin(), shapes.rend())),
                IntTuple::tuple(std::vector<IntTuple>(strides.rbegin(), strides.rend())));
}

// inverse_generic.hpp's chain test as the types decide it: only static strides match, and the
// next offset to reach is static only while every shape taken is.
struct TypedChainOps {
  bool less(const IntTuple& a, const IntTuple& b) const { return a.value() < b.value(); }
  bool equal(const IntTuple& a, const IntTuple& b) const {
    return a.is_static() && b.is_static() && a.value() == b.value();
  }
  IntTuple mul(const IntTuple& a, const IntTuple& b) const { return leaf_mul(a, b); }
  IntTuple one() const { return IntTuple::static_int(1); }
  IntTuple zero() const { return IntTuple::static_int(0); }
};

}  // namespace

Layout right_inverse(const Layout& l) {
  if (l.has_basis_strides())
    throw Error("right_inverse: precondition violated: the strides must be integers; L = " + l.to_string());
  const Layout c = coalesce_as_typed(l);
  const FlatModes m = flat_modes(c.shape(), c.stride());
  // CuTe drops the run-time strides before sorting, so the sort sees only the static ones.
  Leaves shapes, strides, prefix;
  IntTuple p = IntTuple::static_int(1);
  for (std::size_t k = 0; k < m.shapes.size(); ++k) {
    if (m.strides[k].is_static()) {
      shapes.push_back(m.shapes[k]);
      strides.push_back(m.strides[k]);
      prefix.push_back(p);
    }
    p = leaf_mul(p, m.shapes[k]);
  }
  std::vector<IntTuple> out_shapes, out_strides;
  right_inverse_modes(shapes, strides, prefix, TypedChainOps{}, out_shapes, out_strides);
  return coalesce_as_typed(Layout(IntTuple::tuple(std::move(out_shapes)), IntTuple::tuple(std::move(out_strides))));
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
