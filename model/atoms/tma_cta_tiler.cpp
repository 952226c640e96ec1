#include "atoms/tma_cta_tiler.hpp"

#include "checked_math.hpp"
#include "error.hpp"
#include "inverse.hpp"

namespace cuteref {

namespace {

// `extent` steps of `scale` coordinates along flattened GMEM leaf `leaf`. Static flags follow
// CuTe's arithmetic: only statically known extents and scales take part in its merges.
struct LeafRun {
  std::int64_t extent;
  int leaf;
  std::int64_t scale;
  bool static_extent, static_scale;
};

// Composition of the runs `lhs` (an index -> GMEM coordinate map, its last run extended past its
// extent as CuTe's composition extends a layout's last mode) with one mode extent:stride of the
// right-hand side; appends the result's runs to `out`. `where` names the two for a diagnostic.
void compose_mode(const std::vector<LeafRun>& lhs, std::int64_t extent, std::int64_t stride, bool rhs_static,
                  std::vector<LeafRun>& out, const std::string& where) {
  const auto no_divide = [&](std::int64_t a, std::int64_t b) {
    return Error(where + ": extents " + std::to_string(a) + " and " + std::to_string(b) +
                 " do not divide one another (CuTe's composition needs it)");
  };
  if (lhs.empty()) throw Error(where + ": the left-hand side has no GMEM leaf");
  std::size_t i = 0;
  LeafRun cur = lhs[0];
  bool dep_static = rhs_static;  // the static flag of what the lhs extents passed so far allow
  // Skip `stride` indices: whole runs, then part of one (its scale grows).
  for (std::int64_t rest = stride; rest > 1;) {
    if (i + 1 == lhs.size()) {
      cur.scale = checked_mul(cur.scale, rest);
      cur.static_scale = cur.static_scale && dep_static;
      cur.extent = 0;  // extended: no bound
      break;
    }
    if (cur.extent <= rest) {
      if (rest % cur.extent != 0) throw no_divide(cur.extent, rest);
      rest /= cur.extent;
      dep_static = dep_static && cur.static_extent;
      cur = lhs[++i];
      continue;
    }
    if (cur.extent % rest != 0) throw no_divide(cur.extent, rest);
    cur.extent /= rest;
    cur.scale = checked_mul(cur.scale, rest);
    cur.static_scale = cur.static_scale && dep_static;
    cur.static_extent = cur.static_extent && dep_static;
    rest = 1;
  }
  // Take `extent` indices from there on.
  for (std::int64_t rest = extent; rest > 1;) {
    const bool last = i + 1 == lhs.size();
    if (last || cur.extent >= rest) {
      if (!last && cur.extent % rest != 0) throw no_divide(cur.extent, rest);
      out.push_back({rest, cur.leaf, cur.scale, dep_static && (last || cur.static_extent), cur.static_scale});
      break;
    }
    if (cur.extent > 1) {
      if (rest % cur.extent != 0) throw no_divide(cur.extent, rest);
      LeafRun whole = cur;  // CuTe takes min(extent, rest): static only if both are
      whole.static_extent = cur.static_extent && dep_static;
      out.push_back(whole);
      rest /= cur.extent;
      dep_static = dep_static && cur.static_extent;
    }
    cur = lhs[++i];
  }
}

// CuTe's composition of a layout with a tiler, on GMEM's identity: a tuple tiler tiles the
// layout's modes one by one (recursively; modes past the tiler's are dropped), `_` keeps a whole
// mode, an integer n takes the leading n coordinates of the (sub)mode colexicographically. `shape`
// is the GMEM (sub)shape whose first leaf is leaf `first`; appends the tile's runs to `out`.
void tile_by(const std::string& what, const IntTuple& shape, const std::string& shape_text, int first,
             const IntTuple& tiler, const std::string& tiler_text, const std::vector<LeafRun>& leaves,
             std::vector<LeafRun>& out) {
  std::vector<IntTuple> flat;
  flatten_into(shape, flat);
  const std::vector<LeafRun> mode_runs(leaves.begin() + first, leaves.begin() + first + static_cast<std::ptrdiff_t>(flat.size()));
  if (tiler.is_underscore()) {
    out.insert(out.end(), mode_runs.begin(), mode_runs.end());
    return;
  }
  if (tiler.is_tuple()) {
    if (tiler.rank() == 0) throw Error(what + ": the CTA tiler " + tiler_text + " has an empty mode");
    if (!shape.is_tuple()) {
      if (tiler.rank() != 1)
        throw Error(what + ": CTA tiler mode " + tiler.to_string() + " (in " + tiler_text + ") has " +
                    std::to_string(tiler.rank()) + " modes but the GMEM mode " + shape.to_string() + " (in " + shape_text +
                    ") has 1 (a tuple tiles mode by mode)");
      tile_by(what, shape, shape_text, first, tiler[0], tiler_text, leaves, out);
      return;
    }
    if (tiler.rank() > shape.rank())
      throw Error(what + ": CTA tiler mode " + tiler.to_string() + " (in " + tiler_text + ") has " + std::to_string(tiler.rank()) +
                  " modes but the GMEM mode " + shape.to_string() + " (in " + shape_text + ") has " + std::to_string(shape.rank()) +
                  " (a tuple tiles mode by mode)");
    int at = first;
    for (std::size_t k = 0; k < shape.rank(); ++k) {
      std::vector<IntTuple> sub;
      flatten_into(shape[k], sub);
      if (k < tiler.rank()) tile_by(what, shape[k], shape_text, at, tiler[k], tiler_text, leaves, out);
      at += static_cast<int>(sub.size());
    }
    return;
  }
  if (!tiler.is_integer() || tiler.value() < 1)
    throw Error(what + ": CTA tiler leaf " + tiler.to_string() + " (in " + tiler_text + ") must be a positive integer or _");
  compose_mode(mode_runs, tiler.value(), 1, tiler.is_static(), out,
               what + ": CTA tiler leaf " + tiler.to_string() + " (in " + tiler_text + ") over GMEM mode " + shape.to_string());
}

}  // namespace

TmaBoxModes tma_box_modes_for_tiler(const std::string& what, const Layout& gmem, const Layout& smem_tile,
                                    const IntTuple& cta_tiler) {
  // The GMEM leaves, flattened, as runs of unit scale.
  std::vector<LeafRun> leaves;
  std::vector<std::int64_t> leaf_stride, leaf_extent;
  std::vector<bool> leaf_static_stride, leaf_static_extent;
  {
    std::vector<IntTuple> sh, st;
    flatten_into(gmem.shape(), sh);
    flatten_into(gmem.stride(), st);
    for (std::size_t k = 0; k < sh.size(); ++k) {
      if (!st[k].is_integer() || !sh[k].is_integer())
        throw Error(what + ": GMEM leaf " + std::to_string(k) + " (" + sh[k].to_string() + ":" + st[k].to_string() +
                    ") is not an integer extent and stride");
      if (st[k].value() < 0) throw Error(what + ": GMEM stride " + st[k].to_string() + " is negative");
      if (sh[k].value() < 1) throw Error(what + ": GMEM extent " + sh[k].to_string() + " is not positive");
      leaves.push_back({sh[k].value(), static_cast<int>(k), 1, sh[k].is_static(), true});
      leaf_extent.push_back(sh[k].value());
      leaf_stride.push_back(st[k].value());
      leaf_static_extent.push_back(sh[k].is_static());
      leaf_static_stride.push_back(st[k].is_static());
    }
  }

  // The tile: tile index (colexicographic) -> GMEM leaf coordinates.
  std::vector<LeafRun> tile;
  tile_by(what, gmem.shape(), gmem.shape().to_string(), 0, cta_tiler, cta_tiler.to_string(), leaves, tile);
  std::int64_t tile_size = 1;
  for (const LeafRun& r : tile) tile_size = checked_mul(tile_size, r.extent);
  if (tile_size != size_value(smem_tile))
    throw Error(what + ": the CTA tile has " + std::to_string(tile_size) + " elements but the SMEM layout " +
                smem_tile.to_string() + " holds " + std::to_string(size_value(smem_tile)) + " (CuTe requires equal sizes)");
  if (tile.empty()) throw Error(what + ": the CTA tile is a single element (no TMA box)");

  // SMEM storage order -> GMEM leaf coordinates, coalesced where CuTe can prove two runs continue.
  const Layout inv = right_inverse_full(smem_tile);
  std::vector<IntTuple> ish, ist;
  flatten_into(inv.shape(), ish);
  flatten_into(inv.stride(), ist);
  std::vector<LeafRun> storage;
  for (std::size_t k = 0; k < ish.size(); ++k)
    compose_mode(tile, ish[k].value(), ist[k].value(), ish[k].is_static() && ist[k].is_static(), storage,
                 what + ": the SMEM layout " + smem_tile.to_string() + " over the CTA tile");
  std::vector<LeafRun> runs;
  for (const LeafRun& r : storage) {
    if (r.extent == 1) continue;
    if (!runs.empty()) {
      LeafRun& b = runs.back();
      if (b.leaf == r.leaf && b.static_extent && b.static_scale && r.static_scale && checked_mul(b.extent, b.scale) == r.scale) {
        b.extent = checked_mul(b.extent, r.extent);
        b.static_extent = b.static_extent && r.static_extent;
        continue;
      }
    }
    runs.push_back(r);
  }

  // The box: the leading runs of unit (static) step; runs provably contiguous in GMEM merge while
  // the merged extent stays at most 256 (CuTe's coalesce_256).
  TmaBoxModes out;
  std::vector<std::int64_t> first_stride;  // GMEM stride of each box dimension's first leaf
  std::vector<bool> mergeable;             // its extent and that stride are static
  for (const LeafRun& r : runs) {
    if (r.scale != 1) break;
    const std::int64_t s = leaf_stride[static_cast<std::size_t>(r.leaf)];
    const bool st = leaf_static_stride[static_cast<std::size_t>(r.leaf)];
    if (!out.box.empty() && mergeable.back() && r.static_extent && st &&
        checked_mul(out.box.back(), first_stride.back()) == s && checked_mul(out.box.back(), r.extent) <= 256) {
      out.modes.back().push_back(r.leaf);
      out.box.back() *= r.extent;
      continue;
    }
    out.modes.push_back({r.leaf});
    out.box.push_back(r.extent);
    first_stride.push_back(s);
    mergeable.push_back(r.static_extent && st);
  }
  if (out.modes.empty())
    throw Error(what + ": the SMEM layout " + smem_tile.to_string() +
                " does not start with a run of consecutive elements of one GMEM mode of the CTA tile (no TMA box)");

  // The leaves the box does not walk follow with extent 1.
  for (std::size_t j = 0; j < leaf_stride.size(); ++j) {
    bool used = false;
    for (const auto& m : out.modes)
      for (int d : m) used = used || d == static_cast<int>(j);
    if (used || (leaf_static_extent[j] && leaf_extent[j] == 1) || (leaf_static_stride[j] && leaf_stride[j] == 0)) continue;
    out.modes.push_back({static_cast<int>(j)});
    out.box.push_back(1);
  }
  return out;
}

}  // namespace cuteref
