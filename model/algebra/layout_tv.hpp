// make_layout_tv: the thread-value layout of a thread layout repeated over a value layout
// (CuTe's make_layout_tv, as make_tiled_copy builds it; the CuTe DSL's cute.make_layout_tv).
#pragma once

#include "int_tuple.hpp"
#include "layout.hpp"

namespace cuteref {

struct LayoutTV {
  IntTuple tiler_mn;  // the (M,N,...) extent of the tile: the size of each mode of layout_mn
  Layout layout_tv;   // (thread, value) -> column-major index into the tile
};

// make_layout_tv(thr, val): layout_mn = raked_product(thr, val) maps a tile coordinate to
// thread + size(thr) * value; layout_tv is its right inverse restricted to the
// (size(thr), size(val)) domain, so that layout_mn(layout_tv(t, v)) == t + size(thr) * v.
// @pre thr and val are compact (every thread and value index appears once), which the
//      right inverse needs to cover the whole (thread, value) domain; otherwise an error.
LayoutTV make_layout_tv(const Layout& thr, const Layout& val);

}  // namespace cuteref
