#include "complement.hpp"

#include <string>
#include <vector>

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "complement_generic.hpp"
#include "error.hpp"
#include "flat_coalesce.hpp"
#include "flat_int.hpp"
#include "leaf_arith.hpp"
#include "make_layout.hpp"

namespace cuteref {

namespace {

// The cotarget for diagnostics: an IntTuple, or flat leaves printed as the tuple they form.
struct CotargetText {
  const IntTuple* whole;
  const FlatInt* leaves;
  std::size_t n;
  IntTuple tuple() const { return whole != nullptr ? *whole : tuple_of_flat(leaves, n); }
  std::string text() const { return tuple().to_string(); }
};

struct FlatIntSpan {
  const FlatInt* first;
  std::size_t n;
  std::size_t size() const { return n; }
  const FlatInt* begin() const { return first; }
  const FlatInt* end() const { return first + n; }
};

void check_cotarget(const IntTuple& t, const Layout& a, const IntTuple& whole) {
  if (t.is_tuple()) {
    for (const auto& e : t.elements()) check_cotarget(e, a, whole);
    return;
  }
  if (!t.is_integer() || t.value() < 1)
    throw Error("complement: precondition violated: the cotarget " + whole.to_string() +
                " must be a shape of integers >= 1 (leaf " + t.to_string() + "); A = " + a.to_string());
}

// complement_modes' steps on the model's leaves as plain values with static flags
// (flat_int.hpp; as leaf_arith on IntTuple leaves). Diagnostics name A and the cotarget.
struct FlatComplementOps {
  const Layout& a;
  const CotargetText& cotarget;
  bool less(FlatInt x, FlatInt y) const { return x.v < y.v; }
  void check_stride(FlatInt shape, FlatInt stride) const {
    if (stride.v < 0)
      throw Error("complement: precondition violated: A's strides must be >= 0 (mode " + shape.to_string() + ":" +
                  stride.to_string() + "); A = " + a.to_string() + ", cotarget = " + cotarget.text());
  }
  void check_gap(FlatInt gap, FlatInt shape, FlatInt stride, FlatInt extent) const {
    if (gap.v == 0)
      throw Error("complement: precondition violated: A must be injective with non-interleaved modes, but mode " +
                  shape.to_string() + ":" + stride.to_string() + " starts below the extent " + extent.to_string() +
                  " of A's smaller-stride modes (CuTe: \"Non-injective Layout detected in complement\"); A = " +
                  a.to_string() + ", cotarget = " + cotarget.text());
  }
  FlatInt div(FlatInt x, FlatInt y) const { return flat_div(x, y); }
  FlatInt mul(FlatInt x, FlatInt y) const { return flat_mul(x, y); }
  FlatInt ceil_div(FlatInt x, FlatInt y) const { return flat_ceil_div(x, y); }
  FlatInt one() const { return {1, true}; }
};

// complement(a, cotarget) as its result's flat modes, from a's flattened modes `m`
// (filtered in place), the cotarget's leaves given flat (a and the whole cotarget only for
// diagnostics).
void complement_flat(const Layout& a, FlatModesOfInts& m, const FlatInt* cot, std::size_t n_cot,
                     const CotargetText& cotarget, FlatModesOfInts& out) {
  for (std::size_t i = 0; i < n_cot; ++i)
    if (cot[i].v < 1)
      throw Error("complement: precondition violated: the cotarget " + cotarget.text() +
                  " must be a shape of integers >= 1 (leaf " + cot[i].to_string() + "); A = " + a.to_string());
  filter_flat_ints_in_place(m);  // flat_modes(filter(a)), as plain values
  // filter leaves the single mode _1:_0 when A has no stride-non-zero, size > 1 mode.
  if (m.shapes.size() == 1 && m.strides[0].v == 0) {
    const Layout r = coalesce(make_layout(cotarget.tuple()));
    out.shapes.clear();
    out.strides.clear();
    append_flat_ints(r.shape(), out.shapes);
    append_flat_ints(r.stride(), out.strides);  // make_layout's strides are integers
    return;
  }
  out.shapes.clear();
  out.strides.clear();
  complement_modes(m.shapes, m.strides, FlatIntSpan{cot, n_cot}, FlatComplementOps{a, cotarget}, out);
  coalesce_flat_ints_in_place(out.shapes, out.strides);
}

// a's flattened modes, or the diagnostic for a scaled-basis stride.
void flat_modes_for_complement(const Layout& a, FlatModesOfInts& m) {
  if (!flat_int_modes(a, m))
    throw Error("complement: precondition violated: A's strides must be integers; A = " + a.to_string());
}

}  // namespace

void complement_flat(const Layout& a, const IntTuple& cotarget, FlatModesOfInts& out) {
  FlatInts cot;
  if (cotarget.is_integer() && cotarget.value() >= 1) {
    cot.push_back(FlatInt::of(cotarget));  // the common integer cotarget: nothing to walk
  } else {
    check_cotarget(cotarget, a, cotarget);
    append_flat_ints(cotarget, cot);  // all integers: checked above
  }
  FlatModesOfInts m;
  flat_modes_for_complement(a, m);
  complement_flat(a, m, cot.data(), cot.size(), CotargetText{&cotarget, nullptr, 0}, out);
}

Layout complement(const Layout& a, const IntTuple& cotarget) {
  FlatModesOfInts r;
  complement_flat(a, cotarget, r);
  return r.layout();
}

void complement_flat_of_shape_leaves(const Layout& a, const FlatInt* cot, std::size_t n_cot, FlatModesOfInts& out) {
  FlatModesOfInts m;
  flat_modes_for_complement(a, m);
  complement_flat(a, m, cot, n_cot, CotargetText{nullptr, cot, n_cot}, out);
}

void complement_flat_of_modes(const Layout& a, FlatModesOfInts& a_modes, FlatInt cotarget, FlatModesOfInts& out) {
  complement_flat(a, a_modes, &cotarget, 1, CotargetText{nullptr, &cotarget, 1}, out);
}

Layout complement(const Layout& a) {
  if (a.has_basis_strides())
    throw Error("complement: precondition violated: A's strides must be integers; A = " + a.to_string());
  return complement(a, cosize(filter(a)));
}

}  // namespace cuteref
