// tile_to_shape: repeat a block until it fills a target shape (CuTe's tile_to_shape).
#pragma once

#include <optional>

#include "int_tuple.hpp"
#include "layout.hpp"
#include "swizzle.hpp"

namespace cuteref {

// The order in which the copies of the block are laid out: column-major (CuTe's default,
// LayoutLeft / GenColMajor), row-major (LayoutRight), or an explicit order tuple as for
// make_ordered_layout (e.g. (1,0,2): repeat across mode 1 first, then mode 0, then mode 2).
struct TileOrder {
  bool row_major = false;
  std::optional<IntTuple> order;  // when set, overrides row_major
};

// tile_to_shape(block, trg_shape [, order]): with R = rank(trg_shape), pad the block to
// rank R with _1:_0 modes, take per mode b_i = size(mode(block', i)) and
// t_i = product(trg_shape_i), q_i = ceil(t_i / b_i), and return
//   blocked_product(block', make_ordered_layout((q_0,..,q_R-1), order))
// @pre rank(block) <= rank(trg_shape) ("rank of layout must be <= rank of target shape")
// @pre trg_shape has integer leaves >= 1
// @pre when every leaf of trg_shape is static, b_i divides t_i for each i (CuTe asserts this
//      at compile time: "block shape does not divide the target shape")
// @post rank(result) == R; mode i of the result has size q_i * b_i, so
//       shape(result) is compatible with trg_shape when each b_i divides t_i
// @post mode i of the result is (mode i of block', copies along mode i): blocked_product's
//       structure, so result restricted to the first tile equals the block
// When trg_shape has a dynamic leaf, CuTe checks nothing and rounds the number of copies up;
// the model does the same: tile_to_shape((2,3):(1,2), (5,9)) == ((2,3),(3,3)):((1,6),(2,18)),
// of size 54 > 45 = size(trg_shape).
Layout tile_to_shape(const Layout& block, const IntTuple& trg_shape, const TileOrder& order = {});

// tile_to_shape of a composed layout S o O o L tiles L and keeps S and O, as CuTe does.
ComposedLayout tile_to_shape(const ComposedLayout& block, const IntTuple& trg_shape, const TileOrder& order = {});

}  // namespace cuteref
