#include "identity_layout.hpp"

#include <vector>

#include "error.hpp"
#include "shape_check.hpp"

namespace cuteref {

namespace {

// `outer_first` is the position of `shape` within the whole shape, outermost index first
// (CuTe's Ns... of E<Ns...>).
IntTuple basis_like(const IntTuple& shape, std::vector<int>& outer_first, const IntTuple& whole) {
  if (!shape.is_tuple()) {
    if (outer_first.empty()) return IntTuple::static_int(1);  // E<> is the integer _1
    // IntTuple keeps CuTe's printed order, innermost first.
    return IntTuple::basis(1, std::vector<int>(outer_first.rbegin(), outer_first.rend()), true);
  }
  std::vector<IntTuple> strides;
  for (std::size_t i = 0; i < shape.rank(); ++i) {
    outer_first.push_back(static_cast<int>(i));
    strides.push_back(basis_like(shape[i], outer_first, whole));
    outer_first.pop_back();
  }
  return IntTuple::tuple(std::move(strides));
}

}  // namespace

IntTuple make_basis_like(const IntTuple& shape) {
  require_shape(shape, "make_basis_like");
  std::vector<int> position;
  return basis_like(shape, position, shape);
}

Layout make_identity_layout(const IntTuple& shape) { return Layout(shape, make_basis_like(shape)); }

}  // namespace cuteref
