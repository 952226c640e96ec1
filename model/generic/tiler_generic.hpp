// CuTe's tilers, written once over the layout representation (the model's Layout in
// tiler.cpp; symbolic layouts in proofs/): the by-mode application of a tiler and the
// regroupings (tile_unzip, the "tiled" and "flat" unpackings) that the divide and product
// families share. The proofs run exactly this code on symbolic layouts.
//
// ModeOps: rank(L), mode(L, i) (a leaf layout is its own mode 0), from_modes(vector<L>).
// Errors:  too_many_modes(tiler, L)      rank(tiler) > rank(L) at a tuple level
//          not_a_pair(tiler, L)          tile_unzip under a non-tuple element, L not rank 2
// each a function that throws (the model words them with the tiler's text).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cuteref {

// A tiler as a tree: a layout (an integer n is already the layout n:_1), `_` (keep), or a
// tuple of tilers whose element i applies to mode i. `text` is how the tiler was written,
// for diagnostics (may be empty).
template <class LayoutT>
struct TilerTree {
  enum class Kind { Layout, Keep, Tuple } kind = Kind::Keep;
  std::optional<LayoutT> layout;      // Kind::Layout
  std::vector<TilerTree> elements;    // Kind::Tuple
  std::string text;

  static TilerTree of_layout(LayoutT l, std::string text = "") {
    TilerTree t;
    t.kind = Kind::Layout;
    t.layout = std::move(l);
    t.text = std::move(text);
    return t;
  }
  static TilerTree of_tuple(std::vector<TilerTree> elements, std::string text = "") {
    TilerTree t;
    t.kind = Kind::Tuple;
    t.elements = std::move(elements);
    t.text = std::move(text);
    return t;
  }
};

// What a tuple tiler does with the modes of A beyond its own rank: the divides and products
// keep them (CuTe's by-mode application), composition by a tiler drops them.
enum class UnreachedModes { Kept, Dropped };

// The by-mode walk of a tiler: op(A, T) for a layout T; A for `_`; for a tuple
// (t0..t_{k-1}): (walk(mode(A,0), t0), ..., walk(mode(A,k-1), t_{k-1})), followed by
// mode(A,k), ..., mode(A,rank-1) when `unreached` is Kept.
// @pre at every tuple level rank(T) <= rank(A) (else errors.too_many_modes)
template <class LayoutT, class ModeOps, class Op, class Errors>
LayoutT walk_tiler_tree(const LayoutT& a, const TilerTree<LayoutT>& t, const ModeOps& ops, const Op& op,
                        const Errors& errors, UnreachedModes unreached) {
  using Kind = typename TilerTree<LayoutT>::Kind;
  if (t.kind == Kind::Keep) return a;
  if (t.kind == Kind::Layout) return op(a, *t.layout);
  if (t.elements.size() > ops.rank(a)) errors.too_many_modes(t, a);
  const std::size_t end = unreached == UnreachedModes::Kept ? ops.rank(a) : t.elements.size();
  std::vector<LayoutT> modes;
  for (std::size_t i = 0; i < end; ++i)
    modes.push_back(i < t.elements.size() ? walk_tiler_tree(ops.mode(a, i), t.elements[i], ops, op, errors, unreached)
                                          : ops.mode(a, i));
  return ops.from_modes(modes);
}

// apply_tiler(A, T, op), the divides' and products' application: the modes of A that a tuple
// does not reach are kept.
template <class LayoutT, class ModeOps, class Op, class Errors>
LayoutT apply_tiler_tree(const LayoutT& a, const TilerTree<LayoutT>& t, const ModeOps& ops, const Op& op,
                         const Errors& errors) {
  return walk_tiler_tree(a, t, ops, op, errors, UnreachedModes::Kept);
}

// composition(A, T) by a tiler (CuTe's composition with a Tiler): the modes of A that a
// tuple does not reach are dropped.
template <class LayoutT, class ModeOps, class Op, class Errors>
LayoutT compose_by_tiler_tree(const LayoutT& a, const TilerTree<LayoutT>& t, const ModeOps& ops, const Op& op,
                              const Errors& errors) {
  return walk_tiler_tree(a, t, ops, op, errors, UnreachedModes::Dropped);
}

// tile_unzip(L, T): L is apply_tiler's result, so each mode at a non-tuple position of T is
// a (tile, rest) pair; the tiles go to mode 0, the rests and then the modes T did not
// reach to mode 1: ((A,a),((B,b),(C,c)),d) with T = (X,(X,X)) -> ((A,(B,C)),(a,(b,c),d)).
// @pre at each non-tuple position of T the mode of L has rank 2 (else errors.not_a_pair)
// @pre at each tuple position rank(T) <= rank of that mode of L (else errors.too_many_modes)
// @post L's modes regrouped: every coordinate, regrouped the same way, has the same offset
template <class LayoutT, class ModeOps, class Errors>
LayoutT tile_unzip_tree(const LayoutT& l, const TilerTree<LayoutT>& t, const ModeOps& ops, const Errors& errors) {
  using Kind = typename TilerTree<LayoutT>::Kind;
  if (t.kind != Kind::Tuple) {
    if (ops.is_leaf(l) || ops.rank(l) != 2) errors.not_a_pair(t, l);
    return l;
  }
  if (t.elements.size() > ops.rank(l)) errors.too_many_modes(t, l);
  std::vector<LayoutT> tiles, rests;
  for (std::size_t i = 0; i < t.elements.size(); ++i) {
    const LayoutT split = tile_unzip_tree(ops.mode(l, i), t.elements[i], ops, errors);
    tiles.push_back(ops.mode(split, 0));
    rests.push_back(ops.mode(split, 1));
  }
  for (std::size_t i = t.elements.size(); i < ops.rank(l); ++i) rests.push_back(ops.mode(l, i));
  return ops.from_modes({ops.from_modes(tiles), ops.from_modes(rests)});
}

// (tile, (r0,r1,...)) -> (tile, r0, r1, ...) (CuTe's Z(_, repeat<rank<1>(Z)>(_))); a leaf
// rest r gives (tile, r). @post the same function of the coordinate, mode 1 flattened one level
template <class LayoutT, class ModeOps>
LayoutT unpack_rest(const LayoutT& zipped, const ModeOps& ops) {
  std::vector<LayoutT> modes{ops.mode(zipped, 0)};
  const LayoutT rest = ops.mode(zipped, 1);
  for (std::size_t i = 0; i < ops.rank(rest); ++i) modes.push_back(ops.mode(rest, i));
  return ops.from_modes(modes);
}

// ((t0,t1,...), (r0,r1,...)) -> (t0, t1, ..., r0, r1, ...).
template <class LayoutT, class ModeOps>
LayoutT unpack_tile_and_rest(const LayoutT& zipped, const ModeOps& ops) {
  std::vector<LayoutT> modes;
  for (const LayoutT& part : {ops.mode(zipped, 0), ops.mode(zipped, 1)})
    for (std::size_t i = 0; i < ops.rank(part); ++i) modes.push_back(ops.mode(part, i));
  return ops.from_modes(modes);
}

// The four forms of a divide or product by a tiler, from apply_tiler's result: logical (as
// it is), zipped (tile_unzip), tiled (zipped, its rest mode unpacked) and flat (zipped, both
// modes unpacked).
enum class TilerForm { Logical, Zipped, Tiled, Flat };

template <class LayoutT, class ModeOps, class Errors>
LayoutT regroup_as(const LayoutT& applied, const TilerTree<LayoutT>& t, TilerForm form, const ModeOps& ops,
                   const Errors& errors) {
  if (form == TilerForm::Logical) return applied;
  const LayoutT zipped = tile_unzip_tree(applied, t, ops, errors);
  if (form == TilerForm::Zipped) return zipped;
  return form == TilerForm::Tiled ? unpack_rest(zipped, ops) : unpack_tile_and_rest(zipped, ops);
}

}  // namespace cuteref
