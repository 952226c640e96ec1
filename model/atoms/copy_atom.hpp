// Copy atoms: the thread/value layouts of copy instructions, as CuTe's Copy_Traits state
// them, looked up by CuTe's Operation struct names: the SM75 ldmatrix family
// (`ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`), the SM90 stmatrix family
// (`stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`), one-thread UniversalCopy of 8 to
// 128 bits and SM80 cp.async (`cp.async.ca|cg.shared.global`) of 4, 8, 16 bytes.
//
// The layouts count BITS, as CuTe's Copy_Traits do (recast(L, 1, BITS) gives the layout in
// BITS-bit elements, as Copy_Atom<Traits, T> does with T of BITS bits):
//   ThrID     : logical thread id                   -> lane in the warp
//   SrcLayout : (src thread, bit of its source)     -> bit of the copied data
//   DstLayout : (dst thread, bit of its registers)  -> bit of the copied data
//   RefLayout : the reference the atom is partitioned by (DstLayout for ldmatrix)
// "The copied data" of ldmatrix are its matrices, 8 rows of 8 16-bit elements each, in the
// order the instruction numbers them: bit 1024 * matrix + 128 * row + 16 * column + b.
// A thread's register bits are numbered register by register, low bit first.
#pragma once

#include <string>
#include <string_view>

#include "layout.hpp"

namespace cuteref {

// What the atom executes: the instruction family.
enum class CopyKind { Universal, CpAsync, Ldmatrix, Stmatrix, TmemLoad, TmemStore };

struct CopyAtom {
  std::string name;  // CuTe's Operation name, e.g. SM75_U16x8_LDSM_T
  CopyKind kind = CopyKind::Ldmatrix;
  int arch = 0;      // 75 (ldmatrix), 90 (stmatrix), 80 (cp.async), 100 (tcgen05.ld/st), 0 (UniversalCopy)
  int matrices = 0;  // ldmatrix / stmatrix .x1 / .x2 / .x4
  bool transpose = false;  // ldmatrix / stmatrix .trans
  int vector_bits = 0;     // UniversalCopy / cp.async: the bits one thread copies (8..128)
  Layout thr_id{IntTuple::static_int(1), IntTuple::static_int(0)};
  Layout src_layout{IntTuple::static_int(1), IntTuple::static_int(0)};
  Layout dst_layout{IntTuple::static_int(1), IntTuple::static_int(0)};
  Layout ref_layout{IntTuple::static_int(1), IntTuple::static_int(0)};
  // tcgen05.ld/st only (tmem_copy_atom.hpp): CuTe's ValID, logical bit -> TMEM bit address.
  Layout tmem_val_id{IntTuple::static_int(1), IntTuple::static_int(0)};
};

// The atom named by CuTe's Operation struct name: SM75_U32x1_LDSM_N, SM75_U32x2_LDSM_N,
// SM75_U32x4_LDSM_N (ldmatrix .x1/.x2/.x4: 1, 2, 4 32-bit registers per thread) and
// SM75_U16x2_LDSM_T, SM75_U16x4_LDSM_T, SM75_U16x8_LDSM_T (the same with .trans: 2, 4, 8
// 16-bit values per thread); SM90_U32x{1,2,4}_STSM_N, SM90_U16x{2,4,8}_STSM_T;
// UniversalCopy<uint{8,16,32,64,128}_t>; SM80_CP_ASYNC_CACHEALWAYS<uint{32,64,128}_t>,
// SM80_CP_ASYNC_CACHEGLOBAL<uint128_t> (a second, equal template argument is accepted:
// CuTe's <TS, TD>); the SM100 tcgen05.ld/st atoms SM100_TMEM_LOAD_* / SM100_TMEM_STORE_*
// (tmem_copy_atom.hpp).
// Precondition (checked, Error naming the name and the atoms that exist): one of those.
CopyAtom copy_atom(std::string_view name);

// The ldmatrix atom for a matrix count and transpose flag.
// Precondition (checked): matrices is 1, 2 or 4.
CopyAtom ldmatrix_atom(int matrices, bool transpose);

// The stmatrix atom (SM90_U32x{1,2,4}_STSM_N, SM90_U16x{2,4,8}_STSM_T): CuTe states it as
// ldmatrix reversed: its SrcLayout (registers) is ldmatrix's DstLayout, its DstLayout (the
// rows in shared memory) ldmatrix's SrcLayout, and its RefLayout its SrcLayout.
// Precondition (checked): matrices is 1, 2 or 4.
CopyAtom stmatrix_atom(int matrices, bool transpose);

// UniversalCopy<uintN_t> (one thread copies one N-bit value; ThrID _1:_0, Src = Dst = Ref =
// (_1,_N):(_0,_1)), N in {8, 16, 32, 64, 128}; named UniversalCopy<uint8_t> ... <uint128_t>.
// Precondition (checked): bits is one of those.
CopyAtom universal_copy_atom(int bits);

// SM80_CP_ASYNC_CACHEALWAYS<uintN_t> (N in 32, 64, 128; `cp.async.ca`) and
// SM80_CP_ASYNC_CACHEGLOBAL<uint128_t> (`cp.async.cg`, 16 bytes only): one thread, the
// layouts of UniversalCopy<uintN_t>. Precondition (checked): a width PTX allows.
CopyAtom cp_async_atom(int bits, bool cache_global);

// The element layouts of Copy_Atom<Traits, T> for a T of `value_bits` bits: the atom's
// layouts recast from bits (CuTe's recast_layout<uint1_t, T>).
// Precondition (checked): value_bits divides the bits one thread copies (otherwise CuTe's
// copy cannot vectorize the atom's registers), and is at least 1; each recast layout has as many
// threads as ThrID (CuTe's static assertion; a transposing ldmatrix / stmatrix of elements wider
// than 16 bits fails it).
struct CopyAtomValues {
  Layout thr_id, src, dst, ref;
};
CopyAtomValues copy_atom_values(const CopyAtom& atom, int value_bits);

}  // namespace cuteref
