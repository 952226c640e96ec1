// Evaluation of a syntax tree (syntax.hpp) over the model's values: what `cuteref eval`,
// `batch` and the corpus print, and what `cuteref prove` replays a claim on. The symbolic
// evaluation of the same tree is proofs/symbolic_evaluator.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "function_table.hpp"
#include "syntax.hpp"
#include "value.hpp"

namespace cuteref {

// Integer values of a claim's variables.
using VariableValues = std::map<std::string, std::int64_t>;

// The value of `node`. `functions` (null: a literal tree, no call) names the callable functions;
// `variables` gives a word its integer value (an unbound word is a Symbol, e.g. an atom name).
// Integer arithmetic is 64-bit and checked; / and % truncate (C++); a comparison other than
// `==` gives a Verdict. Throws ParseError where a literal is malformed (a shape leaf < 1, a
// stride not congruent with its shape, an illegal swizzle: the column of the literal) and Error
// where the model rejects an evaluation ("column N: " and the model's diagnostic).
Value evaluate(const Node& node, const FunctionTable* functions, const VariableValues* variables = nullptr);

}  // namespace cuteref
