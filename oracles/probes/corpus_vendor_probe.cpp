// Vendor probe for corpus/vendor (not built by meson): prints CuTe 4.2's answers quoted as
// evidence there. Build and run on the host:
//   I=.vendor/cuda/nvidia/cu13/include
//   g++ -std=c++17 -w -I.vendor/wheel/cutlass_library/source/include -I$I/cccl -I$I \
//       oracles/probes/corpus_vendor_probe.cpp -o /tmp/probe && /tmp/probe
#include <cute/layout.hpp>
#include <cute/swizzle.hpp>
#include <cute/swizzle_layout.hpp>
#include <cstdio>
using namespace cute;

template <class T> void show(const char* what, T const& t) {
  printf("%-60s ", what);
  print(t);
  printf("\n");
}
template <class L> void values(const char* what, L const& l) {
  printf("%-60s ", what);
  for (int i = 0; i < int(size(l)); ++i) printf("%d ", int(l(i)));
  printf("\n");
}

int main() {
  // model bug (fixed): composition with a tuple tiler drops A's uncovered modes
  auto a1 = make_layout(make_shape(12, 32), make_stride(32, 1));
  show("composition((12,32):(32,1), (4:2))", composition(a1, make_tile(Layout<_4, _2>{})));
  auto a2 = make_layout(make_shape(_4{}, _8{}, _2{}), make_stride(_1{}, _4{}, _32{}));
  show("composition((_4,_8,_2):(_1,_4,_32), (2:2, 4))", composition(a2, make_tile(Layout<_2, _2>{}, _4{})));
  show("composition((_4,_8,_2):(_1,_4,_32), (2, _))", composition(a2, make_tile(_2{}, _)));
  show("logical_divide((_4,_8,_2):(_1,_4,_32), (2:2))", logical_divide(a2, make_tile(Layout<_2, _2>{})));

  // filter removes static _0 strides only
  show("filter((2,1):(0,1)) dynamic", filter(make_layout(make_shape(2, 1), make_stride(0, 1))));
  show("filter((2,1):(_0,1))", filter(make_layout(make_shape(2, 1), make_stride(_0{}, 1))));
  // coalesce cannot merge dynamic modes
  show("coalesce((4,(5)):(1,(4)))", coalesce(make_layout(make_shape(4, make_shape(5)), make_stride(1, make_stride(4)))));
  show("coalesce((_4,(_5)):(_1,(_4)))", coalesce(make_layout(make_shape(_4{}, make_shape(_5{})), make_stride(_1{}, make_stride(_4{})))));
  // upcast / downcast find the contiguous mode by a static _1 stride only
  show("upcast<2>((4,5):(1,4))", upcast<2>(make_layout(make_shape(4, 5), make_stride(1, 4))));
  show("upcast<2>((4,5):(_1,4))", upcast<2>(make_layout(make_shape(4, 5), make_stride(_1{}, 4))));
  show("downcast<2>((1,8):(_1,1))", downcast<2>(make_layout(make_shape(1, 8), make_stride(_1{}, 1))));
  // complement with a negative stride (on a shape-1 mode)
  show("complement(1:-1, 28)", complement(make_layout(1, -1), 28));
  // complement / products with a mode whose shape is 1 only at run time
  show("complement((2,2,1):(_1,_2,_16), 8)", complement(make_layout(make_shape(2, 2, 1), make_stride(_1{}, _2{}, _16{})), 8));
  show("complement((2,2,_1):(_1,_2,_16), 8)", complement(make_layout(make_shape(2, 2, _1{}), make_stride(_1{}, _2{}, _16{})), 8));
  auto blk = make_layout(make_shape(1, 4, 1), make_stride(_1{}, _2{}, _16{}));
  auto blk_s = make_layout(make_shape(_1{}, 4, _1{}), make_stride(_1{}, _2{}, _16{}));
  show("tile_to_shape((1,4,1):(_1,_2,_16), (2,12,2))", tile_to_shape(blk, make_shape(2, 12, 2)));
  show("tile_to_shape((_1,4,_1):(_1,_2,_16), (2,12,2))", tile_to_shape(blk_s, make_shape(2, 12, 2)));
  printf("%-60s %d\n", "size of the first", int(size(tile_to_shape(blk, make_shape(2, 12, 2)))));
  // max_common with run-time layouts: CuTe answers only the static part
  auto d8 = make_layout(8, 1);
  show("max_common_vector(8:1, 8:1)", max_common_vector(d8, d8));
  show("max_common_vector(_8:_1, _8:_1)", max_common_vector(Layout<_8, _1>{}, Layout<_8, _1>{}));
  show("max_common_layout(8:1, 8:1)", max_common_layout(d8, d8));
  // right_inverse ignores dynamic strides
  show("right_inverse((4,2):(1,4))", right_inverse(make_layout(make_shape(4, 2), make_stride(1, 4))));
  show("right_inverse((_4,_2):(_1,_4))", right_inverse(Layout<Shape<_4, _2>, Stride<_1, _4>>{}));
  // stride-0 modes: pycute answers 1:0 for both inverses
  show("right_inverse((_2,_4):(_0,_1))", right_inverse(Layout<Shape<_2, _4>, Stride<_0, _1>>{}));
  show("left_inverse((_2,_2):(_0,_1))", left_inverse(Layout<Shape<_2, _2>, Stride<_0, _1>>{}));
  // left_inverse of 3:2 (pycute's differs off the image)
  show("left_inverse(_3:_2)", left_inverse(Layout<_3, _2>{}));
  // pycute's composition assert inside a product: CuTe answers
  auto pa = make_layout(make_shape(_2{}, _2{}), make_stride(_6{}, _1{}));
  auto pb = make_layout(make_shape(make_shape(make_shape(_2{}, _8{}, _1{}), _3{})),
                        make_stride(make_stride(make_stride(_6{}, _72{}, _2{}), _24{})));
  show("logical_product((_2,_2):(_6,_1), (((_2,_8,_1),_3)):(((_6,_72,_2),_24)))", logical_product(pa, pb));
  // swizzle of a negative value
  printf("%-60s %d\n", "Swizzle<1,0,1>{}(-1)", int(Swizzle<1, 0, 1>{}(-1)));
  values("Sw<1,0,1> o 0 o 2:-1 values", make_composed_layout(Swizzle<1, 0, 1>{}, 0, make_layout(2, -1)));
  // CuTe's unit-test inputs of issue 28 (corpus/vendor/cute_unit_inputs.txt)
  auto l88 = Layout<Shape<_8, _8>, Stride<_8, _1>>{};
  show("composition(Sw<3,0,3>, (_8,_8):(_8,_1))", composition(Swizzle<3, 0, 3>{}, l88));
  auto ca = composition(Swizzle<2, 0, 3>{}, _0{}, l88);
  show("composition(Sw<2,0,3> o _0 o L, Sw<2,0,-3> o _0 o L)", composition(ca, composition(Swizzle<2, 0, -3>{}, _0{}, l88)));
  values("  its values", composition(ca, composition(Swizzle<2, 0, -3>{}, _0{}, l88)));
  show("composition(Sw<2,0,3> o _0 o L, Sw<1,0,-3> o _0 o L)", composition(ca, composition(Swizzle<1, 0, -3>{}, _0{}, l88)));
  show("right_inverse((4,2):(_1,4))", right_inverse(make_layout(make_shape(4, 2), make_stride(_1{}, 4))));
  show("right_inverse((_2,1,_4):(_4,_1,_1))", right_inverse(make_layout(make_shape(_2{}, 1, _4{}), make_stride(_4{}, _1{}, _1{}))));
  return 0;
}
