#include "nullspace.hpp"

#include <vector>

#include "checked_math.hpp"

namespace cuteref {

Layout nullspace(const Layout& l) {
  std::vector<IntTuple> shapes, strides;
  flatten_into(l.shape(), shapes);
  flatten_into(l.stride(), strides);
  std::vector<IntTuple> out_shape, out_stride;
  std::int64_t domain_stride = 1;  // the 1-D index step of flat mode i
  bool domain_static = true;       // static iff every shape before it is (CuTe's compact_major)
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (i > 0) {  // the step of mode i: the product of the shapes before it, computed only
                  // as far as needed (a later overflow would be no error of this result)
      bool later_zero = false;
      for (std::size_t j = i; j < shapes.size() && !later_zero; ++j)
        later_zero = strides[j].is_integer() && strides[j].value() == 0;
      if (!later_zero) break;
      domain_stride = checked_mul(domain_stride, shapes[i - 1].value());
      domain_static = domain_static && shapes[i - 1].is_static();
    }
    if (strides[i].is_integer() && strides[i].value() == 0) {
      out_shape.push_back(shapes[i]);
      out_stride.push_back(IntTuple::integer(domain_stride, domain_static));
    }
  }
  if (out_shape.empty()) return Layout(IntTuple::static_int(1), IntTuple::static_int(0));
  if (out_shape.size() == 1) return Layout(out_shape[0], out_stride[0]);
  return Layout(IntTuple::tuple(std::move(out_shape)), IntTuple::tuple(std::move(out_stride)));
}

}  // namespace cuteref
