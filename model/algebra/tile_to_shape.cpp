#include "tile_to_shape.hpp"

#include <vector>

#include "checked_math.hpp"
#include "error.hpp"
#include "leaf_policies.hpp"
#include "make_layout.hpp"
#include "product.hpp"
#include "product_generic.hpp"

namespace cuteref {

Layout tile_to_shape(const Layout& block, const IntTuple& trg_shape, const TileOrder& order) {
  const std::string operands = "tile_to_shape(" + block.to_string() + ", " + trg_shape.to_string() + ")";
  const IntTuple target = wrap(trg_shape);
  const std::size_t r = target.rank();
  if (rank(block) > r)
    throw Error(operands + ": rank of layout must be <= rank of target shape (" + std::to_string(rank(block)) + " > " +
                std::to_string(r) + ")");
  std::vector<IntTuple> leaves;
  flatten_into(trg_shape, leaves);
  for (const auto& leaf : leaves)
    if (!leaf.is_integer() || leaf.value() < 1)
      throw Error(operands + ": the target shape's leaves must be integers >= 1, got " + leaf.to_string());
  const Layout padded = append_to_rank(block, r);
  const bool check_divisibility = trg_shape.all_static();
  std::vector<IntTuple> copies;
  for (std::size_t i = 0; i < r; ++i) {
    const IntTuple t = product(target[i]);
    const IntTuple b = product(mode(padded, i).shape());
    copies.push_back(tile_copies<IntTupleLeaf>(t, b, check_divisibility, [&] {
      return operands + ": block shape does not divide the target shape (mode " + std::to_string(i) +
             ": block size " + b.to_string() + " does not divide " + t.to_string() + ")";
    }));
  }
  const IntTuple copy_shape = IntTuple::tuple(std::move(copies));
  Layout tiler = order.order ? make_ordered_layout(copy_shape, *order.order)
                 : order.row_major ? make_layout_right(copy_shape)
                                   : make_layout(copy_shape);
  return blocked_product(padded, tiler);
}

ComposedLayout tile_to_shape(const ComposedLayout& block, const IntTuple& trg_shape, const TileOrder& order) {
  return {block.swizzle, block.offset, tile_to_shape(block.layout, trg_shape, order)};
}

}  // namespace cuteref
