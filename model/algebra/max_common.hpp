// The largest common contiguous part of two layouts, CuTe's max_common_vector and
// max_common_layout (used to pick vector widths for copies between two layouts).
#pragma once

#include "int_tuple.hpp"
#include "layout.hpp"

namespace cuteref {

// max_common_vector(A, B): the number N of leading elements on which A and B agree and
// which are contiguous: with C = coalesce(composition(A, right_inverse(B))), N is the size
// of C's first mode when that mode has stride 1, else 1.
// CuTe C++ requires that first mode to be static (dynamic gives 1); the model decides on
// the values.
// @pre  the composition is admissible (its errors propagate).
// @post N >= 1; for 0 <= n < N: A(right_inverse(B)(n)) == n.
IntTuple max_common_vector(const Layout& a, const Layout& b);

// max_common_layout(A, B): the layout R = composition(right_inverse(B), C_0), C_0 the
// first mode of C above when its stride is 1; _1:_0 otherwise.
// @post for 0 <= i < size(R): A(R(i)) == i and B(R(i)) == i.
Layout max_common_layout(const Layout& a, const Layout& b);

}  // namespace cuteref
