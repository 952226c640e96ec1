// `cuteref prove 'CLAIM'`: CLAIM is `EXPR == EXPR` in the CLI language extended with
// integer arithmetic (+ - * / % & | ^ << >>, C++'s precedence; / and % truncate) and free
// lower-case variables, e.g. `Sw<3,4,3>(Sw<3,4,3>(x)) == x` or
// `coalesce((a,b):(1,a)) == (a*b):1`.
//
// A side without variables is evaluated by the model's own parser. A side with variables
// is evaluated by claim.cpp's evaluator, which calls the model's generic code
// (crd2idx_index, swizzle_value, composed_value, coalesce_tree) with symbolic scalars, and
// the model's function table for any call whose arguments are all concrete. Functions
// other than coalesce and size on symbolic arguments give `unknown`.
// A parenthesized arithmetic expression `(a*b)` is a grouping, not a 1-tuple.
//
// Meaning of ==: integers equal; layouts (and composed layouts) equal as functions, i.e.
// equal size and equal value at every index 0 <= index < size; integer tuples equal leaf by
// leaf. Each variable ranges over its --where interval, by default [0, 2^63 - 1] (every
// non-negative int64: offsets, indices and extents are non-negative).
//
// Verdicts: proved (exit 0); refuted (exit 1) with the variables, the index, and both sides'
// values, replayed on the concrete model (the same evaluator with CheckedInt and the model's
// functions) before printing; unknown (exit 2) with the reason, also when a counterexample
// does not replay.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "prover.hpp"

namespace cuteref::proofs {

struct ProveRequest {
  std::string claim;
  std::vector<std::string> where;  // "v in [lo,hi]"
  double timeout_s = 0;            // 0: none
  std::string smt2_file;           // empty: none
};

// Runs the command; returns the exit status (0 proved, 1 refuted, 2 unknown or usage error).
// With `outcome`, also hands back the prover's outcome (its queries kept in SMT-LIB 2).
int prove_command(const ProveRequest& request, std::ostream& out, std::ostream& err, ProofOutcome* outcome = nullptr);

}  // namespace cuteref::proofs

namespace cuteref::proofs {

// The claim parser and the concrete model without the solver (for the fuzz target and
// tests): parses CLAIM and WHERE exactly as prove_command does, sets every variable to the
// lower bound of its range (`at_upper_bound`: the upper bound), evaluates both sides on the
// concrete model and compares them as prove's replay does (layouts on their first indices).
// Returns one line: `equal`, `differ: ...` or `unsupported: ...`; throws cuteref::Error for
// malformed claims or --where texts and for inputs the model rejects.
std::string evaluate_claim_concretely(const std::string& claim, const std::vector<std::string>& where,
                                      bool at_upper_bound);

}  // namespace cuteref::proofs
