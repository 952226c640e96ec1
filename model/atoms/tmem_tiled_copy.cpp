#include "atoms/tmem_tiled_copy.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "atoms/atom_table_notation.hpp"
#include "atoms/by_mode_tiler.hpp"

#include "coalesce.hpp"
#include "composition.hpp"
#include "coordinates.hpp"
#include "error.hpp"
#include "inverse.hpp"
#include "make_layout.hpp"
#include "recast.hpp"

namespace cuteref {

namespace {

using atom_table_notation::s;

bool is_tmem_atom(const CopyAtom& atom) { return atom.kind == CopyKind::TmemLoad || atom.kind == CopyKind::TmemStore; }

bool same_layout(const Layout& a, const Layout& b) {
  return a.shape().same_values(b.shape()) && a.stride().same_values(b.stride());
}

// The tensor's modes' sizes (CuTe's product_each(shape)), always as a tuple.
std::vector<std::int64_t> mode_sizes(const Layout& l) {
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < rank(l); ++i) out.push_back(size_value(mode(l, i)));
  return out;
}

IntTuple static_tuple(const std::vector<std::int64_t>& v) {
  std::vector<IntTuple> e;
  for (std::int64_t x : v) e.push_back(s(x));
  return IntTuple::tuple(std::move(e));
}

}  // namespace

std::int64_t tmem_lane_stride(int value_bits) {
  if (value_bits != 8 && value_bits != 16 && value_bits != 32)
    throw Error("make_tmem_copy: the element width must be 8, 16 or 32 bits (a TMEM column holds 32 bits), got " +
                std::to_string(value_bits));
  return (std::int64_t{1} << 16) * (32 / value_bits);
}

TiledCopy make_tmem_copy(const CopyAtom& atom, int value_bits, const Layout& tmem) {
  const std::string fn = "make_tmem_copy";
  if (!is_tmem_atom(atom))
    throw Error(fn + ": " + atom.name + " is not a tensor-memory copy atom (SM100_TMEM_LOAD_* / SM100_TMEM_STORE_*)");
  const std::int64_t dp = tmem_lane_stride(value_bits);
  if (tmem.has_basis_strides())
    throw Error(fn + ": the TMEM tensor " + tmem.to_string() + " must map coordinates to TMEM addresses (integer strides)");
  // Four warps, each at the same position of its own 32-lane subpartition.
  const Layout atom_t(IntTuple::tuple({s(32), s(4)}), IntTuple::tuple({s(0), s(32 * dp)}));
  const Layout atom_v = coalesce(upcast(atom.tmem_val_id, value_bits));
  const Layout atom_tv = make_layout_from_modes({atom_t, atom_v});

  // TMEM address -> tensor coordinate index; addresses past the tensor go to stride 0.
  const Layout inv_tmem = make_layout_from_modes({left_inverse(tmem), Layout(s(1), s(0))});
  const Layout tv_coord = composition(inv_tmem, atom_tv);  // (thread, value) -> coordinate index
  const Layout back = coalesce(composition(make_layout_from_modes({tmem, Layout(s(1), s(0))}), mode(tv_coord, 1)));
  if (!same_layout(back, coalesce(atom_v)))
    throw Error(fn + ": the atom " + atom.name + " reaches TMEM addresses " + coalesce(atom_v).to_string() +
                " (lane stride " + std::to_string(dp) + ") that are not all elements of the TMEM tensor " + tmem.to_string() +
                " (CuTe: the memory pointed to by AtomTVLayout does not exist in the DataLayout)");

  // The tiler of mode i: the map's part along coordinate i of the flattened-by-mode tensor.
  ByModeTiler by_mode = by_mode_tiler(static_tuple(mode_sizes(tmem)), tv_coord);
  // (thread, value) -> tile index
  const Layout layout_tv = composition(left_inverse(by_mode.tile_to_coord), tv_coord);
  TiledCopy tc = make_tiled_copy_tv(atom, value_bits, layout_tv, by_mode.tiler_shape);
  tc.tiler_layouts = std::move(by_mode.tiler);
  return tc;
}

std::vector<std::pair<std::int64_t, std::int64_t>> tmem_warp_lanes(const TiledCopy& tc, const Layout& tmem) {
  const std::string fn = "tmem_warp_lanes";
  if (!is_tmem_atom(tc.atom)) throw Error(fn + ": " + tc.atom.name + " is not a tensor-memory copy atom");
  const std::int64_t dp = tmem_lane_stride(tc.value_bits);
  const std::int64_t threads = tiled_copy_size(tc);
  if (threads % 32 != 0) throw Error(fn + ": the tiled copy has " + std::to_string(threads) + " threads, not whole warps");
  const bool load = tc.atom.kind == CopyKind::TmemLoad;
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (std::int64_t w = 0; w < threads / 32; ++w) {
    const std::int64_t lo = 32 * (w % 4), hi = lo + 32;
    std::int64_t first = -1, last = -1;
    for (std::int64_t t = 32 * w; t < 32 * w + 32; ++t) {
      const Partition p = load ? partition_S(tc, t, tmem) : partition_D(tc, t, tmem);
      for (std::int64_t v = 0; v < size_value(p.layout); ++v) {
        const std::int64_t address = p.offset + apply_index(p.layout, v);
        if (address < 0) throw Error(fn + ": thread " + std::to_string(t) + " value " + std::to_string(v) +
                                     " has the negative TMEM address " + std::to_string(address));
        const std::int64_t lane = address / dp;
        if (lane < lo || lane >= hi)
          throw Error(fn + ": warp " + std::to_string(w) + " (thread " + std::to_string(t) + ", value " + std::to_string(v) +
                      ") addresses lane " + std::to_string(lane) + ", outside its subpartition [" + std::to_string(lo) + ", " +
                      std::to_string(hi) + ")");
        first = first < 0 ? lane : std::min(first, lane);
        last = std::max(last, lane);
      }
    }
    out.emplace_back(first, last + 1);
  }
  return out;
}

}  // namespace cuteref
