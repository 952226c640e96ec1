#include "coalesce_z.hpp"

#include <string>
#include <vector>

#include "error.hpp"
#include "leaf_arith.hpp"
#include "leaf_ops.hpp"
#include "leaf_policies.hpp"

namespace cuteref {

namespace {

// s * d == next for an integer shape and integer or scaled-basis strides (coalesce's own
// decision, leaf_ops.hpp: a product past int64 continues nothing).
bool continues(const IntTuple& s, const IntTuple& d, const IntTuple& next) {
  return LeafArith<IntTupleLeaf>::scaled_is(s, d, next);
}

}  // namespace

Layout coalesce_z(const Layout& l) {
  const FlatModes m = flat_modes(l.shape(), l.stride());
  std::vector<IntTuple> shapes, strides;
  for (std::size_t k = 0; k < m.shapes.size(); ++k) {
    while (!shapes.empty() && shapes.back().value() == 1) {
      shapes.pop_back();
      strides.pop_back();
    }
    if (!shapes.empty() && continues(shapes.back(), strides.back(), m.strides[k])) {
      // A merged size-1 mode changes nothing, not even whether the shape is static.
      if (m.shapes[k].value() != 1) shapes.back() = leaf_mul(shapes.back(), m.shapes[k]);
      continue;
    }
    shapes.push_back(m.shapes[k]);
    strides.push_back(m.strides[k]);
  }
  if (shapes.empty()) return Layout(IntTuple::static_int(1), IntTuple::static_int(0));
  if (shapes.size() == 1) return Layout(shapes[0], strides[0]);
  return Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

Layout coalesce_z(const Layout& l, const IntTuple& profile) {
  if (!profile.is_tuple()) return coalesce_z(l);
  if (profile.rank() > rank(l))
    throw Error("coalesce_z(" + l.to_string() + ", " + profile.to_string() + "): precondition violated: the profile's rank " +
                std::to_string(profile.rank()) + " exceeds the layout's rank " + std::to_string(rank(l)));
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < rank(l); ++i)
    modes.push_back(i < profile.rank() ? coalesce_z(mode(l, i), profile[i]) : mode(l, i));
  return make_layout_from_modes(modes);
}

}  // namespace cuteref
