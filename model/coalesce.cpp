#include "coalesce.hpp"

#include <vector>

#include "checked_math.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

// s * d for an integer or scaled-basis stride d, keeping d's basis.
IntTuple scale(const IntTuple& s, const IntTuple& d) {
  std::int64_t v = checked_mul(s.value(), d.value());
  bool st = s.is_static() && d.is_static();
  return d.is_basis() ? IntTuple::basis(v, d.basis_path(), st) : IntTuple::integer(v, st);
}

}  // namespace

Layout coalesce(const Layout& l) {
  std::vector<IntTuple> shapes, strides;
  flatten_into(l.shape(), shapes);
  flatten_into(l.stride(), strides);
  std::vector<IntTuple> out_shape, out_stride;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (shapes[i].value() == 1) continue;
    if (!out_shape.empty() && scale(out_shape.back(), out_stride.back()).same_values(strides[i])) {
      out_shape.back() = leaf_mul(out_shape.back(), shapes[i]);
      continue;
    }
    out_shape.push_back(shapes[i]);
    out_stride.push_back(strides[i]);
  }
  if (out_shape.empty()) return Layout(IntTuple::static_int(1), IntTuple::static_int(0));
  if (out_shape.size() == 1) return Layout(out_shape[0], out_stride[0]);
  return Layout(IntTuple::tuple(std::move(out_shape)), IntTuple::tuple(std::move(out_stride)));
}

Layout coalesce(const Layout& l, const IntTuple& profile) {
  if (!profile.is_tuple()) return coalesce(l);
  if (profile.rank() > rank(l))
    throw Error("coalesce: profile " + profile.to_string() + " has rank " + std::to_string(profile.rank()) +
                " but layout " + l.to_string() + " has rank " + std::to_string(rank(l)));
  std::vector<IntTuple> shapes, strides;
  for (std::size_t i = 0; i < rank(l); ++i) {
    Layout m = mode(l, i);
    if (i < profile.rank()) m = coalesce(m, profile[i]);
    shapes.push_back(m.shape());
    strides.push_back(m.stride());
  }
  return Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

namespace {
IntTuple zero_stride_shapes(const IntTuple& shape, const IntTuple& stride) {
  if (!shape.is_tuple()) {
    bool zero = stride.value() == 0;
    return zero ? IntTuple::static_int(1) : shape;
  }
  std::vector<IntTuple> r;
  for (std::size_t i = 0; i < shape.rank(); ++i) r.push_back(zero_stride_shapes(shape[i], stride[i]));
  return IntTuple::tuple(std::move(r));
}
}  // namespace

Layout filter_zeros(const Layout& l) { return Layout(zero_stride_shapes(l.shape(), l.stride()), l.stride()); }

Layout filter(const Layout& l) { return coalesce(filter_zeros(l)); }

}  // namespace cuteref
