// Parser and printer for CuTe's printed notation and the CLI expression language
// (DESIGN.md). Printing is each value's to_string(); parsing is recursive descent with
// column-precise diagnostics (ParseError: 1-based column and what was expected).
//
// Literal grammar (whitespace allowed between tokens):
//   int      ::= ["_"] ["-"] digits            `_` marks a static (compile-time) integer
//   stride   ::= int | count "@" dim {"@" dim}  scaled basis; count ::= int ["/" int]
//              | "F" digits                     an F2 stride (PyCuTe's `F9`): the layout is then an
//                                               F2 layout, its other strides F2 values or 0
//   tuple    ::= "(" [elem {"," elem}] ")"      `()` empty, `(4)` a 1-tuple
//   layout   ::= shape ":" stride-tree          shape and stride congruent
//   swizzle  ::= "Sw<" int "," int "," int ">"
//   composed ::= swizzle "o" [offset "o"] layout, offset ::= int | smem_ptr[Nb](...)
//   descr    ::= "descriptor" group             a layout descriptor in the grammar of
//                                               descriptor.hpp, e.g. descriptor(16@0, 1@1);
//                                               its value is the normalized stride tree
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
