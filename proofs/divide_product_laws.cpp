// The named laws of the divide and product families, each with Z3 queries of its own on the
// model's code (symbolic_algebra.hpp: the model's logical_divide layout form, its tiler
// regroupings and its blocked/raked zip), every extent and stride symbolic (shapes in [1, 64],
// strides in [-64, 64]), the model's checks as hypotheses (what the model returns, when it
// returns):
//
//   logical_divide_defining: logical_divide(A, T) at index x + size(T) * y, x < size(T),
//     y < size(R), is A(T(x) + R(y)), R = complement(T, shape(coalesce(A))), and has
//     size(T) * size(R) elements; A and T single modes (rank 1). Wider ranks with symbolic
//     strides get no answer from Z3 within minutes; they follow from the every-rank
//     composition laws (proofs/README.md, "Corollaries").
//   tiler_regroupings: for a tuple tiler of m <= 3 elements, the zipped, tiled and flat forms
//     (tiler_generic.hpp's regroup_as) of apply_tiler's result L hold L's element at
//     ((x0,y0),...,(x_{m-1},y_{m-1}),z...) at ((x0,...),(y0,...,z...)), ((x0,...),y0,...,z...)
//     and (x0,...,y0,...,z...), over the same extents; for every L whose reached modes are
//     (tile, rest) pairs of symbolic leaves, up to 2 modes kept.
//   blocked_raked_defining: blocked_product(A, B) at ((x0,y0),(x1,y1),...) and raked_product
//     at ((y0,x0),(y1,x1),...) are A(x) + C(y), C = mode 1 of logical_product of the
//     rank-padded A and B (any layout of symbolic leaves congruent to the padded B: the
//     model's zip_block_and_copies with logical_product summarised); ranks up to 3.
//
// Each law also enumerates a corner on the concrete model (its own divides and products).
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

#include "coalesce.hpp"
#include "complement.hpp"
#include "coordinates.hpp"
#include "divide.hpp"
#include "laws.hpp"
#include "notation.hpp"
#include "product.hpp"
#include "product_generic.hpp"
#include "symbolic_algebra.hpp"
#include "value.hpp"

namespace cuteref::proofs {

namespace {

using Ops = ScalarOps<SymInt>;

constexpr std::int64_t kExtentMax = 64, kStrideMax = 64;

IntTuple flat_profile(std::size_t rank) {
  if (rank == 1) return IntTuple::integer(0);
  std::vector<IntTuple> e(rank, IntTuple::integer(0));
  return IntTuple::tuple(std::move(e));
}

// L at a hierarchical coordinate congruent to its shape: the sum of coordinate leaf times
// stride leaf (linear: no division), and whether each coordinate leaf is below its shape leaf
// (`in_range`). A coordinate that is not congruent gives nothing.
std::optional<SymInt> at_coordinate(const SymTuple& shape, const SymTuple& stride, const SymTuple& coord,
                                    z3::expr& in_range) {
  if (!shape.is_tuple()) {
    if (coord.is_tuple()) return std::nullopt;
    in_range = in_range && *coord.leaf < *shape.leaf;
    return *coord.leaf * *stride.leaf;
  }
  if (!coord.is_tuple() || coord.rank() != shape.rank()) return std::nullopt;
  SymInt sum = ScalarOps<SymInt>::constant(0);
  for (std::size_t k = 0; k < shape.rank(); ++k) {
    const auto v = at_coordinate(shape[k], stride[k], coord[k], in_range);
    if (!v) return std::nullopt;
    sum = sum + *v;
  }
  return sum;
}

// A coordinate variable prefix<k> in [0, 2^63-1] (the claims bound it), added to `vars`.
SymInt coordinate_variable(SymbolicScope& s, const char* prefix, std::size_t k, std::vector<z3::expr>& domain,
                           std::vector<ProofVariable>& vars) {
  const SymInt v = s.ranged_variable(indexed_name(prefix, k), 0, INT64_MAX, domain);
  vars.push_back({indexed_name(prefix, k), v.e});
  return v;
}

// `value` evaluated under the guard that the coordinates are in range: its side conditions
// are asked only there.
z3::expr in_range_equal(SymbolicScope& s, const z3::expr& in_range, const std::function<SymInt()>& lhs,
                        const std::function<SymInt()>& rhs) {
  s.push_guard(in_range);
  const SymInt l = lhs(), v = rhs();
  s.pop_guard();
  return z3::implies(in_range, l == v);
}

// Runs f on the model; a rejected input is not a case.
template <class F>
bool accepted(F&& f) {
  try {
    f();
    return true;
  } catch (const Error&) {
    return false;
  }
}

void note_failure(LawResult& r, const std::string& what) {
  if (r.corner_failure.empty()) r.corner_failure = what;
}

// The points "shapes in [1, 64], strides in [-64, 64]" cover at their ends and at stride 0,
// on the first leaf (s0:d0, always the left operand's), and the first coordinates x0, y0.
std::vector<std::map<std::string, std::int64_t>> first_leaf_points() {
  return {{{"s0", 1}},         {{"s0", kExtentMax}}, {{"d0", -kStrideMax}}, {{"d0", 0}},
          {{"d0", kStrideMax}}, {{"x0", 0}},          {{"y0", 0}}};
}

// ---- logical_divide ----------------------------------------------------------------------

LawResult logical_divide_defining_law(const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  std::vector<z3::expr> domain;
  std::vector<SymInt> shapes, strides;
  const SymLayout a = variable_layout(s, IntTuple::integer(0), {1, kExtentMax}, {-kStrideMax, kStrideMax}, domain,
                                      shapes, strides);
  const SymLayout t = variable_layout(s, IntTuple::integer(0), {1, kExtentMax}, {-kStrideMax, kStrideMax}, domain,
                                      shapes, strides);
  std::vector<ProofVariable> vars = named(shapes, strides, "s", "d");
  const SymInt x = coordinate_variable(s, "x", 0, domain, vars), y = coordinate_variable(s, "y", 0, domain, vars);
  // A's first leaf's points and the same for T (s1:d1).
  std::vector<std::map<std::string, std::int64_t>> points = first_leaf_points();
  for (const std::int64_t d : {-kStrideMax, std::int64_t{0}, kStrideMax}) points.push_back({{"d1", d}});
  points.push_back({{"s1", 1}});
  points.push_back({{"s1", kExtentMax}});
  const ProofOptions o = with_domain_points(opt, points);
  const ProofOutcome out = prove(s, domain, vars, [&]() -> z3::expr {
    const SymLayout d = sym_logical_divide(a, t);
    const SymLayout rest = sym_complement(t, leaves_of(sym_coalesce(a).shape));
    const SymInt nt = sym_size(t), nr = sym_size(rest);
    return sym_size(d) == nt * nr &&
           in_range_equal(s, x < nt && y < nr, [&] { return apply_at(d, x + nt * y); },
                          [&] { return apply_at(a, apply_at(t, x) + apply_at(rest, y)); });
  }, step_lemma_options(o));
  fold_step_proof(r, out, "A = s0:d0, T = s1:d1");
  require_domain_points_checked(r, o);
  // Corner: the model's logical_divide against A(T(x) + R(y)) with the model's complement, for
  // every A of rank <= 2 (shapes [1,3], strides [0,5]) and T = n:e it accepts.
  for (std::size_t ra : {1, 2})
    for_each_small_flat_layout(ra, 3, 0, 5, SIZE_MAX, [&](const std::vector<IntTuple>& sh, const std::vector<IntTuple>& st) {
      const Layout a(IntTuple::tuple(sh), IntTuple::tuple(st));
      for (std::int64_t n = 1; n <= 4; ++n)
        for (std::int64_t e = 1; e <= 3; ++e) {
          const Layout t = parse_layout(std::to_string(n) + ":" + std::to_string(e));
          std::optional<Layout> d, rest;
          if (!accepted([&] {
                d = logical_divide(a, t);
                rest = complement(t, coalesce(a).shape());
              }))
            continue;
          for (std::int64_t y = 0; y < size_value(*rest); ++y)
            for (std::int64_t xv = 0; xv < n; ++xv, ++r.corner_cases)
              if (apply_index(*d, xv + n * y) != apply_index(a, apply_index(t, xv) + apply_index(*rest, y)))
                note_failure(r, "logical_divide(" + a.to_string() + ", " + t.to_string() + ")");
        }
    });
  return r;
}

// ---- blocked and raked products: logical_product regrouped -------------------------------

// product_generic.hpp's glue with logical_product's copies summarised: the model's
// zip_block_and_copies run with an ops whose logical_product(block, tiler) is (block, C), C a
// layout of symbolic leaves congruent to the padded tiler (what composition gives it).
struct CopiesSummaryOps : SymModeOps {
  SymLayout copies;
  SymLayout logical_product(const SymLayout& a, const SymLayout&) const { return from_modes({a, copies}); }
};

LawResult blocked_raked_defining_law(const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  const std::pair<std::size_t, std::size_t> ranks[] = {{1, 1}, {2, 2}, {1, 2}, {2, 1}, {3, 3}, {1, 3}, {3, 2}};
  // A's first leaf (s0:d0) and the first coordinates; B's strides are not read (only its
  // rank), and its and C's leaves have other indices at each rank pair.
  const ProofOptions o = with_domain_points(opt, first_leaf_points());
  for (const bool blocked : {true, false})
    for (const auto& rank_pair : ranks) {
      const std::size_t ra = rank_pair.first, rb = rank_pair.second;  // plain locals: lambdas capture them
      const std::size_t rank = std::max(ra, rb);
      SymbolicScope s(Encoding::Int64Range);
      std::vector<z3::expr> domain;
      std::vector<SymInt> shapes, strides;
      const SymLayout a = variable_layout(s, flat_profile(ra), {1, kExtentMax}, {-kStrideMax, kStrideMax}, domain,
                                          shapes, strides);
      // B's strides over the header's whole range: the claim does not read them (zip_block_and_copies
      // takes B's rank and shapes; C stands for the product), so no sign of them is left out.
      const SymLayout b = variable_layout(s, flat_profile(rb), {1, kExtentMax}, {-kStrideMax, kStrideMax}, domain,
                                          shapes, strides);
      CopiesSummaryOps ops;
      ops.copies = variable_layout(s, flat_profile(rank), {1, kExtentMax}, {-kStrideMax, kStrideMax}, domain, shapes,
                                   strides);
      std::vector<ProofVariable> vars = named(shapes, strides, "s", "d");
      std::vector<SymInt> x, y;
      for (std::size_t k = 0; k < rank; ++k) {
        x.push_back(coordinate_variable(s, "x", k, domain, vars));
        y.push_back(coordinate_variable(s, "y", k, domain, vars));
      }
      const ProofOutcome out = prove(s, domain, vars, [&]() -> z3::expr {
        const SymLayout p = zip_block_and_copies(a, b, blocked, ops);
        // Mode k of the result pairs A's mode k (beyond A's rank the padding _1:_0, so x_k is 0)
        // with C's: coordinate (x_k, y_k) when blocked, (y_k, x_k) when raked.
        auto leaf = [](const SymInt& v) { return SymTuple::of(v); };
        std::vector<SymTuple> cp, ca, cc;
        z3::expr padding = s.ctx().bool_val(true);
        for (std::size_t k = 0; k < rank; ++k) {
          cp.push_back(blocked ? SymTuple::tuple({leaf(x[k]), leaf(y[k])}) : SymTuple::tuple({leaf(y[k]), leaf(x[k])}));
          if (k < ra) ca.push_back(leaf(x[k]));
          else padding = padding && x[k] == Ops::constant(0);
          cc.push_back(leaf(y[k]));
        }
        auto coordinate = [](std::vector<SymTuple> v) { return v.size() == 1 ? v[0] : SymTuple::tuple(std::move(v)); };
        z3::expr in_p = s.ctx().bool_val(true), in_ac = s.ctx().bool_val(true);
        const std::optional<SymInt> vp = at_coordinate(p.shape, p.stride, SymTuple::tuple(cp), in_p);
        const std::optional<SymInt> va = at_coordinate(a.shape, a.stride, coordinate(ca), in_ac);
        const std::optional<SymInt> vc = at_coordinate(ops.copies.shape, ops.copies.stride, coordinate(cc), in_ac);
        if (!vp || !va || !vc) return s.ctx().bool_val(false);
        return in_p == (in_ac && padding) && z3::implies(in_p, *vp == *va + *vc);
      }, step_lemma_options(o));
      std::ostringstream what;
      what << (blocked ? "blocked" : "raked") << " ranks " << ra << ", " << rb;
      fold_step_proof(r, out, what.str());
    }
  require_domain_points_checked(r, o);
  // Corner: every A of rank 2 (shapes [1,3], strides [0,3]) and B = (2,n):(1,2) it accepts.
  for_each_small_flat_layout(2, 3, 0, 3, SIZE_MAX, [&](const std::vector<IntTuple>& sh, const std::vector<IntTuple>& st) {
    const Layout a(IntTuple::tuple(sh), IntTuple::tuple(st));
    for (std::int64_t n = 1; n <= 2; ++n) {
      const Layout b = parse_layout("(2," + std::to_string(n) + "):(1,2)");
      for (const bool blocked : {true, false}) {
        std::optional<Layout> p, free;
        if (!accepted([&] {
              p = blocked ? blocked_product(a, b) : raked_product(a, b);
              free = complement(a, IntTuple::integer(size_value(a) * 2 * n));
            }))
          continue;
        const std::int64_t a0 = size_value(mode(a, 0)), a1 = size_value(mode(a, 1));
        for (std::int64_t x0 = 0; x0 < a0; ++x0)
          for (std::int64_t x1 = 0; x1 < a1; ++x1)
            for (std::int64_t y0 = 0; y0 < 2; ++y0)
              for (std::int64_t y1 = 0; y1 < n; ++y1, ++r.corner_cases) {
                const std::int64_t index = blocked ? x0 + a0 * y0 + a0 * 2 * (x1 + a1 * y1)
                                                   : y0 + 2 * x0 + 2 * a0 * (y1 + n * x1);
                if (apply_index(*p, index) != apply_index(a, x0 + a0 * x1) + apply_index(*free, y0 + 2 * y1))
                  note_failure(r, std::string(blocked ? "blocked" : "raked") + "_product(" + a.to_string() + ", " +
                                      b.to_string() + ")");
              }
      }
    }
  });
  return r;
}

// ---- the regroupings of a tuple tiler -----------------------------------------------------

// tiler_generic.hpp's regroup_as on a layout of apply_tiler's shape: each of the m modes the
// tiler reaches a (tile, rest) pair of symbolic leaves (a deeper tile or rest is the function
// of its flattening: flatten_every_depth), then `kept` modes it does not reach. Stated on
// hierarchical coordinates, as CuTe's regroupings are meant: the same coordinate leaves,
// moved, give the same offset and range over the same extents.
LawResult tiler_regroupings_law(const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  const std::pair<std::size_t, std::size_t> cases[] = {{1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 0}, {3, 1}, {2, 2}};
  // L's first leaf (the first tile's) and the first coordinates, and a kept mode's (z0).
  std::vector<std::map<std::string, std::int64_t>> points = first_leaf_points();
  points.push_back({{"z0", 0}});
  const ProofOptions o = with_domain_points(opt, points);
  for (const auto& modes : cases) {
    const std::size_t m = modes.first, kept = modes.second;  // plain locals: lambdas capture them
    SymbolicScope s(Encoding::Int64Range);
    std::vector<z3::expr> domain;
    std::vector<SymInt> shapes, strides;
    std::vector<IntTuple> profile(m, IntTuple::tuple({IntTuple::integer(0), IntTuple::integer(0)}));
    for (std::size_t k = 0; k < kept; ++k) profile.push_back(IntTuple::integer(0));
    const SymLayout l = variable_layout(s, IntTuple::tuple(profile), {1, kExtentMax}, {-kStrideMax, kStrideMax}, domain,
                                        shapes, strides);
    // m layout elements, whose layouts regroup_as does not read.
    const SymTiler tiler = SymTiler::of_tuple(std::vector<SymTiler>(
        m, SymTiler::of_layout(SymLayout{SymTuple::of(Ops::constant(1)), SymTuple::of(Ops::constant(1))})));
    std::vector<ProofVariable> vars = named(shapes, strides, "s", "d");
    std::vector<SymInt> x, y, z;
    for (std::size_t k = 0; k < m; ++k) {
      x.push_back(coordinate_variable(s, "x", k, domain, vars));
      y.push_back(coordinate_variable(s, "y", k, domain, vars));
    }
    for (std::size_t k = 0; k < kept; ++k) z.push_back(coordinate_variable(s, "z", k, domain, vars));
    const ProofOutcome out = prove(s, domain, vars, [&]() -> z3::expr {
      // Coordinates: ((x0,y0),...,(x_{m-1},y_{m-1}),z0,...) of L; ((x0,...),(y0,...,z0,...)) of
      // the zipped form; ((x0,...),y0,...,z0,...) of the tiled; (x0,...,y0,...,z0,...) of the flat.
      auto leaf = [](const SymInt& v) { return SymTuple::of(v); };
      std::vector<SymTuple> cl, xs, ys, flat;
      for (std::size_t k = 0; k < m; ++k) cl.push_back(SymTuple::tuple({leaf(x[k]), leaf(y[k])}));
      for (std::size_t k = 0; k < kept; ++k) cl.push_back(leaf(z[k]));
      for (std::size_t k = 0; k < m; ++k) xs.push_back(leaf(x[k]));
      for (std::size_t k = 0; k < m; ++k) ys.push_back(leaf(y[k]));
      for (std::size_t k = 0; k < kept; ++k) ys.push_back(leaf(z[k]));
      flat = xs;
      flat.insert(flat.end(), ys.begin(), ys.end());
      std::vector<SymTuple> tiled{SymTuple::tuple(xs)};
      tiled.insert(tiled.end(), ys.begin(), ys.end());
      const SymTuple coords[] = {SymTuple::tuple({SymTuple::tuple(xs), SymTuple::tuple(ys)}), SymTuple::tuple(tiled),
                                 SymTuple::tuple(flat)};
      const TilerForm forms[] = {TilerForm::Zipped, TilerForm::Tiled, TilerForm::Flat};
      z3::expr in_l = s.ctx().bool_val(true);
      const std::optional<SymInt> vl = at_coordinate(l.shape, l.stride, SymTuple::tuple(cl), in_l);
      z3::expr same = s.ctx().bool_val(vl.has_value());
      for (std::size_t f = 0; f < 3 && vl; ++f) {
        const SymLayout g = sym_regroup(l, tiler, forms[f]);
        z3::expr in_g = s.ctx().bool_val(true);
        const std::optional<SymInt> vg = at_coordinate(g.shape, g.stride, coords[f], in_g);
        // The same coordinate ranges (each leaf's shape moved with it) and the same offset.
        same = same && s.ctx().bool_val(vg.has_value());
        if (vg) same = same && in_g == in_l && *vg == *vl;
      }
      return same;
    }, step_lemma_options(o));
    std::ostringstream what;
    what << m << " tiled modes, " << kept << " kept";
    fold_step_proof(r, out, what.str());
  }
  require_domain_points_checked(r, o);
  // Corner: the model's four forms of divide and product for every A of rank 2 (shapes
  // [1,3], strides [1,9]) by the tuple tiler (2,n) (n <= 2) they accept.
  for_each_small_flat_layout(2, 3, 1, 9, SIZE_MAX, [&](const std::vector<IntTuple>& sh, const std::vector<IntTuple>& st) {
    const Layout a(IntTuple::tuple(sh), IntTuple::tuple(st));
    for (std::int64_t n = 1; n <= 2; ++n) {
      const Value tiler(IntTuple::tuple({IntTuple::integer(2), IntTuple::integer(n)}));
      for (const bool divide : {true, false}) {
        std::optional<Layout> l, z, td, fl;
        if (!accepted([&] {
              l = divide ? logical_divide(a, tiler) : logical_product(a, tiler);
              z = divide ? zipped_divide(a, tiler) : zipped_product(a, tiler);
              td = divide ? tiled_divide(a, tiler) : tiled_product(a, tiler);
              fl = divide ? flat_divide(a, tiler) : flat_product(a, tiler);
            }))
          continue;
        const std::int64_t p0 = size_value(mode(mode(*l, 0), 0)), q0 = size_value(mode(mode(*l, 0), 1));
        const std::int64_t p1 = size_value(mode(mode(*l, 1), 0)), q1 = size_value(mode(mode(*l, 1), 1));
        for (std::int64_t x0 = 0; x0 < p0; ++x0)
          for (std::int64_t x1 = 0; x1 < p1; ++x1)
            for (std::int64_t y0 = 0; y0 < q0; ++y0)
              for (std::int64_t y1 = 0; y1 < q1; ++y1, ++r.corner_cases) {
                const std::int64_t il = x0 + p0 * y0 + p0 * q0 * (x1 + p1 * y1);
                const std::int64_t iz = x0 + p0 * x1 + p0 * p1 * (y0 + q0 * y1);
                const std::int64_t want = apply_index(*l, il);
                if (apply_index(*z, iz) != want || apply_index(*td, iz) != want || apply_index(*fl, iz) != want)
                  note_failure(r, std::string(divide ? "divide " : "product ") + a.to_string() + " by (2," +
                                      std::to_string(n) + ")");
              }
      }
    }
  });
  return r;
}

}  // namespace

void add_divide_product_laws(std::vector<Law>& laws) {
  laws.push_back({"logical_divide_defining",
                  "logical_divide(A, T) at (x, y) is A(T(x) + R(y)), R = complement(T, shape(coalesce(A))), "
                  "size(T) * size(R) elements; A and T of rank 1, shapes [1,64], strides [-64,64]",
                  ProofStatus::Proved, logical_divide_defining_law});
  laws.push_back({"blocked_raked_defining",
                  "blocked_product(A, B) at ((x0,y0),(x1,y1),...) and raked_product(A, B) at ((y0,x0),(y1,x1),...) are "
                  "A(x) + C(y), C = mode 1 of logical_product of the rank-padded A and B (any layout of symbolic leaves "
                  "congruent to the padded B); ranks of A, B up to 3",
                  ProofStatus::Proved, blocked_raked_defining_law});
  laws.push_back({"tiler_regroupings",
                  "for a tuple tiler of m <= 3 elements, the zipped, tiled and flat forms of apply_tiler's result L "
                  "hold L's element at ((x0,y0),...,(x_{m-1},y_{m-1}),z...) at ((x0,...,x_{m-1}),(y0,...,y_{m-1},z...)), "
                  "for every L whose reached modes are (tile, rest) pairs, up to 2 modes kept",
                  ProofStatus::Proved, tiler_regroupings_law});
}

}  // namespace cuteref::proofs
