// The model's complement, composition and logical_divide on symbolic layouts: the model's
// own generic algorithms (complement_generic.hpp, composition_generic.hpp,
// divide_generic.hpp, coalesce_generic.hpp) run on SymInt leaves, every data-dependent
// branch a case split (ScalarOps::decide) and every precondition a proof obligation
// (ScalarOps::require), as for coalesce.
//
// Covered: integer strides; complement(A, M) for any A (filter(A) must keep a mode: A with
// no mode of size > 1 and non-zero stride is refused with an Error); composition(A, B) for
// any A but () (A read through the model's coalesce_x); logical_divide(A, T) by the layout form.
#pragma once

#include <vector>

#include "symbolic_layout.hpp"

namespace cuteref::proofs {

// complement(A, M) for the flat cotarget M (its leaves, left to right).
SymLayout sym_complement(const SymLayout& a, const std::vector<SymInt>& cotarget);

// composition(A, B).
SymLayout sym_composition(const SymLayout& a, const SymLayout& b);

// logical_divide(A, T): divide.cpp's layout form.
SymLayout sym_logical_divide(const SymLayout& a, const SymLayout& tiler);

}  // namespace cuteref::proofs
