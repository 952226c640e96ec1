#include "coalesce.hpp"

#include <vector>

#include "checked_math.hpp"
#include "coalesce_generic.hpp"
#include "flat_coalesce.hpp"
#include "form_modes.hpp"
#include "inline_flat_ints.hpp"
#include "leaf_policies.hpp"
#include "error.hpp"
#include "layout_mode_ops.hpp"

namespace cuteref {

// gnu::flatten: the walk inlines into one body (bench/README.md).
[[gnu::flatten]] Layout coalesce(const Layout& l) {
  // The merge rule is coalesce_generic.hpp's coalesce_modes, the one the proofs check: on
  // plain values (flat_int.hpp) when every stride is an integer, else on IntTuple leaves.
  // A layout held as its form: the walk reads its leaves in place and writes the result's
  // form (at most as many modes, or the one mode _1:_0), in one pass. Valid: as
  // coalesce_flat's.
  if (const BracketedLeaves* b = l.leaves()) {
    return detail::LayoutFromValidParts::make_leaves([b](BracketedLeaves& r) {
      FormModesOut out(FormTarget{r});
      coalesce_flat_modes_to<FlatIntLeaf>(FormShapes{*b}, FormStrides{*b}, out);
      out.finish();
    });
  }
  FlatModesOfInts m;
  if (flat_int_modes(l, m)) return coalesce_flat_ints(m.shapes, m.strides);
  return coalesce_flat(flat_modes(l.shape(), l.stride()));
}

namespace {
// coalesce_by_profile's failed precondition on the model's layouts.
struct ProfileErrors {
  [[noreturn]] void profile_too_long(const IntTuple& profile, const Layout& l) const {
    throw Error("coalesce: profile " + profile.to_string() + " has rank " + std::to_string(profile.rank()) +
                " but layout " + l.to_string() + " has rank " + std::to_string(rank(l)));
  }
};
}  // namespace

Layout coalesce(const Layout& l, const IntTuple& profile) {
  // coalesce_generic.hpp's walk over the profile, which the proofs run too.
  return coalesce_by_profile(
      l, profile, LayoutModeOps{}, [](const Layout& m) { return coalesce(m); }, ProfileErrors{});
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
