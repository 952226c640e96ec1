// Tilers: the second operand of CuTe's divide and product families, and the regroupings
// (tile_unzip, the "tiled" and "flat" unpackings) that those families share.
//
// A tiler is one of
//   - a layout T: applies to the whole layout (or mode) it is given;
//   - an integer n >= 1: stands for the layout n:_1 (CuTe's make_layout(n));
//   - `_`: leaves the layout (or mode) as it is;
//   - a tuple of tilers (an integer tuple such as `(4,8)` or `(_,4)`, or a mixed tuple such
//     as `(4:1, 8:2)` or `((2,2), 3:1)`): element i applies to mode i, recursively; modes
//     beyond the tuple's rank are kept unchanged.
#pragma once

#include <functional>
#include <string>

#include "layout.hpp"
#include "tiler_generic.hpp"
#include "value.hpp"

namespace cuteref {

// An operation of a layout and a layout tiler (the layout forms of logical_divide and
// logical_product).
using LayoutTilerOp = std::function<Layout(const Layout&, const Layout&)>;

// apply_tiler(A, tiler, op, fn): CuTe's by-mode application of a tiler.
//   layout T      -> op(A, T)
//   integer n     -> op(A, n:_1)
//   `_`           -> A
//   tuple (t0..)  -> (apply_tiler(mode(A,0), t0), ..., apply_tiler(mode(A,k-1), t_{k-1}),
//                     mode(A,k), ..., mode(A,rank(A)-1))          with k = rank(tiler)
// @pre at every tuple level, rank(tiler) <= rank(A) ("too many modes in tiler")
// @pre every tiler leaf is a layout, an integer >= 1 or `_`
// `fn` names the calling operation in diagnostics.
Layout apply_tiler(const Layout& a, const Value& tiler, const LayoutTilerOp& op, const std::string& fn);

// regroup_by_tiler(L, tiler, form): the zipped, tiled and flat forms of apply_tiler's result
// L (tiler_generic.hpp's regroup_as; TilerForm::Logical returns L).
// zipped: CuTe's tile_unzip (zip2_by of L's shape and stride, guided by the tiler): each
//   mode at a non-tuple position of the tiler is a (tile, rest) pair; the tiles go to mode 0,
//   the rests and then the modes the tiler did not reach to mode 1:
//     ((A,a),((B,b),(C,c)),d)  with tiler (X,(X,X))  ->  ((A,(B,C)),(a,(b,c),d))
// tiled:  zipped with mode 1 unpacked, (tile, r0, r1, ...) (CuTe's Z(_, repeat<rank<1>(Z)>(_)))
// flat:   zipped with both modes unpacked, (t0, t1, ..., r0, r1, ...)
// @pre at each non-tuple position of the tiler, the corresponding mode of L has rank 2
//      (as CuTe, a `_` tiler element over an undivided mode of rank 2 splits that mode;
//      over a mode of another rank it is rejected)
// @pre at each tuple position, rank(tiler) <= rank of the corresponding mode of L
// @post size(result) == size(L); the result holds L's modes regrouped, so every coordinate
//       of L, regrouped the same way, maps to the same offset (the 1-D index order changes
//       when the tiler is a tuple)
Layout regroup_by_tiler(const Layout& applied, const Value& tiler, TilerForm form, const std::string& fn);

}  // namespace cuteref
