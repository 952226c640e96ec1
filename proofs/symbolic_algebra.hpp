// The model's complement, composition and logical_divide on symbolic layouts: the model's
// own generic algorithms (complement_generic.hpp, composition_generic.hpp,
// divide_generic.hpp, coalesce_generic.hpp) run on SymInt leaves, every data-dependent
// branch a case split (ScalarOps::decide) and every precondition a proof obligation
// (ScalarOps::require), as for coalesce.
//
// Covered: integer strides; complement(A, M) for any A; composition(A, B) for any A but ()
// (A read through the model's coalesce_x); the divides and products by a layout, an integer
// or a tuple of them (their logical / zipped / tiled / flat forms); blocked and raked products; both inverses;
// tile_to_shape in column-major order.
#pragma once

#include <string>
#include <vector>

#include "complement_generic.hpp"
#include "composition_generic.hpp"
#include "inverse_generic.hpp"
#include "symbolic_layout.hpp"
#include "tiler_generic.hpp"

namespace cuteref::proofs {

// complement_generic.hpp's decisions and checks on symbolic leaves, the model's own (each
// check a proof obligation, the sort's comparisons case splits).
using SymComplementOps = ComplementOps<ScalarLeaf<SymInt>, ComplementConditions>;

// composition_generic.hpp's decisions and checks on symbolic leaves, the model's own (each
// check a proof obligation, each decision a case split). `s`: A's shapes, which the checks read.
using SymCompositionOps = CompositionOps<ScalarLeaf<SymInt>, CompositionConditions>;

// coalesce_unbounded_modes' (CuTe's coalesce_x) decisions on symbolic leaves: coalesce's,
// the model's own (coalesce_generic.hpp).
using SymCoalesceXOps = CoalesceOps<ScalarLeaf<SymInt>>;

// inverse_generic.hpp's decisions and checks on symbolic leaves, the model's own (`strides`:
// L's coalesced strides, which left_inverse's checks read).
using SymInverseOps = InverseOps<ScalarLeaf<SymInt>, InverseConditions>;

// complement(A, M) for the flat cotarget M (its leaves, left to right).
SymLayout sym_complement(const SymLayout& a, const std::vector<SymInt>& cotarget);

// composition(A, B).
SymLayout sym_composition(const SymLayout& a, const SymLayout& b);

// logical_divide(A, T): divide.cpp's layout form.
SymLayout sym_logical_divide(const SymLayout& a, const SymLayout& tiler);

// logical_product(A, B): product.cpp's layout form (product_generic.hpp).
SymLayout sym_logical_product(const SymLayout& a, const SymLayout& tiler);

// blocked_product(A, B) / raked_product(A, B): product.cpp's zip of A's modes with their
// copies (a structural regrouping of logical_product of the rank-padded operands).
SymLayout sym_blocked_product(const SymLayout& a, const SymLayout& b, bool block_first);

// Symbolic layouts seen by mode, for the glue written once over the layout
// (tiler_generic.hpp, product_generic.hpp), as the model's LayoutModeOps: a leaf layout is its
// own mode 0.
struct SymModeOps {
  std::size_t rank(const SymLayout& l) const { return l.shape.rank(); }
  SymLayout mode(const SymLayout& l, std::size_t i) const {
    if (!l.shape.is_tuple()) return l;
    return {l.shape[i], l.stride[i]};
  }
  bool is_leaf(const SymLayout& l) const { return !l.shape.is_tuple(); }
  SymLayout unit_mode() const {
    return {SymTuple::of(ScalarOps<SymInt>::constant(1)), SymTuple::of(ScalarOps<SymInt>::constant(0))};
  }
  SymLayout from_modes(const std::vector<SymLayout>& modes) const {
    std::vector<SymTuple> sh, st;
    for (const auto& m : modes) sh.push_back(m.shape), st.push_back(m.stride);
    return {SymTuple::tuple(std::move(sh)), SymTuple::tuple(std::move(st))};
  }
  SymLayout logical_product(const SymLayout& a, const SymLayout& b) const;  // sym_logical_product
};

// A tiler on symbolic layouts (tiler_generic.hpp): a layout (an integer n is n:1), `_`, or a
// tuple of tilers, element i applied to mode i.
using SymTiler = TilerTree<SymLayout>;

// The divide and product families by a tiler, as divide.cpp and product.cpp: the layout
// form (sym_logical_divide / sym_logical_product) applied by apply_tiler_tree, then the
// form's regrouping (regroup_as: logical, zipped, tiled or flat).
SymLayout sym_divide(const SymLayout& a, const SymTiler& tiler, TilerForm form);
// The regrouping alone, of apply_tiler's result (tiler_generic.hpp's regroup_as).
SymLayout sym_regroup(const SymLayout& applied, const SymTiler& tiler, TilerForm form);
SymLayout sym_product(const SymLayout& a, const SymTiler& tiler, TilerForm form);

// composition(A, T) by a tiler, as composition.cpp (tiler_generic.hpp's
// compose_by_tiler_tree): a layout T composes whole (sym_composition), a tuple mode by mode,
// and the modes of A that the tuple does not reach are dropped.
SymLayout sym_composition_by_tiler(const SymLayout& a, const SymTiler& tiler);

// coalesce(L, profile), as coalesce.cpp (coalesce_generic.hpp's coalesce_by_profile): a leaf
// profile coalesces L whole (sym_coalesce), a tuple mode by mode, the modes beyond it kept.
// Only the profile's structure is read.
SymLayout sym_coalesce_by_profile(const SymLayout& l, const SymTuple& profile);
SymLayout sym_coalesce_by_profile(const SymLayout& l, const IntTuple& profile);

// max_common_vector(A, B) / max_common_layout(A, B), as max_common.cpp
// (max_common_generic.hpp): the front of coalesce(A o right_inverse_full(B)) decided on the
// values (a case split on its stride), as the model decides.
SymInt sym_max_common_vector(const SymLayout& a, const SymLayout& b);
SymLayout sym_max_common_layout(const SymLayout& a, const SymLayout& b);

// right_inverse(L) / left_inverse(L): inverse.cpp (inverse_generic.hpp).
SymLayout sym_right_inverse(const SymLayout& l);
SymLayout sym_left_inverse(const SymLayout& l);

// tile_to_shape(block, target) in column-major copy order (tile_to_shape.cpp). A target
// whose leaves are all static (`target_static`, CuTe's _N) must be divisible mode by mode by
// the block, a proof obligation as in the model (tile_copies); a dynamic one is rounded up.
// copies_static[i]: whether mode i's copies count is static on the model (target mode i and
// block mode i all static), so that a count of 1 has the stride _0. @pre its size is the
// target's rank.
SymLayout sym_tile_to_shape(const SymLayout& block, const SymTuple& target, bool target_static,
                            const std::vector<bool>& copies_static);

}  // namespace cuteref::proofs
