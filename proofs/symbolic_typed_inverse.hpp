// CuTe C++'s right_inverse (the one that follows static strides only) on symbolic layouts
// that carry the claim's static flags: typed_inverse_generic.hpp's walk, the model's own,
// on flagged symbolic leaves.
#pragma once

#include "symbolic_recast.hpp"

namespace cuteref::proofs {

// right_inverse(L) as inverse.cpp's right_inverse: CuTe's coalesce by the types, the
// run-time strides dropped, the chain through static strides; the result carries its
// static flags (a leaf is static iff the model's would be).
SymFlaggedLayout sym_right_inverse_typed(const SymFlaggedLayout& l);

}  // namespace cuteref::proofs
