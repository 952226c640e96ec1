// The step lemma behind the law complement_injective_every_rank, and uniqueness of division
// as the proofs state it for Z3.
#pragma once

#include <string>

#include "complement_generic.hpp"
#include "laws.hpp"
#include "symbolic_algebra.hpp"

namespace cuteref::proofs {

// Uniqueness of division: y == d*u1 + v1 == d*u2 + v2 with d >= 1 and both remainders in
// [0, d) gives u1 == u2 and v1 == v2 (proved for all integers by division_lemmas).

inline z3::expr division_unique(const z3::expr& d, const z3::expr& y, const z3::expr& u1, const z3::expr& v1,
                                const z3::expr& u2, const z3::expr& v2) {
  return z3::implies(d >= 1 && y == d * u1 + v1 && y == d * u2 + v2 && v1 >= 0 && v1 < d && v2 >= 0 && v2 < d,
                     u1 == u2 && v1 == v2);
}

// complement: A's modes and R's are one injective layout, for every rank of filter(A) and
// every number of cotarget leaves. Induction over complement_modes' walk, whose steps
// (complement_generic.hpp's complement_gap_step and complement_rest_step) read only their
// arguments; each runs here on symbolic values with the proofs' SymComplementOps.
//
// Summary after some steps: the modes so far (A's in stride order, each after its gap, then
// the rests) form a layout Q, a function of its coordinate x, with 0 <= Q(x) < E (E: the
// extent, or `running` for the rests) and injective. Q is uninterpreted; the two points
// x1, x2 carry the induction hypothesis as an instance (Q(x1) == Q(x2) -> x1 == x2). A step
// appends modes; the new layout, at coordinates (x, y, z), is
//   gap step  (y < gap at stride E, z < s at stride d):  Q(x) + E*y + d*z,  new extent d*s;
//   rest step (y < rest at stride running):              Q(x) + running*y, new running.
// Claim: the new mode's shape is >= 1 (R is a layout), and the new layout is injective and
// below its new extent. Hypotheses: the step's
// checks pass (gap != 0 and the checked arithmetic: where the model returns), d >= 0 (the
// walk's check_stride), s >= 1 (a layout's shapes), E >= 1 and c >= 1 (the cotarget's
// check). Two instances of uniqueness of division (the law division_lemmas) are stated for
// Z3: by d (or running) for the whole offset, and by E for the part below d.
// Permuting a layout's modes permutes its coordinates, so (A, R) in their own order is
// injective too; R's final coalesce keeps its function (coalesce_preserves_every_rank).
//
// ComplementOps: complement_generic.hpp's decisions and checks; SymComplementOps is the
// proofs' (the model's checks as obligations), the proof tests pass broken ones.
template <class ComplementOps>
LawResult complement_step_lemma(const ComplementOps& ops, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  z3::context& ctx = s.ctx();
  const z3::func_decl q = z3::function("Q", ctx.int_sort(), ctx.int_sort());
  for (const bool gap_step : {true, false}) {
    std::vector<z3::expr> domain;
    const SymInt e = s.ranged_variable("E", 1, INT64_MAX, domain);
    const SymInt sh = s.ranged_variable("s", 1, INT64_MAX, domain), d = s.ranged_variable("d", 0, INT64_MAX, domain);
    const SymInt c = s.ranged_variable("c", 1, INT64_MAX, domain), divisor = s.ranged_variable("divisor", 1, INT64_MAX, domain);
    const z3::expr x1 = ctx.int_const("x1"), x2 = ctx.int_const("x2");
    const SymInt y1 = s.ranged_variable("y1", 0, INT64_MAX, domain), y2 = s.ranged_variable("y2", 0, INT64_MAX, domain);
    const SymInt z1 = s.ranged_variable("z1", 0, INT64_MAX, domain), z2 = s.ranged_variable("z2", 0, INT64_MAX, domain);
    const z3::expr q1 = q(x1), q2 = q(x2);
    domain.push_back(q1 >= 0 && q1 < e.e && q2 >= 0 && q2 < e.e && z3::implies(q1 == q2, x1 == x2));
    const ProofOutcome out = prove(s, domain, {{"E", e.e}, {"s", sh.e}, {"d", d.e}, {"c", c.e}, {"divisor", divisor.e},
                                            {"y1", y1.e}, {"y2", y2.e}, {"z1", z1.e}, {"z2", z2.e}},
                             [&]() -> z3::expr {
      SymInt extent = e;
      if (gap_step) {
        const SymInt gap = complement_gap_step(sh, d, extent, ops);
        const z3::expr low1 = q1 + e.e * y1.e, low2 = q2 + e.e * y2.e;
        const z3::expr v1 = low1 + d.e * z1.e, v2 = low2 + d.e * z2.e;
        s.add_hypothesis(d.e >= 0);
        s.add_hypothesis(division_unique(d.e, v1, z1.e, low1, z2.e, low2));
        s.add_hypothesis(division_unique(e.e, low1, y1.e, q1, y2.e, q2));
        const z3::expr coords = y1.e < gap.e && y2.e < gap.e && z1.e < sh.e && z2.e < sh.e;
        return gap.e >= 1 && z3::implies(coords, z3::implies(v1 == v2, x1 == x2 && y1.e == y2.e && z1.e == z2.e) &&
                                                     v1 >= 0 && v1 < extent.e);
      }
      SymInt div = divisor;
      const SymInt rest = complement_rest_step(c, div, extent, ops);  // extent: `running`
      const z3::expr v1 = q1 + e.e * y1.e, v2 = q2 + e.e * y2.e;
      s.add_hypothesis(division_unique(e.e, v1, y1.e, q1, y2.e, q2));
      const z3::expr coords = y1.e < rest.e && y2.e < rest.e;
      return rest.e >= 1 && z3::implies(coords, z3::implies(v1 == v2, x1 == x2 && y1.e == y2.e) && v1 >= 0 && v1 < extent.e);
    }, o);
    fold_step_proof(r, out, gap_step ? "gap step" : "rest step");
  }
  return r;
}

}  // namespace cuteref::proofs

namespace cuteref::proofs {

// The step lemmas behind the law complement_ordered_every_rank: CuTe's post-conditions of
// complement (cute/layout.hpp) for every rank of filter(A) and every number of cotarget
// leaves, by induction over the same walk as complement_step_lemma.
//
// Ordered: R(i-1) < R(i) for 0 < i < size(R) (CuTe's comment writes R(i) < R(i-1): the
// inequality is backwards; R grows). R so far: an uninterpreted Rf on its indices u < N,
// increasing (instance at u1 < u2) and in [0, E) (its modes are part of (A, R), below the
// extent). A gap step appends (gap : E): R'(u + N y) = Rf(u) + E y for y < gap, and
// E * gap <= stride <= the new extent; a rest step appends (rest : running) the same way.
// Claim: R' increasing in the colexicographic index, and in [0, new extent).
// Size: where every gap is exact (the stride a multiple of the extent before it, as in a
// compact or tiled A), the extent after A's modes is G * S (G: the gaps' product, size(R)
// before the rests; S: size(filter(A))), so for a cotarget of one leaf M, size(R) =
// G * ceil(M / (G S)) >= M / S: CuTe's "size(result) >= cosize_hi / size(filter(layout))".
// Without exact gaps it fails: complement((2,2):(1,3), 24) is 4:6, size 4 < 24 / 4 (the
// gap below stride 3 is 3 / 2 = 1; pycute agrees).
template <class ComplementOps>
LawResult complement_order_step_lemma(const ComplementOps& ops, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  z3::context& ctx = s.ctx();
  const z3::func_decl rf = z3::function("Rf", ctx.int_sort(), ctx.int_sort());
  for (const bool gap_step : {true, false}) {
    std::vector<z3::expr> domain;
    const SymInt e = s.ranged_variable("E", 1, INT64_MAX, domain), n = s.ranged_variable("N", 1, INT64_MAX, domain);
    const SymInt sh = s.ranged_variable("s", 1, INT64_MAX, domain), d = s.ranged_variable("d", 0, INT64_MAX, domain);
    const SymInt c = s.ranged_variable("c", 1, INT64_MAX, domain), divisor = s.ranged_variable("divisor", 1, INT64_MAX, domain);
    const SymInt u1 = s.ranged_variable("u1", 0, INT64_MAX, domain), u2 = s.ranged_variable("u2", 0, INT64_MAX, domain);
    const SymInt y1 = s.ranged_variable("y1", 0, INT64_MAX, domain), y2 = s.ranged_variable("y2", 0, INT64_MAX, domain);
    domain.push_back(u1.e < n.e && u2.e < n.e);
    const ProofOutcome out = prove(s, domain, {{"E", e.e}, {"N", n.e}, {"s", sh.e}, {"d", d.e}, {"c", c.e},
                                               {"divisor", divisor.e}, {"u1", u1.e}, {"u2", u2.e}, {"y1", y1.e},
                                               {"y2", y2.e}},
                                   [&]() -> z3::expr {
      // R before the step, at the two indices: increasing, in [0, E).
      s.add_hypothesis(z3::implies(u1.e < u2.e, rf(u1.e) < rf(u2.e)));
      s.add_hypothesis(rf(u1.e) >= 0 && rf(u1.e) < e.e && rf(u2.e) >= 0 && rf(u2.e) < e.e);
      SymInt extent = e;
      SymInt shape = e;
      if (gap_step) {
        shape = complement_gap_step(sh, d, extent, ops);
      } else {
        SymInt div = divisor;
        shape = complement_rest_step(c, div, extent, ops);
      }
      // The new mode (shape : e) after R's N indices.
      const z3::expr v1 = rf(u1.e) + e.e * y1.e, v2 = rf(u2.e) + e.e * y2.e;
      const z3::expr coords = y1.e < shape.e && y2.e < shape.e;
      const z3::expr before = y1.e < y2.e || (y1.e == y2.e && u1.e < u2.e);
      return z3::implies(coords, z3::implies(before, v1 < v2) && v1 >= 0 && v1 < extent.e);
    }, o);
    fold_step_proof(r, out, gap_step ? "order: gap step" : "order: rest step");
  }
  for (const bool gap_step : {true, false}) {
    std::vector<z3::expr> domain;
    const SymInt g = s.ranged_variable("G", 1, INT64_MAX, domain), size_a = s.ranged_variable("S", 1, INT64_MAX, domain);
    const SymInt sh = s.ranged_variable("s", 1, INT64_MAX, domain), k = s.ranged_variable("k", 0, INT64_MAX, domain);
    const SymInt m = s.ranged_variable("M", 1, INT64_MAX, domain);
    const ProofOutcome out = prove(s, domain, {{"G", g.e}, {"S", size_a.e}, {"s", sh.e}, {"k", k.e}, {"M", m.e}},
                                   [&]() -> z3::expr {
      // Exact gaps so far: the extent is G * S.
      const SymInt e = g * size_a;
      SymInt extent = e;
      if (gap_step) {  // an exact gap: the stride is k times the extent, and E stays G * S
        const SymInt gap = complement_gap_step(sh, e * k, extent, ops);
        return extent.e == (g.e * gap.e) * (size_a.e * sh.e);
      }
      // The rests for a cotarget of one leaf M, after A's modes (divisor = running = E).
      SymInt divisor = e;
      const SymInt rest = complement_rest_step(m, divisor, extent, ops);
      return g.e * rest.e * size_a.e >= m.e;  // size(R) >= M / S
    }, o);
    fold_step_proof(r, out, gap_step ? "size: an exact gap keeps E == G * S" : "size: one cotarget leaf");
  }
  return r;
}

}  // namespace cuteref::proofs
