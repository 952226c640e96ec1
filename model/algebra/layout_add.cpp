#include "layout_add.hpp"

#include <string>
#include <vector>

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "coordinates.hpp"
#include "error.hpp"
#include "greatest_common_domain.hpp"
#include "leaf_arith.hpp"

namespace cuteref {

namespace {

// The flat mode of a coalesced layout whose coordinate is the digit of 1-D index `index` at or
// above it (the first mode that ends past `index`), as `mode k = s:d` with that digit's formula.
std::string mode_holding(const Layout& c, std::int64_t index) {
  const FlatModes m = flat_modes(c.shape(), c.stride());
  std::int64_t start = 1;
  for (std::size_t k = 0; k < m.shapes.size(); ++k) {
    const std::int64_t end = checked_mul(start, m.shapes[k].value());
    if (index < end || k + 1 == m.shapes.size())
      return "mode " + std::to_string(k) + " = " + m.shapes[k].to_string() + ":" + m.strides[k].to_string() +
             " (its coordinate is (i / " + std::to_string(start) + ") mod " + m.shapes[k].to_string() + ")";
    start = end;
  }
  return "no mode";
}

}  // namespace

Layout layout_add(const Layout& a, const Layout& b) {
  const std::string call = "layout_add(" + a.to_string() + ", " + b.to_string() + ")";
  if (a.has_basis_strides() || b.has_basis_strides())
    throw Error(call + ": precondition violated: the strides must be integers");
  const std::int64_t n = size_value(a);
  if (n != size_value(b))
    throw Error(call + ": precondition violated: size(A) == size(B), got " + std::to_string(n) + " and " +
                std::to_string(size_value(b)));
  const Layout ca = coalesce(a), cb = coalesce(b);
  const Layout g = greatest_common_domain(ca.shape(), cb.shape());
  const FlatModes gm = flat_modes(g.shape(), g.stride());
  if (size_value(g) != n) {
    // The first index G does not reach: G's modes cover [0, covered) contiguously up to there.
    std::int64_t covered = 1;
    for (std::size_t k = 0; k < gm.shapes.size() && gm.strides[k].value() == covered; ++k)
      covered = checked_mul(covered, gm.shapes[k].value());
    throw Error(call + ": no layout R with R(i) == A(i) + B(i): coalesce(A) = " + ca.to_string() + " and coalesce(B) = " +
                cb.to_string() + " have no common refinement (greatest_common_domain = " + g.to_string() + ", size " +
                std::to_string(size_value(g)) + " of " + std::to_string(n) + "); index " + std::to_string(covered) +
                " is the first index the common domain does not reach; there coalesce(A)'s " + mode_holding(ca, covered) +
                " and coalesce(B)'s " + mode_holding(cb, covered) + " have no common factor aligned in both");
  }
  const bool st = a.shape().all_static() && a.stride().all_static() && b.shape().all_static() && b.stride().all_static();
  std::vector<IntTuple> strides;
  for (std::size_t k = 0; k < gm.shapes.size(); ++k) {
    const std::int64_t at = gm.strides[k].value();
    strides.push_back(IntTuple::integer(checked_add(apply_index(ca, at), apply_index(cb, at)), st));
  }
  return coalesce(Layout(g.shape(), IntTuple::tuple(std::move(strides))));
}

}  // namespace cuteref
