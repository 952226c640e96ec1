// Layouts with symbolic leaves, and the claims about them, all evaluated by the model's
// generic code (layout_eval.hpp, coalesce_generic.hpp) instantiated with SymInt.
#pragma once

#include <string>
#include <vector>

#include "coalesce_generic.hpp"
#include "layout.hpp"
#include "layout_eval.hpp"
#include "symbolic_scalar.hpp"

namespace cuteref::proofs {

using SymTuple = ScalarTuple<SymInt>;

struct SymLayout {
  SymTuple shape;
  SymTuple stride;
};

// The leaves of a shape or stride tree, left to right.
std::vector<SymInt> leaves_of(const SymTuple& t);

// A concrete model layout as a SymLayout (integer strides).
SymLayout lift(const Layout& l);

// size(L): the product of the shape's leaves, with the model's overflow side conditions.
SymInt sym_size(const SymLayout& l);

// L(i) by the model's layout_apply_index: i >= 0 is a side condition, as the model refuses a
// negative index.
SymInt apply_at(const SymLayout& l, const SymInt& index);

// The model's coalesce run on symbolic leaves (every merge decision a case split).
SymLayout sym_coalesce(const SymLayout& l);

// CuTe's (and the model's) equality of layouts as functions: equal sizes and equal values
// at every index 0 <= index < size. `index` is a fresh variable the caller quantifies over;
// side conditions of the evaluation are required only inside the domain.
z3::expr functions_equal(const SymLayout& a, const SymLayout& b, const SymInt& index);

// L is injective on [0, size(L)): distinct coordinates of L's flattened leaves (0 <= c_k <
// s_k) have distinct offsets sum_k c_k * d_k. A layout is the function of its flattening
// (the law flatten_every_depth) and the index-coordinate map is a bijection, so this is
// exactly injectivity. A formula quantified over the coordinates, on integers: the prover
// states it as a hypothesis (`--assume 'injective(L)'`). @pre the integer encoding.
z3::expr injective(const SymLayout& l);

// Same structure (rank at every level) and equal leaves.
z3::expr structurally_equal(const SymTuple& a, const SymTuple& b);

// The layout built from a shape and stride tree of fresh variables s<k> / d<k>, ranging
// over shape_range / stride_range (appended to `domain`): the tree is given as a profile
// (an IntTuple whose leaf values are ignored, e.g. ((0,0),0)). Appends the variables to
// `shapes` / `strides` (names count on from their sizes).
using Range = std::pair<std::int64_t, std::int64_t>;
SymLayout variable_layout(SymbolicScope& s, const IntTuple& profile, Range shape_range, Range stride_range,
                          std::vector<z3::expr>& domain, std::vector<SymInt>& shapes, std::vector<SymInt>& strides);

}  // namespace cuteref::proofs
