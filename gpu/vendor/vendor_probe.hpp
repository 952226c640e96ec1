// `cuteref-gpu vendor`: the CUTLASS SM90 GEMM kernels (cutlass_gemm_case.cuh) and CuTe's device
// code (cute_device_probe.cu) under differential test against the model (issue 15).
#pragma once

#include <iosfwd>

#include "tma_probe.hpp"  // ProbeTally

namespace cuteref_gpu {

// Prints one matrix line per kernel (its host, placement and result counts and its controls),
// every failure, every control with the first differing element, and the CuTe device probes.
ProbeTally run_vendor_probe(std::ostream& out);

}  // namespace cuteref_gpu
