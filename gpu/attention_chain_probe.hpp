// The FA3 register chain (`cuteref-gpu attention_chain`): S = Q K^T by SS WGMMAs, S's f32
// accumulator converted in registers to the PV operand type as the model's register_permutation
// says (f16/bf16: nothing moves; e4m3/e5m2: a relabeling of the contraction index, applied to
// V's rows, and a permutation within each thread), then O = P V by RS WGMMAs; every O register
// against the exact product at the (m, n) the model's C layout names. Controls leave out the fp8
// permutation (or half of it) and must be caught.
#pragma once

#include <iosfwd>

#include "tma_probe.hpp"

namespace cuteref_gpu {

ProbeTally run_attention_chain_probe(std::ostream& out);

}  // namespace cuteref_gpu
