// The leaf lemmas behind the law recast_every_rank. upcast and downcast map each leaf mode
// s:d of L on its own (recast_generic.hpp's upcast_leaf and downcast_leaf); a layout's
// offset is the sum over its flattened leaves of d_k * c_k (flatten_every_depth), so a fact
// about one symbolic leaf, for every coordinate, holds leaf by leaf for every rank and depth.
//
// upcast(L, n), leaf s:d -> s':d', with k = 1 for d == 0 or |d| >= n, else n / |d| (the old
// elements one new element spans along the mode):
//   U1: every c' < s' is the new element of the coordinate c = k c' < s: n * d' * c' == d * c;
//   U2: every c < s whose offset d * c is a multiple of n is k c' for one c' < s'.
// So n * upcast(L, n)(c') == L(k . c'), a bijection onto the coordinates of L whose every
// leaf offset is a multiple of n (CuTe's upcast reads whole new elements leaf by leaf).
// downcast(L, n), leaf s:d -> s':d':
//   the contiguous leaf (static stride +-1): c' < s' is c = c' / n < s and the part r = c' % n,
//   d' * c' == n * d * c + d * r; every c < s, r < n is c' = n c + r < s';
//   any other leaf: s' == s and d' * c == n * d * c.
// So downcast(L, n)(c') == n * L(c) + sum over the contiguous leaves of d_j * r_j: each old
// element becomes n adjacent new ones. recast(L, old, new) is downcast(upcast(L, num), den).
// The lemma covers upcast's admitted inputs in cases: d == 0; |d| == n * f (f >= 1); n == |d| * k
// (k >= 2); each sign of d. Together they are every d, n with |d| % n == 0 or n % |d| == 0.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "laws.hpp"
#include "recast_generic.hpp"
#include "symbolic_recast.hpp"

namespace cuteref::proofs {

// RecastOps: SymRecastOps (recast_generic.hpp's RecastOps, the model's) or a broken one
// derived from it (the proof tests). Proves U1, U2 and the downcast
// facts for one symbolic leaf.
template <class RecastOps>
LawResult recast_leaf_lemma(const RecastOps& base_ops, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  const ProofOptions o = step_lemma_options(opt);
  z3::context& ctx = s.ctx();
  // upcast's precondition, |d| % n == 0 or n % |d| == 0, split into the inputs it admits:
  // |d| == n * q (q >= 1) or n == |d| * k (k >= 2), d of either sign (d == 0: the first
  // branch of upcast_leaf); downcast: any d.
  enum class Case { UpZero, UpWide, UpNarrow, Down };
  for (const Case kase : {Case::UpZero, Case::UpWide, Case::UpNarrow, Case::Down})
    for (const bool negative : {false, true}) {
      if ((kase == Case::UpZero || kase == Case::Down) && negative) continue;
      std::vector<z3::expr> domain;
      const SymInt sh = s.ranged_variable("s", 1, INT64_MAX, domain), m = s.ranged_variable("m", 1, INT64_MAX, domain);
      // The factor: f >= 1 where |d| == n * f; named k, k >= 2, where n == |d| * k (so that a
      // domain point names each case's smallest).
      const bool narrow = kase == Case::UpNarrow;
      const char* factor_name = narrow ? "k" : "f";
      const SymInt f = s.ranged_variable(factor_name, narrow ? 2 : 1, INT64_MAX, domain);
      const SymInt cp = s.ranged_variable("cp", 0, INT64_MAX, domain), c = s.ranged_variable("c", 0, INT64_MAX, domain);
      const SymInt rem = s.ranged_variable("r", 0, INT64_MAX, domain), w = s.ranged_variable("w", INT64_MIN, INT64_MAX, domain);
      // UpWide: n = m, |d| = m * f.  UpNarrow: |d| = m, n = m * k.  Down: n = m, d = w.
      const SymInt n = kase == Case::UpNarrow ? m * f : m;
      const SymInt magnitude = kase == Case::UpWide ? m * f : m;
      const SymInt d = kase == Case::UpZero ? ScalarOps<SymInt>::constant(0)
                       : kase == Case::Down ? w
                       : negative ? ScalarOps<SymInt>::constant(0) - magnitude : magnitude;
      const ProofOutcome out = prove(s, domain, {{"s", sh.e}, {"m", m.e}, {factor_name, f.e}, {"cp", cp.e}, {"c", c.e}, {"r", rem.e}, {"w", w.e}},
                                     [&]() -> z3::expr {
        const RecastOps& ops = base_ops;
        // The leaves' static flags: the stride's free (both branches of downcast_leaf for
        // d == +-1), the factor static as CuTe's Int<N>.
        const z3::expr static_unit = ctx.bool_const("static_unit");
        const SymFlagged shape_leaf{sh, static_unit}, stride_leaf{d, static_unit}, factor{n, ctx.bool_val(true)};
        if (kase != Case::Down) {
          const auto [s2, d2] = upcast_leaf(shape_leaf, stride_leaf, factor, ops);
          const z3::expr k = kase == Case::UpNarrow ? f.e : ctx.int_val(1);  // old elements per new one
          const z3::expr u1 = z3::implies(cp.e < s2.v.e, cp.e * k < sh.e && n.e * (d2.v.e * cp.e) == d.e * (cp.e * k));
          // d * c a multiple of n: UpNarrow, |d| * c == n * j (so c == k * j); else every c (j == c).
          const z3::expr j = ctx.int_const("j");
          const z3::expr multiple = kase == Case::UpNarrow ? m.e * c.e == n.e * j : j == c.e;
          const z3::expr u2 = z3::implies(c.e < sh.e && multiple, j < s2.v.e && n.e * (d2.v.e * j) == d.e * c.e);
          return u1 && u2;
        }
        const bool contiguous = ops.is_static_unit(stride_leaf);
        const auto [s2f, d2f] = downcast_leaf(shape_leaf, stride_leaf, factor, ops);
        const SymInt& s2 = s2f.v;
        const SymInt& d2 = d2f.v;
        if (!contiguous) return s2.e == sh.e && d2.e * c.e == n.e * (d.e * c.e);
        const SymInt q = cp / n, part = cp % n;
        const z3::expr split = z3::implies(cp.e < s2.e, q.e < sh.e && d2.e * cp.e == n.e * (d.e * q.e) + d.e * part.e);
        const z3::expr onto = z3::implies(c.e < sh.e && rem.e < n.e,
                                          n.e * c.e + rem.e < s2.e && d2.e * (n.e * c.e + rem.e) == n.e * d.e * c.e + d.e * rem.e);
        return split && onto;
      }, o);
      fold_step_proof(r, out, std::string(kase == Case::Down ? "downcast leaf" : "upcast leaf") + (negative ? ", d < 0" : ""));
    }
  return r;
}

}  // namespace cuteref::proofs
