// `--assume 'divides(X, v)'` stated by construction: the variable v is written X * k for a
// fresh k >= 0, instead of the hypothesis v % X == 0 alone. Both say the same of every v in
// its range (v = X * (v / X) exactly when X divides v), but the product lets the division
// lemmas (symbolic_scalar.cpp: (b*c)/b = c, (b*c) % b = 0) simplify every later v / X and
// ceil_div(v, X) by rewriting, where the hypothesis would leave Z3 a nonlinear division
// it does not finish (logical_divide((a,b):(1,a), t:1) with divides(t, a): past 60 s, and
// instant with a written t*k).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "symbolic_scalar.hpp"

namespace cuteref::proofs {

// One hypothesis divides(divisor, dividend), as written (blanks allowed around each).
struct DivisibilityFact {
  std::string divisor, dividend;
};

// Rewrites `vars` in place: for each fact whose dividend is a variable with a range in
// [0, hi] and whose divisor is a positive integer literal or another variable with a
// non-negative range, vars[dividend] becomes divisor * k, k a fresh variable in
// [0, hi / max(1, lo(divisor))], and `domain` gains lo <= divisor * k <= hi (the dividend's
// own range). Facts are taken in an order where each divisor is final before it is used (a
// divisor that is itself a dividend is rewritten first); a dividend named twice keeps its
// first fact, and facts on a cycle (divides(a, b), divides(b, a)) are left as they are.
// The hypotheses themselves are still stated by the caller,
// so the claim's meaning does not depend on which facts are rewritten.
// @pre the integer encoding (Encoding::Int64Range): a product in bit-vectors wraps.
void write_dividends_as_multiples(const std::vector<DivisibilityFact>& facts,
                                   std::map<std::string, SymInt>& vars, SymbolicScope& scope,
                                   std::vector<z3::expr>& domain);

}  // namespace cuteref::proofs
