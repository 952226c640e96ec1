// upcast and downcast on symbolic layouts: recast_generic.hpp's upcast_leaf / downcast_leaf
// with the model's own decisions (RecastOps) on symbolic leaves that carry CuTe's static flag,
// mapped over the leaves as the model's upcast and downcast (recast.cpp) map them.
#pragma once

#include <string>

#include "leaf_ops.hpp"
#include "recast_generic.hpp"
#include "symbolic_layout.hpp"

namespace cuteref::proofs {

// A symbolic leaf with its static flag: true for a leaf written `_N` in a claim, false for a
// run-time value; free in the law recast_every_rank, so that both branches of downcast_leaf
// are explored for d == +-1.
using SymFlagged = Flagged<SymInt>;
using SymFlaggedTuple = ScalarTuple<SymFlagged>;

// recast_generic.hpp's decisions and checks on symbolic flagged leaves, the model's own (each
// check a proof obligation, each branch a case split).
using SymRecastOps = RecastOps<FlaggedLeaf<SymInt>, RecastConditions>;

// A layout of flagged symbolic leaves (shape and stride congruent).
struct SymFlaggedLayout {
  SymFlaggedTuple shape, stride;
};

// The leaves of `values` with the flags of `flags` (a congruent tree of bools).
SymFlaggedTuple with_flags(const SymTuple& values, const ScalarTuple<bool>& flags);
// The values of a flagged tree, and its flags (each a constant of the claim: evaluated).
SymTuple values_of(const SymFlaggedTuple& t);
ScalarTuple<bool> flags_of(const SymFlaggedTuple& t);

// upcast(L, n) (the factor static, as CuTe's Int<N>). @pre n >= 1 (an obligation).
SymFlaggedLayout sym_upcast(const SymFlaggedLayout& l, const SymInt& n);

// downcast(L, n) (the factor static). The contiguous leaf is the one with the static stride
// _1 or _-1, as in the model. @pre n >= 1 (an obligation).
// Throws Error with the model's diagnostic when no stride is the static _1: the flags are
// the claim's text, so the model refuses such a layout for every value of the variables.
SymFlaggedLayout sym_downcast(const SymFlaggedLayout& l, const SymInt& n);

// recast(L, old_bits, new_bits) (recast_generic.hpp's recast_by_widths: the model's plan of
// upcasts and downcasts), the widths plain integers as in CuTe. Throws Error with the model's
// diagnostic for widths < 1, and where downcast refuses its operand (sym_downcast).
SymFlaggedLayout sym_recast(const SymFlaggedLayout& l, std::int64_t old_bits, std::int64_t new_bits);

}  // namespace cuteref::proofs
