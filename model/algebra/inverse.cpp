#include "inverse.hpp"

#include <string>
#include <vector>

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "error.hpp"
#include "leaf_arith.hpp"

namespace cuteref {

namespace {

// The flat modes of coalesce(L), with the exclusive prefix products of their shapes.
struct Coalesced {
  FlatModes modes;
  std::vector<IntTuple> prefix;
};

Coalesced coalesced_modes(const Layout& l, const char* fn) {
  if (l.has_basis_strides())
    throw Error(std::string(fn) + ": precondition violated: the strides must be integers; L = " + l.to_string());
  Coalesced c;
  const Layout cl = coalesce(l);
  c.modes = flat_modes(cl.shape(), cl.stride());
  IntTuple p = IntTuple::static_int(1);
  for (const auto& s : c.modes.shapes) {
    c.prefix.push_back(p);
    p = leaf_mul(p, s);
  }
  return c;
}

// Mode indices in increasing stride order, ordered among equal strides as CuTe's
// compile-time exchange sort orders them (it is not stable: for each position in turn,
// every later smaller element is swapped into it).
std::vector<std::size_t> stride_order(const Leaves& strides) {
  std::vector<std::size_t> idx(strides.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  for (std::size_t i = 0; i < idx.size(); ++i)
    for (std::size_t j = i + 1; j < idx.size(); ++j)
      if (strides[idx[j]].value() < strides[idx[i]].value()) std::swap(idx[i], idx[j]);
  return idx;
}

}  // namespace

Layout right_inverse(const Layout& l) {
  const Coalesced c = coalesced_modes(l, "right_inverse");
  std::vector<IntTuple> shapes{IntTuple::static_int(1)}, strides{IntTuple::static_int(0)};
  IntTuple next = IntTuple::static_int(1);  // the offset the inverse must reach next
  for (std::size_t k : stride_order(c.modes.strides)) {
    const IntTuple& s = c.modes.shapes[k];
    const IntTuple& d = c.modes.strides[k];
    if (d.value() != next.value()) continue;
    shapes.push_back(s);
    strides.push_back(c.prefix[k]);
    next = leaf_mul(s, d);
  }
  return coalesce(Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides))));
}

Layout left_inverse(const Layout& l) {
  const Coalesced c = coalesced_modes(l, "left_inverse");
  for (std::size_t k = 0; k < c.modes.strides.size(); ++k)
    if (c.modes.strides[k].value() < 0)
      throw Error("left_inverse: precondition violated: the strides must be >= 0 (mode " +
                  c.modes.shapes[k].to_string() + ":" + c.modes.strides[k].to_string() + "); L = " + l.to_string());
  const std::vector<std::size_t> order = stride_order(c.modes.strides);
  std::vector<IntTuple> shapes, strides{IntTuple::static_int(0)};
  IntTuple covered = IntTuple::static_int(1);  // product of the shapes emitted so far
  for (std::size_t k : order) {
    const IntTuple& d = c.modes.strides[k];
    if (d.value() == 0) continue;
    if (d.value() % covered.value() != 0)
      throw Error("left_inverse: precondition violated: stride " + d.to_string() + " of mode " +
                  c.modes.shapes[k].to_string() + ":" + d.to_string() + " is not divisible by " + covered.to_string() +
                  ", the offsets already covered (CuTe's \"Left inverse divisibility condition\"; L is not "
                  "injective or its modes interleave); L = " + l.to_string());
    const IntTuple g = leaf_div(d, covered);
    shapes.push_back(g);
    strides.push_back(c.prefix[k]);
    covered = leaf_mul(covered, g);
  }
  shapes.push_back(c.modes.shapes[order.back()]);
  return coalesce(Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides))));
}

}  // namespace cuteref
