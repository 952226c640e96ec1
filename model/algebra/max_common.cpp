#include "max_common.hpp"

#include "coalesce.hpp"
#include "composition.hpp"
#include "inverse.hpp"

namespace cuteref {

namespace {

// The first mode of coalesce(A o right_inverse(B)) if it is contiguous (stride 1).
bool contiguous_front(const Layout& a, const Layout& inv_b, Layout& front) {
  const Layout common = coalesce(composition(a, inv_b));
  front = common.shape().is_tuple() ? mode(common, 0) : common;
  return front.stride().is_integer() && front.stride().value() == 1;
}

}  // namespace

IntTuple max_common_vector(const Layout& a, const Layout& b) {
  Layout front = a;
  if (contiguous_front(a, right_inverse_full(b), front)) return front.shape();
  return IntTuple::static_int(1);
}

Layout max_common_layout(const Layout& a, const Layout& b) {
  const Layout inv_b = right_inverse_full(b);
  Layout front = a;
  if (contiguous_front(a, inv_b, front)) return composition(inv_b, front);
  return Layout(IntTuple::static_int(1), IntTuple::static_int(0));
}

}  // namespace cuteref
