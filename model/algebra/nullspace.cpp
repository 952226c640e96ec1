#include "nullspace.hpp"

#include <vector>

#include "make_layout.hpp"

namespace cuteref {

Layout nullspace(const Layout& l) {
  std::vector<IntTuple> shapes, strides;
  flatten_into(l.shape(), shapes);
  flatten_into(l.stride(), strides);
  std::vector<IntTuple> out_shape, out_stride;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    if (strides[i].is_integer() && strides[i].value() == 0) out_shape.push_back(shapes[i]);
  if (out_shape.empty()) return Layout(IntTuple::static_int(1), IntTuple::static_int(0));
  // The 1-D step of each flat mode: CuTe's compact column-major strides of the flat shape
  // (a static _1 shape gets the stride _0, as make_layout gives it).
  std::vector<IntTuple> steps;
  flatten_into(compact_col_major(IntTuple::tuple(shapes), IntTuple::static_int(1)), steps);
  for (std::size_t i = 0; i < shapes.size(); ++i)
    if (strides[i].is_integer() && strides[i].value() == 0) out_stride.push_back(steps[i]);
  if (out_shape.size() == 1) return Layout(out_shape[0], out_stride[0]);
  return Layout(IntTuple::tuple(std::move(out_shape)), IntTuple::tuple(std::move(out_stride)));
}

}  // namespace cuteref
