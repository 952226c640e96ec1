// Whether two layouts are the same function on their domain, decided from their modes, without
// enumerating the domain (for `==` and gmma_desc's canonical-form check).
//
// Why it is exact: a layout with integer strides is L(i) = sum_k x_k(i) * d_k, where x_k(i) is
// the k-th mixed-radix digit of i over its flattened shape (s_k) and d_k its stride (in the
// domain [0, size), the last mode's quotient is a digit like the others). Split modes so that
// both layouts have the same digits: a mode (s, d) is the modes (p, d), (s/p, p*d) when p divides
// s. When at every step one remaining extent divides the other, both become sums over the same
// digits, independent of one another, and
//   A == B on the domain  <=>  every common digit with extent > 1 has equal strides,
// since setting one digit to 1 and the others to 0 reads that digit's stride. The smallest
// index where they differ is the weight (prefix product) of the lowest digit whose strides
// differ: any index where they differ has that digit, or a later one, non-zero.
// When neither extent divides the other (e.g. modes 2 and 3), the digits do not line up and
// the comparison is undecided (the caller enumerates, within a bound); so it is when some
// value of a layout is not an int64 (evaluation reports that overflow, this would not).
#pragma once

#include <cstdint>

#include "layout.hpp"

namespace cuteref {

struct ModeComparison {
  enum class Result { Equal, Differ, Undecided } result;
  std::int64_t first_difference = 0;  // Differ: the smallest index where the two differ
};

// Preconditions: size(a) == size(b); integer strides (no scaled basis). Arithmetic is checked
// (a split stride p * d that overflows throws Error, as evaluating there would).
ModeComparison compare_by_modes(const Layout& a, const Layout& b);

}  // namespace cuteref
