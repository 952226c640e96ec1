// The step lemma behind the law composition_every_rank: composing one leaf mode n0:d0 of B
// into a flat A of any rank gives modes whose function is c -> A(d0 * c), by induction over
// compose_leaf_mode's walk, whose steps (composition_generic.hpp's compose_mode_step and
// compose_last_mode) read only their arguments; each runs here on symbolic values with the
// proofs' SymCompositionOps (the model's checks as hypotheses: a law about what it returns).
//
// A's modes (s_k : t_k), k < r, the last one unbounded (it takes the whole quotient):
//   A_k(x) = t_k * (x mod s_k) + A_{k+1}(x div s_k)  for k < r - 1,  A_{r-1}(x) = t_{r-1} * x.
// The walk from mode k on, entered with rest_shape n >= 1, rest stride d >= 1 and the flag
// "a mode was emitted before", emits modes R_k. Claim P(k): for every n, d, flag and c < n,
//   R_k(c) == sign * A_k(d * c)   (sign = -1 when B's stride is negative, the magnitude d
//                                  walked and the sign put on every emitted stride).
// Base (k = r - 1): compose_last_mode emits (n : sign * d * t) or, when a mode was emitted
//   before and n == 1, nothing (R(0) == 0 == A(0)).
// Step (P(k + 1) => P(k)): compose_mode_step on the symbolic mode (s_k : t_k); the walk after
//   it is R' = R_{k+1} entered with the step's new rest (n', d'), uninterpreted, and A_{k+1}
//   is A', uninterpreted with A'(0) == 0 (a layout at the origin). The hypothesis is P(k+1)
//   at the one point the step reads (c' = c div e for an emitted mode of shape e, else c).
//   Uniqueness of division (the law division_lemmas) is stated for Z3 at the points where
//   d * c is split by s_k.
// So for every rank, compose_leaf_mode's modes R satisfy R(c) == A(d0 * c) for c < n0 and
// d0 > 0 (R(c) == -A(|d0| * c) for d0 < 0; d0 == 0 and a leaf A emit one mode, by
// inspection).
//
// A is read through coalesce_x (coalesce_unbounded_modes) first; coalesce_x_step_lemma below
// proves it keeps A's function with the last mode unbounded, for every rank. B's tuple modes
// compose one by one (right-distributivity); that is not part of this law.
#pragma once

#include <string>

#include "complement_induction.hpp"
#include "composition_generic.hpp"
#include "laws.hpp"
#include "symbolic_algebra.hpp"

namespace cuteref::proofs {

// CompositionOps: composition_generic.hpp's decisions and checks; SymCompositionOps is the
// proofs' (the model's checks as obligations), the proof tests pass broken ones.
template <class CompositionOps>
LawResult composition_step_lemma(const CompositionOps& base_ops, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  z3::context& ctx = s.ctx();
  const z3::func_decl a_rest = z3::function("Arest", ctx.int_sort(), ctx.int_sort());
  const z3::func_decl r_rest = z3::function("Rrest", ctx.int_sort(), ctx.int_sort());
  for (const bool last : {false, true})
    for (const bool negative : {false, true})
      for (const bool emitted_before : {false, true}) {
        std::vector<z3::expr> domain;
        const SymInt sk = s.ranged_variable("s", 1, INT64_MAX, domain), tk = s.ranged_variable("t", INT64_MIN, INT64_MAX, domain);
        const SymInt n = s.ranged_variable("n", 1, INT64_MAX, domain), d = s.ranged_variable("d", 1, INT64_MAX, domain);
        const SymInt c = s.ranged_variable("c", 0, INT64_MAX, domain);
        const SymInt prior = s.ranged_variable("prior", 0, INT64_MAX, domain);
        domain.push_back(a_rest(ctx.int_val(0)) == 0);
        const ProofOutcome out = prove(s, domain, {{"s", sk.e}, {"t", tk.e}, {"n", n.e}, {"d", d.e}, {"c", c.e}, {"prior", prior.e}},
                                       [&]() -> z3::expr {
          const SymInt shapes[1] = {sk};  // the checks read A's shape at the step's mode 0
          CompositionOps ops = base_ops;
          ops.s = shapes;
          const z3::expr sign = ctx.int_val(negative ? -1 : 1);
          const z3::expr x = d.e * c.e;  // the index of A that c reaches
          std::vector<std::pair<SymInt, SymInt>> emitted;
          auto emit = [&](const SymInt& shape, const SymInt& stride) { emitted.emplace_back(shape, stride); };
          if (last) {
            compose_last_mode(tk, negative, n, d, emitted_before, ops, emit);
            z3::expr value = ctx.int_val(0);
            for (const auto& [shape, stride] : emitted) value = value + stride.e * c.e;  // at most one mode
            return ctx.bool_val(emitted.size() <= 1) && z3::implies(c.e < n.e, value == sign * tk.e * x);
          }
          CompositionOccupancy<SymInt> occ;
          // What B's earlier leaves already occupy of this mode (any amount).
          occ.modes.push_back(typename CompositionOccupancy<SymInt>::Mode{{prior, prior}, false});
          SymInt rest_shape = n, rest_stride = d;
          const bool stepped = compose_mode_step(sk, tk, 0, negative, rest_shape, rest_stride, occ, ops, emit);
          // A_k(x) through the quotient and remainder of x by s_k.
          const z3::expr q = ctx.int_const("q"), m = ctx.int_const("m");
          s.add_hypothesis(x == sk.e * q + m && m >= 0 && m < sk.e);
          const z3::expr a_value = tk.e * m + a_rest(q);
          // R_k(c): the emitted mode (e : w), then R' at c div e; or R' at c.
          z3::expr c_next = c.e, r_value = ctx.int_val(0), c_next_defined = ctx.bool_val(true);
          if (stepped) {
            const SymInt& e = emitted.back().first;
            const z3::expr cq = ctx.int_const("cq"), cm = ctx.int_const("cm");
            // The quotient and remainder by e (defined where e >= 1, which the goal states).
            s.add_hypothesis(z3::implies(e.e >= 1, c.e == e.e * cq + cm && cm >= 0 && cm < e.e));
            c_next_defined = e.e >= 1;
            c_next = cq;
            r_value = emitted.back().second.e * cm;
            // d * c split by s_k == d * e when the step consumed the whole mode.
            s.add_hypothesis(division_unique(sk.e, x, q, m, cq, d.e * cm));
          } else {
            // The mode was skipped: s_k divides d (d == s_k * d'), so d * c == s_k * (d' * c).
            s.add_hypothesis(division_unique(sk.e, x, q, m, rest_stride.e * c.e, ctx.int_val(0)));
          }
          // P(k + 1) at the point the step reads.
          s.add_hypothesis(z3::implies(c_next >= 0 && c_next < rest_shape.e,
                                       r_rest(c_next) == sign * a_rest(rest_stride.e * c_next)));
          r_value = r_value + r_rest(c_next);
          // For B's tuple modes: the digit m of d * c in this mode is within what the model's
          // occupancy records for this leaf, and the quotient is the next mode's d' * c'.
          const z3::expr reach_recorded = prior.e + m <= occ.modes[0].digit_sum[negative ? 1 : 0].e;
          return ctx.bool_val(emitted.size() <= 1) && c_next_defined && rest_shape.e >= 1 && rest_stride.e >= 1 &&
                 z3::implies(c.e < n.e, c_next < rest_shape.e && r_value == sign * a_value && reach_recorded &&
                                            q == rest_stride.e * c_next);
        }, o);
        fold_step_proof(r, out, std::string(last ? "last mode" : "mode step") + (negative ? ", negative stride" : "") +
                                    (emitted_before ? ", after an emitted mode" : ""));
      }
  return r;
}

// B's leaves add without carry, for every rank of A (the law composition_tuple_every_rank).
// Digits of x >= 0 in A's modes: digit_k(x) = (x div S_k) mod s_k (S_k: the product of the
// shapes before k), the last mode the whole quotient x div S_{r-1}; A(x) = sum t_k digit_k(x)
// (flatten_every_depth's F on A's modes). Q(k): for X, Y >= 0 whose digits in modes k..r-2
// sum below those modes' shapes, every digit from k on of X + Y is the sum of theirs. Step:
// X = a + s X', Y = b + s Y' with a, b in [0, s) the digits at mode k and a + b < s; then
// (X + Y) mod s == a + b and (X + Y) div s == X' + Y', the pair Q(k + 1) is about. Base: the
// last mode takes the quotient whole, X' + Y'. `no_carry`: state a + b < s (the proof tests
// drop it, and the lemma must fail).
inline LawResult digit_additivity_lemma(const ProofOptions& opt, bool no_carry = true) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  std::vector<z3::expr> domain;
  const SymInt sh = s.ranged_variable("s", 1, INT64_MAX, domain);
  const SymInt a = s.ranged_variable("a", 0, INT64_MAX, domain), b = s.ranged_variable("b", 0, INT64_MAX, domain);
  const SymInt xq = s.ranged_variable("Xq", 0, INT64_MAX, domain), yq = s.ranged_variable("Yq", 0, INT64_MAX, domain);
  domain.push_back(a.e < sh.e && b.e < sh.e);
  if (no_carry) domain.push_back(a.e + b.e < sh.e);
  const ProofOutcome out = prove(s, domain, {{"s", sh.e}, {"a", a.e}, {"b", b.e}, {"Xq", xq.e}, {"Yq", yq.e}},
                                 [&]() -> z3::expr {
    const SymInt x = a + sh * xq, y = b + sh * yq;
    const SymInt sum = x + y;
    return sum % sh == a + b && sum / sh == xq + yq;
  }, o);
  fold_step_proof(r, out, "digits add without carry");
  return r;
}

// The induction over B's leaves (composition_tuple_every_rank): B's leaves compose into A one
// after another, sharing A's occupancy, and the result at a coordinate of B is the sum of the
// leaves' results. Summary after leaves 0..j-1, at a coordinate c of those leaves: the index X
// >= 0 of A that c reaches, R(c) == A(X), and in every mode k < r - 1 of A, X's digit is at most
// the digit sum `occ(k)` the model recorded there, which is below s_k. Step (leaf j at c_j):
//   - composition_every_rank: leaf j's modes give A(Y), Y = d_j * c_j >= 0;
//   - its step lemma (`reach_recorded`): digit_k(Y) + occ(k) <= occ'(k), the digit sum after
//     the leaf (the model's composition_add_reach where the leaf touches mode k; occ' == occ
//     elsewhere, where the leaf's digit is 0);
//   - the model's check_carry (`composition_no_carry`, a hypothesis: where the model's checks
//     pass): occ'(k) < s_k;
//   - digit additivity (digit_additivity_lemma, by induction over A's modes; A(x) == the sum
//     of t_k digit_k(x), flatten_every_depth): where no mode carries, the digits of X + Y are
//     the sums of theirs and A(X + Y) == A(X) + A(Y).
// Goal: R(c) + A(Y) == A(X + Y), and the summary again: digit_k(X + Y) <= occ'(k) < s_k for every
// k. Modes are a variable k over [0, r - 1) with A's shapes, digits and digit sums
// uninterpreted functions of k (every rank at once). `check_carry`: state the model's no-carry
// check (the proof tests drop it, and the lemma must fail).
inline LawResult composition_leaves_step_lemma(const ProofOptions& opt, bool check_carry = true) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  z3::context& ctx = s.ctx();
  const z3::sort z = ctx.int_sort();
  const z3::func_decl shape = z3::function("s", z, z), occ = z3::function("occ", z, z), occ_after = z3::function("occ1", z, z);
  const z3::func_decl digit = z3::function("digit", z, z, z), a_of = z3::function("A", z, z);
  std::vector<z3::expr> domain;
  const SymInt x = s.ranged_variable("X", 0, INT64_MAX, domain), y = s.ranged_variable("Y", 0, INT64_MAX, domain);
  const SymInt rank = s.ranged_variable("r", 1, INT64_MAX, domain);
  const SymInt r_c = s.ranged_variable("Rc", INT64_MIN, INT64_MAX, domain);
  const SymInt k0 = s.ranged_variable("k0", 0, INT64_MAX, domain);        // a mode the goal is about
  const ProofOutcome out = prove(s, domain, {{"X", x.e}, {"Y", y.e}, {"r", rank.e}, {"k0", k0.e}}, [&]() -> z3::expr {
    const z3::expr k = ctx.int_const("k");
    const z3::expr mode = k >= 0 && k < rank.e - 1;
    auto every_mode = [&](const z3::expr& body) { return z3::forall(k, z3::implies(mode, body)); };
    // The summary before the leaf (the induction hypothesis).
    s.add_hypothesis(r_c.e == a_of(x.e));
    s.add_hypothesis(every_mode(shape(k) >= 1 && digit(x.e, k) >= 0 && digit(x.e, k) <= occ(k) && occ(k) < shape(k)));
    // The leaf: its digits within what it adds to the record (the step lemma's reach_recorded),
    // where the model's no-carry check (its own predicate) passes.
    s.add_hypothesis(every_mode(digit(y.e, k) >= 0 && digit(y.e, k) + occ(k) <= occ_after(k)));
    if (check_carry) s.add_hypothesis(every_mode(composition_no_carry(SymInt(occ_after(k)), SymInt(shape(k)))));
    // Digit additivity (its own lemma) where no mode carries.
    const z3::expr no_carry = every_mode(digit(x.e, k) + digit(y.e, k) < shape(k));
    s.add_hypothesis(z3::implies(no_carry, a_of(x.e + y.e) == a_of(x.e) + a_of(y.e) &&
                                               every_mode(digit(x.e + y.e, k) == digit(x.e, k) + digit(y.e, k))));
    // The goal: the sum of the results, and the summary after the leaf at mode k0.
    const z3::expr summary_k0 = z3::implies(k0.e < rank.e - 1, digit(x.e + y.e, k0.e) <= occ_after(k0.e) &&
                                                                   occ_after(k0.e) < shape(k0.e));
    return r_c.e + a_of(y.e) == a_of(x.e + y.e) && summary_k0;
  }, o);
  fold_step_proof(r, out, "B's leaves add, the summary kept");
  return r;
}

// B's leaves of negative stride, for every rank of A (the law composition_signed_every_rank).
// A's evaluation past its domain and below 0 is the model's crd2idx with C++'s truncating
// division: A_k(x) = t_k * (x % s_k) + A_{k+1}(x / s_k), the last mode t * x. Two lemmas, each
// one step of an induction over A's modes (A_{k+1} uninterpreted, the hypothesis at the one
// point the step reads):
//   odd: A(-x) == -A(x) for every x: (-x) % s == -(x % s), (-x) / s == -(x / s). So leaves
//     all negative compose to -A(|B|(i)) == A(B(i)), their magnitudes under the same
//     no-carry bookkeeping as positive leaves (the model keeps one digit sum per sign).
//   one mode: for u with |u| < s_k, A_i(M * u) == t_k * u, M the product of the shapes from
//     mode i to k - 1: below k, (s_i M' u) % s_i == 0 and (s_i M' u) / s_i == M' u; at k
//     (not the last), u % s_k == u and u / s_k == 0 (truncation: -1 < u / s_k < 1), A_{k+1}(0)
//     == 0. Leaves of both signs the model admits only within one mode k of A; each leaf's
//     digits elsewhere are 0 (composition_every_rank's step lemma: a mode the leaf does not
//     touch gets no digit), so B(i) == P_k * (E+ - E-), |E+ - E-| < s_k by the two digit sums,
//     and A(B(i)) == t_k * (E+ - E-) == the sum of the leaves' values.
// `within_mode`: state |u| < s_k (the proof tests drop it, and the lemma must fail).
inline LawResult signed_digit_lemmas(const ProofOptions& opt, bool within_mode = true) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  z3::context& ctx = s.ctx();
  const z3::func_decl a_rest = z3::function("Arest", ctx.int_sort(), ctx.int_sort());
  {
    std::vector<z3::expr> domain;
    const SymInt sh = s.ranged_variable("s", 1, INT64_MAX, domain), tk = s.ranged_variable("t", INT64_MIN, INT64_MAX, domain);
    const SymInt x = s.ranged_variable("x", -INT64_MAX, INT64_MAX, domain);
    const ProofOutcome out = prove(s, domain, {{"s", sh.e}, {"t", tk.e}, {"x", x.e}}, [&]() -> z3::expr {
      const SymInt neg_x = SymInt(ctx.int_val(0)) - x;
      const SymInt q = x / sh, neg_q = neg_x / sh;
      s.add_hypothesis(a_rest((SymInt(ctx.int_val(0)) - q).e) == -a_rest(q.e));  // odd after mode k
      const SymInt value = tk * (x % sh) + SymInt(a_rest(q.e));
      const SymInt neg_value = tk * (neg_x % sh) + SymInt(a_rest(neg_q.e));
      return neg_value.e == -value.e && (tk * neg_x).e == -(tk * x).e;
    }, o);
    fold_step_proof(r, out, "A is odd");
  }
  for (const bool at_k : {false, true}) {
    std::vector<z3::expr> domain;
    const SymInt sh = s.ranged_variable("s", 1, INT64_MAX, domain), ti = s.ranged_variable("t", INT64_MIN, INT64_MAX, domain);
    const SymInt tk = s.ranged_variable("tk", INT64_MIN, INT64_MAX, domain), m = s.ranged_variable("M", 1, INT64_MAX, domain);
    const SymInt u = s.ranged_variable("u", -INT64_MAX, INT64_MAX, domain);
    const ProofOutcome out = prove(s, domain, {{"s", sh.e}, {"t", ti.e}, {"tk", tk.e}, {"M", m.e}, {"u", u.e}},
                                   [&]() -> z3::expr {
      s.add_hypothesis(a_rest(ctx.int_val(0)) == 0);
      if (at_k) {  // mode k itself: s is s_k, t is t_k
        if (within_mode) s.add_hypothesis(u.e < sh.e && -u.e < sh.e);
        return (ti * (u % sh) + SymInt(a_rest((u / sh).e))).e == ti.e * u.e;
      }
      const SymInt x = sh * (m * u);  // M_i * u with M_i = s_i * M
      s.add_hypothesis(a_rest((m * u).e) == tk.e * u.e);  // the claim from mode i + 1
      return (ti * (x % sh) + SymInt(a_rest((x / sh).e))).e == tk.e * u.e;
    }, o);
    fold_step_proof(r, out, at_k ? "one mode: at mode k" : "one mode: below mode k");
  }
  return r;
}

// coalesce_x keeps A's function, the last mode unbounded, for every rank: induction over
// coalesce_unbounded_modes' walk from the back. After the modes k+1.. the kept modes O are,
// by hypothesis, A_{k+1} as a function on every x >= 0. Summary of O: its first kept mode
// (sw : tw), and either nothing after it (then it is A's unbounded last mode: O(x) = tw * x) or
// the rest of O, uninterpreted g: O(x) = tw * (x mod sw) + g(x div sw). The claim for the
// mode (s : t) and every outcome of coalesce_unbounded_step, for every x >= 0: the new O is
// A_k(x) = t * (x mod s) + O(x div s). Kept is that sum by definition (the mode in front).
// XOps: the walk's decisions; SymCoalesceXOps is the proofs', the proof tests pass broken ones.
template <class XOps>
LawResult coalesce_x_step_lemma(const XOps& ops, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  z3::context& ctx = s.ctx();
  const z3::func_decl g = z3::function("g", ctx.int_sort(), ctx.int_sort());
  for (const bool first_is_last : {false, true}) {
    std::vector<z3::expr> domain;
    const SymInt sw = s.ranged_variable("sw", 1, INT64_MAX, domain), tw = s.ranged_variable("tw", INT64_MIN, INT64_MAX, domain);
    const SymInt sh = s.ranged_variable("s", 1, INT64_MAX, domain), t = s.ranged_variable("t", INT64_MIN, INT64_MAX, domain);
    const SymInt x = s.ranged_variable("x", 0, INT64_MAX, domain);
    const ProofOutcome out = prove(s, domain, {{"sw", sw.e}, {"tw", tw.e}, {"s", sh.e}, {"t", t.e}, {"x", x.e}},
                                   [&]() -> z3::expr {
      auto o_of = [&](const SymInt& shape, const SymInt& stride, const SymInt& y) {
        if (first_is_last) return stride * y;
        return stride * (y % shape) + SymInt(g((y / shape).e));
      };
      SymInt first_shape = sw, first_stride = tw;
      const CoalesceStep step = coalesce_unbounded_step(first_shape, first_stride, sh, t, ops);
      const SymInt expected = t * (x % sh) + o_of(sw, tw, x / sh);
      if (step == CoalesceStep::Kept) return ctx.bool_val(true);
      const SymInt value = step == CoalesceStep::Dropped ? o_of(sw, tw, x) : o_of(first_shape, first_stride, x);
      return value == expected;
    }, o);
    fold_step_proof(r, out, first_is_last ? "step at the unbounded last mode" : "step before other kept modes");
  }
  return r;
}

}  // namespace cuteref::proofs
