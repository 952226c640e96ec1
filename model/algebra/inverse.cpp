#include "inverse.hpp"

#include <string>
#include <vector>

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "error.hpp"
#include "inverse_generic.hpp"
#include "leaf_arith.hpp"

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

// inverse_generic.hpp's steps on the model's leaves. Diagnostics name the mode and L.
struct LeafInverseOps {
  const Layout& l;
  const Coalesced& c;
  bool less(const IntTuple& a, const IntTuple& b) const { return a.value() < b.value(); }
  bool equal(const IntTuple& a, const IntTuple& b) const { return a.value() == b.value(); }
  bool is_zero(const IntTuple& a) const { return a.value() == 0; }
  void check_nonnegative(std::size_t k) const {
    if (c.modes.strides[k].value() < 0)
      throw Error("left_inverse: precondition violated: the strides must be >= 0 (mode " +
                  c.modes.shapes[k].to_string() + ":" + c.modes.strides[k].to_string() + "); L = " + l.to_string());
  }
  void check_divisible(std::size_t k, const IntTuple& covered) const {
    const IntTuple& d = c.modes.strides[k];
    if (d.value() % covered.value() != 0)
      throw Error("left_inverse: precondition violated: stride " + d.to_string() + " of mode " +
                  c.modes.shapes[k].to_string() + ":" + d.to_string() + " is not divisible by " + covered.to_string() +
                  ", the offsets already covered (CuTe's \"Left inverse divisibility condition\"; L is not "
                  "injective or its modes interleave); L = " + l.to_string());
  }
  IntTuple mul(const IntTuple& a, const IntTuple& b) const { return leaf_mul(a, b); }
  IntTuple div(const IntTuple& a, const IntTuple& b) const { return leaf_div(a, b); }
  IntTuple one() const { return IntTuple::static_int(1); }
  IntTuple zero() const { return IntTuple::static_int(0); }
};

}  // namespace

Layout right_inverse(const Layout& l) {
  const Coalesced c = coalesced_modes(l, "right_inverse");
  std::vector<IntTuple> shapes, strides;
  right_inverse_modes(c.modes.shapes, c.modes.strides, c.prefix, LeafInverseOps{l, c}, shapes, strides);
  return coalesce(Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides))));
}

Layout left_inverse(const Layout& l) {
  const Coalesced c = coalesced_modes(l, "left_inverse");
  std::vector<IntTuple> shapes, strides;
  left_inverse_modes(c.modes.shapes, c.modes.strides, c.prefix, LeafInverseOps{l, c}, shapes, strides);
  return coalesce(Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides))));
}

}  // namespace cuteref
