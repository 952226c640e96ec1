#include "divide.hpp"

#include "coalesce.hpp"
#include "coalesce_generic.hpp"
#include "complement.hpp"
#include "composition.hpp"
#include "divide_generic.hpp"
#include "error.hpp"
#include "flat_coalesce.hpp"
#include "form_modes.hpp"
#include "inline_flat_ints.hpp"
#include "leaf_policies.hpp"
#include "tiler.hpp"

namespace cuteref {

namespace {

// A's flattened modes, taken once for both of divide's reads of A (its coalesced shape and
// the composition); `flat` is false when A has a scaled-basis stride.
struct FlatA {
  FlatModesOfInts modes;
  bool flat = false;
};

// The steps both holders of the modes share (Modes: FlatModesOfInts or InlineFlatModes).
template <class Modes>
struct DivideRestOps {
  // R as its flat modes: composition reads them without R's tuples being built.
  Modes complement(const Layout& t, const Modes& shape) const {
    Modes r;
    complement_flat_of_shape_leaves(t, shape.shapes.data(), shape.shapes.size(), r);
    return r;
  }
  // The pair (T, R) stands for make_layout_from_modes({T, R.layout()}); composition reads
  // its two modes without the pair being built.
  struct Pair {
    const Layout& t;
    const Modes& r;
  };
  Pair pair(const Layout& t, const Modes& r) const { return {t, r}; }
};

// logical_divide_layout's steps on the model's layouts.
struct LayoutDivideOps : DivideRestOps<FlatModesOfInts> {
  FlatA& a_flat;  // filled by coalesced_shape, read by composition (both on the same A)
  // The leaves of coalesce(A)'s shape, as plain values (the proofs' SymDivideOps also
  // passes the leaves): complement reads only the leaves of its cotarget. Held in the
  // `shapes` of flat modes (returned in place, no copy); the strides are not read.
  FlatModesOfInts coalesced_shape(const Layout& a) const {
    a_flat.flat = flat_int_modes(a, a_flat.modes);
    FlatModesOfInts m;
    if (!a_flat.flat) {  // scaled-basis strides: coalesce on IntTuple leaves
      append_flat_ints(coalesce_flat(flat_modes(a.shape(), a.stride())).shape(), m.shapes);
      return m;
    }
    ModesOut<FlatInts> out{m.shapes, m.strides};
    coalesce_flat_modes_to<FlatIntLeaf>(a_flat.modes.shapes, a_flat.modes.strides, out);  // _1:_0 gives the leaf 1
    return m;
  }
  Layout composition(const Layout& a, const Pair& b) const {
    return a_flat.flat ? composition_of_pair(a, std::move(a_flat.modes), b.t, b.r) : composition_of_pair(a, b.t, b.r);
  }
};

// LayoutDivideOps' steps with every working vector in place (inline_flat_ints.hpp), for A and
// the tiler held as their forms with room for complement's modes (A's leaves plus T's).
struct InlineDivideOps : DivideRestOps<InlineFlatModes> {
  InlineFlatModes& a_modes;  // the composition's working storage (it reads A from its form)
  // The leaves of coalesce(A)'s shape (in `shapes`; as LayoutDivideOps').
  InlineFlatModes coalesced_shape(const Layout& a) const {
    InlineFlatModes m;
    InlineModesOut out(InlineModesTarget{m.shapes, m.strides});
    coalesce_flat_modes_to<FlatIntLeaf>(FormShapes{*a.leaves()}, FormStrides{*a.leaves()}, out);  // _1:_0: the leaf 1
    out.finish();
    return m;
  }
  Layout composition(const Layout& a, const Pair& b) const {
    return composition_of_pair(a, std::move(a_modes), b.t, b.r);
  }
};

// The layout form, with diagnostics that name the calling operation and the operands.
// `fn`: the calling operation's name (a literal: no string is built unless a diagnostic is).
Layout divide_by_layout(const Layout& a, const Layout& tiler, const char* fn) {
  try {
    // Both held as their forms, with room for complement's modes (at most T's leaves and one
    // per leaf of A's coalesced shape): every working vector in place.
    const BracketedLeaves* a_form = a.leaves();
    const BracketedLeaves* t_form = tiler.leaves();
    if (a_form != nullptr && t_form != nullptr && std::size_t{a_form->n} + t_form->n <= kInlineLeaves) {
      InlineFlatModes a_modes;
      return logical_divide_layout(a, tiler, InlineDivideOps{{}, a_modes});
    }
    FlatA a_flat;
    return logical_divide_layout(a, tiler, LayoutDivideOps{{}, a_flat});
  } catch (const Error& e) {
    throw Error(std::string(fn) + "(" + a.to_string() + ", " + tiler.to_string() + "): " + e.what());
  }
}

Layout divide_by_tiler(const Layout& a, const Value& tiler, const char* fn) {
  return apply_tiler(a, tiler, [&](const Layout& m, const Layout& t) { return divide_by_layout(m, t, fn); }, fn);
}

}  // namespace

Layout logical_divide(const Layout& a, const Layout& tiler) { return divide_by_layout(a, tiler, "logical_divide"); }

Layout logical_divide(const Layout& a, const Value& tiler) { return divide_by_tiler(a, tiler, "logical_divide"); }

Layout zipped_divide(const Layout& a, const Value& tiler) {
  return regroup_by_tiler(divide_by_tiler(a, tiler, "zipped_divide"), tiler, TilerForm::Zipped, "zipped_divide");
}

Layout tiled_divide(const Layout& a, const Value& tiler) {
  return regroup_by_tiler(divide_by_tiler(a, tiler, "tiled_divide"), tiler, TilerForm::Tiled, "tiled_divide");
}

Layout flat_divide(const Layout& a, const Value& tiler) {
  return regroup_by_tiler(divide_by_tiler(a, tiler, "flat_divide"), tiler, TilerForm::Flat, "flat_divide");
}

ComposedLayout logical_divide(const ComposedLayout& a, const Value& tiler) {
  return {a.swizzle, a.offset, logical_divide(a.layout, tiler)};
}

ComposedLayout zipped_divide(const ComposedLayout& a, const Value& tiler) {
  return {a.swizzle, a.offset, zipped_divide(a.layout, tiler)};
}

ComposedLayout tiled_divide(const ComposedLayout& a, const Value& tiler) {
  return {a.swizzle, a.offset, tiled_divide(a.layout, tiler)};
}

ComposedLayout flat_divide(const ComposedLayout& a, const Value& tiler) {
  return {a.swizzle, a.offset, flat_divide(a.layout, tiler)};
}

}  // namespace cuteref
