#include "composition.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "checked_math.hpp"
#include "error.hpp"
#include "leaf_arith.hpp"
#include "small_vector.hpp"

namespace cuteref {

namespace {

// What B's leaf modes already occupy of one sub-layout of A (one per basis position of B;
// the whole A for integer strides): per mode of the coalesced sub-layout and per sign of
// the leaves' strides, the sum of the largest digit each leaf reaches in that mode; and
// the modes any leaf reaches at all.
struct Occupancy {
  struct Mode {
    std::int64_t digit_sum[2] = {0, 0};  // [0]: positive strides, [1]: negative strides
    bool touched = false;
  };
  SmallVector<Mode, 8> modes;
  std::size_t touched_count = 0;
  bool positive = false, negative = false;

  void touch(std::size_t i) {
    if (!modes[i].touched) ++touched_count;
    modes[i].touched = true;
  }
};

// The operands, for diagnostics, and the occupancy of A's sub-layouts by B's leaves, keyed
// by the sub-layout (few keys: a linear search beats a map).
struct Context {
  const Layout& a;
  const Layout& b;
  SmallVector<std::pair<std::string, Occupancy>, 1> occupancy;
  std::string operands() const { return "A = " + a.to_string() + ", B = " + b.to_string(); }
  Occupancy& occupancy_of(const std::string& key) {
    for (auto& [k, occ] : occupancy)
      if (k == key) return occ;
    return occupancy.emplace_back(key, Occupancy{}).second;
  }
};

// The modes a leaf of B composes to, in order: a leaf layout for one mode, a flat tuple for
// several (the vectors are allocated only from the second mode on).
struct EmittedModes {
  explicit EmittedModes(std::size_t max_modes) : max_modes(max_modes) {}
  void push(IntTuple shape, IntTuple stride) {
    shapes.push_back(std::move(shape));
    strides.push_back(std::move(stride));
    ++count;
  }
  // Precondition: count >= 1.
  Layout layout() {
    if (count == 1) return Layout(std::move(shapes[0]), std::move(strides[0]));
    return Layout(IntTuple::tuple_moved(shapes.data(), count), IntTuple::tuple_moved(strides.data(), count));
  }
  std::size_t max_modes, count = 0;
  Leaves shapes, strides;
};

// CuTe's coalesce_x: flatten and merge adjacent modes like coalesce, but keep the last
// mode even when its size is 1, because the last mode is unbounded (it takes the whole
// quotient of an index past the domain) and its stride still matters there. The result is
// the same function as A on every index >= 0, not only inside the domain. The last mode's
// shape is never read by the composition.
Layout coalesce_unbounded(const Layout& l) {
  if (!l.shape().is_tuple()) return l;  // one mode, kept whatever its size
  FlatModes m = flat_modes(l.shape(), l.stride());
  if (m.shapes.empty()) return Layout(IntTuple::static_int(1), IntTuple::static_int(0));  // (): the constant 0
  // In place, back to front: the result is m[w..n), w only decreasing, always above k.
  Leaves& shapes = m.shapes;
  Leaves& strides = m.strides;
  std::size_t w = shapes.size() - 1;
  for (std::size_t k = shapes.size() - 1; k-- > 0;) {
    if (shapes[k].value() == 1) continue;
    if (scale_stride_leaf(shapes[k], strides[k]).same_values(strides[w])) {
      // s:d followed by s':(s*d) is (s*s'):d.
      shapes[w] = leaf_mul(shapes[k], shapes[w]);
      strides[w] = std::move(strides[k]);
      continue;
    }
    --w;
    if (w != k) {
      shapes[w] = std::move(shapes[k]);
      strides[w] = std::move(strides[k]);
    }
  }
  const std::size_t kept = shapes.size() - w;
  if (kept == 1) return Layout(std::move(shapes[w]), std::move(strides[w]));
  return Layout(IntTuple::tuple_moved(shapes.data() + w, kept), IntTuple::tuple_moved(strides.data() + w, kept));
}

// Insert a basis position path (outermost first) into a coalescing profile: a leaf means
// "coalesce the whole sub-layout here", a tuple recurses into modes.
IntTuple add_basis_path(IntTuple profile, const std::vector<int>& outer_first, std::size_t k) {
  if (k == outer_first.size()) return profile;
  if (!profile.is_tuple()) profile = IntTuple();
  const auto idx = static_cast<std::size_t>(outer_first[k]);
  std::vector<IntTuple> elems = profile.elements().to_vector();
  while (elems.size() <= idx) elems.push_back(IntTuple::static_int(0));
  elems[idx] = add_basis_path(elems[idx], outer_first, k + 1);
  return IntTuple::tuple(std::move(elems));
}

void collect_profile(const IntTuple& stride, IntTuple& profile, bool& has_basis, bool& has_integer) {
  if (stride.is_tuple()) {
    for (const auto& e : stride.elements()) collect_profile(e, profile, has_basis, has_integer);
    return;
  }
  if (stride.is_basis()) {
    has_basis = true;
    const auto& printed = stride.basis_path();
    profile = add_basis_path(profile, std::vector<int>(printed.rbegin(), printed.rend()), 0);
  } else if (stride.value() != 0) {
    has_integer = true;
  }
}

// coalesce_unbounded applied at the leaves of the profile (CuTe's coalesce_x(A, profile)).
Layout coalesce_at_profile(const Layout& a, const IntTuple& profile, const Context& ctx) {
  if (!profile.is_tuple()) return coalesce_unbounded(a);
  if (profile.rank() > rank(a))
    throw Error("composition: precondition violated: B's scaled-basis strides address mode " +
                std::to_string(profile.rank() - 1) + " of a sub-layout of A with only " + std::to_string(rank(a)) +
                " modes (" + a.to_string() + "); " + ctx.operands());
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < rank(a); ++i) {
    Layout m = mode(a, i);
    modes.push_back(i < profile.rank() ? coalesce_at_profile(m, profile[i], ctx) : m);
  }
  return make_layout_from_modes(modes);
}

Layout compose_leaf_integer(const Layout& lhs, const IntTuple& n0, const IntTuple& d0, const std::string& key,
                            Context& ctx);

// composition_impl: lhs is coalesced (at the profile), B is given by (shape, stride).
// `key` names the sub-layout of A that lhs is (the basis position, "" for all of A).
Layout compose_impl(const Layout& lhs, const IntTuple& shape, const IntTuple& stride, const std::string& key,
                    Context& ctx) {
  if (shape.is_tuple()) {
    // Right-distributivity: A o (B0, B1, ...) = (A o B0, A o B1, ...).
    // The modes are layouts already checked, so their tuple needs no re-check.
    Leaves shapes, strides;
    for (std::size_t i = 0; i < shape.rank(); ++i) {
      Layout m = compose_impl(lhs, shape[i], stride[i], key, ctx);
      shapes.push_back(m.shape());
      strides.push_back(m.stride());
    }
    return detail::LayoutFromValidParts::make(IntTuple::tuple_moved(shapes.data(), shapes.size()),
                                              IntTuple::tuple_moved(strides.data(), strides.size()));
  }
  if (stride.is_basis()) {
    // k@i composes the integer stride k into mode i of A.
    Layout sub = lhs;
    const auto& printed = stride.basis_path();
    for (auto it = printed.rbegin(); it != printed.rend(); ++it) {
      const auto idx = static_cast<std::size_t>(*it);
      if (!sub.shape().is_tuple() && idx == 0) continue;  // get<0> of a leaf is the leaf
      if (idx >= rank(sub))
        throw Error("composition: precondition violated: B's stride " + stride.to_string() + " addresses mode " +
                    std::to_string(idx) + " of " + sub.to_string() + ", which has rank " +
                    std::to_string(rank(sub)) + "; " + ctx.operands());
      sub = mode(sub, idx);
    }
    IntTuple position = IntTuple::basis(1, printed);
    return compose_impl(sub, shape, IntTuple::integer(stride.value(), stride.is_static()), position.to_string(), ctx);
  }
  return compose_leaf_integer(lhs, shape, stride, key, ctx);
}

// A (coalesced, flat) composed with one leaf mode n0:d0 of B, d0 an integer.
Layout compose_leaf_integer(const Layout& lhs, const IntTuple& n0, const IntTuple& d0, const std::string& key,
                            Context& ctx) {
  if (d0.value() == 0) return Layout(n0, d0);  // every c maps to A(0) = 0
  if (!lhs.shape().is_tuple()) return Layout(n0, scale_stride_leaf(d0, lhs.stride()));
  for (const auto& s : lhs.shape().elements())
    if (s.is_tuple())
      throw Error("composition: precondition violated: B mixes integer strides with scaled-basis strides, so its "
                  "integer stride " + d0.to_string() + " cannot index the multi-mode A " + lhs.to_string() + "; " +
                  ctx.operands());

  const auto& s = lhs.shape().elements();
  const auto& t = lhs.stride().elements();
  const std::size_t r = s.size();
  const bool negative = d0.value() < 0;
  // A multi-mode A is additive on B's leaves only when their digits never carry. Leaves of
  // one sign must not carry together; leaves of both signs must all stay within one mode
  // of A (else the truncating digits of p - q are not the differences of the digits).
  Occupancy& occ = ctx.occupancy_of(key);
  occ.modes.resize(r);
  const int sign = negative ? 1 : 0;
  if (n0.value() > 1) (negative ? occ.negative : occ.positive) = true;
  // The emitted modes; most results have one, which needs no vector.
  EmittedModes out(r);
  // The rest shape and stride as plain values with their static flags (the loop's
  // arithmetic cannot fail: shapes are >= 1 and the rest stride stays >= 1).
  std::int64_t rest_shape = n0.value(), rest_stride = checked_abs(d0.value());  // the sign goes on emitted strides
  bool rest_shape_static = n0.is_static(), rest_stride_static = d0.is_static();
  auto ceil_div = [](std::int64_t x, std::int64_t y) { return x / y + (x % y != 0 ? 1 : 0); };
  auto emitted_stride = [&](std::int64_t mag, bool mag_static, const IntTuple& a_stride) {
    return scale_stride_leaf(IntTuple::integer(negative ? checked_neg(mag) : mag, mag_static), a_stride);
  };
  auto fail = [&](const std::string& condition, std::size_t i) {
    throw Error("composition: precondition violated: " + condition + " at mode " + std::to_string(i) + " (" +
                s[i].to_string() + ":" + t[i].to_string() + ") of coalesced A " + lhs.to_string() +
                ", composing B's mode " + n0.to_string() + ":" + d0.to_string() + " (rest shape " +
                IntTuple::integer(rest_shape, rest_shape_static).to_string() + ", rest stride " +
                IntTuple::integer(rest_stride, rest_stride_static).to_string() + "); " + ctx.operands());
  };
  for (std::size_t i = 0; i + 1 < r; ++i) {
    const std::int64_t si = s[i].value(), ri = rest_stride, ni = rest_shape;
    const bool si_static = s[i].is_static();
    if (!(ri % si == 0 || ri < si))
      fail("stride divisibility (rest stride % shape == 0 or rest stride < shape), CuTe's \"Stride Divisibility "
           "Condition\"", i);
    const std::int64_t next_shape = ceil_div(si, ri), next_stride = ceil_div(ri, si);
    const bool next_static = si_static && rest_stride_static;
    if (ri < si && ni > next_shape && si % ri != 0)
      fail("exactness (rest stride must divide the shape when B continues past this mode; CuTe does not check "
           "this and would return a layout that is not A o B)", i);
    if (next_shape == 1 || ni == 1) {
      rest_stride = next_stride;
      rest_stride_static = next_static;
      continue;
    }
    const std::int64_t new_shape = next_shape < ni ? next_shape : ni;
    const bool new_shape_static = next_static && rest_shape_static;
    if (ni % new_shape != 0)
      fail("shape divisibility (rest shape % min(ceil(shape / rest stride), rest shape) == 0), CuTe's \"Shape "
           "Divisibility Condition\"", i);
    occ.touch(i);
    std::int64_t& digit_sum = occ.modes[i].digit_sum[sign];
    digit_sum = checked_add(digit_sum, checked_mul(new_shape - 1, ri));
    if (digit_sum >= si)
      fail("no carry (B's modes together reach digit " + std::to_string(digit_sum) +
           " >= shape in this mode, so their offsets carry into the next mode of A and A(B(c)) is not the sum "
           "of A applied to B's modes; CuTe does not check this and would return a layout that is not A o B)", i);
    out.push(IntTuple::integer(new_shape, new_shape_static), emitted_stride(rest_stride, rest_stride_static, t[i]));
    rest_shape = ni / new_shape;
    rest_shape_static = rest_shape_static && new_shape_static;
    rest_stride = next_stride;
    rest_stride_static = next_static;
  }
  if (rest_shape > 1) occ.touch(r - 1);
  if (occ.negative && occ.positive && occ.touched_count > 1)
    throw Error("composition: precondition violated: B's modes have strides of both signs and together reach "
                "several modes of A " + lhs.to_string() + " (at B's mode " + n0.to_string() + ":" + d0.to_string() +
                "), so A(B(c)) is not the sum of A applied to B's modes; " + ctx.operands());
  IntTuple last_shape = IntTuple::integer(rest_shape, rest_shape_static);
  IntTuple last_stride = emitted_stride(rest_stride, rest_stride_static, t[r - 1]);
  if (out.count == 0) return Layout(std::move(last_shape), std::move(last_stride));
  if (rest_shape != 1) out.push(std::move(last_shape), std::move(last_stride));
  return out.layout();
}

std::size_t tiler_rank(const Value& tiler) {
  if (tiler.is_mixed_tuple()) return std::get<MixedTuple>(tiler.data).elements.size();
  return std::get<IntTuple>(tiler.data).rank();
}

Value tiler_element(const Value& tiler, std::size_t i) {
  if (tiler.is_mixed_tuple()) return std::get<MixedTuple>(tiler.data).elements[i];
  return Value(std::get<IntTuple>(tiler.data)[i]);
}

}  // namespace

Layout composition(const Layout& a, const Layout& b) {
  Context ctx{a, b, {}};
  IntTuple profile = IntTuple::static_int(0);
  bool has_basis = false, has_integer = false;
  collect_profile(b.stride(), profile, has_basis, has_integer);
  if (has_basis && has_integer)
    throw Error("composition: precondition violated: B's non-zero strides must be all integers or all scaled "
                "bases; " + ctx.operands());
  return compose_impl(coalesce_at_profile(a, profile, ctx), b.shape(), b.stride(), "", ctx);
}

Layout composition(const Layout& a, const Value& tiler) {
  if (tiler.is_layout()) return composition(a, std::get<Layout>(tiler.data));
  const bool by_mode = tiler.is_mixed_tuple() || (tiler.is_int_tuple() && std::get<IntTuple>(tiler.data).is_tuple());
  if (by_mode) {
    const std::size_t tr = tiler_rank(tiler);
    if (tr > rank(a))
      throw Error("composition: precondition violated: the tiler " + tiler.to_string() + " has rank " +
                  std::to_string(tr) + " > rank " + std::to_string(rank(a)) + " of A = " + a.to_string());
    // CuTe composes mode i of A with tiler element i and drops the modes of A that the
    // tiler does not reach (cute/layout.hpp, composition with a tuple tiler); divides and
    // products keep them (tiler.cpp), composition does not.
    std::vector<Layout> modes;
    for (std::size_t i = 0; i < tr; ++i) modes.push_back(composition(mode(a, i), tiler_element(tiler, i)));
    return make_layout_from_modes(modes);
  }
  if (tiler.is_int_tuple()) {
    const IntTuple& t = std::get<IntTuple>(tiler.data);
    if (t.is_underscore()) return a;
    if (t.is_integer()) {
      if (t.value() < 1)
        throw Error("composition: precondition violated: the tiler size " + t.to_string() +
                    " must be >= 1; A = " + a.to_string());
      return composition(a, Layout(t, IntTuple::static_int(1)));
    }
  }
  throw Error("composition: the tiler must be a layout, an integer, `_`, or a tuple of these; got " +
              tiler.kind_name() + " `" + tiler.to_string() + "`; A = " + a.to_string());
}

ComposedLayout composition(const ComposedLayout& a, const Layout& b) {
  return ComposedLayout{a.swizzle, a.offset, composition(a.layout, b)};
}

ComposedLayout composition(const ComposedLayout& a, const Value& tiler) {
  return ComposedLayout{a.swizzle, a.offset, composition(a.layout, tiler)};
}

}  // namespace cuteref
