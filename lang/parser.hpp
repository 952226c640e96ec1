// The one parser of the expression language: EXPR (`cuteref eval`, `batch`, the corpus) and
// CLAIM / hypothesis text (`cuteref prove`) are read here into a syntax tree (syntax.hpp), with
// column-precise diagnostics (ParseError: 1-based column and what was expected).
//
// Grammar (blanks allowed between tokens; C++'s precedence for the arithmetic):
//   relation ::= expr [("==" | "!=" | "<" | "<=" | ">" | ">=") expr]
//                (EXPR and CLAIM take "==" only; a hypothesis (--assume) any of them)
//   expr     ::= bitor [":" stride] {"(" args ")"}     a layout, applied to each argument list
//   bitor    ::= bitxor {"|" bitxor} ... shift ::= additive {("<<" | ">>") additive}
//   additive ::= term {("+" | "-") term}, term ::= unary {("*" | "/" | "%") unary}
//   unary    ::= "-" unary | postfix, postfix ::= primary {"(" args ")"}  (not after a literal tuple
//                or integer: `(4,8):(1,4)(3)` applies the layout)
//   primary  ::= int | "_" | "(" [expr {"," expr}] ")" | word | NAME "(" args ")"
//              | swizzle ["o" [offset "o"] primary [":" stride]] | "descriptor" group
//              | "LayoutLeft" | "LayoutRight"
//   int      ::= ["_"] ["-"] digits           `_` marks a static (compile-time) integer
//   stride   ::= bitor, whose integer leaves may be a scaled basis  count "@" dim {"@" dim}
//                (count ::= int ["/" int]) or an F2 value "F" digits (PyCuTe's `F9`: every
//                stride of that layout an F2 value or 0)
//   swizzle  ::= ("Sw" | "S") "<" expr "," expr "," expr ">"   (`S<...>` is the CuTe DSL's print)
//   offset   ::= primary | "smem_ptr[" digits "b](unset)"
//   word     ::= letter {letter | digit | "_"} {"." part} ["<" template arguments ">"]
// A parenthesized arithmetic expression `(a*b)` is a grouping, `(x)` and `(4)` are 1-tuples.
#pragma once

#include <string_view>

#include "function_table.hpp"
#include "syntax.hpp"

namespace cuteref {

enum class ParseMode {
  Literal,     // literals only: no call, no application, no word (parse_layout, parse_int_tuple)
  Expression,  // EXPR and CLAIM: calls of `functions`, `==` at the top
  Hypothesis,  // --assume: calls, and any comparison at the top
};

// Parses the complete text. `functions` names the callable functions (and checks their
// arities); it is unused in ParseMode::Literal. Throws ParseError for malformed text and for
// text longer than kMaxExpressionBytes or nested deeper than kMaxExpressionNesting.
SyntaxTree parse_text(std::string_view text, ParseMode mode, const FunctionTable* functions);

// The same into `tree`, whose previous contents are dropped and whose storage is reused (a
// batch parses line after line into one tree). After a throw `tree` holds no parse.
void parse_text(std::string_view text, ParseMode mode, const FunctionTable* functions, SyntaxTree& tree);

}  // namespace cuteref
