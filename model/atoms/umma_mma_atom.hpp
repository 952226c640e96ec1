// The SM100 tcgen05.mma atoms (UMMA), by CuTe's Operation names and template arguments:
//   SM100_MMA_{TF32,F16BF16,S8,F8F6F4}[_2x1SM]_{SS,TS}<A, B, C, M, N, A_major, B_major, ...>
// e.g. `SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>`. SS reads A and B from shared
// memory through descriptors, TS reads A from tensor memory; _2x1SM_ is one MMA over the two CTAs
// of a CTA pair (cta_group::2). The optional trailing arguments are CuTe's: negate A, negate B
// (`One`|`Neg`) and saturate (`False`|`True`) where that Operation has them (S8_SS: saturate
// only). CuTe's F8F6F4 SS Operations are not templates (the element types and shape go to
// MMA_Traits<SM100_MMA_F8F6F4_SS, A, B, C, C<M>, C<N>, ...>); the model names them with the
// same arguments as a template, `SM100_MMA_F8F6F4_SS<float_e4m3_t,float_e4m3_t,float,128,256,K,K>`.
//
// The layouts (CuTe's MMA_Traits): one "thread" per CTA, so for cta_group::1
//   ThrID _1:_0,  A (_1,(_M,_K)):(_0,(_1,_M)),  B (_1,(_N,_K)):(_0,(_1,_N)),  C (_1,(_M,_N)):(_0,(_1,_M))
// and for the 2x1SM atoms the peer CTA v holds rows [v*M/2, (v+1)*M/2) of A and C and columns
// [v*N/2, (v+1)*N/2) of B:
//   ThrID _2:_1,  A (_2,(_M/2,_K)):(_M/2,(_1,_M)),  B (_2,(_N/2,_K)):(_N/2,(_1,_N)),
//   C (_2,(_M/2,_N)):(_M/2,(_1,_M))
// with K = 256 / bits(A) (32 bytes of K), 32 for F8F6F4.
#pragma once

#include <string_view>

#include "atoms/mma_atom.hpp"

namespace cuteref {

// Element types: half_t, bfloat16_t, tfloat32_t, float, int8_t, uint8_t, int32_t,
// float_e4m3_t, float_e5m2_t, float_e2m3_t, float_e3m2_t (a `cute::` or `cutlass::` prefix is
// accepted); majors K | MN (or UMMA::Major::K ...).
// Preconditions (checked, Error naming the argument): the shapes CuTe's Operations assert
// (M 64|128 for one CTA, 128|256 for two; N's multiple and range per Operation and M), the
// element types the PTX ISA allows for the kind (tf32: f32 <- tf32; f16: f16|f32 <- f16, f32 <-
// bf16; i8: s32 <- s8|u8; f8f6f4: f16|f32 <- e4m3|e5m2|e2m3|e3m2), A K-major for TS, MN-major
// only for 8-bit or wider types; float_e2m1_t is refused (CuTe encodes it as MXF4's E2M1 = 1,
// which the f8f6f4 kind reads as E5M2).
MmaAtom umma_mma_atom(std::string_view name);

}  // namespace cuteref
