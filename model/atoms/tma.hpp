// TMA (cp.async.bulk.tensor) tensor-map parameters derived from a GMEM layout and an SMEM
// box layout, and the shared-memory image a copy produces, as the model predicts it.
//
// The derivation follows CuTe's make_tma_copy(op, gmem_tensor, smem_layout): mode d of the SMEM
// layout (a Layout, or `Sw<B,4,3> o smem_ptr[Nb](unset) o L` for the 32/64/128-byte swizzle modes
// B = 1, 2, 3, the swizzle acting on byte addresses) tiles flattened GMEM mode d. The box is the
// leading part of the SMEM storage order that walks GMEM coordinates one step at a time: its
// dimensions are those runs in storage order (so a K-major tile of a row-major GMEM tensor puts K
// first), a tile of several boxes (a whole GMMA tiling) is copied box by box. Box dimensions that
// are statically contiguous in GMEM merge (up to 256), the GMEM modes the box does not walk
// follow with box extent 1 (static unit modes left out), as CuTe does.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "layout.hpp"
#include "value.hpp"

namespace cuteref {

enum class TmaSwizzle { None = 0, Bytes32 = 1, Bytes64 = 2, Bytes128 = 3 };

struct TmaParams {
  int rank = 0;                             // 1..5
  int element_bytes = 0;                    // 1, 2, 4, 8
  std::array<std::uint64_t, 5> global_dim{};          // elements, innermost first
  std::array<std::uint64_t, 5> global_stride_bytes{};  // [0] = element_bytes; [i] stride of dim i
  std::array<std::uint32_t, 5> box_dim{};              // elements
  std::array<std::uint32_t, 5> element_stride{};       // always 1 here
  TmaSwizzle swizzle = TmaSwizzle::None;
  int interleave = 0;                       // none
  Value smem_layout = Value(IntTuple());    // the SMEM layout the image follows
  std::vector<std::vector<int>> tma_modes;  // the (flattened) GMEM modes of each TMA dimension
  std::string to_string() const;
};

// Derives the tensor map of a TMA copy between GMEM layout `gmem` (strides in elements)
// and SMEM box layout `smem` (a Layout or an smem_ptr-swizzled ComposedLayout).
// More than 5 dimensions fold the trailing ones into the fifth (as CuTe). Diagnostics for what
// the hardware forbids: an innermost box dimension not contiguous in GMEM, global strides not multiples of
// 16 bytes or >= 2^40, box dims > 256, inner box bytes not a multiple of 16, a swizzled box
// whose inner bytes differ from the swizzle width (the copy engine then pads rows to that
// width: seen on an H100, gpu/RESULTS.md), an SMEM layout whose storage does not start with a
// run of one GMEM mode, SMEM and GMEM ranks that differ, a swizzle that is not a TMA mode.
// The SMEM layout may have fewer modes than the GMEM tensor: it tiles the leading GMEM modes and
// the others (e.g. CUTLASS's batch mode L) become box dimensions of extent 1. With
// `num_multicast` CTAs sharing the load (SM90_TMA_LOAD_MULTICAST), each CTA's box is the full box
// truncated from its outermost dimension inwards by that count, as CuTe's make_tma_copy does
// (precondition, checked: each truncated extent and the remaining count divide one another).
// A GMEM layout with a hierarchical mode is tiled as CuTe's default CTA tiler does (below, with
// the tiler of SMEM mode sizes).
TmaParams make_tma_params(const Layout& gmem, const Value& smem, int element_bits, int num_multicast = 1);

// With a CTA tiler, as CuTe's make_tma_copy(op, gmem, smem, cta_tiler, cluster_size): the tiler (a
// shape of at most rank(gmem) modes, or an integer) takes tile mode i from GMEM mode i, a
// hierarchical GMEM mode colexicographically ((heads, seqlen) tiled by (4,32): 4 heads x 32
// positions), and SMEM element k holds tile element (colexicographic over the tiler) SMEM^-1(k).
// The box is the leading part of that storage order that steps one GMEM leaf by one; GMEM leaves
// it does not walk follow with box extent 1 (atoms/tma_cta_tiler.hpp). Preconditions (checked):
// as above, and those of tma_box_modes_for_tiler (tile and SMEM sizes equal, tiler extents and
// the GMEM extents they cross divide one another).
TmaParams make_tma_params(const Layout& gmem, const Value& smem, const IntTuple& cta_tiler, int element_bits,
                          int num_multicast = 1);

enum class TmaDirection { Load, Store };

// Checks one copy of the box at `origin` (per-dimension element coordinates, innermost
// first) against the rules the copy engine enforces or that the model does not describe;
// throws Error naming the rule. Each rule was seen on an H100 (gpu/RESULTS.md):
//   - the innermost start coordinate times the element size must be a multiple of 16
//     bytes (else the copy faults with an illegal instruction);
//   - a store must not start before the tensor (negative coordinates fault);
//   - a store whose box hangs over the end of an innermost dimension that is not a
//     multiple of 16 bytes writes whole 16-byte granules past that end.
void check_tma_copy(const TmaParams& p, const std::array<std::int64_t, 5>& origin, TmaDirection direction);

// Precondition (checked): TMA dimension i is GMEM mode i and the SMEM layout is one box.
// The predicted SMEM image of a load of the box at `origin` (per-dimension element
// coordinates, innermost first, may be negative or past the end): entry p holds the GMEM
// element offset gmem(coord) of the element stored at SMEM element position p, or -1 where
// the box element is out of bounds (the copy engine writes zeros there).
std::vector<std::int64_t> tma_predicted_image(const TmaParams& p, const Layout& gmem,
                                              const std::array<std::int64_t, 5>& origin);

// The copies that move one CTA tile (the whole SMEM layout) with the tensor map of
// make_tma_params, in SMEM order: CuTe's tma_partition for one CTA, its iteration over boxes.
// Both layouts map a copy index to where that copy's box goes: its first SMEM element (before
// the swizzle) and its TMA coordinates relative to the tile's first element, as basis strides
// k@i for TMA dimension i. A tile of one box gives _1:_0 for both.
// Precondition (checked): as make_tma_params; the GMEM modes are flat; the SMEM layout holds
// whole boxes one after another, each further run of boxes along one GMEM mode.
struct TmaCopies {
  Layout smem_offsets;
  Layout coordinates;
};
TmaCopies tma_copies(const Layout& gmem, const Value& smem, int element_bits);

}  // namespace cuteref
