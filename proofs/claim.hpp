// `cuteref prove 'CLAIM'`: CLAIM is `EXPR == EXPR` in the CLI language extended with
// integer arithmetic (+ - * / % & | ^ << >>, C++'s precedence; / and % truncate) and free
// lower-case variables, e.g. `Sw<3,4,3>(Sw<3,4,3>(x)) == x` or
// `coalesce((a,b):(1,a)) == (a*b):1`.
//
// The claim is read by the language's one parser (lang/parser.hpp) and evaluated over symbolic
// scalars (symbolic_evaluator.hpp): each function by its symbolic form (symbolic_functions.hpp,
// the model's generic code) or, where its arguments are concrete, by the model itself; a function
// without a symbolic form on symbolic arguments gives `unknown`.
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
// does not replay and when the time limit is reached. A malformed request (a claim that does
// not parse or that the model rejects, a bad --where or --timeout) is `error: ...` with exit
// 64 (EX_USAGE); a failure of the prover itself (out of memory, a Z3 error) `error: ...` with
// exit 70 (EX_SOFTWARE); a --smt2 FILE that cannot be written, exit 74 (EX_IOERR).
//
// Time limit: --timeout s bounds the whole proof (building every query, every branch
// decision and every solver call), default kDefaultProveTimeoutSeconds; s is a decimal number
// of seconds in [0.001, kMaxProveTimeoutSeconds], nothing else (no sign, exponent, nan, inf).
#pragma once

#include <ostream>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "prover.hpp"
#include "value.hpp"

namespace cuteref::proofs {

enum ProveExit : int {
  kProveProved = 0,
  kProveRefuted = 1,
  kProveUnknown = 2,
  kProveVacuous = 3,   // the hypotheses cannot hold together within the ranges
  kProveUsage = 64,    // EX_USAGE
  kProveFailure = 70,  // EX_SOFTWARE
  kProveIoError = 74,  // EX_IOERR
};

inline constexpr double kDefaultProveTimeoutSeconds = 60;
inline constexpr double kMaxProveTimeoutSeconds = 86400;  // one day

struct ProveRequest {
  std::string claim;
  std::vector<std::string> where;  // "v in [lo,hi]", at most one per variable
  // Hypotheses (--assume): `EXPR OP EXPR` with OP one of == != < <= > >= on integers,
  // `divides(A, B)` (B % A == 0, A >= 1), `admissible(A, B)` (the model composes A and B:
  // every precondition and check of composition(A, B) holds), `defined(EXPR)` (the model
  // evaluates EXPR) or `injective(L)` (distinct coordinates of L have distinct offsets;
  // integer encoding only). The claim is proved where they all hold; a counterexample is
  // printed only where each holds on the concrete model.
  std::vector<std::string> assume;
  double timeout_s = kDefaultProveTimeoutSeconds;
  std::string smt2_file;           // empty: none
  // For a law stated as a claim: the points its statement covers (ProofOptions::domain_points,
  // each a value for some of the claim's variables); a point outside the ranges gives unknown.
  std::vector<std::map<std::string, std::int64_t>> domain_points;
  // Leave Z3's context allocated when the command ends (for a process that exits right
  // after, i.e. the CLI): Z3 4.8 frees a context that holds a deep term in time that grows
  // with the depth times the number of terms (seconds for a claim of 1,000 sums), after the
  // answer and outside any time limit.
  bool leak_solver_context = false;
  // Tests only: hypotheses stated to Z3 and never checked on the model. They stand for a
  // symbolic statement stronger than the model's, so that the tests show the model's own
  // checks (the replay, the vacuity check) catch what such a defect would make Z3 answer.
  std::vector<std::string> symbolic_only_assume;
};

// The seconds of `--timeout TEXT`: a decimal number (digits, optionally '.' and digits) in
// [0.001, kMaxProveTimeoutSeconds]; throws Error naming the text and the range otherwise.
double parse_timeout_seconds(const std::string& text);

// Runs the command; returns the exit status (ProveExit). With `outcome`, also hands back the
// prover's outcome (its queries kept in SMT-LIB 2).
int prove_command(const ProveRequest& request, std::ostream& out, std::ostream& err, ProofOutcome* outcome = nullptr);

// The model's values of the claim's two sides with every variable set to `values` (e.g. a
// refutation's counterexample), evaluated as the refutation is replayed. Throws Error for a
// malformed claim, a missing variable, or a side the model rejects.
std::pair<Value, Value> concrete_sides(const std::string& claim, const std::map<std::string, std::int64_t>& values);

}  // namespace cuteref::proofs

namespace cuteref::proofs {

// The concrete replay that every `proved` passes before it is printed, on its own: the
// request's claim at the points of its box that replay_points.hpp chooses (every point of a
// box of at most 2^12), where its hypotheses hold on the concrete model. Returns
// `agrees at N point(s) of M` or `contradicted at v = ..., ...: <what the model says>`; throws
// Error for a malformed request. (The prover's own defence: a test gives it false claims,
// which a defect of the symbolic path might call proved, and it must contradict each.)
std::string replay_on_model(const ProveRequest& request);

// The check every `vacuous` passes before it is printed, on its own: the first of the same
// points where every hypothesis of the request holds on the concrete model. Returns `holds at
// v = ..., ...` or `none of N point(s)`; throws Error for a malformed request. (A test gives
// it satisfiable hypotheses, which a defect of their symbolic statement might call vacuous.)
std::string domain_point_on_model(const ProveRequest& request);

// The claim parser and the concrete model without the solver (for the fuzz target and
// tests): parses CLAIM and WHERE exactly as prove_command does, sets every variable to the
// lower bound of its range (`at_upper_bound`: the upper bound), evaluates both sides on the
// concrete model and compares them as prove's replay does (layouts on their first indices).
// Returns one line: `equal`, `differ: ...` or `unsupported: ...`; throws cuteref::Error for
// malformed claims or --where texts and for inputs the model rejects.
std::string evaluate_claim_concretely(const std::string& claim, const std::vector<std::string>& where,
                                      bool at_upper_bound);

}  // namespace cuteref::proofs
