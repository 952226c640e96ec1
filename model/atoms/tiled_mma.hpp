// TiledMMA partitioning (CuTe's make_tiled_mma, ThrMMA::partition_A/B/C, partition_fragment_C,
// make_fragment_A/B), for an atom tiled by an atom layout over (M, N, K) and an optional
// permutation tiler (PermM, PermN, PermK).
//
// For thread t of the tiled MMA, partition_C of an (M, N, ...) layout C is
//   (FrgV, RestM, RestN, ...) with
//   FrgV  = C restricted to one atom tile, composed with the atom's CLayout at thread v,
//   RestM = C's M mode from the atom's M-extent on, stepping AtomM * ThrM (the atom tiles
//           this thread's atom-layout coordinate owns), likewise RestN; extra modes unchanged;
// and an offset C(origin of the thread's first value) that CuTe keeps in the tensor's pointer
// (the layout CuTe prints has no offset). partition_A/B do the same with (M, K) / (N, K).
// With a permutation, the operand is first reordered as CuTe's thrfrg_C/A/B do:
// logical_divide(C, (PermM, PermN)), logical_divide(A, (PermM, PermK)), logical_divide(B, (PermN,
// PermK)) (a `_` element leaves that mode as it is; an integer n stands for n:_1).
// The thread index is decomposed as CuTe's get_flat_coord on the thread layout
// tiled_product(ThrID, AtomLayoutMNK): further atoms take the thread indices the atom's ThrID
// does not reach (SM70's quadpairs (4,2):(1,16) tiled 2 x 2 fill lanes 0..31).
#pragma once

#include <cstdint>

#include "atoms/mma_atom.hpp"
#include "layout.hpp"
#include "swizzle.hpp"
#include "value.hpp"

namespace cuteref {

struct TiledMma {
  MmaAtom atom;
  Layout atom_layout_mnk;  // (AtomsM, AtomsN, AtomsK) : strides, CuTe's AtomLayoutMNK
  Value permutation_mnk;   // a tiler (PermM, PermN, PermK); `(_,_,_)` for none
};

// The atom layout and the permutation are padded to rank 3 as CuTe does (with _1:_0 and `_`).
// Precondition (checked): atom_layout_mnk has rank <= 3 with integer modes, positive strides on
// modes of size > 1; the permutation is a tiler of rank <= 3 (tiler.hpp).
TiledMma make_tiled_mma(const MmaAtom& atom, const Layout& atom_layout_mnk);
TiledMma make_tiled_mma(const MmaAtom& atom, const Layout& atom_layout_mnk, const Value& permutation_mnk);

// Number of threads: size(ThrID) * size(AtomLayoutMNK) (CuTe's size(TiledMMA)). The thread
// indices are the image of the thread layout, which for a non-compact ThrID is not [0, size).
std::int64_t tiled_mma_size(const TiledMma& tiled);

struct Partition {
  Layout layout;
  std::int64_t offset;  // the tensor pointer's advance; not part of CuTe's printed layout
};

// Preconditions (checked): thread is in the image of the thread layout (CuTe decodes any index,
// aliasing unreached lanes onto others; the model refuses them);
// the layout has rank >= 2; its first two modes are divisible by the atom's extents times the
// atom layout's, with CuTe's divisibility for composing the atom's layouts.
Partition partition_C(const TiledMma& tiled, std::int64_t thread, const Layout& c);  // (M,N,...)
Partition partition_A(const TiledMma& tiled, std::int64_t thread, const Layout& a);  // (M,K,...)
Partition partition_B(const TiledMma& tiled, std::int64_t thread, const Layout& b);  // (N,K,...)

// The same of a swizzled (composed) operand Sw o O o L, as CuTe partitions a tensor whose
// layout is a ComposedLayout: the tiling acts on L and the thread's offset stays inside the
// layout (composed_advance.hpp), so the result is x -> Sw(O + offset + partition(L)(x)) with the
// swizzle kept. Same preconditions as for L.
ComposedLayout partition_C(const TiledMma& tiled, std::int64_t thread, const ComposedLayout& c);
ComposedLayout partition_A(const TiledMma& tiled, std::int64_t thread, const ComposedLayout& a);
ComposedLayout partition_B(const TiledMma& tiled, std::int64_t thread, const ComposedLayout& b);

// The accumulator fragment: a compact column-major layout of partition_C's shape; for an SM100
// atom the tensor-memory allocation of that shape (umma_tmem_fragment.hpp: logical TMEM addresses).
Layout partition_fragment_C(const TiledMma& tiled, const Layout& c);

// make_fragment_A/B of an already partitioned (V, RestX, RestK, ...) operand (element width
// from the atom's A/B type): for SS GMMA the descriptor iterator's layout, mode 0 replaced by _1:_0 and the other
// strides in 16-byte units (recast to uint128_t); otherwise the register fragment, CuTe's
// make_fragment_like: mode 0 compact column-major (zero strides kept), the other modes compact
// in the order of the partition's strides, placed after mode 0.
// Precondition (checked): rank >= 3; for SS the strides are whole 16-byte units.
Layout make_fragment_A(const TiledMma& tiled, const Layout& partitioned);
Layout make_fragment_B(const TiledMma& tiled, const Layout& partitioned);

// The tiled MMA an expression argument names: an MMA atom's name (one atom) or the value of
// make_tiled_mma(...) (atom_functions.cpp; for the function table's other modules).
TiledMma tiled_mma_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn);

}  // namespace cuteref
