// Bounds on one input text of the expression language, the descriptor grammar and the claim
// language of `cuteref prove` (documented in the README's CLI section). Beyond them the input
// is rejected with a diagnostic naming the bound, so that no input exhausts the stack (the
// parsers and the recursive operations that follow them) or the memory.
#pragma once

#include <cstddef>

namespace cuteref {

// Bytes of one expression, descriptor, claim or batch line.
inline constexpr std::size_t kMaxExpressionBytes = std::size_t{1} << 20;
// Levels of nesting: parentheses, `o` terms of a composed layout, and in a claim also unary
// minus and Sw<...> application.
inline constexpr std::size_t kMaxExpressionNesting = 256;

}  // namespace cuteref
