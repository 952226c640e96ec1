// The tensor-memory accumulator of an SM100 tcgen05.mma (CuTe's UMMA::tmem_frg, the FrgTypeC of
// the atom's MMA_Traits): where each element of a partitioned C fragment lives in TMEM.
//
// The result maps the fragment ((M_MMA, N_MMA), MMA_M, MMA_N, ...) to CuTe's logical TMEM
// address of the element: the "virtual" layout below (virtual address = lane + 128 * column)
// composed with (128, 16384) : (DP, COL), where DP = 2^16 << log2(32 / bits(C)) is one lane
// (CuTe's TMEM::DP<C>) and COL = 32 / bits(C) the address step of one 32-bit column, which holds
// one accumulator (a 16-bit C leaves half of each column unused). Per M_MMA
// (the rows one CTA holds):
//   one CTA, M_MMA = 128   (128, N):(1, 128)               every lane, N columns
//   one CTA, M_MMA = 64    ((16,4), N):((1,32), 128)        the upper half of each 32-lane
//                          subpartition; further fragments tile lanes first (interleaved), or,
//                          for A from TMEM (_TS, CuTe's NonInterleaved), skip every other tile
//   two CTAs, M_MMA = 128  (128, N):(1, 128)
//   two CTAs, M_MMA = 64   (64, (N/2, 2)):(1, (128, 64))   the second half of N in lanes 64..127
// and the modes MMA_M, MMA_N, ... tile that atom (tiled_product) lanes first, then columns.
#pragma once

#include "atoms/mma_atom.hpp"
#include "layout.hpp"

namespace cuteref {

// Precondition (checked): `atom` is an SM100 atom; `fragment_shape` is ((M_MMA, N_MMA), ...) with
// M_MMA as above (CuTe's 32-row CTA-pair form belongs to the weight-stationary atoms, not
// modelled) and the fragment within TMEM's 128 lanes x 512 columns of 32 bits, one accumulator
// per column whatever its width (at most 2^16 elements).
Layout umma_tmem_fragment_C(const MmaAtom& atom, const IntTuple& fragment_shape);

}  // namespace cuteref
