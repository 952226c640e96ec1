// Tiled copies between tensor memory and registers (CuTe's make_tmem_copy, built as
// make_cotiled_copy builds it), and which TMEM lanes each warp of such a copy reaches.
//
// A tcgen05.ld/st is issued by a whole warp, and warp w reaches only the 32 lanes of its TMEM
// subpartition: lanes [32 (w % 4), 32 (w % 4) + 32). make_tmem_copy therefore tiles the atom over
// four warps (128 threads) whose threads all start at the same position of their own subpartition:
//   atom (thread, value) -> TMEM address:  ((32, 4), V) : ((0, 32 DP), ValID in elements)
// with DP the address of one lane (CuTe's TMEM::DP<T>: 2^16 << log2(32 / BITS)) and V the atom's
// ValID upcast to BITS-bit elements and coalesced. Composing the TMEM tensor's left inverse with it
// gives (thread, value) -> tensor coordinate; each tensor mode's tiler is the part of that map along
// the mode (filtered), and TiledLayout_TV is the map re-expressed in tile indices. The tiler is a
// tuple of layouts (TiledCopy::tiler_layouts), not a shape: the tile need not be contiguous (a 16dp
// atom on a 128-lane accumulator takes lanes 0..15, 32..47, 64..79, 96..111).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "atoms/tiled_copy.hpp"

namespace cuteref {

// make_tmem_copy(Copy_Atom<atom, T>, tmem) for T of `value_bits` bits and `tmem` the TMEM tensor's
// layout (coordinate -> CuTe's logical TMEM address, as umma_tmem_fragment_C and
// partition_fragment_C give it for an SM100 accumulator).
// Preconditions (checked, Error naming the part): atom is an SM100_TMEM_LOAD_/STORE_ atom;
// value_bits is 8, 16 or 32 (TMEM's column holds 32 / value_bits elements); every address the four
// warps' atom reaches is an element of `tmem` (CuTe's static assertion "The memory pointed to by
// AtomTVLayout does not exist in the DataLayout"); the atom's values divide as copy_atom_values
// requires.
TiledCopy make_tmem_copy(const CopyAtom& atom, int value_bits, const Layout& tmem);

// CuTe's TMEM::DP<T>: the logical TMEM address of lane 1, column 0 for T of `value_bits` bits.
// Precondition (checked): value_bits is 8, 16 or 32.
std::int64_t tmem_lane_stride(int value_bits);

// The TMEM lanes warp w of the tiled copy `tc` reads (LOAD) or writes (STORE) when it partitions
// `tmem` (partition_S for a load, partition_D for a store), for every warp of the copy: the
// half-open range [first, last + 1) of each warp's lanes, in warp order.
// Preconditions (checked): tc's atom is a TMEM atom and its thread count a multiple of 32; the
// addresses are TMEM addresses of value_bits-bit elements (lane = address / DP); every warp's lanes
// lie in its subpartition [32 (w % 4), 32 (w % 4) + 32) (otherwise Error naming the warp, thread,
// value and lane: the hardware would not reach it).
std::vector<std::pair<std::int64_t, std::int64_t>> tmem_warp_lanes(const TiledCopy& tc, const Layout& tmem);

}  // namespace cuteref
