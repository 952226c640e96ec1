// `cuteref-gpu attention`: CUTLASS's Hopper FMHA (example 88) under differential test against the
// model (fmha_probe.cu); built into the harness with CUTEREF_GPU_FMHA.
#pragma once

#include <iosfwd>

#include "tma_probe.hpp"  // ProbeTally

namespace cuteref_gpu {

// Prints each kernel's failures, its controls with the first difference, its placement and
// result counts and one line of counts per kind.
ProbeTally run_attention_probe(std::ostream& out);

}  // namespace cuteref_gpu
