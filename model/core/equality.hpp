// `A == B` of the expression language: functional comparison.
//
// Layouts (composed layouts, F2 layouts) are equal when they have the same size and the same value
// at every index 0 <= i < size; the verdict names the first index where they differ. Two
// layouts with integer strides are compared by their modes (mode_comparison.hpp: exact, no
// enumeration, any size), two F2 layouts of power-of-two shape by their values at the indices 2^j
// (they are linear in the index bits); the others (composed and F2 layouts, scaled-basis strides, modes that do
// not line up) by enumerating the domain, at most kMaxEnumeratedEquality indices.
// Integer tuples are equal when they have the same structure and values (static flags are
// ignored: `8` and `_8` are the same number). Other values compare by their notation.
#pragma once

#include "value.hpp"

namespace cuteref {

// Largest domain compared by enumeration (2^22: about a second for deep layouts on the
// development machine); beyond it the comparison is an error that points to `cuteref prove`.
inline constexpr std::int64_t kMaxEnumeratedEquality = std::int64_t{1} << 22;

Verdict functional_equal(const Value& a, const Value& b);

}  // namespace cuteref
