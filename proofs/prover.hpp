// Proving a claim built by the model's generic code on symbolic values.
//
// A claim is a function that, inside a SymbolicScope, evaluates the model's generic
// code on symbolic variables and returns a Bool. The prover runs it once per branch
// combination of the model's decisions (PathExplorer) and asks Z3, for each path, whether
//   domain  and  path condition  and  not (side conditions and claim)
// is satisfiable. unsat on every path: proved. sat: a counterexample (the variables'
// values and, if a side condition failed, which). unknown/timeout: unknown.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "symbolic_scalar.hpp"

namespace cuteref::proofs {

// Vacuous: every branch case holds only because no value of the domain satisfies the
// hypotheses there (Z3 showed each case's domain, path and hypotheses unsatisfiable).
enum class ProofStatus { Proved, Refuted, Unknown, Vacuous };

struct ProofVariable {
  std::string name;
  z3::expr value;  // a 64-bit bit-vector constant
};

struct ProofOptions {
  unsigned timeout_ms = 0;     // 0: none; otherwise for the whole proof
  bool keep_smt2 = false;      // keep each path's query in SMT-LIB 2
  // For the named laws: keep every query of the law for a second solver, not a sample.
  bool keep_all_smt2 = false;
  // The model's side conditions (no overflow, its preconditions) as hypotheses instead of
  // goals: "wherever the model's checks pass, the claim holds" (a law about what the model
  // returns, not a proof that it returns).
  bool side_conditions_as_hypotheses = false;
  // Points that a law's statement says lie in its domain, each a value for some of the
  // variables (the others free). Before any case is proved, each point whose variables the
  // proof has is checked against the whole domain (the variables' ranges and the domain's
  // constraints) with Z3: a point outside it makes the outcome Unknown, so that a law whose
  // domain was narrowed (it would prove less than it states) does not answer proved.
  std::vector<std::map<std::string, std::int64_t>> domain_points;
};

// A domain point as a diagnostic names it: "name = value, ..." in the variables' order.
std::string domain_point_text(const std::map<std::string, std::int64_t>& point);

struct ProofOutcome {
  ProofStatus status = ProofStatus::Unknown;
  double ms = 0;
  std::size_t paths = 0;                        // branch combinations proved / examined
  // Of the proved cases: those shown reachable (a value of the domain on the case's path
  // satisfies the hypotheses and the model's checks: Z3 found one), those shown unreachable
  // (no such value: the case is proved vacuously and not counted), and those Z3 did not
  // decide within kReachabilityResources. `Proved` requires at least one reachable case.
  std::size_t reachable_paths = 0, unreachable_paths = 0, undecided_paths = 0;
  std::map<std::string, std::int64_t> witness;  // the variables at a reachable case (Proved)
  std::map<std::string, std::int64_t> values;   // counterexample (Refuted)
  std::string failed_side_condition;            // Refuted by a side condition: which
  std::string reason;                           // Unknown: why
  // Per point of ProofOptions::domain_points: 1 when this proof checked it (it has the
  // point's variables), else 0.
  std::vector<std::size_t> domain_points_checked;
  // SMT-LIB 2 of each path's query with Z3's answer ("unsat", "sat", "unknown").
  std::vector<std::pair<std::string, std::string>> smt2;
};

// Prove `claim` for all values of `variables` satisfying `domain`.
ProofOutcome prove(SymbolicScope& scope, const std::vector<z3::expr>& domain,
                   const std::vector<ProofVariable>& variables, const std::function<z3::expr()>& claim,
                   const ProofOptions& options = {});

// `lo <= v <= hi` as signed 64-bit bit-vectors.
z3::expr in_range(const z3::expr& v, std::int64_t lo, std::int64_t hi);

// The queries of an outcome as one SMT-LIB 2 script: each in (push 1) ... (pop 1) with
// Z3's answer in a comment `; expect: unsat`.
std::string smt2_script(const ProofOutcome& outcome);

}  // namespace cuteref::proofs
