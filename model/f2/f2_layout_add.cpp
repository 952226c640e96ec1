#include "f2_layout_add.hpp"

#include <string>

#include "leaf_arith.hpp"
#include "error.hpp"
#include "f2_algebra.hpp"
#include "greatest_common_domain.hpp"

namespace cuteref {

F2Layout layout_add(const F2Layout& a, const F2Layout& b) {
  const std::string call = "layout_add(" + a.to_string() + ", " + b.to_string() + ")";
  const std::int64_t n = size_value(a);
  if (n != size_value(b))
    throw Error(call + ": precondition violated: size(A) == size(B), got " + std::to_string(n) + " and " +
                std::to_string(size_value(b)));
  const F2Layout ca = coalesce(a), cb = coalesce(b);
  const Layout g = greatest_common_domain(ca.shape(), cb.shape());
  if (size_value(g) != n)
    throw Error(call + ": no layout R with R(i) == A(i) + B(i): coalesce(A) = " + ca.to_string() + " and coalesce(B) = " +
                cb.to_string() + " have no common refinement (greatest_common_domain = " + g.to_string() + ", size " +
                std::to_string(size_value(g)) + " of " + std::to_string(n) + ")");
  return coalesce(f2_layout_of(g.shape(), [&](std::int64_t i) { return apply_index(a, i) ^ apply_index(b, i); }, call));
}

F2Layout layout_add(const F2Layout& a, const Layout& zero) {
  const std::string call = "layout_add(" + a.to_string() + ", " + zero.to_string() + ")";
  if (zero.has_basis_strides())
    throw Error(call + ": an F2 layout and a layout with scaled-basis strides have no sum");
  const FlatModes m = flat_modes(zero.shape(), zero.stride());
  for (std::size_t k = 0; k < m.shapes.size(); ++k)
    if (m.shapes[k].value() > 1 && m.strides[k].value() != 0)
      throw Error(call + ": an F2 value and a non-zero integer have no sum; the integer layout's mode " + std::to_string(k) +
                  " = " + m.shapes[k].to_string() + ":" + m.strides[k].to_string() +
                  " is not 0 (only the integer 0 adds to an F2 layout, as F0)");
  const std::int64_t n = size_value(a);
  if (n != size_value(zero))
    throw Error(call + ": precondition violated: size(A) == size(B), got " + std::to_string(n) + " and " +
                std::to_string(size_value(zero)));
  return coalesce(a);
}

}  // namespace cuteref
