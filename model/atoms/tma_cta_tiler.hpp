// Which GMEM modes a TMA box walks, and how far, for a CTA tile named by a tiler: the definition
// behind CuTe's make_tma_copy(op, gmem_tensor, smem_layout, cta_tiler, cluster_size).
//
// The tiler picks the CTA tile out of the GMEM coordinates as CuTe composes a layout with a
// tiler: a tuple tiles the GMEM modes one by one, recursively (a tuple mode (4,32) over the GMEM
// mode (heads, seqlen) takes 4 heads and 32 positions; GMEM modes past the tiler's are dropped),
// `_` keeps a whole mode, an integer n takes the leading n coordinates of its (sub)mode
// colexicographically (the last leaf extended past its extent). The SMEM layout stores that
// tile: SMEM element k holds tile element (1-D, colexicographic) SMEM^-1(k). The box is the
// leading part of that storage order that steps GMEM leaves by one coordinate at a time; runs
// provably (statically) contiguous in GMEM merge up to 256 elements (CuTe's coalesce_256).
// Run-time extents: CuTe C++ needs the extents the tiler crosses static (it checks the tile's
// size at compile time); the model computes by value, as the CuTe DSL does with run-time extents.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "layout.hpp"

namespace cuteref {

// The TMA dimensions before the hardware's limits are checked: for each dimension, innermost
// first, the flattened GMEM leaves it spans and its box extent. The leaves the box does not walk
// follow with extent 1 (static extent-1 and static stride-0 leaves left out); no folding to 5.
struct TmaBoxModes {
  std::vector<std::vector<int>> modes;
  std::vector<std::int64_t> box;
};

// Preconditions (checked, Error prefixed by `what`): the tiler's leaves are positive integers or
// `_`, each tuple of it has at most as many modes as the GMEM mode it tiles; each tiler extent and
// the GMEM extents it crosses divide one another (CuTe's composition needs it); the tile and
// `smem_tile` have the same size; GMEM extents are positive and strides non-negative integers;
// the SMEM storage starts with a run of one GMEM leaf.
TmaBoxModes tma_box_modes_for_tiler(const std::string& what, const Layout& gmem, const Layout& smem_tile,
                                    const IntTuple& cta_tiler);

}  // namespace cuteref
