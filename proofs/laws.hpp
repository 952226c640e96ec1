// The proof suite's named laws (issue 6): each is proved (or, for a false claim, refuted
// with a counterexample that is replayed on the concrete model), and each bounded proof is
// also checked by enumeration of a small corner of its domain on the concrete model.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "int_tuple.hpp"
#include "prover.hpp"
#include "symbolic_scalar.hpp"

namespace cuteref::proofs {

struct LawResult {
  ProofStatus status = ProofStatus::Unknown;  // Proved: every proof in the law proved;
                                              // Refuted: every query refuted and replayed
  double ms = 0;                  // solver time of the law's proofs
  std::size_t proofs = 0;         // separate Z3 proofs (e.g. one per (B,M,S))
  std::size_t paths = 0;          // branch combinations of the model's code covered
  std::size_t unreachable = 0;    // ... of them shown unreachable under the law's hypotheses
                                  // (proved vacuously; a proof with none reachable is Vacuous)
  std::size_t corner_cases = 0;   // cases enumerated on the concrete model
  std::string corner_failure;     // the first enumerated case that disagreed, if any
  std::string detail;             // counterexample(s) or why unknown
  std::vector<std::pair<std::string, std::string>> smt2;  // a sample of queries, with Z3's answers
  // Per point of ProofOptions::domain_points: how many of the law's proofs checked it.
  std::vector<std::size_t> domain_points_checked;
};

// Adds one proof's (or lemma's) count of domain points checked into a law's.
inline void add_domain_points_checked(std::vector<std::size_t>& into, const std::vector<std::size_t>& counts) {
  if (into.size() < counts.size()) into.resize(counts.size(), 0);
  for (std::size_t k = 0; k < counts.size(); ++k) into[k] += counts[k];
}

struct Law {
  std::string name;
  std::string statement;
  ProofStatus expected;
  std::function<LawResult(const ProofOptions&)> run;
};

// Every named law, in a fixed order.
const std::vector<Law>& named_laws();

// The bank-conflict laws (bank_laws.cpp), appended by named_laws().
void add_bank_laws(std::vector<Law>& laws);

// The divide and product families' laws (divide_product_laws.cpp), appended by named_laws().
void add_divide_product_laws(std::vector<Law>& laws);

// The options of a step lemma's proofs: the model's checks are hypotheses (the lemma is
// about what the model returns) and every query is kept for the second solver.
// "proved", "refuted", "vacuous" or "unknown".
std::string status_name(ProofStatus s);

inline ProofOptions step_lemma_options(ProofOptions o) {
  o.side_conditions_as_hypotheses = true;
  o.keep_smt2 = true;
  return o;
}

// Folds one proof of a step lemma into its law's result (every query kept for the second
// solver): the law stays proved only if every proof is; the first other outcome is named.
inline void fold_step_proof(LawResult& r, const ProofOutcome& out, const std::string& what) {
  ++r.proofs;
  r.paths += out.paths;
  r.unreachable += out.unreachable_paths;
  r.ms += out.ms;
  for (const auto& q : out.smt2) r.smt2.push_back(q);
  add_domain_points_checked(r.domain_points_checked, out.domain_points_checked);
  if (out.status == ProofStatus::Proved || r.status != ProofStatus::Proved) return;
  r.status = out.status;
  r.detail = what + ": " + status_name(out.status) + (out.reason.empty() ? "" : " " + out.reason);
  for (const auto& [k, v] : out.values) r.detail += " " + k + "=" + std::to_string(v);
}

// Folds a second lemma of the same law into its result: proved only if both are; the first
// other outcome's detail is kept.
inline void fold_lemma(LawResult& r, const LawResult& lemma) {
  r.proofs += lemma.proofs;
  r.paths += lemma.paths;
  r.unreachable += lemma.unreachable;
  r.ms += lemma.ms;
  for (const auto& q : lemma.smt2) r.smt2.push_back(q);
  add_domain_points_checked(r.domain_points_checked, lemma.domain_points_checked);
  if (lemma.status == ProofStatus::Proved || r.status != ProofStatus::Proved) return;
  r.status = lemma.status;
  r.detail = lemma.detail;
}

// The law's options with the points its statement says its domain covers (ProofOptions::
// domain_points): each variable name with a value, the others free.
inline ProofOptions with_domain_points(ProofOptions o, std::vector<std::map<std::string, std::int64_t>> points) {
  o.domain_points = std::move(points);
  return o;
}

// After a law's proofs with with_domain_points(o, ...): a law still proved must have checked
// every point in at least one proof (a point no proof has the variables of would be a law that
// never looked at it); else it is Unknown, naming the point.
inline void require_domain_points_checked(LawResult& r, const ProofOptions& o) {
  for (std::size_t k = 0; k < o.domain_points.size(); ++k) {
    if (k < r.domain_points_checked.size() && r.domain_points_checked[k] > 0) continue;
    if (r.status != ProofStatus::Proved) return;
    r.status = ProofStatus::Unknown;
    r.detail = "no proof of the law has the variables of the point (" + domain_point_text(o.domain_points[k]) +
               ") its statement covers";
    return;
  }
}

// prefix<k>, e.g. s0, d3 (std::string::append: GCC 12's -Wrestrict misreads "s" + to_string(k)).
std::string indexed_name(const char* prefix, std::size_t k);

// The proof variables pa<i> for a's values, then pb<i> for b's (a layout's shapes and strides).
std::vector<ProofVariable> named(const std::vector<SymInt>& a, const std::vector<SymInt>& b, const char* pa,
                                 const char* pb);

// Calls fn(shapes, strides) for every flat layout of `rank` modes with shapes in
// [1, shape_max] and strides in [stride_lo, stride_hi], in odometer order (the first mode's
// shape fastest), at most `limit` of them.
template <class Fn>
void for_each_small_flat_layout(std::size_t rank, std::int64_t shape_max, std::int64_t stride_lo, std::int64_t stride_hi,
                                std::size_t limit, Fn&& fn) {
  std::vector<std::int64_t> digits(2 * rank, 0);
  for (std::size_t count = 0; count < limit; ++count) {
    std::vector<IntTuple> sh, st;
    for (std::size_t k = 0; k < rank; ++k) {
      sh.push_back(IntTuple::integer(1 + digits[k]));
      st.push_back(IntTuple::integer(stride_lo + digits[rank + k]));
    }
    fn(sh, st);
    std::size_t k = 0;
    while (k < digits.size() && ++digits[k] == (k < rank ? shape_max : stride_hi - stride_lo + 1)) digits[k++] = 0;
    if (k == digits.size()) return;
  }
}

// "proved", "refuted", "unknown".

// A law passes when its status is the expected one and its corner check found no
// disagreement in at least one case.
bool law_passed(const Law& law, const LawResult& r);

}  // namespace cuteref::proofs
