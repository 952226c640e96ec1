// The step lemma behind the law coalesce_preserves_every_rank: coalesce keeps the function
// for every flat rank, by induction over coalesce_modes' walk, whose step
// (coalesce_generic.hpp's coalesce_step) reads only the last kept mode.
//
// After k input modes P (size N) the kept modes O are, by the induction hypothesis, the
// same function on [0, N). Summary of O: no mode kept (then N = 1 and O is 0: every mode so
// far had shape 1), or O = O' ++ (sl:dl) with size(O') = Np, N = Np * sl and
//   O(j) = g(j mod Np) + (j div Np) * dl,   g = O' as a function, uninterpreted.
// Appending the input mode (s:d) makes P's function P(i mod N) + (i div N) * d, which is
// O(i mod N) + (i div N) * d by the hypothesis (i mod N < N). The step lemma, for every
// i < N * s and every outcome of coalesce_step run on the symbolic summary:
//   Dropped (s == 1): O is unchanged and O(i) == O(i mod N) + (i div N) * d;
//   Merged (sl * dl == d): O_new(i) = g(i mod Np) + (i div Np) * dl equals it;
//   Kept: O_new = O ++ (s:d), whose function is that sum by definition (colexicographic).
// Base: no mode walked, N = 1, nothing kept. coalesce_tree then writes no mode as 1:0, one
// as a leaf, several as a tuple: the same function. Overflow: the step's checked products
// are hypotheses (where the model returns, the function is kept); shapes >= 1 (a layout
// invariant), strides and Np any integers.
//
// StepOps: coalesce_step's decisions; ScalarCoalesceOps<SymInt> is the model's, the proof
// tests pass broken ones (mutants), which the lemma must refute.
#pragma once

#include <string>

#include "coalesce_generic.hpp"
#include "laws.hpp"
#include "symbolic_layout.hpp"

namespace cuteref::proofs {

template <class StepOps>
LawResult coalesce_step_lemma(const StepOps& ops, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  z3::context& ctx = s.ctx();
  const z3::sort z = ctx.int_sort();
  const z3::func_decl g = z3::function("g", z, z);
  using T = ScalarTuple<SymInt>;
  for (const bool has_last : {true, false}) {
    std::vector<z3::expr> domain;
    const SymInt np = has_last ? s.ranged_variable("Np", 1, INT64_MAX, domain) : s.constant(1);
    const SymInt sl = has_last ? s.ranged_variable("sl", 1, INT64_MAX, domain) : s.constant(1);
    const SymInt dl = s.ranged_variable("dl", INT64_MIN, INT64_MAX, domain);
    const SymInt sh = s.ranged_variable("s", 1, INT64_MAX, domain);
    const SymInt d = s.ranged_variable("d", INT64_MIN, INT64_MAX, domain);
    const SymInt i = s.ranged_variable("i", 0, INT64_MAX, domain);
    // O's function on [0, N) from the summary (0 when nothing is kept).
    auto o_of = [&](const SymInt& j) {
      if (!has_last) return s.constant(0);
      return SymInt(g(SymInt(j % np).e)) + (j / np) * dl;
    };
    const ProofOutcome out = prove(s, domain, {{"Np", np.e}, {"sl", sl.e}, {"dl", dl.e}, {"s", sh.e}, {"d", d.e}, {"i", i.e}},
                             [&]() -> z3::expr {
      const SymInt n = np * sl;
      T last_shape = T::of(sl);
      const T last_stride = T::of(dl);
      const CoalesceStep step = coalesce_step(has_last, &last_shape, &last_stride, T::of(sh), T::of(d), ops);
      const SymInt size_new = n * sh;
      const z3::expr in_domain = i < size_new;
      s.push_guard(in_domain);
      const SymInt expected = o_of(i % n) + (i / n) * d;
      SymInt value = expected;
      z3::expr size_ok = ctx.bool_val(true);
      if (step == CoalesceStep::Dropped) {
        value = o_of(i);  // O unchanged: its size N must be N * s
        size_ok = (n == size_new);
      } else if (step == CoalesceStep::Merged) {
        value = SymInt(g(SymInt(i % np).e)) + (i / np) * dl;  // last mode (sl * s):dl
        size_ok = (np * *last_shape.leaf == size_new);
      } else if (!has_last) {
        value = i * d;  // O = (s:d)
      }
      s.pop_guard();
      return size_ok && z3::implies(in_domain, value == expected);
    }, o);
    fold_step_proof(r, out, has_last ? "step after a kept mode" : "step with no mode kept");
  }
  return r;
}

// Idempotence for every rank, by two step lemmas on coalesce_step (StepOps as above):
//   invariant: after every step, the last kept mode has shape != 1 and does not continue
//     the kept mode before it (sp * dp != dl): the step keeps it (Dropped: unchanged;
//     Merged: the last mode's stride is unchanged and its shape sl * s >= 4; Kept: the
//     decisions just taken say s != 1 and sl * dl != d);
//   keeping: a mode with shape != 1 that does not continue the last kept mode is Kept.
// So coalesce's output, walked again, keeps every mode: coalesce(coalesce(L)) has the same
// modes (coalesce_tree writes no mode as 1:0, which coalesce drops again, one as a leaf).
template <class StepOps>
LawResult coalesce_idempotence_lemmas(const StepOps& ops, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  z3::context& ctx = s.ctx();
  using T = ScalarTuple<SymInt>;
  for (const bool has_last : {true, false})
    for (const bool keeping : {false, true}) {
      std::vector<z3::expr> domain;
      const SymInt sp = s.ranged_variable("sp", 1, INT64_MAX, domain), dp = s.ranged_variable("dp", INT64_MIN, INT64_MAX, domain);
      const SymInt sl = s.ranged_variable("sl", 2, INT64_MAX, domain), dl = s.ranged_variable("dl", INT64_MIN, INT64_MAX, domain);
      const SymInt sh = s.ranged_variable("s", 1, INT64_MAX, domain), d = s.ranged_variable("d", INT64_MIN, INT64_MAX, domain);
      const z3::expr has_prev = ctx.bool_const("has_prev");
      const ProofOutcome out = prove(s, domain, {{"sp", sp.e}, {"dp", dp.e}, {"sl", sl.e}, {"dl", dl.e}, {"s", sh.e}, {"d", d.e}},
                                     [&]() -> z3::expr {
        T last_shape = T::of(sl);
        const T last_stride = T::of(dl);
        if (keeping) {
          // The next mode of coalesce's output: shape != 1, not continuing the last one.
          s.add_hypothesis(!(sh.e == 1));
          if (has_last) s.add_hypothesis(!(sl.e * dl.e == d.e));
          const CoalesceStep step = coalesce_step(has_last, &last_shape, &last_stride, T::of(sh), T::of(d), ops);
          return ctx.bool_val(step == CoalesceStep::Kept) && *last_shape.leaf == sl;
        }
        if (has_last) s.add_hypothesis(!(has_prev && sp.e * dp.e == dl.e));  // the invariant before
        const CoalesceStep step = coalesce_step(has_last, &last_shape, &last_stride, T::of(sh), T::of(d), ops);
        if (step == CoalesceStep::Dropped) return ctx.bool_val(true);  // nothing changed
        if (step == CoalesceStep::Merged)
          return !(*last_shape.leaf == s.constant(1)) && !(has_prev && sp.e * dp.e == dl.e);
        // Kept: (s:d) is the new last mode, after (sl:dl) when there was one.
        return !(sh.e == 1) && (has_last ? !(sl.e * dl.e == d.e) : ctx.bool_val(true));
      }, o);
      fold_step_proof(r, out, std::string(keeping ? "keeping" : "invariant") + (has_last ? " after a kept mode" : " with none kept"));
    }
  return r;
}

}  // namespace cuteref::proofs
