#include "tiler.hpp"

#include <vector>

#include "error.hpp"
#include "layout_mode_ops.hpp"
#include "make_layout.hpp"
#include "tiler_generic.hpp"

namespace cuteref {

namespace {

// The elements of a tuple tiler as values, or nothing when the tiler is not a tuple.
bool tuple_elements(const Value& tiler, std::vector<Value>& out) {
  if (tiler.is_mixed_tuple()) {
    out = std::get<MixedTuple>(tiler.data).elements;
    return true;
  }
  if (tiler.is_int_tuple() && std::get<IntTuple>(tiler.data).is_tuple()) {
    out.clear();
    for (const auto& e : std::get<IntTuple>(tiler.data).elements()) out.emplace_back(e);
    return true;
  }
  return false;
}

using Tree = TilerTree<Layout>;

// tiler_generic.hpp's failed preconditions, worded with the calling operation's name.
struct TilerErrors {
  const std::string& fn;
  [[noreturn]] void too_many_modes(const Tree& t, const Layout& a) const {
    throw Error(fn + ": too many modes in tiler: tiler `" + t.text + "` has rank " + std::to_string(t.elements.size()) +
                " but layout " + a.to_string() + " has rank " + std::to_string(rank(a)));
  }
  [[noreturn]] void not_a_pair(const Tree& t, const Layout& l) const {
    throw Error(fn + ": tile_unzip needs a rank-2 (tile, rest) mode under the tiler element `" + t.text + "`, got " +
                l.to_string());
  }
};

// The tiler as a tree; an integer n becomes the layout n:_1.
// @pre every leaf is a layout, an integer >= 1 or `_`
Tree tiler_tree(const Value& tiler, const std::string& fn) {
  std::vector<Value> elems;
  if (tuple_elements(tiler, elems)) {
    std::vector<Tree> elements;
    for (const auto& e : elems) elements.push_back(tiler_tree(e, fn));
    return Tree::of_tuple(std::move(elements), tiler.to_string());
  }
  if (tiler.is_layout()) return Tree::of_layout(std::get<Layout>(tiler.data), tiler.to_string());
  if (tiler.is_int_tuple()) {
    const IntTuple& n = std::get<IntTuple>(tiler.data);
    if (n.is_underscore()) {
      Tree keep;  // Kind::Keep
      keep.text = tiler.to_string();
      return keep;
    }
    if (n.is_integer()) {
      if (n.value() < 1)
        throw Error(fn + ": an integer tiler n stands for the layout n:_1 and must be >= 1, got " + n.to_string());
      return Tree::of_layout(make_layout(n), tiler.to_string());
    }
  }
  throw Error(fn + ": a tiler must be a layout, an integer, `_`, or a tuple of tilers; got " + tiler.kind_name() +
              " `" + tiler.to_string() + "`");
}

}  // namespace

Layout apply_tiler(const Layout& a, const Value& tiler, const LayoutTilerOp& op, const std::string& fn) {
  return apply_tiler_tree(a, tiler_tree(tiler, fn), LayoutModeOps{}, op, TilerErrors{fn});
}

Layout regroup_by_tiler(const Layout& applied, const Value& tiler, TilerForm form, const std::string& fn) {
  return regroup_as(applied, tiler_tree(tiler, fn), form, LayoutModeOps{}, TilerErrors{fn});
}

}  // namespace cuteref
