// F2 layouts (model/f2/, PyCuTe's XOR-linear layouts) applied to symbolic indices: the model's
// own application (f2_eval.hpp) on SymInt, in the bit-vector encoding (XOR and shifts).
#pragma once

#include "f2_layout.hpp"
#include "symbolic_scalar.hpp"

namespace cuteref::proofs {

// L(index) for a concrete F2 layout L and a symbolic index: the model's apply_index, its
// checks (a negative index, a carry-less product past 63 bits) proof obligations.
// @pre the bit-vector encoding (Error otherwise: the integer encoding has no XOR)
SymInt sym_f2_apply(const F2Layout& l, const SymInt& index);

// size(L) as a symbolic constant.
SymInt sym_f2_size(const F2Layout& l);

}  // namespace cuteref::proofs
