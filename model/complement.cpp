#include "complement.hpp"

#include <string>
#include <vector>

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "complement_generic.hpp"
#include "error.hpp"
#include "flat_coalesce.hpp"
#include "leaf_arith.hpp"
#include "make_layout.hpp"

namespace cuteref {

namespace {

void check_cotarget(const IntTuple& t, const Layout& a, const IntTuple& whole) {
  if (t.is_tuple()) {
    for (const auto& e : t.elements()) check_cotarget(e, a, whole);
    return;
  }
  if (!t.is_integer() || t.value() < 1)
    throw Error("complement: precondition violated: the cotarget " + whole.to_string() +
                " must be a shape of integers >= 1 (leaf " + t.to_string() + "); A = " + a.to_string());
}

// complement_modes' steps on the model's leaves (static flags propagate as in leaf_arith).
struct IntTupleComplementOps {
  const Layout& a;
  const IntTuple& cotarget;
  bool less(const IntTuple& x, const IntTuple& y) const { return x.value() < y.value(); }
  void check_stride(const IntTuple& shape, const IntTuple& stride) const {
    if (stride.value() < 0)
      throw Error("complement: precondition violated: A's strides must be >= 0 (mode " + shape.to_string() + ":" +
                  stride.to_string() + "); A = " + a.to_string() + ", cotarget = " + cotarget.to_string());
  }
  void check_gap(const IntTuple& gap, const IntTuple& shape, const IntTuple& stride, const IntTuple& extent) const {
    if (gap.value() == 0)
      throw Error("complement: precondition violated: A must be injective with non-interleaved modes, but mode " +
                  shape.to_string() + ":" + stride.to_string() + " starts below the extent " + extent.to_string() +
                  " of A's smaller-stride modes (CuTe: \"Non-injective Layout detected in complement\"); A = " +
                  a.to_string() + ", cotarget = " + cotarget.to_string());
  }
  IntTuple div(const IntTuple& x, const IntTuple& y) const { return leaf_div(x, y); }
  IntTuple mul(const IntTuple& x, const IntTuple& y) const { return leaf_mul(x, y); }
  IntTuple ceil_div(const IntTuple& x, const IntTuple& y) const { return leaf_ceil_div(x, y); }
  IntTuple one() const { return IntTuple::static_int(1); }
};

}  // namespace

Layout complement(const Layout& a, const IntTuple& cotarget) {
  check_cotarget(cotarget, a, cotarget);
  if (a.has_basis_strides())
    throw Error("complement: precondition violated: A's strides must be integers; A = " + a.to_string());
  FlatModes m = filtered_flat_modes(a);  // flat_modes(filter(a))
  // filter leaves the single mode _1:_0 when A has no stride-non-zero, size > 1 mode.
  if (m.shapes.size() == 1 && m.strides[0].value() == 0) return coalesce(make_layout(cotarget));
  Leaves cot;
  append_leaves_to(cotarget, cot);
  ComplementModes<Leaves> r =
      complement_modes(std::move(m.shapes), std::move(m.strides), cot, IntTupleComplementOps{a, cotarget});
  return coalesce_flat({std::move(r.shapes), std::move(r.strides)});
}

Layout complement(const Layout& a) {
  if (a.has_basis_strides())
    throw Error("complement: precondition violated: A's strides must be integers; A = " + a.to_string());
  return complement(a, cosize(filter(a)));
}

}  // namespace cuteref
