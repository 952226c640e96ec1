// CuTe DSL kernels on the GPU (`cuteref-gpu dsl`): kernels written in the CuTe DSL, compiled ahead
// of time for sm_90a by gpu/dsl/dsl_kernels.py (cubin + the layouts the DSL printed at compile
// time, in dsl_manifest.txt), loaded with the CUDA runtime's library API and launched here. Per
// kernel: host (the DSL's SMEM layouts and TiledMMA (thread, value) layouts against the model's),
// placement (each thread's partition of an identity tensor against the model's partition_C),
// result (C against the exact product) and negative controls, each with its first difference.
#pragma once

#include <iosfwd>
#include <string>

#include "tma_probe.hpp"

namespace cuteref_gpu {

// The folder holding dsl_manifest.txt: $CUTEREF_DSL_KERNELS, else the harness's own folder; empty
// when neither holds one (the DSL was not there when the harness was built).
std::string dsl_kernel_dir();

ProbeTally run_dsl_probe(std::ostream& out);

}  // namespace cuteref_gpu
