// The model's Layout seen by mode, for the generic glue that regroups modes
// (tiler_generic.hpp, product_generic.hpp): rank, mode i (a leaf layout is its own mode 0,
// as layout.cpp's mode()), and the layout of given modes.
#pragma once

#include <cstddef>
#include <vector>

#include "layout.hpp"

namespace cuteref {

struct LayoutModeOps {
  std::size_t rank(const Layout& l) const { return cuteref::rank(l); }
  Layout mode(const Layout& l, std::size_t i) const { return cuteref::mode(l, i); }
  bool is_leaf(const Layout& l) const { return !l.shape().is_tuple(); }
  Layout unit_mode() const { return Layout(IntTuple::static_int(1), IntTuple::static_int(0)); }
  Layout from_modes(const std::vector<Layout>& modes) const { return make_layout_from_modes(modes); }
};

}  // namespace cuteref
