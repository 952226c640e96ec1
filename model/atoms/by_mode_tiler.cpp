#include "atoms/by_mode_tiler.hpp"

#include <utility>
#include <vector>

#include "coalesce.hpp"
#include "composition.hpp"
#include "make_layout.hpp"

namespace cuteref {

ByModeTiler by_mode_tiler(const IntTuple& shape, const Layout& tv_coord) {
  std::vector<Value> modes;
  std::vector<IntTuple> mode_shapes;
  for (std::size_t i = 0; i < shape.rank(); ++i) {
    // Coordinate i of the tensor as a function of its index: shape with the unit stride at i.
    std::vector<IntTuple> unit(shape.rank(), IntTuple::static_int(0));
    unit[i] = IntTuple::static_int(1);
    const Layout t = filter(composition(Layout(shape, IntTuple::tuple(std::move(unit))), tv_coord));
    mode_shapes.push_back(t.shape());
    modes.push_back(Value(t));
  }
  Value tiler(MixedTuple{std::move(modes)});
  Layout tile_to_coord = composition(make_layout(shape), tiler);
  return ByModeTiler{std::move(tiler), IntTuple::tuple(std::move(mode_shapes)), std::move(tile_to_coord)};
}

}  // namespace cuteref
