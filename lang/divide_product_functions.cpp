// Registers the divide and product families and tile_to_shape in the expression language,
// under CuTe's names. The first operand may be a layout or a composed layout (whose swizzle
// and offset are kept, as CuTe does).
#include <climits>

#include "divide.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "product.hpp"
#include "tile_to_shape.hpp"

namespace cuteref {

namespace {

using Args = std::vector<Value>;

// Registers `name(A, tiler)` for a layout or composed-layout A and any tiler.
template <Layout (*OnLayout)(const Layout&, const Value&),
          ComposedLayout (*OnComposed)(const ComposedLayout&, const Value&)>
void add_tiler_function(FunctionTable& t, const std::string& name) {
  t.add(name, {2, 2, name + "(L, tiler)", [name](const Args& a) {
                 if (a[0].is_composed()) return Value(OnComposed(std::get<ComposedLayout>(a[0].data), a[1]));
                 return Value(OnLayout(layout_arg(a, 0, name), a[1]));
               }});
}

// Registers `name(A, B)` for a layout or composed-layout A and a layout B.
template <Layout (*OnLayout)(const Layout&, const Layout&),
          ComposedLayout (*OnComposed)(const ComposedLayout&, const Layout&)>
void add_layout_function(FunctionTable& t, const std::string& name) {
  t.add(name, {2, 2, name + "(L, B)", [name](const Args& a) {
                 const Layout& b = layout_arg(a, 1, name);
                 if (a[0].is_composed()) return Value(OnComposed(std::get<ComposedLayout>(a[0].data), b));
                 return Value(OnLayout(layout_arg(a, 0, name), b));
               }});
}

Value tile_to_shape_call(const Args& a) {
  const IntTuple& shape = int_tuple_arg(a, 1, "tile_to_shape");
  TileOrder order;
  if (a.size() == 3) {
    if (std::holds_alternative<MajorTag>(a[2].data))
      order.row_major = std::get<MajorTag>(a[2].data).row_major;
    else
      order.order = int_tuple_arg(a, 2, "tile_to_shape");
  }
  if (a[0].is_composed()) return Value(tile_to_shape(std::get<ComposedLayout>(a[0].data), shape, order));
  return Value(tile_to_shape(layout_arg(a, 0, "tile_to_shape"), shape, order));
}

}  // namespace

void register_divide_product_functions(FunctionTable& t) {
  add_tiler_function<logical_divide, logical_divide>(t, "logical_divide");
  add_tiler_function<zipped_divide, zipped_divide>(t, "zipped_divide");
  add_tiler_function<tiled_divide, tiled_divide>(t, "tiled_divide");
  add_tiler_function<flat_divide, flat_divide>(t, "flat_divide");
  add_tiler_function<logical_product, logical_product>(t, "logical_product");
  add_tiler_function<zipped_product, zipped_product>(t, "zipped_product");
  add_tiler_function<tiled_product, tiled_product>(t, "tiled_product");
  add_tiler_function<flat_product, flat_product>(t, "flat_product");
  add_layout_function<blocked_product, blocked_product>(t, "blocked_product");
  add_layout_function<raked_product, raked_product>(t, "raked_product");
  t.add("tile_to_shape", {2, 3, "tile_to_shape(L, shape [, order | LayoutLeft | LayoutRight])", tile_to_shape_call});
}

}  // namespace cuteref
