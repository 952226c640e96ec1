#include "composition.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "checked_math.hpp"
#include "composition_generic.hpp"
#include "error.hpp"
#include "flat_int.hpp"
#include "form_modes.hpp"
#include "inline_flat_ints.hpp"
#include "layout_mode_ops.hpp"
#include "layout_writer.hpp"
#include "leaf_arith.hpp"
#include "leaf_policies.hpp"
#include "small_vector.hpp"
#include "tiler_generic.hpp"

namespace cuteref {

namespace {

using Occupancy = CompositionOccupancy<CheckedInt>;

// Flat modes a caller holds (FlatModesOfInts or InlineFlatModes), read only for a
// diagnostic's text: the layout they stand for, built when the text is.
struct FlatModesText {
  const void* modes = nullptr;
  Layout (*layout_of)(const void*) = nullptr;
  template <class Modes>
  static FlatModesText of(const Modes& m) noexcept {
    return {&m, [](const void* p) { return static_cast<const Modes*>(p)->layout(); }};
  }
  Layout layout() const { return layout_of(modes); }
};

// The operands, for diagnostics, and the occupancy of A's sub-layouts by B's leaves, keyed
// by the sub-layout: "" (all of A, integer strides) is kept inline; a basis position's key
// is searched linearly (few keys: a linear search beats a map). A and B's second mode may
// be held as flat modes (composition_of_flat, composition_of_pair): their layouts are
// built only for a diagnostic.
struct Context {
  // A constructor, not aggregate initialization: that would zero `whole`'s inline storage.
  Context(const Layout* a, FlatModesText a_flat, const Layout* b, const Layout* b0, const Layout* b1,
          FlatModesText b1_flat) noexcept
      : a(a), a_flat(a_flat), b(b), b0(b0), b1(b1), b1_flat(b1_flat) {}
  const Layout* a;              // A, or null when A is a_flat
  FlatModesText a_flat;
  const Layout* b;              // B, or null when B is the pair (b0, b1 or b1_flat)
  const Layout* b0;
  const Layout* b1;
  FlatModesText b1_flat;
  Occupancy whole;
  // Made on the first scaled-basis key: most compositions have none, and an empty
  // std::vector still costs its construction and destruction on every call.
  std::unique_ptr<std::vector<std::pair<std::string, Occupancy>>> occupancy;
  std::string operands() const {
    const std::string a_text = a != nullptr ? a->to_string() : a_flat.layout().to_string();
    const std::string b_text =
        b != nullptr ? b->to_string()
                     : make_layout_from_modes({*b0, b1 != nullptr ? *b1 : b1_flat.layout()}).to_string();
    return "A = " + a_text + ", B = " + b_text;
  }
  Occupancy& occupancy_of(std::string_view key) {
    if (key.empty()) return whole;
    if (!occupancy) occupancy = std::make_unique<std::vector<std::pair<std::string, Occupancy>>>();
    for (auto& [k, occ] : *occupancy)
      if (k == key) return occ;
    return occupancy->emplace_back(std::string(key), Occupancy{}).second;
  }
};

// The modes a leaf of B composes to, in order: a leaf layout for one mode, a flat tuple for
// several (the vectors are allocated only from the second mode on).
struct EmittedModes {
  explicit EmittedModes(std::size_t max_modes) : max_modes(max_modes) {}
  void push(IntTuple shape, IntTuple stride) {
    if (count == 0) {
      first_shape = std::move(shape);
      first_stride = std::move(stride);
    } else {
      if (count == 1) {
        shapes.reserve(max_modes);
        strides.reserve(max_modes);
        shapes.push_back(std::move(first_shape));
        strides.push_back(std::move(first_stride));
      }
      shapes.push_back(std::move(shape));
      strides.push_back(std::move(stride));
    }
    ++count;
  }
  // Precondition: count >= 1. Valid: compose_leaf_mode emits shapes >= 1 (B's shape, or
  // min / exact quotients of shapes >= 1) and strides that are integers or A's bases scaled.
  Layout layout() {
    using detail::LayoutFromValidParts;
    if (count == 1) return LayoutFromValidParts::make(std::move(first_shape), std::move(first_stride));
    return LayoutFromValidParts::make(IntTuple::tuple_moved(shapes.data(), shapes.size()),
                                      IntTuple::tuple_moved(strides.data(), strides.size()));
  }
  std::size_t max_modes, count = 0;
  IntTuple first_shape, first_stride;
  Leaves shapes, strides;
};

// compose_leaf_mode's preconditions worded with the modes and the operands.
// Lhs: the coalesced A (a Layout, or FlatLhs below: its layout is built only for the text);
// Leaf: IntTuple or FlatInt.
template <class Lhs, class Leaf>
struct CompositionDiagnostics {
  const Lhs& lhs;
  Leaf n0, d0;
  const Context& ctx;
  static IntTuple tuple(const IntTuple& x) { return x; }
  static IntTuple tuple(FlatInt x) { return x.tuple(); }
  Layout layout() const {
    if constexpr (std::is_same_v<Lhs, Layout>) return lhs;
    else return lhs.layout();
  }
  // The texts below are built only on failure; out of line and cold, so that each require
  // site in the hot loop calls one function instead of carrying the string building (inlined,
  // this file's object was 1.2 MB and took two minutes to compile).
  // A failed precondition at mode i of the coalesced A.
  [[gnu::cold, gnu::noinline]] std::string at_mode(const std::string& condition, std::size_t i, const Leaf& rest_shape,
                      const Leaf& rest_stride) const {
    const Layout l = layout();
    return "composition: precondition violated: " + condition + " at mode " + std::to_string(i) + " (" +
           l.shape()[i].to_string() + ":" + l.stride()[i].to_string() + ") of coalesced A " + l.to_string() +
           ", composing B's mode " + tuple(n0).to_string() + ":" + tuple(d0).to_string() + " (rest shape " +
           tuple(rest_shape).to_string() + ", rest stride " + tuple(rest_stride).to_string() + "); " +
           ctx.operands();
  }
  [[gnu::cold, gnu::noinline]] std::string stride_divisibility(std::size_t i, const Leaf& rest_shape, const Leaf& rest_stride) const {
    return at_mode("stride divisibility (rest stride % shape == 0 or rest stride < shape), CuTe's \"Stride "
                   "Divisibility Condition\"", i, rest_shape, rest_stride);
  }
  [[gnu::cold, gnu::noinline]] std::string exactness(std::size_t i, const Leaf& rest_shape, const Leaf& rest_stride) const {
    return at_mode("exactness (rest stride must divide the shape when B continues past this mode; CuTe does not "
                   "check this and would return a layout that is not A o B)", i, rest_shape, rest_stride);
  }
  [[gnu::cold, gnu::noinline]] std::string shape_divisibility(std::size_t i, const Leaf& rest_shape, const Leaf& rest_stride) const {
    return at_mode("shape divisibility (rest shape % min(ceil(shape / rest stride), rest shape) == 0), CuTe's "
                   "\"Shape Divisibility Condition\"", i, rest_shape, rest_stride);
  }
  [[gnu::cold, gnu::noinline]] std::string no_carry(std::size_t i, const Leaf& rest_shape, const Leaf& rest_stride, CheckedInt digit_sum) const {
    return at_mode("no carry (B's modes together reach digit " + std::to_string(digit_sum.v) +
                       " >= shape in this mode, so their offsets carry into the next mode of A and A(B(c)) is not "
                       "the sum of A applied to B's modes; CuTe does not check this and would return a layout "
                       "that is not A o B)",
                   i, rest_shape, rest_stride);
  }
  [[gnu::cold, gnu::noinline]] std::string signs() const {
    return "composition: precondition violated: B's modes have strides of both signs and together reach "
           "several modes of A " + layout().to_string() + " (at B's mode " + tuple(n0).to_string() + ":" +
           tuple(d0).to_string() + "), so A(B(c)) is not the sum of A applied to B's modes; " + ctx.operands();
  }
};

// compose_leaf_mode's steps on the model's leaves (composition_generic.hpp's CompositionOps,
// the proofs' own): decisions on the run-time values, static flags propagated as in
// leaf_arith, each failed precondition an Error naming it.
using IntTupleCompositionOps = CompositionOps<IntTupleLeaf, CompositionDiagnostics<Layout, IntTuple>>;

// The coalesced A (coalesce_x) as flat integer modes s[0..r) : t[0..r), for the common case
// of integer strides throughout (a view: the modes are held by the caller); the Layout it
// stands for is built only for diagnostics.
struct FlatLhs {
  const FlatInt* shapes = nullptr;
  const FlatInt* strides = nullptr;
  std::size_t r = 0;
  bool is_leaf = false;  // A's coalesce_x is a leaf layout (one mode)
  Layout layout() const {
    return detail::LayoutFromValidParts::make(tuple_of_flat(shapes, r), tuple_of_flat(strides, r));
  }
};

// The same on plain values with static flags (flat_int.hpp); integer strides only.
using FlatCompositionOps = CompositionOps<FlatIntLeaf, CompositionDiagnostics<FlatLhs, FlatInt>>;

// coalesce_unbounded_modes' decisions on plain values (integer strides): coalesce's
// (coalesce_generic.hpp).
using FlatCoalesceXOps = CoalesceOps<FlatIntLeaf>;

// The view of modes (already flat: a leaf layout when one) after coalesce_unbounded_modes
// (a tuple A is coalesced; a leaf A is kept whatever its size).
// Modes: FlatModesOfInts or InlineFlatModes.
template <class Modes>
FlatLhs unbounded_lhs(Modes& m, bool a_is_tuple) {
  const bool is_leaf = coalesce_x_view(m.shapes, m.strides, a_is_tuple, FlatCoalesceXOps{});
  return FlatLhs{m.shapes.data(), m.strides.data(), m.shapes.size(), is_leaf};
}

// The same view without compacting `m`: the coalesced modes are read where the walk left
// them, at the back of m (coalesce_unbounded_back). For modes that are not read again
// (m's front is then stale).
template <class Modes>
FlatLhs unbounded_view(Modes& m, bool a_is_tuple) {
  const std::size_t first = a_is_tuple ? coalesce_unbounded_back(m.shapes, m.strides, FlatCoalesceXOps{}) : 0;
  const std::size_t r = m.shapes.size() - first;
  return FlatLhs{m.shapes.data() + first, m.strides.data() + first, r, r == 1};
}

// unbounded_view of a layout held as its form, read in place: coalesce_unbounded's modes
// written into the back of m's slots, [first, n) (m's size stays 0: its slots are read only
// through the view). A leaf form (one leaf) gives that leaf, as unbounded_view of a leaf A
// does.
FlatLhs form_unbounded_view(const BracketedLeaves& form, InlineFlatModes& m) {
  const std::size_t n = form.n;
  const std::size_t first =
      coalesce_unbounded_back_from<false>(FormShapes{form}, FormStrides{form}, m.shapes, m.strides, FlatCoalesceXOps{});
  const std::size_t r = n - first;
  return FlatLhs{m.shapes.data() + first, m.strides.data() + first, r, r == 1};
}

// True when a's shape is a tuple (not a leaf), read from its leaves when it holds them.
bool is_tuple_layout(const Layout& a) {
  const BracketedLeaves* b = a.leaves();
  return b != nullptr ? !b->is_leaf() : a.shape().is_tuple();
}

// coalesce_unbounded(a) as flat integer modes held in `m`. Returns false (m unspecified)
// when a has a scaled-basis stride or is ().
// InlineFlatModes only for an `a` held as its form (which has integer strides).
template <class Modes>
bool flat_coalesce_unbounded(const Layout& a, Modes& m, FlatLhs& lhs) {
  if constexpr (std::is_same_v<Modes, InlineFlatModes>) {
    // The walk reads A's form in place and writes only the modes it keeps (a leaf A: its one
    // leaf, which the walk copies whole).
    lhs = form_unbounded_view(*a.leaves(), m);
    return true;
  } else {
    if (!flat_int_modes(a, m)) return false;
    if (m.shapes.empty()) return false;
    lhs = unbounded_view(m, is_tuple_layout(a));  // m is the caller's local, read only through lhs
    return true;
  }
}

// The layout whose modes are mode_of(0), ..., mode_of(n - 1) (valid layouts), called in order.
template <class ModeOf>
Layout layout_of_mode_results(std::size_t n, ModeOf&& mode_of) {
  IntTuple shape, stride;
  IntTuple::tuples_filled(n, shape, stride, [&](std::size_t i, IntTuple& s, IntTuple& d) {
    detail::LayoutFromValidParts::take_parts(mode_of(i), s, d);
  });
  return detail::LayoutFromValidParts::make(std::move(shape), std::move(stride));
}

// One leaf mode n0:d0 of B (integer stride) through compose_leaf_mode on plain values; the
// result's parts are written to (shape, stride): one emitted mode a leaf, several a flat
// tuple (valid as EmittedModes' layout). The first emitted mode is held in place, the others
// (plain values) in one inline vector of modes; the walk is inlined whole (gnu::flatten: the
// emit callback and the leaf arithmetic run once per mode of A).
[[gnu::flatten]] void compose_flat_leaf(const FlatLhs& lhs, FlatInt n0, FlatInt d0, Occupancy& occ,
                                        const Context& ctx, IntTuple& shape, IntTuple& stride) {
  struct Mode {
    FlatInt shape, stride;
  };
  Mode first;
  SmallVector<Mode, 8> more;  // the emitted modes after the first
  bool emitted = false;
  const FlatCompositionOps ops{lhs.shapes, {lhs, n0, d0, ctx}};
  compose_leaf_mode(lhs.shapes, lhs.strides, lhs.r, lhs.is_leaf, n0, d0, occ, ops, [&](FlatInt sh, FlatInt st) {
    if (!emitted) first = {sh, st};
    else more.push_back({sh, st});
    emitted = true;
  });
  if (more.empty()) {  // compose_leaf_mode emits at least one mode
    shape = first.shape.tuple();
    stride = first.stride.tuple();
    return;
  }
  const std::size_t n = 1 + more.size();
  const auto mode = [&](std::size_t i) noexcept -> const Mode& { return i == 0 ? first : more[i - 1]; };
  shape = IntTuple::tuple_made(n, [&](std::size_t i) noexcept { return mode(i).shape.tuple(); });
  stride = IntTuple::tuple_made(n, [&](std::size_t i) noexcept { return mode(i).stride.tuple(); });
}

// compose_flat_leaf's modes written to `out`: one mode a leaf, several a flat tuple (the
// first mode is held until the second shows whether a tuple opens before it).
[[gnu::flatten]] void write_flat_leaf(const FlatLhs& lhs, FlatInt n0, FlatInt d0, Occupancy& occ, const Context& ctx,
                                      LayoutWriter& out) {
  FlatInt first_shape, first_stride;
  std::size_t emitted = 0;
  const FlatCompositionOps ops{lhs.shapes, {lhs, n0, d0, ctx}};
  compose_leaf_mode(lhs.shapes, lhs.strides, lhs.r, lhs.is_leaf, n0, d0, occ, ops, [&](FlatInt sh, FlatInt st) {
    if (emitted == 0) {
      first_shape = sh;
      first_stride = st;
    } else {
      if (emitted == 1) {
        out.open();
        out.leaf(first_shape, first_stride);
      }
      out.leaf(sh, st);
    }
    ++emitted;
  });
  if (emitted == 1) out.leaf(first_shape, first_stride);  // compose_leaf_mode emits at least one mode
  else out.close();
}

// compose_flat over B's leaves and nesting (its bracketed form), written to `out`: B's
// tuples opened and closed around its leaves' results, in B's leaf order (the occupancy's).
void write_composed_leaves(const FlatLhs& lhs, const BracketedLeaves& b, Occupancy& occ, const Context& ctx,
                           LayoutWriter& out) {
  for (std::size_t i = 0; i < b.n; ++i) {
    for (unsigned k = 0; k < b.opens[i]; ++k) out.open();
    write_flat_leaf(lhs, b.shape(i), b.stride(i), occ, ctx, out);
    for (unsigned k = 0; k < b.closes[i]; ++k) out.close();
  }
}

// The same for B given by flat integer modes (a leaf layout when one mode).
template <class Modes>
void write_composed_modes(const FlatLhs& lhs, const Modes& b, Occupancy& occ, const Context& ctx,
                          LayoutWriter& out) {
  if (b.shapes.size() > 1) out.open();
  for (std::size_t i = 0; i < b.shapes.size(); ++i) write_flat_leaf(lhs, b.shapes[i], b.strides[i], occ, ctx, out);
  if (b.shapes.size() > 1) out.close();
}

// compose_impl on the flat coalesced A with integer strides in B: B's tree mode by mode
// (right-distributivity), each leaf through compose_leaf_mode on plain values, all of B's
// leaves sharing the occupancy of A, in B's leaf order. The result's parts (congruent to B)
// are written to (out_shape, out_stride), its tuples built in place.
void compose_flat(const FlatLhs& lhs, const IntTuple& shape, const IntTuple& stride, Occupancy& occ,
                  const Context& ctx, IntTuple& out_shape, IntTuple& out_stride) {
  compose_over_modes(
      shape, stride, out_shape, out_stride,
      [&](const IntTuple& n0, const IntTuple& d0, IntTuple& s, IntTuple& d) {
        compose_flat_leaf(lhs, FlatInt::of(n0), FlatInt::of(d0), occ, ctx, s, d);
      },
      [](std::size_t n, IntTuple& s, IntTuple& d, const auto& fill) { IntTuple::tuples_filled(n, s, d, fill); });
}

// compose_flat of B given by flat integer modes (a leaf layout when one mode).
template <class Modes>
void compose_flat_modes(const FlatLhs& lhs, const Modes& b, Occupancy& occ, const Context& ctx,
                        IntTuple& out_shape, IntTuple& out_stride) {
  if (b.shapes.size() == 1)
    return compose_flat_leaf(lhs, b.shapes[0], b.strides[0], occ, ctx, out_shape, out_stride);
  IntTuple::tuples_filled(b.shapes.size(), out_shape, out_stride, [&](std::size_t i, IntTuple& s, IntTuple& d) {
    compose_flat_leaf(lhs, b.shapes[i], b.strides[i], occ, ctx, s, d);
  });
}

// The layout compose_flat writes.
Layout compose_flat_layout(const FlatLhs& lhs, const IntTuple& shape, const IntTuple& stride, Occupancy& occ,
                           const Context& ctx) {
  IntTuple out_shape, out_stride;
  compose_flat(lhs, shape, stride, occ, ctx, out_shape, out_stride);
  return detail::LayoutFromValidParts::make(std::move(out_shape), std::move(out_stride));
}

// The pair (A o B0, A o B1), B1's parts written by compose_b1(shape, stride) after B0's:
// B0's leaves occupy A before B1's, as in the pair layout.
template <class ComposeB1>
Layout compose_flat_pair(const FlatLhs& lhs, const Layout& b0, const Context& ctx, Occupancy& occ,
                         ComposeB1&& compose_b1) {
  IntTuple shape, stride;
  IntTuple::tuples_filled(2, shape, stride, [&](std::size_t i, IntTuple& s, IntTuple& d) {
    if (i == 0) compose_flat(lhs, b0.shape(), b0.stride(), occ, ctx, s, d);
    else compose_b1(s, d);
  });
  return detail::LayoutFromValidParts::make(std::move(shape), std::move(stride));
}

// coalesce_unbounded_modes' decisions on the model's leaves (basis strides included).
using IntTupleCoalesceXOps = CoalesceOps<IntTupleLeaf>;

// CuTe's coalesce_x: flatten and merge adjacent modes like coalesce, but keep the last
// mode even when its size is 1, because the last mode is unbounded (it takes the whole
// quotient of an index past the domain) and its stride still matters there. The result is
// the same function as A on every index >= 0, not only inside the domain. The last mode's
// shape is never read by the composition.
Layout coalesce_unbounded(const Layout& l) {
  if (!l.shape().is_tuple()) return l;  // one mode, kept whatever its size
  FlatModes m = flat_modes(l.shape(), l.stride());
  if (m.shapes.empty()) return Layout(IntTuple::static_int(1), IntTuple::static_int(0));  // (): the constant 0
  coalesce_unbounded_modes(m.shapes, m.strides, IntTupleCoalesceXOps{});
  // Valid: l's own leaves, merged shapes products of shapes >= 1.
  Leaves& shapes = m.shapes;
  Leaves& strides = m.strides;
  using detail::LayoutFromValidParts;
  if (shapes.size() == 1) return LayoutFromValidParts::make(std::move(shapes[0]), std::move(strides[0]));
  return LayoutFromValidParts::make(IntTuple::tuple_moved(shapes.data(), shapes.size()),
                                    IntTuple::tuple_moved(strides.data(), strides.size()));
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

Layout compose_leaf_integer(const Layout& lhs, const IntTuple& n0, const IntTuple& d0, std::string_view key,
                            Context& ctx);

// composition_impl: lhs is coalesced (at the profile), B is given by (shape, stride).
// `key` names the sub-layout of A that lhs is (the basis position, "" for all of A).
Layout compose_impl(const Layout& lhs, const IntTuple& shape, const IntTuple& stride, std::string_view key,
                    Context& ctx) {
  if (shape.is_tuple()) {
    // Right-distributivity: A o (B0, B1, ...) = (A o B0, A o B1, ...).
    // The modes are layouts already checked, so their tuple needs no re-check.
    return layout_of_mode_results(shape.rank(),
                                  [&](std::size_t i) { return compose_impl(lhs, shape[i], stride[i], key, ctx); });
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
Layout compose_leaf_integer(const Layout& lhs, const IntTuple& n0, const IntTuple& d0, std::string_view key,
                            Context& ctx) {
  if (!lhs.shape().is_tuple() || d0.value() == 0) {
    std::optional<Layout> result;
    Occupancy untouched;  // these two cases emit one mode and record no occupancy
    compose_leaf_mode(&lhs.shape(), &lhs.stride(), 1, !lhs.shape().is_tuple(), n0, d0, untouched,
                      IntTupleCompositionOps{&lhs.shape(), {lhs, n0, d0, ctx}},
                      [&](IntTuple shape, IntTuple stride) { result.emplace(detail::LayoutFromValidParts::make(std::move(shape), std::move(stride))); });
    return std::move(*result);
  }
  for (const auto& s : lhs.shape().elements())
    if (s.is_tuple())
      throw Error("composition: precondition violated: B mixes integer strides with scaled-basis strides, so its "
                  "integer stride " + d0.to_string() + " cannot index the multi-mode A " + lhs.to_string() + "; " +
                  ctx.operands());

  const auto& s = lhs.shape().elements();
  const auto& t = lhs.stride().elements();
  const IntTupleCompositionOps ops{s.data(), {lhs, n0, d0, ctx}};
  EmittedModes out(s.size());
  compose_leaf_mode(s.data(), t.data(), s.size(), false, n0, d0, ctx.occupancy_of(key), ops,
                    [&](IntTuple shape, IntTuple stride) { out.push(std::move(shape), std::move(stride)); });
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

using TilerOfLayouts = TilerTree<Layout>;

// composition's tiler as a tree (tiler_generic.hpp): a layout, an integer n >= 1 (the layout
// n:_1), `_`, or a tuple of these. `a`: the layout it applies to, for diagnostics.
TilerOfLayouts composition_tiler_tree(const Value& tiler, const Layout& a) {
  if (tiler.is_layout()) return TilerOfLayouts::of_layout(std::get<Layout>(tiler.data), tiler.to_string());
  if (tiler.is_mixed_tuple() || (tiler.is_int_tuple() && std::get<IntTuple>(tiler.data).is_tuple())) {
    std::vector<TilerOfLayouts> elements;
    for (std::size_t i = 0; i < tiler_rank(tiler); ++i) elements.push_back(composition_tiler_tree(tiler_element(tiler, i), a));
    return TilerOfLayouts::of_tuple(std::move(elements), tiler.to_string());
  }
  if (tiler.is_int_tuple()) {
    const IntTuple& t = std::get<IntTuple>(tiler.data);
    if (t.is_underscore()) return TilerOfLayouts{};  // Kind::Keep
    if (t.is_integer()) {
      if (t.value() < 1)
        throw Error("composition: precondition violated: the tiler size " + t.to_string() +
                    " must be >= 1; A = " + a.to_string());
      return TilerOfLayouts::of_layout(Layout(t, IntTuple::static_int(1)), tiler.to_string());
    }
  }
  throw Error("composition: the tiler must be a layout, an integer, `_`, or a tuple of these; got " +
              tiler.kind_name() + " `" + tiler.to_string() + "`; A = " + a.to_string());
}

// compose_by_tiler_tree's failed precondition on the model's layouts.
struct CompositionTilerErrors {
  [[noreturn]] void too_many_modes(const TilerOfLayouts& t, const Layout& a) const {
    throw Error("composition: precondition violated: the tiler " + t.text + " has rank " +
                std::to_string(t.elements.size()) + " > rank " + std::to_string(rank(a)) + " of A = " + a.to_string());
  }
};

// The general path of composition(A, B): B's stride profile collected and checked, A
// coalesced at it, compose_impl over B's tree. noinline: the flattened entry points below call
// it rather than inline it (with compose_impl and the profile walk inlined into each, g++ took
// many minutes to compile this file); the fast paths are unchanged by it.
[[gnu::noinline]] Layout composition_by_profile(const Layout& a, const Layout& b, Context& ctx) {
  IntTuple profile = IntTuple::static_int(0);
  bool has_basis = false, has_integer = false;
  collect_profile(b.stride(), profile, has_basis, has_integer);
  if (has_basis && has_integer)
    throw Error("composition: precondition violated: B's non-zero strides must be all integers or all scaled "
                "bases; " + ctx.operands());
  return compose_impl(coalesce_at_profile(a, profile, ctx), b.shape(), b.stride(), "", ctx);
}

// composition(A, B) called from a flattened body without being inlined into it (see above).
[[gnu::noinline]] Layout composition_not_inlined(const Layout& a, const Layout& b) { return composition(a, b); }

// composition_of_pair on layouts, the same way.
[[gnu::noinline]] Layout composition_of_pair_not_inlined(const Layout& a, const Layout& b0, const Layout& b1) {
  return composition_of_pair(a, b0, b1);
}

}  // namespace

// gnu::flatten on the entry points and the flat drivers: the generic steps, the leaf policy's
// arithmetic and the working vectors' operations inline into one body per entry point instead
// of a call per mode (bench/README.md, where the model's time goes). Their general paths are
// the noinline functions above.
[[gnu::flatten]] Layout composition(const Layout& a, const Layout& b) {
  Context ctx{&a, {}, &b, nullptr, nullptr, {}};
  if (const BracketedLeaves* b_leaves = b.leaves()) {
    // B's leaves held inline (integer strides): the result written from them, its trees
    // built only when asked; A's modes in place when A is held as its form too.
    const auto write = [&](const FlatLhs& lhs) {
      return write_layout([&](LayoutWriter& out) { write_composed_leaves(lhs, *b_leaves, ctx.whole, ctx, out); });
    };
    FlatLhs lhs;
    if (a.leaves() != nullptr) {
      InlineFlatModes a_modes;
      if (flat_coalesce_unbounded(a, a_modes, lhs)) return write(lhs);  // (always: a form has leaves)
    } else {
      FlatModesOfInts a_modes;
      if (flat_coalesce_unbounded(a, a_modes, lhs)) return write(lhs);
    }
  } else if (!b.stride().has_basis()) {
    // Integer strides in B (the profile is 0 and the all-integers-or-all-bases check
    // passes): A is read through coalesce_x whole; on plain values when A's strides are
    // integers too.
    FlatModesOfInts a_modes;
    FlatLhs lhs;
    if (flat_coalesce_unbounded(a, a_modes, lhs))
      return compose_flat_layout(lhs, b.shape(), b.stride(), ctx.whole, ctx);
  }
  return composition_by_profile(a, b, ctx);
}

namespace {

// composition_of_flat on either holder of a's modes.
template <class Modes>
[[gnu::flatten]] Layout composition_of_flat_modes(Modes& a, const Layout& b) {
  // composition(a.layout(), b) step for step: a's modes are its flat leaves, so its
  // coalesce_x is unbounded_lhs of them (which keeps a coalesced layout's modes: a is still
  // a.layout() for diagnostics); B with a scaled-basis stride goes through the layout.
  if (b.has_basis_strides()) return composition_not_inlined(a.layout(), b);
  Context ctx{nullptr, FlatModesText::of(a), &b, nullptr, nullptr, {}};
  const FlatLhs lhs = unbounded_lhs(a, a.shapes.size() > 1);
  if (const BracketedLeaves* b_leaves = b.leaves())
    return write_layout([&](LayoutWriter& out) { write_composed_leaves(lhs, *b_leaves, ctx.whole, ctx, out); });
  return compose_flat_layout(lhs, b.shape(), b.stride(), ctx.whole, ctx);
}

}  // namespace

Layout composition_of_flat(FlatModesOfInts&& a, const Layout& b) { return composition_of_flat_modes(a, b); }

namespace {

// pair_with_composition_of_flat's general path, not inlined into the flattened one below.
[[gnu::noinline]] Layout pair_with_composition_not_inlined(const Layout& m0, InlineFlatModes& a, const Layout& b) {
  return make_layout_from_modes(m0, composition_of_flat(std::move(a), b));
}

}  // namespace

[[gnu::flatten]] Layout pair_with_composition_of_flat(const Layout& m0, InlineFlatModes&& a, const Layout& b) {
  const BracketedLeaves* m0_form = m0.leaves();
  const BracketedLeaves* b_leaves = b.leaves();  // a form: integer strides, so no basis path
  if (m0_form == nullptr || b_leaves == nullptr) return pair_with_composition_not_inlined(m0, a, b);
  // composition_of_flat_modes(a, b)'s path for b held as its form, written after m0's leaves.
  Context ctx{nullptr, FlatModesText::of(a), &b, nullptr, nullptr, {}};
  const FlatLhs lhs = unbounded_lhs(a, a.shapes.size() > 1);
  return write_layout([&](LayoutWriter& out) {
    out.open();
    out.form(*m0_form);
    write_composed_leaves(lhs, *b_leaves, ctx.whole, ctx, out);
    out.close();
  });
}

Layout composition_of_flat(InlineFlatModes&& a, const Layout& b) { return composition_of_flat_modes(a, b); }

Layout composition_of_pair(const Layout& a, const Layout& b0, const Layout& b1) {
  // composition(a, make_layout_from_modes({b0, b1})) step for step: the profile collected
  // over b0's then b1's strides (the pair's stride in order), the same checks; on plain
  // values when every stride is an integer, else through the pair.
  Context ctx{&a, {}, nullptr, &b0, &b1, {}};
  if (b0.leaves() != nullptr && b1.leaves() != nullptr) {
    FlatModesOfInts a_modes;
    FlatLhs lhs;
    if (flat_coalesce_unbounded(a, a_modes, lhs))
      return write_layout([&](LayoutWriter& out) {
        out.open();
        write_composed_leaves(lhs, *b0.leaves(), ctx.whole, ctx, out);
        write_composed_leaves(lhs, *b1.leaves(), ctx.whole, ctx, out);
        out.close();
      });
  }
  IntTuple profile = IntTuple::static_int(0);
  bool has_basis = false, has_integer = false;
  collect_profile(b0.stride(), profile, has_basis, has_integer);
  collect_profile(b1.stride(), profile, has_basis, has_integer);
  if (!has_basis) {
    FlatModesOfInts a_modes;
    FlatLhs lhs;
    if (flat_coalesce_unbounded(a, a_modes, lhs))
      return compose_flat_pair(lhs, b0, ctx, ctx.whole, [&](IntTuple& s, IntTuple& d) {
        compose_flat(lhs, b1.shape(), b1.stride(), ctx.whole, ctx, s, d);
      });
  }
  return composition(a, make_layout_from_modes({b0, b1}));
}

Layout composition_of_pair(const Layout& a, const Layout& b0, const FlatModesOfInts& b1) {
  FlatModesOfInts a_modes;
  if (!flat_int_modes(a, a_modes)) return composition_of_pair(a, b0, b1.layout());
  return composition_of_pair(a, std::move(a_modes), b0, b1);
}

namespace {

// composition_of_pair with A's modes given, on either holder of the modes.
template <class Modes>
[[gnu::flatten]] Layout composition_of_pair_modes(const Layout& a, Modes& a_modes, const Layout& b0, const Modes& b1) {
  // As the layout form with b1.layout(): b1's strides are integers, so the pair has a
  // scaled-basis stride only where b0 has one; that case goes through the layout form, as
  // does A = () (no modes).
  constexpr bool a_form = std::is_same_v<Modes, InlineFlatModes>;  // then A is read from its form
  if (b0.has_basis_strides() || (!a_form && a_modes.shapes.empty()))
    return composition_of_pair_not_inlined(a, b0, b1.layout());
  Context ctx{&a, {}, nullptr, &b0, nullptr, FlatModesText::of(b1)};
  FlatLhs lhs;  // a_modes is read only through lhs
  if constexpr (a_form) lhs = form_unbounded_view(*a.leaves(), a_modes);
  else lhs = unbounded_view(a_modes, is_tuple_layout(a));
  if (const BracketedLeaves* b0_leaves = b0.leaves())
    return write_layout([&](LayoutWriter& out) {
      out.open();
      write_composed_leaves(lhs, *b0_leaves, ctx.whole, ctx, out);
      write_composed_modes(lhs, b1, ctx.whole, ctx, out);
      out.close();
    });
  return compose_flat_pair(lhs, b0, ctx, ctx.whole,
                           [&](IntTuple& s, IntTuple& d) { compose_flat_modes(lhs, b1, ctx.whole, ctx, s, d); });
}

}  // namespace

Layout composition_of_pair(const Layout& a, FlatModesOfInts&& a_modes, const Layout& b0, const FlatModesOfInts& b1) {
  return composition_of_pair_modes(a, a_modes, b0, b1);
}

Layout composition_of_pair(const Layout& a, InlineFlatModes&& a_modes, const Layout& b0, const InlineFlatModes& b1) {
  return composition_of_pair_modes(a, a_modes, b0, b1);
}

Layout composition(const Layout& a, const Value& tiler) {
  if (tiler.is_layout()) return composition(a, std::get<Layout>(tiler.data));
  // CuTe composes mode i of A with tiler element i and drops the modes of A that the tiler
  // does not reach (cute/layout.hpp, composition with a tuple tiler); divides and products
  // keep them (tiler.cpp). The walk is tiler_generic.hpp's, which the proofs run too.
  return compose_by_tiler_tree(
      a, composition_tiler_tree(tiler, a), LayoutModeOps{},
      [](const Layout& m, const Layout& t) { return composition(m, t); }, CompositionTilerErrors{});
}

ComposedLayout composition(const ComposedLayout& a, const Layout& b) {
  return ComposedLayout{a.swizzle, a.offset, composition(a.layout, b)};
}

ComposedLayout composition(const ComposedLayout& a, const Value& tiler) {
  return ComposedLayout{a.swizzle, a.offset, composition(a.layout, tiler)};
}

}  // namespace cuteref
