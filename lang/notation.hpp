// EXPR text to a value in one call: parse (parser.hpp, the one parser of the language) and
// evaluate (evaluator.hpp). Printing is each value's to_string(). The grammar is parser.hpp's.
#pragma once

#include <string>
#include <string_view>

#include "function_table.hpp"
#include "input_limits.hpp"
#include "value.hpp"

namespace cuteref {

// Parse a complete expression. With `functions` null, only literals are accepted.
// Throws ParseError for malformed text and Error for evaluation failures (the message
// of the latter is prefixed by the column of the failing call).
Value parse_and_evaluate(std::string_view text, const FunctionTable* functions);

// Literal-only convenience parsers. Throw ParseError if the text is not of that kind.
IntTuple parse_int_tuple(std::string_view text);
Layout parse_layout(std::string_view text);

}  // namespace cuteref
