// `A == B` of the expression language: functional comparison.
//
// Layouts (and composed layouts) are equal when they have the same size and the same value
// at every index 0 <= i < size; the verdict names the first index where they differ.
// Integer tuples are equal when they have the same structure and values (static flags are
// ignored: `8` and `_8` are the same number). Other values compare by their notation.
#pragma once

#include "value.hpp"

namespace cuteref {

// Largest domain compared by enumeration; beyond it the comparison is an error that
// points the user to `cuteref prove`.
inline constexpr std::int64_t kMaxEnumeratedEquality = std::int64_t{1} << 26;

Verdict functional_equal(const Value& a, const Value& b);

}  // namespace cuteref
