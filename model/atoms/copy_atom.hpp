// Copy atoms: the thread/value layouts of warp-collective copy instructions, as CuTe's
// Copy_Traits state them, looked up by CuTe's Operation struct names. For now the SM75
// ldmatrix family (`ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`).
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

struct CopyAtom {
  std::string name;  // CuTe's Operation name, e.g. SM75_U16x8_LDSM_T
  int arch = 0;      // 75
  int matrices = 0;  // ldmatrix .x1 / .x2 / .x4
  bool transpose = false;  // ldmatrix .trans
  Layout thr_id{IntTuple::static_int(1), IntTuple::static_int(0)};
  Layout src_layout{IntTuple::static_int(1), IntTuple::static_int(0)};
  Layout dst_layout{IntTuple::static_int(1), IntTuple::static_int(0)};
  Layout ref_layout{IntTuple::static_int(1), IntTuple::static_int(0)};
};

// The atom named by CuTe's Operation struct name: SM75_U32x1_LDSM_N, SM75_U32x2_LDSM_N,
// SM75_U32x4_LDSM_N (ldmatrix .x1/.x2/.x4: 1, 2, 4 32-bit registers per thread) and
// SM75_U16x2_LDSM_T, SM75_U16x4_LDSM_T, SM75_U16x8_LDSM_T (the same with .trans: 2, 4, 8
// 16-bit values per thread).
// Precondition (checked, Error naming the name and the atoms that exist): one of those six.
CopyAtom copy_atom(std::string_view name);

// The ldmatrix atom for a matrix count and transpose flag.
// Precondition (checked): matrices is 1, 2 or 4.
CopyAtom ldmatrix_atom(int matrices, bool transpose);

}  // namespace cuteref
