#include "product.hpp"

#include <algorithm>
#include <vector>

#include "complement.hpp"
#include "composition.hpp"
#include "error.hpp"
#include "product_generic.hpp"
#include "tiler.hpp"

namespace cuteref {

namespace {

// logical_product_layout's steps on the model's layouts. A is flattened once, for its size
// and for complement; the free offsets are held as their flat modes and composed without
// being rebuilt.
struct LayoutProductOps {
  FlatModesOfInts free_offsets(const Layout& a, const Layout& tiler) const {
    FlatModesOfInts a_modes, free;
    if (!flat_int_modes(a, a_modes)) {
      complement_flat(a, leaf_mul(size(a), cosize(tiler)), free);  // its diagnostic
    } else {
      FlatInt size_a{1, true};
      for (const FlatInt& s : a_modes.shapes) size_a = flat_mul(size_a, s);
      complement_flat_of_modes(a, a_modes, flat_mul(size_a, FlatInt::of(cosize(tiler))), free);
    }
    return free;
  }
  Layout composition(FlatModesOfInts&& free, const Layout& tiler) const {
    return composition_of_flat(std::move(free), tiler);
  }
  Layout pair(const Layout& a, Layout&& copies) const { return make_layout_from_modes(Layout(a), std::move(copies)); }
};

// The layout form, with diagnostics that name the calling operation and the operands.
// `fn`: the calling operation's name (a literal: no string is built unless a diagnostic is).
Layout product_by_layout(const Layout& a, const Layout& tiler, const char* fn) {
  try {
    return logical_product_layout(a, tiler, LayoutProductOps{});
  } catch (const Error& e) {
    throw Error(std::string(fn) + "(" + a.to_string() + ", " + tiler.to_string() + "): " + e.what());
  }
}

Layout product_by_tiler(const Layout& a, const Value& tiler, const char* fn) {
  return apply_tiler(a, tiler, [&](const Layout& m, const Layout& t) { return product_by_layout(m, t, fn); }, fn);
}

// Pairs mode i of the padded block with the copies of mode i of the padded tiler, in the
// order the caller asks for (block first for blocked_product, copies first for raked).
Layout zip_block_and_copies(const Layout& a, const Layout& b, bool block_first, const char* fn) {
  const std::size_t r = std::max(rank(a), rank(b));
  const Layout block = append_to_rank(a, r);
  const Layout tiler = append_to_rank(b, r);
  const Layout copies = mode(product_by_layout(block, tiler, fn), 1);
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < r; ++i) {
    // composition's result is congruent to the tiler: a leaf tiler is one mode whatever
    // shape the composition gave it.
    const Layout c = tiler.shape().is_tuple() ? mode(copies, i) : copies;
    const Layout m = mode(block, i);
    modes.push_back(block_first ? make_layout_from_modes({m, c}) : make_layout_from_modes({c, m}));
  }
  return make_layout_from_modes(modes);
}

}  // namespace

Layout append_to_rank(const Layout& l, std::size_t r) {
  if (rank(l) >= r) return l;
  // All the _1:_0 modes at once (appending one at a time copied the modes each time: quadratic
  // in r, which tile_to_shape's target rank sets).
  std::vector<IntTuple> shapes = wrap(l.shape()).elements().to_vector(),
                        strides = wrap(l.stride()).elements().to_vector();
  shapes.resize(r, IntTuple::static_int(1));
  strides.resize(r, IntTuple::static_int(0));
  return detail::LayoutFromValidParts::make(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

Layout logical_product(const Layout& a, const Layout& tiler) { return product_by_layout(a, tiler, "logical_product"); }

Layout logical_product(const Layout& a, const Value& tiler) { return product_by_tiler(a, tiler, "logical_product"); }

Layout zipped_product(const Layout& a, const Value& tiler) {
  return tile_unzip(product_by_tiler(a, tiler, "zipped_product"), tiler, "zipped_product");
}

Layout tiled_product(const Layout& a, const Value& tiler) {
  return unpack_rest_mode(tile_unzip(product_by_tiler(a, tiler, "tiled_product"), tiler, "tiled_product"));
}

Layout flat_product(const Layout& a, const Value& tiler) {
  return unpack_both_modes(tile_unzip(product_by_tiler(a, tiler, "flat_product"), tiler, "flat_product"));
}

Layout blocked_product(const Layout& a, const Layout& b) { return zip_block_and_copies(a, b, true, "blocked_product"); }

Layout raked_product(const Layout& a, const Layout& b) { return zip_block_and_copies(a, b, false, "raked_product"); }

ComposedLayout logical_product(const ComposedLayout& a, const Value& tiler) {
  return {a.swizzle, a.offset, logical_product(a.layout, tiler)};
}

ComposedLayout zipped_product(const ComposedLayout& a, const Value& tiler) {
  return {a.swizzle, a.offset, zipped_product(a.layout, tiler)};
}

ComposedLayout tiled_product(const ComposedLayout& a, const Value& tiler) {
  return {a.swizzle, a.offset, tiled_product(a.layout, tiler)};
}

ComposedLayout flat_product(const ComposedLayout& a, const Value& tiler) {
  return {a.swizzle, a.offset, flat_product(a.layout, tiler)};
}

ComposedLayout blocked_product(const ComposedLayout& a, const Layout& b) {
  return {a.swizzle, a.offset, blocked_product(a.layout, b)};
}

ComposedLayout raked_product(const ComposedLayout& a, const Layout& b) {
  return {a.swizzle, a.offset, raked_product(a.layout, b)};
}

}  // namespace cuteref
