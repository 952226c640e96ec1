// The join and meet of two shapes in the compatibility order (PyCuTe's common_refinement and
// common_coarsening; the CuTe whitepaper, section 2.2.1). A shape `a` coarsens `b` (`a` is
// compatible with `b`) when both are integers of equal value, or `a` is an integer equal to
// size(b), or both are tuples of equal rank whose elements coarsen pairwise.
#pragma once

#include "int_tuple.hpp"

namespace cuteref {

// common_refinement(a, b): the least shape that both a and b coarsen.
// @pre  a and b have integer leaves only; some shape refines both: mode by mode, two tuples
//       have equal rank, two integers are equal, an integer equals the size of the tuple
//       opposite it. Otherwise Error naming the first mode (as a path of indices) that fails.
// @post a and b are both compatible with the result; symmetric; common_refinement(a, a) == a
// A leaf of the result is static iff either operand's leaf there is static (the value is the
// same on both sides).
IntTuple common_refinement(const IntTuple& a, const IntTuple& b);

// common_coarsening(a, b): the greatest shape that coarsens both a and b. Where two tuples of
// equal rank have a common coarsening element by element, that tuple of coarsenings; otherwise
// (ranks differ, or some element pair has different sizes) the integer size(a).
// @pre  a and b have integer leaves only and size(a) == size(b) (else Error with both sizes).
// @post the result is compatible with a and with b; symmetric; common_coarsening(a, a) == a
IntTuple common_coarsening(const IntTuple& a, const IntTuple& b);

// compatible(a, b): whether a coarsens b (the order above), PyCuTe's `compatible`.
// @pre a and b have integer leaves only.
bool shape_coarsens(const IntTuple& a, const IntTuple& b);

}  // namespace cuteref
