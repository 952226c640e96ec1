#include "coalesce.hpp"

#include <vector>

#include "checked_math.hpp"
#include "coalesce_generic.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

// s * d for an integer or scaled-basis stride d, keeping d's basis.
IntTuple scale(const IntTuple& s, const IntTuple& d) {
  std::int64_t v = checked_mul(s.value(), d.value());
  bool st = s.is_static() && d.is_static();
  return d.is_basis() ? IntTuple::basis(v, d.basis_path(), st) : IntTuple::integer(v, st);
}

// coalesce_tree's decisions on the model's leaves: on the run-time values (static flags
// only propagate); a stride continues a mode when it equals shape * stride, basis included.
struct IntTupleCoalesceOps {
  bool is_unit(const IntTuple& s) const { return s.value() == 1; }
  bool continues(const IntTuple& prev_shape, const IntTuple& prev_stride, const IntTuple& stride) const {
    return scale(prev_shape, prev_stride).same_values(stride);
  }
  IntTuple merge(const IntTuple& a, const IntTuple& b) const { return leaf_mul(a, b); }
  IntTuple unit_shape() const { return IntTuple::static_int(1); }
  IntTuple zero_stride() const { return IntTuple::static_int(0); }
};

}  // namespace

Layout coalesce(const Layout& l) {
  auto [shape, stride] = coalesce_tree(l.shape(), l.stride(), IntTupleCoalesceOps{});
  return Layout(std::move(shape), std::move(stride));
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
