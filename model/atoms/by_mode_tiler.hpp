// The by-mode tiler of a (thread, value) -> coordinate map: what CuTe's make_tiled_copy_C_atom
// and make_tmem_copy build from the coordinates the values reach, one tiler mode per mode of
// the tensor.
#pragma once

#include "layout.hpp"
#include "value.hpp"

namespace cuteref {

struct ByModeTiler {
  Value tiler;           // mode i: the coordinates along mode i the map reaches (stride-0 and size-1 modes dropped)
  IntTuple tiler_shape;  // the shapes of tiler's modes
  Layout tile_to_coord;  // tile index -> coordinate index in `shape`'s domain (make_layout(shape) o tiler)
};

// The by-mode tiler of tv_coord, a (thread, value) -> coordinate-index map into a tensor of the
// flat static shape `shape`. @pre shape is a flat tuple of static integers; tv_coord's
// codomain lies in [0, size(shape)).
ByModeTiler by_mode_tiler(const IntTuple& shape, const Layout& tv_coord);

}  // namespace cuteref
