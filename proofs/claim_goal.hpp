// The meaning of a claim's `==` on symbolic values, as a Z3 formula: integers equal; integer
// tuples equal leaf by leaf; layouts and composed layouts equal as functions (equal sizes, and
// equal values at `index` wherever 0 <= index < size).
#pragma once

#include "symbolic_value.hpp"

namespace cuteref::proofs {

// @pre a SymbolicScope is current; `index` a variable in [0, 2^63-1]. `compares_functions` is set
// where both sides are function-like (the report then quantifies over the index). Also records
// a sufficient goal (SymbolicScope::set_sufficient_goal) where the two sides have the same modes.
// Throws Unsupported for two kinds of values that are not compared symbolically.
z3::expr claim_goal(const SymVal& a, const SymVal& b, const SymInt& index, bool& compares_functions);

}  // namespace cuteref::proofs
