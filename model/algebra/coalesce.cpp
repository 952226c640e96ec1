#include "coalesce.hpp"

#include <vector>

#include "checked_math.hpp"
#include "flat_coalesce.hpp"
#include "error.hpp"

namespace cuteref {

// gnu::flatten: the flattening of l inlines into one body (bench/README.md).
[[gnu::flatten]] Layout coalesce(const Layout& l) {
  // The merge rule is coalesce_generic.hpp's coalesce_modes, the one the proofs check: on
  // plain values (flat_int.hpp) when every stride is an integer, else on IntTuple leaves.
  FlatModesOfInts m;
  if (append_flat_ints(l.shape(), m.shapes) && append_flat_ints(l.stride(), m.strides))
    return coalesce_flat_ints(m.shapes, m.strides);
  return coalesce_flat(flat_modes(l.shape(), l.stride()));
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

Layout filter(const Layout& l) {
  // filter = coalesce o filter_zeros, decided by coalesce_generic.hpp's filter_flat_modes, the
  // code `cuteref prove` runs on symbolic layouts: on plain values when every stride is an
  // integer, else on IntTuple leaves (then coalesce_flat only builds the layout: coalescing
  // coalesced modes changes nothing, the law coalesce_idempotent_every_rank).
  FlatModesOfInts m;
  if (flat_int_modes(l, m)) {
    filter_flat_ints_in_place(m);
    return m.layout();
  }
  return coalesce_flat(filtered_flat_modes(l));
}

}  // namespace cuteref
