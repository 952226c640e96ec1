#include "product.hpp"

#include <algorithm>
#include <vector>

#include "complement.hpp"
#include "composition.hpp"
#include "error.hpp"
#include "form_modes.hpp"
#include "layout_mode_ops.hpp"
#include "product_generic.hpp"
#include "tiler.hpp"

namespace cuteref {

namespace {

// The cotarget of A's free offsets, size(A) * cosize(B), from A's flattened shapes (a vector,
// or a view of A's form).
template <class Shapes>
FlatInt free_offsets_cotarget(const Shapes& a_shapes, const Layout& tiler) {
  FlatInt size_a{1, true};
  for (std::size_t i = 0; i < a_shapes.size(); ++i) size_a = flat_mul(size_a, a_shapes[i]);
  return flat_mul(size_a, cosize_flat(tiler));
}

// The steps both holders of the modes share (Modes: FlatModesOfInts or InlineFlatModes).
template <class Modes>
struct ProductCopiesOps {
  Layout composition(Modes&& free, const Layout& tiler) const { return composition_of_flat(std::move(free), tiler); }
  Layout pair(const Layout& a, Layout&& copies) const { return make_layout_from_modes(a, std::move(copies)); }
};

// logical_product_layout's steps on the model's layouts. A is flattened once, for its size
// and for complement; the free offsets are held as their flat modes and composed without
// being rebuilt.
struct LayoutProductOps : ProductCopiesOps<FlatModesOfInts> {
  FlatModesOfInts free_offsets(const Layout& a, const Layout& tiler) const {
    FlatModesOfInts a_modes, free;
    if (!flat_int_modes(a, a_modes)) complement_flat(a, leaf_mul(size(a), cosize(tiler)), free);  // its diagnostic
    else complement_flat_of_modes(a, a_modes, free_offsets_cotarget(a_modes.shapes, tiler), free);
    return free;
  }
};

// The same with every working vector in place (inline_flat_ints.hpp), for A held as its form
// with room for complement's modes (A's leaves plus one): complement reads A's form.
struct InlineProductOps : ProductCopiesOps<InlineFlatModes> {
  InlineFlatModes free_offsets(const Layout& a, const Layout& tiler) const {
    const FlatInt cotarget = free_offsets_cotarget(FormShapes{*a.leaves()}, tiler);
    InlineFlatModes free;
    complement_flat_of_shape_leaves(a, &cotarget, 1, free);
    return free;
  }
  Layout pair_with_composition(const Layout& a, InlineFlatModes&& free, const Layout& tiler) const {
    return pair_with_composition_of_flat(a, std::move(free), tiler);
  }
};

// The layout form, with diagnostics that name the calling operation and the operands.
// `fn`: the calling operation's name (a literal: no string is built unless a diagnostic is).
Layout product_by_layout(const Layout& a, const Layout& tiler, const char* fn) {
  try {
    const BracketedLeaves* a_form = a.leaves();
    if (a_form != nullptr && std::size_t{a_form->n} + 1 <= kInlineLeaves)
      return logical_product_layout(a, tiler, InlineProductOps{});
    return logical_product_layout(a, tiler, LayoutProductOps{});
  } catch (const Error& e) {
    throw Error(std::string(fn) + "(" + a.to_string() + ", " + tiler.to_string() + "): " + e.what());
  }
}

Layout product_by_tiler(const Layout& a, const Value& tiler, const char* fn) {
  return apply_tiler(a, tiler, [&](const Layout& m, const Layout& t) { return product_by_layout(m, t, fn); }, fn);
}

// product_generic.hpp's glue on the model's layouts; `fn` names the calling operation in
// logical_product's diagnostics.
struct ProductModeOps : LayoutModeOps {
  const char* fn;
  explicit ProductModeOps(const char* f) : fn(f) {}
  Layout logical_product(const Layout& a, const Layout& b) const { return product_by_layout(a, b, fn); }
};

}  // namespace

Layout append_to_rank(const Layout& l, std::size_t r) {
  return append_to_rank_layout(l, r, ProductModeOps{"append_to_rank"});
}

Layout logical_product(const Layout& a, const Layout& tiler) { return product_by_layout(a, tiler, "logical_product"); }

Layout logical_product(const Layout& a, const Value& tiler) { return product_by_tiler(a, tiler, "logical_product"); }

Layout zipped_product(const Layout& a, const Value& tiler) {
  return regroup_by_tiler(product_by_tiler(a, tiler, "zipped_product"), tiler, TilerForm::Zipped, "zipped_product");
}

Layout tiled_product(const Layout& a, const Value& tiler) {
  return regroup_by_tiler(product_by_tiler(a, tiler, "tiled_product"), tiler, TilerForm::Tiled, "tiled_product");
}

Layout flat_product(const Layout& a, const Value& tiler) {
  return regroup_by_tiler(product_by_tiler(a, tiler, "flat_product"), tiler, TilerForm::Flat, "flat_product");
}

Layout blocked_product(const Layout& a, const Layout& b) {
  return zip_block_and_copies(a, b, true, ProductModeOps{"blocked_product"});
}

Layout raked_product(const Layout& a, const Layout& b) {
  return zip_block_and_copies(a, b, false, ProductModeOps{"raked_product"});
}

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
