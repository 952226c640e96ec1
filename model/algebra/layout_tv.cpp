#include "layout_tv.hpp"

#include "composition.hpp"
#include "error.hpp"
#include "inverse.hpp"
#include "make_layout.hpp"
#include "product.hpp"

namespace cuteref {

LayoutTV make_layout_tv(const Layout& thr, const Layout& val) {
  const Layout layout_mn = raked_product(thr, val);
  const Layout inverse = right_inverse_full(layout_mn);
  if (size_value(inverse) < size_value(layout_mn))
    throw Error("make_layout_tv: the thread layout " + thr.to_string() + " and the value layout " + val.to_string() +
                " must be compact: raked_product(thr, val) = " + layout_mn.to_string() +
                " does not reach every (thread, value) index (its right inverse " + inverse.to_string() + " has size " +
                std::to_string(size_value(inverse)) + " < " + std::to_string(size_value(layout_mn)) + ")");
  Layout tv = composition(inverse, make_layout(IntTuple::tuple({size(thr), size(val)})));
  std::vector<IntTuple> extents;
  for (std::size_t i = 0; i < rank(layout_mn); ++i) extents.push_back(size(mode(layout_mn, i)));
  return {rank(layout_mn) == 1 && !layout_mn.shape().is_tuple() ? extents[0] : IntTuple::tuple(std::move(extents)),
          std::move(tv)};
}

}  // namespace cuteref
