// The step lemma behind the law flatten_every_depth: a nested layout is, on its domain, the
// function of its flattened modes, for every depth and rank (the fact the every-rank laws
// and the prover's equal-modes goal rest on).
//
// F(T): for 0 <= x < size(T), crd2idx(x, T, D) == sum over T's leaves l of
//   D_l * ((x div P_l) mod s_l),  P_l the product of the leaves before l.
// A flat T is F's instance of depth 1 (crd2idx's last-mode quotient x div P_last is below
// s_last there). Structural induction: a tuple T = (T_0, ..., T_{r-1}) hands child k the digit
// y_k = (x div P_k) mod size(T_k) (k < r - 1) or x div P_{r-1} (the last child, below its size
// since x < size(T)); by F(T_k), leaf l of T_k at inner prefix Q within T_k contributes
// D_l * ((y_k div Q) mod s_l), and the step is that this equals D_l * ((x div (P_k Q)) mod s_l).
//
// The lemma runs the model's own crd2idx (layout_eval.hpp's crd2idx_index) on the step's four
// configurations and compares it with crd2idx of the flattened tuple: child k = (q, s, w) with
// the leaf s between the summaries q (the inner leaves before it: their product) and w (after
// it), or (q, s) when s is T_k's last leaf; the siblings before child k summarised by one leaf p
// and those after it by z, or none when child k is T's last. Only s has a nonzero stride, so the
// comparison is leaf s's digit; summarising siblings by one leaf is crd2idx's own repeated
// division, (x div a) div b == x div (a*b) (the law division_lemmas). Extents any int64 >= 1
// where the model's checked products do not overflow.
#pragma once

#include <string>

#include "laws.hpp"
#include "layout_eval.hpp"
#include "symbolic_layout.hpp"

namespace cuteref::proofs {

// The model's flattening (layout_eval.hpp's flatten_leaves, as flatten(L) uses it).
struct ModelFlatten {
  ScalarTuple<SymInt> operator()(const ScalarTuple<SymInt>& t) const {
    std::vector<ScalarTuple<SymInt>> leaves;
    flatten_leaves(t, leaves);
    return ScalarTuple<SymInt>::tuple(std::move(leaves));
  }
};

// Flatten: T -> T, the flattening under test (model_flatten below is the model's
// flatten_leaves; the proof tests pass broken ones).
template <class Flatten>
LawResult flatten_step_lemma(const Flatten& flatten_of, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  using T = ScalarTuple<SymInt>;
  for (const bool child_last : {false, true})
    for (const bool leaf_last : {false, true}) {
      std::vector<z3::expr> domain;
      const SymInt p = s.ranged_variable("p", 1, INT64_MAX, domain), q = s.ranged_variable("q", 1, INT64_MAX, domain);
      const SymInt sh = s.ranged_variable("s", 1, INT64_MAX, domain), w = s.ranged_variable("w", 1, INT64_MAX, domain);
      const SymInt z = s.ranged_variable("z", 1, INT64_MAX, domain), d = s.ranged_variable("d", INT64_MIN, INT64_MAX, domain);
      const SymInt x = s.ranged_variable("x", 0, INT64_MAX, domain);
      const ProofOutcome out = prove(s, domain, {{"p", p.e}, {"q", q.e}, {"s", sh.e}, {"w", w.e}, {"z", z.e}, {"d", d.e}, {"x", x.e}},
                                     [&]() -> z3::expr {
        const SymInt zero = s.constant(0);
        std::vector<T> child_shape{T::of(q), T::of(sh)}, child_stride{T::of(zero), T::of(d)};
        if (!leaf_last) child_shape.push_back(T::of(w)), child_stride.push_back(T::of(zero));
        std::vector<T> nested_shape{T::of(p), T::tuple(child_shape)}, nested_stride{T::of(zero), T::tuple(child_stride)};
        if (!child_last) nested_shape.push_back(T::of(z)), nested_stride.push_back(T::of(zero));
        const T nested = T::tuple(nested_shape), nested_d = T::tuple(nested_stride);
        const SymInt size = tuple_product<SymInt>(nested);
        const z3::expr in_domain = x < size;
        s.push_guard(in_domain);
        const SymInt lhs = crd2idx_index(x, nested, nested_d);
        const SymInt rhs = crd2idx_index(x, flatten_of(nested), flatten_of(nested_d));
        s.pop_guard();
        return z3::implies(in_domain, lhs == rhs);
      }, o);
      fold_step_proof(r, out, std::string(child_last ? "last child" : "inner child") + (leaf_last ? ", last leaf" : ", inner leaf"));
    }
  return r;
}

}  // namespace cuteref::proofs
