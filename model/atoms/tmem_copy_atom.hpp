// The SM100 tensor-memory copy atoms: tcgen05.ld (SM100_TMEM_LOAD_*) and tcgen05.st
// (SM100_TMEM_STORE_*), by CuTe's Operation names, with the layouts CuTe's Copy_Traits state.
//
// Tensor memory is 128 lanes (datapaths) x 512 columns of 32 bits; a warp reaches the 32 lanes
// of its subpartition (warp % 4). One instruction moves, per lane, a row of B bits of each of its
// L lanes, R times (.num xR): the shapes (PTX ISA, tcgen05 "Matrix fragments")
//   32dp32b   32x32b     L = 32, B = 32       16dp64b   16x64b    L = 16, B = 64
//   16dp32b   16x32bx2   L = 16, B = 64 (two 32-bit columns at an immediate offset, here adjacent)
//   16dp128b  16x128b    L = 16, B = 128      16dp256b  16x256b   L = 16, B = 256
// with R = 1, 2, 4, ..., 128 (64 for 16dp128b, 32 for 16dp256b: at most 128 registers a thread),
// and the `_16b` variants (.pack::16b / .unpack::16b: two 16-bit halves of adjacent columns share
// a register; only ValID differs).
//
// The copied data are numbered as ValID numbers them: bit c of lane l's row of R*B bits is
// logical bit c + R*B*l. The layouts, in bits (recast(L, 1, BITS) gives them in elements):
//   ThrID     _32:_1
//   ValID     logical bit -> TMEM bit address: (R*B, L):(1, DP_b) with DP_b = 2^21 (one lane), or
//             for _16b ((16, R*B/16), L):((1, 32), DP_b) (16 bits of each 32-bit column)
//   LOAD      Src (32, L*R*B):(0, 1) (the warp reads the tile collectively), Ref = Src,
//             Dst (thread, register bit) -> logical bit:
//     32dp32b   (32, 32R):(32R, 1)                      thread t holds lane t's row
//     16dp32b   ((16,2), 32R):((64R, 32R), 1)           lane t%16, the half t/16 of its row
//     16dp64b   ((2,2,8), V):((512R, 32, 64R), ...)      lane t/4 + 8(t%2), 32-bit word (t/2)%2;
//               V = _32:_1 (R = 1), (32,R):(1,64)         repeat r at bit 64r of the row
//     16dp128b  ((4,8), V):((32, 128R), ...)            word t%4 of lane t/4; registers: the
//               V = (32,2):(1,1024) (R = 1),              32 bits, lane + 8, repeat r at bit 128r
//               (32,2,R):(1,1024R,128)
//     16dp256b  ((4,8), V):((64, 256R), ...)            64-bit word t%4 of lane t/4; likewise
//               V = (64,2):(1,2048) (R = 1), (64,2,R):(1,2048R,256)
//   STORE     LOAD's layouts reversed: Src = LOAD's Dst, Dst = LOAD's Src, Ref = LOAD's Ref.
#pragma once

#include <optional>
#include <string_view>

#include "atoms/copy_atom.hpp"

namespace cuteref {

// The atom named `name` if it starts with SM100_TMEM_LOAD_ or SM100_TMEM_STORE_; nullopt for any
// other name. Precondition (checked, Error naming the part): such a name is
// SM100_TMEM_{LOAD,STORE}_{32dp32b,16dp32b,16dp64b,16dp128b,16dp256b}<R>x[_16b] with R a power
// of two in the shape's range.
std::optional<CopyAtom> tmem_copy_atom(std::string_view name);

}  // namespace cuteref
