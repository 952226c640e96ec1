// The step lemma behind the law right_inverse_every_rank: L(R(i)) == i for i < size(R), for L
// of every rank, by induction over right_inverse_modes' walk, whose step
// (inverse_generic.hpp's right_inverse_step) reads only its mode; it runs here on one symbolic
// mode with the proofs' SymInverseOps.
//
// L: coalesce(L)'s flat modes (s_k : d_k) at weights w_k (the exclusive prefix products of the
// shapes, what the walk gets as `prefix`). By flatten_every_depth's F, L(x) = sum_k d_k *
// digit_k(x), digit_k(x) = (x div w_k) mod s_k (the last mode's digit the whole quotient).
// Invariant after some steps, `next` the offset reached, R the modes taken (after R's 1:0):
//   I1: size(R) == next, and L(R(i)) == i for i < next;
//   I2: every mode not taken has digit 0 in every R(i), i < next.
// Start: R = 1:0, next = 1 (R(0) == 0, L(0) == 0, every digit 0).
// Step on a mode k not visited before: taken (its stride is `next`) appends (s_k : w_k), so
// R_new(i) = R(i mod next) + w_k * (i div next) for i < next * s_k (colexicographic). With
// j = i div next < s_k, w_k * j has digit j in mode k and 0 elsewhere, so by the law
// composition_tuple_every_rank's digit additivity (no digit sum reaches a shape: mode k's is
// 0 + j < s_k by I2):
//   F1: digit_k(x) == 0 and 0 <= j < s_k give L(x + w_k j) == L(x) + d_k j;
//   F2: and digit_k2(x + w_k j) == digit_k2(x) for every other mode k2.
// F1 and F2 are stated for Z3 at x = R(i mod next) (L and the digits uninterpreted). Claim:
// next grows to next * s_k (I1's size), L(R_new(i)) == i (I1), digit_k2(R_new(i)) == 0 (I2).
// Not taken: nothing changes. The walk's order (CuTe's stride sort) is not used: each mode is
// visited once. right_inverse then coalesces R (coalesce_preserves_every_rank).
#pragma once

#include <string>
#include <vector>

#include "complement_induction.hpp"
#include "inverse_generic.hpp"
#include "laws.hpp"
#include "symbolic_algebra.hpp"

namespace cuteref::proofs {

// InverseOps: right_inverse_step's decisions; SymInverseOps is the proofs', the proof tests
// pass broken ones.
template <class InverseOps>
LawResult right_inverse_step_lemma(const InverseOps& ops, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  z3::context& ctx = s.ctx();
  const z3::sort z = ctx.int_sort();
  const z3::func_decl l_of = z3::function("L", z, z), r_of = z3::function("R", z, z);
  const z3::func_decl digit_k = z3::function("digit_k", z, z), digit_k2 = z3::function("digit_k2", z, z);
  std::vector<z3::expr> domain;
  const SymInt next = s.ranged_variable("next", 1, INT64_MAX, domain), sh = s.ranged_variable("s", 1, INT64_MAX, domain);
  const SymInt d = s.ranged_variable("d", INT64_MIN, INT64_MAX, domain), w = s.ranged_variable("w", 1, INT64_MAX, domain);
  const SymInt i = s.ranged_variable("i", 0, INT64_MAX, domain);
  const ProofOutcome out = prove(s, domain, {{"next", next.e}, {"s", sh.e}, {"d", d.e}, {"w", w.e}, {"i", i.e}},
                                 [&]() -> z3::expr {
    SymInt reached = next;
    std::vector<SymInt> out_shapes, out_strides;
    const bool taken = right_inverse_step(sh, d, w, reached, ops, out_shapes, out_strides);
    if (!taken) return ctx.bool_val(out_shapes.empty()) && reached.e == next.e;
    const z3::expr lo = ctx.int_const("lo"), j = ctx.int_const("j");  // i mod next, i div next
    s.add_hypothesis(i.e == next.e * j + lo && lo >= 0 && lo < next.e);
    const z3::expr x = r_of(lo);
    // I1 and I2 before the step, at i mod next.
    s.add_hypothesis(l_of(x) == lo && digit_k(x) == 0 && digit_k2(x) == 0);
    const z3::expr y = x + out_strides.back().e * j;  // R_new(i), the emitted stride at digit j
    const z3::expr fits = digit_k(x) == 0 && j >= 0 && j < out_shapes.back().e;
    s.add_hypothesis(z3::implies(fits && out_strides.back().e == w.e, l_of(y) == l_of(x) + d.e * j));   // F1
    s.add_hypothesis(z3::implies(fits && out_strides.back().e == w.e, digit_k2(y) == digit_k2(x)));    // F2
    const z3::expr in_domain = i.e < next.e * sh.e;
    return out_shapes.size() == 1 && reached.e == next.e * sh.e &&
           z3::implies(in_domain, l_of(y) == i.e && digit_k2(y) == 0);
  }, o);
  fold_step_proof(r, out, "right_inverse step");
  return r;
}

}  // namespace cuteref::proofs

namespace cuteref::proofs {

// The step lemma behind the law left_inverse_every_rank: Li(L(i)) == i for L of every rank
// that is injective, by induction over left_inverse_modes' walk, whose step
// (inverse_generic.hpp's left_inverse_step) reads only its mode.
//
// The walk visits L's modes with nonzero strides in stride order. After j of them (strides
// G_1 < ... < G_j, shapes s_t, weights w_t), `covered` == G_j and the inverse so far is the
// layout Li_j = (g_1, ..., g_j, _) : (0, w_1, ..., w_j) whose last mode (stride w_j) is still
// open: unbounded. Invariant: for coordinates c_t < s_t, Y = sum_t G_t c_t satisfies
// Y < G_j * s_j and Li_j(Y) == sum_t w_t c_t (start: Li_0 = _:0, Y = 0, G_0 = s_0 = 1).
// Step on the next mode (s : d) at weight w, with d >= G_j * s_j (L injective: the modes in
// stride order do not overlap) and covered | d (the model's check): the open mode gets the gap
// g = d / covered as its shape and (_ : w) is appended, so for y < covered * g,
// Li_{j+1}(y + covered * g * c) = Li_j(y) + w * c (colexicographic, the last mode unbounded);
// Li_j is uninterpreted and read only below covered * g, where closing its open mode at g does
// not change it. Claim, for c < s: covered grows to d, Y + d c < d * s, and
// Li_{j+1}(Y + d c) == Li_j(Y) + w c. At the end the open mode gets L's last shape, and
// sum_t w_t c_t is i (zero-stride modes have shape 1 in an injective L, so c = 0 there).
template <class InverseOps>
LawResult left_inverse_step_lemma(const InverseOps& base_ops, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  z3::context& ctx = s.ctx();
  const z3::func_decl li = z3::function("Li", ctx.int_sort(), ctx.int_sort());
  std::vector<z3::expr> domain;
  const SymInt covered = s.ranged_variable("covered", 1, INT64_MAX, domain);
  const SymInt s_prev = s.ranged_variable("s_prev", 1, INT64_MAX, domain), y = s.ranged_variable("Y", 0, INT64_MAX, domain);
  const SymInt sh = s.ranged_variable("s", 1, INT64_MAX, domain), d = s.ranged_variable("d", 1, INT64_MAX, domain);
  const SymInt w = s.ranged_variable("w", 1, INT64_MAX, domain), c = s.ranged_variable("c", 0, INT64_MAX, domain);
  domain.push_back(y.e < covered.e * s_prev.e && covered.e * s_prev.e <= d.e);  // the invariant; no overlap
  const ProofOutcome out = prove(s, domain, {{"covered", covered.e}, {"s_prev", s_prev.e}, {"Y", y.e}, {"s", sh.e},
                                             {"d", d.e}, {"w", w.e}, {"c", c.e}},
                                 [&]() -> z3::expr {
    const std::vector<SymInt> strides{d};
    InverseOps ops = base_ops;
    ops.strides = strides.data();
    SymInt reached = covered;
    std::vector<SymInt> out_shapes, out_strides;
    if (!left_inverse_step(0, d, w, reached, ops, out_shapes, out_strides)) return ctx.bool_val(false);
    const z3::expr gap = out_shapes.back().e, weight = out_strides.back().e;
    const z3::expr x = y.e + d.e * c.e;  // L's offset of the coordinates so far and c
    // Li_{j+1}(x) through x's quotient and remainder by covered * gap.
    const z3::expr q = ctx.int_const("q"), m = ctx.int_const("m");
    const z3::expr radix = covered.e * gap;  // the open mode closed at the gap: Li_j's part
    s.add_hypothesis(z3::implies(radix >= 1, x == radix * q + m && m >= 0 && m < radix));
    s.add_hypothesis(division_unique(radix, x, q, m, c.e, y.e));
    const z3::expr li_new = li(m) + weight * q;
    const z3::expr in_domain = c.e < sh.e;
    return out_shapes.size() == 1 && reached.e == d.e && radix >= 1 &&
           z3::implies(in_domain, x < d.e * sh.e && li_new == li(y.e) + w.e * c.e);
  }, o);
  fold_step_proof(r, out, "left_inverse step");
  return r;
}

}  // namespace cuteref::proofs

namespace cuteref::proofs {

// The step lemma behind the law right_inverse_maximal_every_rank: for L injective with strides
// >= 0, n = size(right_inverse(L)) is not in L's image, so no right inverse of L (a layout or
// any function) has more than n elements. By induction over right_inverse_modes' walk in
// stride order (inverse_stride_order sorts: each mode's stride is at least those before it).
//
// Summary of the modes visited so far, on their coordinates numbered 0 <= x < P (a
// colexicographic numbering; only the set of values and injectivity matter): F(x) their
// offset, `next` the offset the walk has reached, m the largest stride visited (0 at the
// start), `compact` a flag. Invariant:
//   J0: F(0) == 0;  J1: 0 <= F(x) and F(x) != next for x < P;
//   J2: every v < next is F(G(v)) with G(v) < P (G uninterpreted: the inverse so far);
//   J3: compact or m > next; compact gives F(x) < next for x < P.
// Start: P = 1, F(0) = 0, next = 1, m = 0, compact. The step visits (s : d) with d >= m,
// F_new(x + P j) = F(x) + d j for x < P, j < s, and L injective gives F_new(G(d)) !=
// F_new(P) when both are in range (s >= 2). Taken (d == next): J3 with m <= d gives F < d,
// so F + d j < s d = next_new, none equal to it, and v = next q + r is F_new(G(r) + P q).
// Skipped, d < next and s >= 2: d == F(G(d)) == F_new(P) contradicts injectivity; d > next:
// every j >= 1 gives F + d j > next, and m_new = d > next keeps J3 (every later stride is
// >= d, so `next` never grows again). At the end J1 says L(x) != n for every coordinate.
template <class InverseOps>
LawResult right_inverse_maximal_step_lemma(const InverseOps& ops, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  z3::context& ctx = s.ctx();
  const z3::sort z = ctx.int_sort();
  const z3::func_decl f = z3::function("F", z, z), g = z3::function("G", z, z);
  std::vector<z3::expr> domain;
  const SymInt p = s.ranged_variable("P", 1, INT64_MAX, domain), next = s.ranged_variable("next", 1, INT64_MAX, domain);
  const SymInt m = s.ranged_variable("m", 0, INT64_MAX, domain), sh = s.ranged_variable("s", 1, INT64_MAX, domain);
  const SymInt d = s.ranged_variable("d", 0, INT64_MAX, domain), w = s.ranged_variable("w", 1, INT64_MAX, domain);
  // A new coordinate x + P j and a value v below the new `next`.
  const SymInt x = s.ranged_variable("x", 0, INT64_MAX, domain), j = s.ranged_variable("j", 0, INT64_MAX, domain);
  const SymInt v = s.ranged_variable("v", 0, INT64_MAX, domain);
  const z3::expr compact = ctx.bool_const("compact");
  domain.push_back(x.e < p.e && j.e < sh.e && m.e <= d.e);  // the coordinate; the walk's stride order
  const ProofOutcome out = prove(s, domain, {{"P", p.e}, {"next", next.e}, {"m", m.e}, {"s", sh.e}, {"d", d.e},
                                             {"x", x.e}, {"j", j.e}, {"v", v.e}},
                                 [&]() -> z3::expr {
    // The invariant before the step, instantiated where the step reads it.
    const auto j1 = [&](const z3::expr& at) { return f(at) >= 0 && f(at) != next.e && z3::implies(compact, f(at) < next.e); };
    const auto j2 = [&](const z3::expr& value) { return z3::implies(value >= 0 && value < next.e, g(value) >= 0 && g(value) < p.e && f(g(value)) == value); };
    s.add_hypothesis(f(ctx.int_val(0)) == 0 && j1(x.e) && (compact || m.e > next.e) && j2(d.e));
    // L injective, at the two coordinates G(d) and P (the new mode's first step).
    s.add_hypothesis(z3::implies(d.e < next.e && sh.e >= 2, f(g(d.e)) != f(ctx.int_val(0)) + d.e));
    SymInt reached = next;
    std::vector<SymInt> out_shapes, out_strides;
    const bool taken = right_inverse_step(sh, d, w, reached, ops, out_shapes, out_strides);
    const z3::expr value = f(x.e) + d.e * j.e;  // F_new(x + P j)
    const z3::expr compact_new = taken ? ctx.bool_val(true) : (compact && d.e < next.e);
    z3::expr goal = value >= 0 && value != reached.e && (compact_new || d.e > reached.e) &&
                    z3::implies(compact_new, value < reached.e);
    if (taken) {
      // J2 after the step: v = next q + r is F_new(G(r) + P q).
      const z3::expr q = ctx.int_const("q"), rem = ctx.int_const("r");
      s.add_hypothesis(v.e == next.e * q + rem && rem >= 0 && rem < next.e && j2(rem));
      goal = goal && z3::implies(v.e < reached.e, q >= 0 && q < sh.e && f(g(rem)) + d.e * q == v.e);
    }
    return goal;
  }, o);
  fold_step_proof(r, out, "right_inverse maximality step");
  return r;
}

}  // namespace cuteref::proofs
