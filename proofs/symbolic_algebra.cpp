#include "symbolic_algebra.hpp"

#include "complement_generic.hpp"
#include "composition_generic.hpp"
#include "cosize_generic.hpp"
#include "divide_generic.hpp"
#include "inverse_generic.hpp"
#include "max_common_generic.hpp"
#include "product_generic.hpp"

namespace cuteref::proofs {

namespace {

using Ops = ScalarOps<SymInt>;

SymTuple tuple_of(const std::vector<SymInt>& v) {
  if (v.size() == 1) return SymTuple::of(v[0]);
  std::vector<SymTuple> e;
  for (const auto& x : v) e.push_back(SymTuple::of(x));
  return SymTuple::tuple(std::move(e));
}

}  // namespace

namespace {

struct SymDivideOps {
  std::vector<SymInt> coalesced_shape(const SymLayout& a) const { return leaves_of(sym_coalesce(a).shape); }
  SymLayout complement(const SymLayout& t, const std::vector<SymInt>& shape) const { return sym_complement(t, shape); }
  SymLayout pair(const SymLayout& t, const SymLayout& r) const {
    return {SymTuple::tuple({t.shape, r.shape}), SymTuple::tuple({t.stride, r.stride})};
  }
  SymLayout composition(const SymLayout& a, const SymLayout& b) const { return sym_composition(a, b); }
};

// cosize(L): layout.cpp's cosize, the model's CosizeSum over L's leaves.
SymInt sym_cosize(const SymLayout& l) {
  const std::vector<SymInt> s = leaves_of(l.shape), d = leaves_of(l.stride);
  CosizeSum<ScalarLeaf<SymInt>> sum;
  for (std::size_t k = 0; k < s.size(); ++k) sum.add(s[k], d[k]);
  return sum.result();
}

SymLayout pair_of(const SymLayout& a, const SymLayout& b) {
  return {SymTuple::tuple({a.shape, b.shape}), SymTuple::tuple({a.stride, b.stride})};
}

struct SymProductOps {
  SymLayout free_offsets(const SymLayout& a, const SymLayout& tiler) const {
    return sym_complement(a, {sym_size(a) * sym_cosize(tiler)});
  }
  SymLayout composition(const SymLayout& r, const SymLayout& tiler) const { return sym_composition(r, tiler); }
  SymLayout pair(const SymLayout& a, const SymLayout& c) const { return pair_of(a, c); }
};

// The flat modes of coalesce(L) with the exclusive prefix products of their shapes
// (inverse.cpp's coalesced_modes).
template <class Select>
SymLayout sym_inverse(const SymLayout& l, Select select) {
  const SymLayout c = sym_coalesce(l);
  const std::vector<SymInt> s = leaves_of(c.shape), d = leaves_of(c.stride);
  std::vector<SymInt> prefix;
  SymInt p = Ops::constant(1);
  for (const auto& x : s) {
    prefix.push_back(p);
    p = p * x;
  }
  std::vector<SymInt> out_s, out_d;
  select(s, d, prefix, SymInverseOps{d.data()}, out_s, out_d);
  return sym_coalesce({tuple_of(out_s), tuple_of(out_d)});
}

}  // namespace

SymLayout sym_complement(const SymLayout& a, const std::vector<SymInt>& cotarget) {
  // complement.cpp's complement_flat: the model's complement_flat_modes on A's leaves.
  const std::vector<SymInt> shapes = leaves_of(a.shape), strides = leaves_of(a.stride);
  std::vector<SymInt> f_shapes, f_strides;
  ModesOut<std::vector<SymInt>> filtered{f_shapes, f_strides};
  ComplementModes<std::vector<SymInt>> m;
  ModesOut<std::vector<SymInt>> out{m.shapes, m.strides};
  complement_flat_modes<ScalarLeaf<SymInt>>(shapes, strides, filtered, f_shapes, f_strides, cotarget,
                                            SymComplementOps{}, out);
  return {tuple_of(m.shapes), tuple_of(m.strides)};
}

SymLayout sym_composition(const SymLayout& a, const SymLayout& b) {
  // composition.cpp's composition on integer strides: A's view through coalesce_x, then B's
  // modes by right-distributivity, each leaf by compose_leaf_mode.
  std::vector<SymInt> as = leaves_of(a.shape), ad = leaves_of(a.stride);
  if (as.empty()) throw Error("symbolic composition: A = () is not covered");
  const bool a_is_leaf = coalesce_x_view(as, ad, a.shape.is_tuple(), SymCoalesceXOps{});
  CompositionOccupancy<SymInt> occ;
  SymLayout out;
  compose_over_modes(
      b.shape, b.stride, out.shape, out.stride,
      [&](const SymTuple& n0, const SymTuple& d0, SymTuple& s, SymTuple& d) {
        std::vector<SymInt> out_shape, out_stride;
        compose_leaf_mode(as.data(), ad.data(), as.size(), a_is_leaf, *n0.leaf, *d0.leaf, occ,
                          SymCompositionOps{as.data(), {}}, [&](const SymInt& sh, const SymInt& st) {
                            out_shape.push_back(sh);
                            out_stride.push_back(st);
                          });
        s = tuple_of(out_shape);
        d = tuple_of(out_stride);
      },
      [](std::size_t n, SymTuple& s, SymTuple& d, const auto& fill) {
        std::vector<SymTuple> shapes(n), strides(n);
        for (std::size_t i = 0; i < n; ++i) fill(i, shapes[i], strides[i]);
        s = SymTuple::tuple(std::move(shapes));
        d = SymTuple::tuple(std::move(strides));
      });
  return out;
}

SymLayout sym_logical_divide(const SymLayout& a, const SymLayout& tiler) {
  return logical_divide_layout(a, tiler, SymDivideOps{});
}

}  // namespace cuteref::proofs

namespace cuteref::proofs {

SymLayout sym_logical_product(const SymLayout& a, const SymLayout& tiler) {
  return logical_product_layout(a, tiler, SymProductOps{});
}

SymLayout SymModeOps::logical_product(const SymLayout& a, const SymLayout& b) const { return sym_logical_product(a, b); }

SymLayout sym_blocked_product(const SymLayout& a, const SymLayout& b, bool block_first) {
  return zip_block_and_copies(a, b, block_first, SymModeOps{});
}

namespace {

// tiler_generic.hpp's failed preconditions on symbolic layouts (their ranks are fixed, so
// these are the model's rejections of the claim's structure).
struct SymTilerErrors {
  [[noreturn]] void too_many_modes(const SymTiler& t, const SymLayout& a) const {
    throw Error("too many modes in tiler: the tiler has rank " + std::to_string(t.elements.size()) +
                " but the layout has rank " + std::to_string(a.shape.rank()));
  }
  [[noreturn]] void not_a_pair(const SymTiler&, const SymLayout&) const {
    throw Error("tile_unzip needs a rank-2 (tile, rest) mode under each tiler element that is not a tuple");
  }
};

}  // namespace

SymLayout sym_regroup(const SymLayout& applied, const SymTiler& tiler, TilerForm form) {
  return regroup_as(applied, tiler, form, SymModeOps{}, SymTilerErrors{});
}

SymLayout sym_divide(const SymLayout& a, const SymTiler& tiler, TilerForm form) {
  const SymLayout applied = apply_tiler_tree(
      a, tiler, SymModeOps{}, [](const SymLayout& m, const SymLayout& t) { return sym_logical_divide(m, t); },
      SymTilerErrors{});
  return sym_regroup(applied, tiler, form);
}

SymLayout sym_product(const SymLayout& a, const SymTiler& tiler, TilerForm form) {
  const SymLayout applied = apply_tiler_tree(
      a, tiler, SymModeOps{}, [](const SymLayout& m, const SymLayout& t) { return sym_logical_product(m, t); },
      SymTilerErrors{});
  return sym_regroup(applied, tiler, form);
}

SymLayout sym_composition_by_tiler(const SymLayout& a, const SymTiler& tiler) {
  return compose_by_tiler_tree(
      a, tiler, SymModeOps{}, [](const SymLayout& m, const SymLayout& t) { return sym_composition(m, t); },
      SymTilerErrors{});
}

namespace {
// coalesce_by_profile's failed precondition: the ranks are the claim's, fixed.
struct SymProfileErrors {
  template <class Profile>
  [[noreturn]] void profile_too_long(const Profile& profile, const SymLayout& l) const {
    throw Error("coalesce: the profile has rank " + std::to_string(profile.rank()) + " but the layout has rank " +
                std::to_string(l.shape.rank()));
  }
};
template <class Profile>
SymLayout coalesce_by_profile_of(const SymLayout& l, const Profile& profile) {
  return coalesce_by_profile(
      l, profile, SymModeOps{}, [](const SymLayout& m) { return sym_coalesce(m); }, SymProfileErrors{});
}
}  // namespace

SymLayout sym_coalesce_by_profile(const SymLayout& l, const SymTuple& profile) { return coalesce_by_profile_of(l, profile); }
SymLayout sym_coalesce_by_profile(const SymLayout& l, const IntTuple& profile) { return coalesce_by_profile_of(l, profile); }

SymLayout sym_right_inverse(const SymLayout& l) {
  return sym_inverse(l, [](const auto& s, const auto& d, const auto& p, const auto& ops, auto& os, auto& od) {
    right_inverse_modes(s, d, p, ops, os, od);
  });
}

SymLayout sym_left_inverse(const SymLayout& l) {
  return sym_inverse(l, [](const auto& s, const auto& d, const auto& p, const auto& ops, auto& os, auto& od) {
    left_inverse_modes(s, d, p, ops, os, od);
  });
}

namespace {
// max_common_generic.hpp's operations on symbolic layouts.
struct SymMaxCommonOps : SymModeOps {
  SymLayout right_inverse_full(const SymLayout& l) const { return sym_right_inverse(l); }
  SymLayout compose(const SymLayout& a, const SymLayout& b) const { return sym_composition(a, b); }
  SymLayout coalesce(const SymLayout& l) const { return sym_coalesce(l); }
  bool has_unit_stride(const SymLayout& m) const { return Ops::decide(*m.stride.leaf == Ops::constant(1)); }
  SymInt shape(const SymLayout& m) const { return *m.shape.leaf; }
  SymInt one() const { return Ops::constant(1); }
  SymLayout unit_layout() const { return SymModeOps::unit_mode(); }
};
}  // namespace

SymInt sym_max_common_vector(const SymLayout& a, const SymLayout& b) { return max_common_vector_of(a, b, SymMaxCommonOps{}); }

SymLayout sym_max_common_layout(const SymLayout& a, const SymLayout& b) {
  return max_common_layout_of(a, b, SymMaxCommonOps{});
}

SymLayout sym_tile_to_shape(const SymLayout& block, const SymTuple& target_in, bool target_static,
                            const std::vector<bool>& copies_static) {
  const SymTuple target = target_in.is_tuple() ? target_in : SymTuple::tuple({target_in});
  const std::size_t r = target.rank();
  const SymModeOps ops;
  if (ops.rank(block) > r) throw Error("tile_to_shape: rank of layout must be <= rank of target shape");
  for (const SymInt& leaf : leaves_of(target))
    Ops::require(leaf >= Ops::constant(1), [] { return std::string("tile_to_shape: the target's leaves must be >= 1"); });
  const SymLayout padded = append_to_rank_layout(block, r, ops);
  std::vector<SymTuple> copies, strides;
  SymInt running = Ops::constant(1);
  for (std::size_t i = 0; i < r; ++i) {
    const SymInt t = tuple_product<SymInt>(target[i]);
    const SymInt b = tuple_product<SymInt>(ops.mode(padded, i).shape);
    const SymInt n = tile_copies<ScalarLeaf<SymInt>>(t, b, target_static, [i] {
      return "tile_to_shape: block shape does not divide the target shape (mode " + std::to_string(i) + ")";
    });
    copies.push_back(SymTuple::of(n));
    // make_layout: compact column-major, and a static _1 (both modes static) the stride _0.
    if (copies_static[i] && Ops::decide(n == Ops::constant(1))) {
      strides.push_back(SymTuple::of(Ops::constant(0)));
      continue;
    }
    strides.push_back(SymTuple::of(running));
    running = running * n;
  }
  return sym_blocked_product(padded, {SymTuple::tuple(std::move(copies)), SymTuple::tuple(std::move(strides))}, true);
}

}  // namespace cuteref::proofs
