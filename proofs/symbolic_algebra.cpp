#include "symbolic_algebra.hpp"

#include "complement_generic.hpp"
#include "composition_generic.hpp"
#include "divide_generic.hpp"

namespace cuteref::proofs {

namespace {

using Ops = ScalarOps<SymInt>;

SymInt zero() { return Ops::constant(0); }

// CuTe's ceil_div on leaves as leaf_arith.hpp's leaf_ceil_div computes it: the divisor must
// be positive, and the quotient rounds up.
SymInt ceil_div_leaf(const SymInt& a, const SymInt& b) {
  Ops::require(b >= Ops::constant(1), [] { return std::string("ceil_div: the divisor must be positive"); });
  return a / b + Ops::select(a % b == zero(), zero(), Ops::constant(1));
}

std::vector<SymInt> leaves_of(const SymTuple& t) {
  std::vector<SymTuple> flat;
  flatten_leaves(t, flat);
  std::vector<SymInt> out;
  for (const auto& l : flat) out.push_back(*l.leaf);
  return out;
}

SymTuple tuple_of(const std::vector<SymInt>& v) {
  if (v.size() == 1) return SymTuple::of(v[0]);
  std::vector<SymTuple> e;
  for (const auto& x : v) e.push_back(SymTuple::of(x));
  return SymTuple::tuple(std::move(e));
}

struct SymComplementOps {
  bool less(const SymInt& a, const SymInt& b) const { return Ops::decide(a < b); }
  void check_stride(const SymInt&, const SymInt& stride) const {
    Ops::require(stride >= zero(), [] { return std::string("complement: A's strides must be >= 0"); });
  }
  void check_gap(const SymInt& gap, const SymInt&, const SymInt&, const SymInt&) const {
    Ops::require(!(gap == zero()), [] {
      return std::string("complement: A must be injective with non-interleaved modes");
    });
  }
  SymInt div(const SymInt& a, const SymInt& b) const { return a / b; }
  SymInt mul(const SymInt& a, const SymInt& b) const { return a * b; }
  SymInt ceil_div(const SymInt& a, const SymInt& b) const { return ceil_div_leaf(a, b); }
  SymInt one() const { return Ops::constant(1); }
};

// A's modes are s[0..r); the checks read them.
struct SymCompositionOps {
  const SymInt* s;
  bool is_zero(const SymInt& x) const { return Ops::decide(x == zero()); }
  bool is_negative(const SymInt& x) const { return Ops::decide(x < zero()); }
  bool is_one(const SymInt& x) const { return Ops::decide(x == Ops::constant(1)); }
  bool above_one(const SymInt& x) const { return Ops::decide(x >= Ops::constant(2)); }
  SymInt abs(const SymInt& x) const { return Ops::select(x < zero(), zero() - x, x); }
  SymInt neg(const SymInt& x) const { return zero() - x; }
  SymInt ceil_div(const SymInt& a, const SymInt& b) const { return ceil_div_leaf(a, b); }
  SymInt div(const SymInt& a, const SymInt& b) const { return a / b; }
  SymInt min(const SymInt& a, const SymInt& b) const { return Ops::select(a < b, a, b); }
  SymInt scale(const SymInt& c, const SymInt& d) const { return c * d; }
  SymInt zero_sum() const { return zero(); }
  void add_digits(SymInt& sum, const SymInt& new_shape, const SymInt& rest_stride) const {
    sum = sum + (new_shape - Ops::constant(1)) * rest_stride;
  }
  void check_stride_divisibility(const SymInt&, const SymInt& ri, std::size_t i) const {
    Ops::require(ri % s[i] == zero() || ri < s[i], [] { return std::string("composition: stride divisibility"); });
  }
  void check_exactness(const SymInt& ni, const SymInt& ri, const SymInt& next_shape, std::size_t i) const {
    Ops::require(!(ri < s[i] && next_shape < ni && !(s[i] % ri == zero())),
                 [] { return std::string("composition: exactness"); });
  }
  void check_shape_divisibility(const SymInt& ni, const SymInt&, const SymInt& new_shape, std::size_t) const {
    Ops::require(ni % new_shape == zero(), [] { return std::string("composition: shape divisibility"); });
  }
  void check_carry(const SymInt&, const SymInt&, const SymInt& digit_sum, std::size_t i) const {
    Ops::require(digit_sum < s[i], [] { return std::string("composition: no carry"); });
  }
  void check_signs() const {
    Ops::require(current_scope().ctx().bool_val(false),
                 [] { return std::string("composition: B's strides of both signs reach several modes of A"); });
  }
};

// B's leaf modes one by one (composition.cpp's compose_impl: right-distributivity over B's
// tuple modes, A o (B0, B1, ...) = (A o B0, A o B1, ...); a leaf composes by
// compose_leaf_mode).
// `as`, `ad`: the modes of coalesce_x(A); `a_is_leaf`: A itself was a leaf layout.
SymLayout compose_tree(const std::vector<SymInt>& as, const std::vector<SymInt>& ad, bool a_is_leaf,
                       const SymTuple& shape, const SymTuple& stride, CompositionOccupancy<SymInt>& occ) {
  if (shape.is_tuple()) {
    std::vector<SymTuple> shapes, strides;
    for (std::size_t i = 0; i < shape.rank(); ++i) {
      SymLayout m = compose_tree(as, ad, a_is_leaf, shape[i], stride[i], occ);
      shapes.push_back(std::move(m.shape));
      strides.push_back(std::move(m.stride));
    }
    return {SymTuple::tuple(std::move(shapes)), SymTuple::tuple(std::move(strides))};
  }
  std::vector<SymInt> out_shape, out_stride;
  compose_leaf_mode(as.data(), ad.data(), as.size(), a_is_leaf, *shape.leaf, *stride.leaf, occ,
                    SymCompositionOps{as.data()}, [&](const SymInt& sh, const SymInt& st) {
                      out_shape.push_back(sh);
                      out_stride.push_back(st);
                    });
  return {tuple_of(out_shape), tuple_of(out_stride)};
}

struct SymCoalesceXOps {
  bool is_one(const SymInt& s) const { return Ops::decide(s == Ops::constant(1)); }
  bool continues(const SymInt& s, const SymInt& d, const SymInt& next) const { return Ops::decide(s * d == next); }
  SymInt mul(const SymInt& a, const SymInt& b) const { return a * b; }
};

struct SymDivideOps {
  std::vector<SymInt> coalesced_shape(const SymLayout& a) const { return leaves_of(sym_coalesce(a).shape); }
  SymLayout complement(const SymLayout& t, const std::vector<SymInt>& shape) const { return sym_complement(t, shape); }
  SymLayout pair(const SymLayout& t, const SymLayout& r) const {
    return {SymTuple::tuple({t.shape, r.shape}), SymTuple::tuple({t.stride, r.stride})};
  }
  SymLayout composition(const SymLayout& a, const SymLayout& b) const { return sym_composition(a, b); }
};

}  // namespace

SymLayout sym_complement(const SymLayout& a, const std::vector<SymInt>& cotarget) {
  // filter(A) = coalesce(filter_zeros(A)): a stride-0 mode becomes size 1 (coalesce.cpp's
  // filter_zeros), then the model's coalesce; complement.cpp takes the same modes through
  // filtered_flat_modes (flat_coalesce.hpp: equal to flat_modes of filter(A)).
  std::vector<SymTuple> shapes, strides;
  flatten_leaves(a.shape, shapes);
  flatten_leaves(a.stride, strides);
  for (std::size_t k = 0; k < shapes.size(); ++k)
    shapes[k] = SymTuple::of(Ops::select(*strides[k].leaf == zero(), Ops::constant(1), *shapes[k].leaf));
  const SymLayout filtered = sym_coalesce({SymTuple::tuple(shapes), SymTuple::tuple(strides)});
  std::vector<SymInt> fs = leaves_of(filtered.shape), fd = leaves_of(filtered.stride);
  if (fs.size() == 1 && Ops::decide(fd[0] == zero()))
    throw Error("symbolic complement: A without a mode of size > 1 and non-zero stride is not covered");
  ComplementModes<std::vector<SymInt>> m;
  complement_modes(fs, fd, cotarget, SymComplementOps{}, m);
  // complement.cpp coalesces the flat modes with coalesce_flat, equal to coalesce of the
  // flat layout (flat_coalesce.hpp's post-condition): here the model's coalesce_tree.
  return sym_coalesce({tuple_of(m.shapes), tuple_of(m.strides)});
}

SymLayout sym_composition(const SymLayout& a, const SymLayout& b) {
  // composition.cpp: A is read through coalesce_x (coalesce_unbounded), a leaf A as it is.
  std::vector<SymInt> as = leaves_of(a.shape), ad = leaves_of(a.stride);
  if (as.empty()) throw Error("symbolic composition: A = () is not covered");
  if (a.shape.is_tuple()) coalesce_unbounded_modes(as, ad, SymCoalesceXOps{});
  CompositionOccupancy<SymInt> occ;
  return compose_tree(as, ad, !a.shape.is_tuple() || as.size() == 1, b.shape, b.stride, occ);
}

SymLayout sym_logical_divide(const SymLayout& a, const SymLayout& tiler) {
  return logical_divide_layout(a, tiler, SymDivideOps{});
}

}  // namespace cuteref::proofs
