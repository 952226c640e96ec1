// Evaluation of a syntax tree (lang/syntax.hpp, from the one parser lang/parser.hpp) over
// symbolic values: what `cuteref prove` states to Z3. A subtree without variables is evaluated
// by the model's own evaluator (lang/evaluator.hpp) and lifted; variables, arithmetic on them,
// layouts built of them and calls with symbolic arguments are evaluated here, each call by its
// symbolic form (symbolic_functions.hpp) or, where its arguments are concrete at that point,
// by the model.
#pragma once

#include <map>
#include <string>

#include "symbolic_value.hpp"
#include "syntax.hpp"

namespace cuteref::proofs {

// @pre a SymbolicScope is current (symbolic_scalar.hpp); every variable word of `node` is in
// `variables`. Throws Unsupported where the claim cannot be stated symbolically (the answer is
// `unknown`), ParseError / Error where the claim is malformed or the model rejects it.
SymVal evaluate_symbolically(const Node& node, const std::map<std::string, SymInt>& variables);

}  // namespace cuteref::proofs
