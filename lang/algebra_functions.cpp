// Registers the layout algebra of issue 3 in the expression language: composition,
// complement, inverses, max_common_*, upcast/downcast/recast.
#include "complement.hpp"
#include "composition.hpp"
#include "composition_swizzle.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "inverse.hpp"
#include "inverse_composed.hpp"
#include "layout_tv.hpp"
#include "max_common.hpp"
#include "nullspace.hpp"
#include "recast.hpp"
#include "recast_composed.hpp"

namespace cuteref {

namespace {

using Args = std::vector<Value>;

// composition(A, B): A a layout or a composed layout; B a layout or a tiler.
Value composition_call(const Args& a) {
  // CuTe's composition(Swizzle, Layout) = Sw o _0 o L; of two composed layouts
  // (composition_swizzle.hpp)
  if (a[0].is_swizzle()) {
    if (!a[1].is_layout())
      throw Error("composition: a swizzle on the left composes with a layout only (CuTe's composition(Swizzle, "
                  "Layout)); argument 2 is " + a[1].kind_name() + " `" + a[1].to_string() + "`");
    return Value(composition(std::get<Swizzle>(a[0].data), std::get<Layout>(a[1].data)));
  }
  if (a[0].is_composed() && a[1].is_composed())
    return composition(std::get<ComposedLayout>(a[0].data), std::get<ComposedLayout>(a[1].data));
  if (a[0].is_composed()) return Value(composition(std::get<ComposedLayout>(a[0].data), a[1]));
  // a swizzle or a swizzled composed layout on the right (composition_swizzle.hpp)
  if (a[1].is_swizzle()) return Value(composition(layout_arg(a, 0, "composition"), std::get<Swizzle>(a[1].data)));
  if (a[1].is_composed()) return Value(composition(layout_arg(a, 0, "composition"), std::get<ComposedLayout>(a[1].data)));
  return Value(composition(layout_arg(a, 0, "composition"), a[1]));
}

// complement(A [, cotarget]): of a composed layout, its inner layout's complement (CuTe's
// complement(ComposedLayout) = complement(layout_b, cosize(layout_b)): neither the swizzle nor
// the offset enter it; the result is a plain layout).
Value complement_call(const Args& a) {
  const Layout& l = a[0].is_composed() ? std::get<ComposedLayout>(a[0].data).layout : layout_arg(a, 0, "complement");
  if (a.size() == 1) return Value(complement(l));
  return Value(complement(l, int_tuple_arg(a, 1, "complement")));
}

}  // namespace

void register_algebra_functions(FunctionTable& t) {
  t.add("nullspace", {1, 1, "nullspace(L)  the zero-stride modes of L as indices of its domain (_1:_0 if none)",
                      [](const Args& a) { return Value(nullspace(layout_arg(a, 0, "nullspace"))); }});
  t.add("make_layout_tv", {2, 2, "make_layout_tv(THR, VAL)  (tiler_mn, (thread,value) -> tile index)", [](const Args& a) {
           LayoutTV r = make_layout_tv(layout_arg(a, 0, "make_layout_tv"), layout_arg(a, 1, "make_layout_tv"));
           return Value(MixedTuple{{Value(std::move(r.tiler_mn)), Value(std::move(r.layout_tv))}});
         }});
  t.add("composition", {2, 2, "composition(A | Sw | composed layout, B | tiler | swizzle | composed layout)", composition_call});
  t.add("complement", {1, 2, "complement(L | composed layout [, cotarget])", complement_call});
  t.add("right_inverse", {1, 1, "right_inverse(L | Sw o 0 o L)  CuTe's: follows static strides only (right_inverse_full: all)", [](const Args& a) {
           if (a.at(0).is_composed()) return Value(right_inverse(std::get<ComposedLayout>(a[0].data)));
           return Value(right_inverse(layout_arg(a, 0, "right_inverse")));
         }});
  t.add("left_inverse", {1, 1, "left_inverse(L | Sw o 0 o L)", [](const Args& a) {
           if (a.at(0).is_composed()) return Value(left_inverse(std::get<ComposedLayout>(a[0].data)));
           return Value(left_inverse(layout_arg(a, 0, "left_inverse")));
         }});
  t.add("max_common_vector", {2, 2, "max_common_vector(A, B)", [](const Args& a) {
           return Value(max_common_vector(layout_arg(a, 0, "max_common_vector"), layout_arg(a, 1, "max_common_vector")));
         }});
  t.add("max_common_layout", {2, 2, "max_common_layout(A, B)", [](const Args& a) {
           return Value(max_common_layout(layout_arg(a, 0, "max_common_layout"), layout_arg(a, 1, "max_common_layout")));
         }});
  t.add("upcast", {2, 2, "upcast(L | composed layout, n)", [](const Args& a) {
           if (a[0].is_composed()) return Value(upcast(std::get<ComposedLayout>(a[0].data), integer_arg(a, 1, "upcast")));
           return Value(upcast(layout_arg(a, 0, "upcast"), integer_arg(a, 1, "upcast")));
         }});
  t.add("downcast", {2, 2, "downcast(L | composed layout, n)", [](const Args& a) {
           if (a[0].is_composed())
             return Value(downcast(std::get<ComposedLayout>(a[0].data), integer_arg(a, 1, "downcast")));
           return Value(downcast(layout_arg(a, 0, "downcast"), integer_arg(a, 1, "downcast")));
         }});
  t.add("recast", {3, 3, "recast(L | composed layout, old_bits, new_bits)", [](const Args& a) {
           if (a[0].is_composed())
             return Value(recast(std::get<ComposedLayout>(a[0].data), integer_arg(a, 1, "recast"), integer_arg(a, 2, "recast")));
           return Value(recast(layout_arg(a, 0, "recast"), integer_arg(a, 1, "recast"), integer_arg(a, 2, "recast")));
         }});
}

}  // namespace cuteref
