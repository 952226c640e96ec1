#include "tiler.hpp"

#include <vector>

#include "error.hpp"
#include "make_layout.hpp"

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

std::vector<Layout> modes_of(const Layout& l) {
  std::vector<Layout> out;
  for (std::size_t i = 0; i < rank(l); ++i) out.push_back(mode(l, i));
  return out;
}

}  // namespace

Layout apply_tiler(const Layout& a, const Value& tiler, const LayoutTilerOp& op, const std::string& fn) {
  std::vector<Value> elems;
  if (tuple_elements(tiler, elems)) {
    if (elems.size() > rank(a))
      throw Error(fn + ": too many modes in tiler: tiler `" + tiler.to_string() + "` has rank " +
                  std::to_string(elems.size()) + " but layout " + a.to_string() + " has rank " +
                  std::to_string(rank(a)));
    std::vector<Layout> modes = modes_of(a);
    for (std::size_t i = 0; i < elems.size(); ++i) modes[i] = apply_tiler(modes[i], elems[i], op, fn);
    return make_layout_from_modes(modes);
  }
  if (tiler.is_layout()) return op(a, std::get<Layout>(tiler.data));
  if (tiler.is_int_tuple()) {
    const IntTuple& t = std::get<IntTuple>(tiler.data);
    if (t.is_underscore()) return a;
    if (t.is_integer()) {
      if (t.value() < 1)
        throw Error(fn + ": an integer tiler n stands for the layout n:_1 and must be >= 1, got " + t.to_string() +
                    " (applied to " + a.to_string() + ")");
      return op(a, make_layout(t));
    }
  }
  throw Error(fn + ": a tiler must be a layout, an integer, `_`, or a tuple of tilers; got " + tiler.kind_name() +
              " `" + tiler.to_string() + "`");
}

Layout tile_unzip(const Layout& l, const Value& tiler, const std::string& fn) {
  std::vector<Value> elems;
  if (!tuple_elements(tiler, elems)) {
    if (!l.shape().is_tuple() || rank(l) != 2)
      throw Error(fn + ": tile_unzip needs a rank-2 (tile, rest) mode under the tiler element `" +
                  tiler.to_string() + "`, got " + l.to_string());
    return l;
  }
  if (elems.size() > rank(l))
    throw Error(fn + ": tile_unzip: tiler `" + tiler.to_string() + "` has rank " + std::to_string(elems.size()) +
                " but the divided layout " + l.to_string() + " has rank " + std::to_string(rank(l)));
  std::vector<Layout> tiles, rests;
  for (std::size_t i = 0; i < elems.size(); ++i) {
    const Layout split = tile_unzip(mode(l, i), elems[i], fn);
    tiles.push_back(mode(split, 0));
    rests.push_back(mode(split, 1));
  }
  for (std::size_t i = elems.size(); i < rank(l); ++i) rests.push_back(mode(l, i));
  return make_layout_from_modes({make_layout_from_modes(tiles), make_layout_from_modes(rests)});
}

Layout unpack_rest_mode(const Layout& zipped) {
  std::vector<Layout> modes{mode(zipped, 0)};
  for (const auto& m : modes_of(mode(zipped, 1))) modes.push_back(m);
  return make_layout_from_modes(modes);
}

Layout unpack_both_modes(const Layout& zipped) {
  std::vector<Layout> modes = modes_of(mode(zipped, 0));
  for (const auto& m : modes_of(mode(zipped, 1))) modes.push_back(m);
  return make_layout_from_modes(modes);
}

}  // namespace cuteref
