// `--assume TEXT`: a hypothesis of a claim, read by the one parser (lang/parser.hpp,
// ParseMode::Hypothesis), stated to Z3 (symbolically) and checked on the concrete model (at a
// counterexample and at each replayed point) from the same tree.
//
// Forms: `EXPR OP EXPR` with OP one of == != < <= > >= on integers; `divides(A, B)` (A >= 1 and
// B % A == 0); `admissible(A, B)` (the model composes A and B: every precondition and check of
// composition(A, B) holds); `defined(EXPR)` (the model evaluates EXPR); `injective(L)` (distinct
// coordinates of L have distinct offsets; integer strides only).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "divisibility_substitution.hpp"
#include "evaluator.hpp"
#include "symbolic_scalar.hpp"
#include "syntax.hpp"

namespace cuteref::proofs {

struct Hypothesis {
  std::string text;
  SyntaxTree parsed;  // the text parsed (`tree` is a view of it)
  Node tree;          // its root: a Compare, or a Call of one of the four predicates
};

// Parses one --assume text. Throws Error ("--assume 'TEXT': ...") where it is not one of the
// forms, names a predicate inside an expression, or is divides(A, B) with a literal A <= 0 (a
// malformed request: the diagnostic says what to write instead).
Hypothesis parse_hypothesis(const std::string& text);

// The divides(X, v) facts, for write_dividends_as_multiples (X an integer literal or a variable).
std::vector<DivisibilityFact> divisibility_facts(const std::vector<Hypothesis>& hypotheses);

// States `h` as a hypothesis of the current proof: its comparison, and every side condition its
// evaluation records (the model accepts the expressions it names). Throws Unsupported where it
// cannot be stated (injective in the bit-vector encoding, a comparison of non-integers).
void state_hypothesis(const Hypothesis& h, const std::map<std::string, SymInt>& variables, SymbolicScope& scope);

// Whether `h` holds on the concrete model at `values`. Where the model cannot evaluate an
// expression `h` names (a side of a comparison or of divides, L or one of L's values for
// injective(L)), `h` does not hold there: false, as for defined(EXPR). Throws Error only where
// it cannot be decided: injective(L) of more elements than it enumerates, an evaluation past
// its enumeration budget (enumeration_budget_spent()), or a compared side that is not an
// integer.
bool hypothesis_holds(const Hypothesis& h, const VariableValues& values);

// Why `h` does not hold at `values`, in words (the model's diagnostic where it refuses what `h`
// names; the values where `h` is false), or nothing where it holds. Throws as hypothesis_holds.
std::optional<std::string> hypothesis_fails(const Hypothesis& h, const VariableValues& values);

}  // namespace cuteref::proofs
