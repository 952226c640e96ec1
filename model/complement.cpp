#include "complement.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "checked_math.hpp"
#include "coalesce.hpp"
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

}  // namespace

Layout complement(const Layout& a, const IntTuple& cotarget) {
  check_cotarget(cotarget, a, cotarget);
  if (a.has_basis_strides())
    throw Error("complement: precondition violated: A's strides must be integers; A = " + a.to_string());
  FlatModes m = filtered_flat_modes(a);  // flat_modes(filter(a))
  // filter leaves the single mode _1:_0 when A has no stride-non-zero, size > 1 mode.
  if (m.shapes.size() == 1 && m.strides[0].value() == 0) return coalesce(make_layout(cotarget));
  for (std::size_t k = 0; k < m.strides.size(); ++k)
    if (m.strides[k].value() < 0)
      throw Error("complement: precondition violated: A's strides must be >= 0 (mode " + m.shapes[k].to_string() +
                  ":" + m.strides[k].to_string() + "); A = " + a.to_string() + ", cotarget = " + cotarget.to_string());

  // A's modes, then the rest modes (one per leaf of a flat cotarget).
  FlatModes r;
  IntTuple extent = IntTuple::static_int(1);
  while (!m.shapes.empty()) {
    // The mode of smallest stride, the first one among equals.
    std::size_t k = 0;
    for (std::size_t j = 1; j < m.strides.size(); ++j)
      if (m.strides[j].value() < m.strides[k].value()) k = j;
    const IntTuple gap = leaf_div(m.strides[k], extent);
    if (gap.value() == 0)
      throw Error("complement: precondition violated: A must be injective with non-interleaved modes, but mode " +
                  m.shapes[k].to_string() + ":" + m.strides[k].to_string() + " starts below the extent " +
                  extent.to_string() + " of A's smaller-stride modes (CuTe: \"Non-injective Layout detected in "
                  "complement\"); A = " + a.to_string() + ", cotarget = " + cotarget.to_string());
    r.shapes.push_back(gap);
    r.strides.push_back(extent);
    extent = leaf_mul(m.strides[k], m.shapes[k]);
    m.shapes.erase(m.shapes.begin() + static_cast<std::ptrdiff_t>(k));
    m.strides.erase(m.strides.begin() + static_cast<std::ptrdiff_t>(k));
  }
  // The repetitions past A's extent, up to the cotarget: the modes of
  // tuple_ceil_div(cotarget, extent) with compact_col_major strides from extent.
  const bool flat_cotarget =
      std::none_of(cotarget.elements().begin(), cotarget.elements().end(), [](const IntTuple& e) { return e.is_tuple(); });
  if (flat_cotarget) {
    // The same leaves, without building the tuples: the divisor passes left to right
    // (ceil_div of a leaf is its own product's) and the strides are the running product.
    IntTuple divisor = extent, running = extent;
    for (std::size_t i = 0; i < cotarget.rank(); ++i) {
      const IntTuple& c = cotarget[i];
      IntTuple q = leaf_ceil_div(c, divisor);
      if (cotarget.is_tuple()) divisor = leaf_ceil_div(divisor, c);
      IntTuple next = leaf_mul(running, q);
      r.shapes.push_back(std::move(q));
      r.strides.push_back(std::move(running));
      running = std::move(next);
    }
    return coalesce_flat(std::move(r));
  }
  const IntTuple rest = tuple_ceil_div(cotarget, extent);
  const IntTuple rest_stride = compact_col_major(rest, extent);
  append_leaves_to(rest, r.shapes);
  append_leaves_to(rest_stride, r.strides);
  return coalesce_flat(std::move(r));
}

Layout complement(const Layout& a) {
  if (a.has_basis_strides())
    throw Error("complement: precondition violated: A's strides must be integers; A = " + a.to_string());
  return complement(a, cosize(filter(a)));
}

}  // namespace cuteref
