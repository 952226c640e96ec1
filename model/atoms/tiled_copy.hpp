// TiledCopy: a copy atom tiled over threads and values, as CuTe's make_tiled_copy,
// make_tiled_copy_A/B/C, ThrCopy::partition_S/D and retile_S/D define it.
//
// A tiled copy is (atom, value width, TiledLayout_TV, Tiler_MN): TiledLayout_TV maps
// (thread, value) to the colexicographic index of a coordinate in the tile Tiler_MN (a shape, or
// for make_tmem_copy a tuple of layouts selecting the tile's elements of each tensor mode).
// Partitioning a tensor T of shape (M, N, ...) by it, for thread t:
//   T is divided into tiles (zipped_divide(T, Tiler_MN)); the tile is read through the TV
//   layout re-expressed in the atom's source (or destination) thread/value order:
//     ref2trg = right_inverse(AtomLayoutRef) o AtomLayoutSrc   (or ...Dst)
//   and thread t's slice is (AtomVals x AtomRepeats, RestM, RestN, ...) with the offset
//   T(origin of t's first value) (CuTe moves it into the tensor's pointer).
// Every step is the model's own algebra (composition, zipped_divide, right_inverse, coalesce),
// applied in CuTe's order, so profiles follow CuTe's where the algebra's do.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "atoms/copy_atom.hpp"
#include "atoms/tiled_mma.hpp"
#include "layout.hpp"
#include "swizzle.hpp"
#include "value.hpp"

namespace cuteref {

struct TiledCopy {
  CopyAtom atom;
  int value_bits = 0;  // the width of CuTe's CopyInternalType (Copy_Atom<Op, T>)
  Layout layout_tv{IntTuple::static_int(1), IntTuple::static_int(0)};  // (thread, value) -> tile index
  IntTuple tiler = IntTuple::static_int(1);                             // shape(Tiler_MN)
  // Tiler_MN when it is a tuple of layouts, one per tensor mode, not a shape: CuTe's
  // make_cotiled_copy (make_tmem_copy, tmem_tiled_copy.hpp) selects tile elements that need not be
  // contiguous. Empty: Tiler_MN is the shape `tiler`. Partitions divide by this when present.
  std::optional<Value> tiler_layouts;
};

// make_tiled_copy(Copy_Atom<atom, T>, thr_layout, val_layout): (m, n) -> thread and
// (m, n) -> value layouts; the tile is raked_product(thr, val), TiledLayout_TV its right
// inverse read as (size(thr), size(val)), Tiler_MN the product of each of its modes.
// Preconditions (checked): the atom's values for value_bits (copy_atom_values); the atom's
// thread and value counts divide the tiled copy's (CuTe's static assertions).
TiledCopy make_tiled_copy(const CopyAtom& atom, int value_bits, const Layout& thr_layout, const Layout& val_layout);

// The tiled copy from a TV layout and a tiler as they are (CuTe's make_tiled_copy_impl).
// Precondition (checked): as above; the TV layout has rank 2.
TiledCopy make_tiled_copy_tv(const CopyAtom& atom, int value_bits, const Layout& layout_tv, const IntTuple& tiler);

// The tiled MMA's TV layouts (CuTe's TiledMMA::get_layoutA_TV / B / C: (thread index, value)
// -> colexicographic index in the (M,K) / (N,K) / (M,N) tile) and tile sizes.
enum class MmaOperand { A, B, C };
Layout tiled_mma_layout_tv(const TiledMma& mma, MmaOperand op);
std::int64_t tiled_mma_tile_size(const TiledMma& mma, int mode);  // tile_size_mnk<mode>

// make_tiled_copy_A/B/C(Copy_Atom<atom, T>, mma): the copy that moves exactly the tiled MMA's
// operand fragments: TiledLayout_TV = get_layoutX_TV, Tiler_MN = (tile M|N, tile K|N).
TiledCopy make_tiled_copy_A(const CopyAtom& atom, int value_bits, const TiledMma& mma);
TiledCopy make_tiled_copy_B(const CopyAtom& atom, int value_bits, const TiledMma& mma);
TiledCopy make_tiled_copy_C(const CopyAtom& atom, int value_bits, const TiledMma& mma);

// make_tiled_copy_C_atom(Copy_Atom<atom, T>, mma): the smallest tiled copy that retiles the tiled
// MMA's C fragments (pipelined epilogues storing a subtile at a time). Each thread keeps the first
// NumValSrc values of its C fragment (NumValSrc: the atom's source values for value_bits), in the
// fragment's order; Tiler_MN is a tuple of layouts, one per mode (M, N), selecting the C tile's
// coordinates those values reach (filter of the coordinate along that mode), and TiledLayout_TV
// maps (thread, value) to the index in that selected tile.
// Preconditions (checked): NumValSrc <= the C fragment's values per thread (CuTe's static
// assertion); the counts of make_tiled_copy_tv; the selected coordinates form a tile (every
// (thread, value) reaches one, left_inverse of the tile's embedding recovers it).
TiledCopy make_tiled_copy_C_atom(const CopyAtom& atom, int value_bits, const TiledMma& mma);

// Number of threads (CuTe's size(TiledCopy)): size<0>(TiledLayout_TV).
std::int64_t tiled_copy_size(const TiledCopy& tc);

// CuTe's get_layoutS_TV / get_layoutD_TV: (thread, value) -> tile index, in the atom's
// source / destination order.
Layout tiled_copy_layout_S(const TiledCopy& tc);
Layout tiled_copy_layout_D(const TiledCopy& tc);

// CuTe's tidfrg_S / tidfrg_D of a tensor layout (M, N, ...): (Thr, (FrgV, FrgX), (RestM, RestN, ...)).
// Precondition (checked): rank(tensor) >= rank(Tiler_MN), each mode divisible as
// zipped_divide requires.
Layout tidfrg_S(const TiledCopy& tc, const Layout& tensor);
Layout tidfrg_D(const TiledCopy& tc, const Layout& tensor);

// ThrCopy::partition_S / partition_D: thread t's ((FrgV, FrgX), RestM, RestN, ...) view and
// the offset CuTe moves into the pointer (Partition from tiled_mma.hpp).
// Precondition (checked): 0 <= thread < tiled_copy_size(tc).
Partition partition_S(const TiledCopy& tc, std::int64_t thread, const Layout& tensor);
Partition partition_D(const TiledCopy& tc, std::int64_t thread, const Layout& tensor);

// The same as (layout, offset) for any tensor layout, the offset as slice_and_offset gives it: an
// integer for integer strides, a coordinate (a tuple) where the strides are scaled bases, e.g.
// thread t's partition of make_identity_layout((M, N)) and the coordinate of its first value
// (CuTe moves it into the identity tensor's iterator, the DSL prints `tensor<(0,24) o ...>`).
// Preconditions (checked): as partition_S / partition_D.
std::pair<Layout, IntTuple> partition_and_offset_S(const TiledCopy& tc, std::int64_t thread, const Layout& tensor);
std::pair<Layout, IntTuple> partition_and_offset_D(const TiledCopy& tc, std::int64_t thread, const Layout& tensor);

// The same for a swizzled tensor S o O o L: the partition of L, with the swizzle and the
// accumulated offset kept inside (CuTe keeps a composed layout's offset in the layout), by
// composed_advance.hpp's rule (behind a `smem_ptr[Nb]` token a non-zero offset moves the swizzle
// to element units: Sw<3,4,3> on bytes of 16-bit elements becomes Sw<3,3,3>).
ComposedLayout partition_S(const TiledCopy& tc, std::int64_t thread, const ComposedLayout& tensor);
ComposedLayout partition_D(const TiledCopy& tc, std::int64_t thread, const ComposedLayout& tensor);

// ThrCopy::retile_S / retile_D (the same function in CuTe): a thread's fragment (V, RestM, ...)
// regrouped as ((AtomVals, RestVals), RestM, ...) in the order the tiled copy's values take.
// Preconditions (checked by the algebra's steps; the diagnostic is prefixed with `retile:`): the
// fragment's modes divide by the copy's value tile (zipped_divide's and composition's
// divisibility), as CuTe's static assertions require.
Layout retile(const TiledCopy& tc, const Layout& fragment);

// The tiled copy an expression argument names: the tuple (ATOM, BITS, TiledLayout_TV, Tiler_MN)
// that make_tiled_copy(...) returns (copy_functions.cpp; for the function table and harnesses).
TiledCopy tiled_copy_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn);

}  // namespace cuteref
