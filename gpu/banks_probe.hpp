// Shared-memory bank conflicts on the hardware: the model's smem_wavefronts against Nsight
// Compute's counters.
//
// `cuteref-gpu banks [--out DIR]` builds (instruction, address layout) cases on the host from
// the model (GMMA shared-memory atoms read and written by ldmatrix, stmatrix and vector
// loads/stores, the instructions of tiled copies (bank_conflicts), known-bad strides, random
// layouts), predicts each case's wavefronts with smem_wavefronts, and runs ncu on itself
// (`cuteref-gpu banks-kernels FILE`): one single-warp kernel launch per case that executes the
// one shared-memory instruction at the lane addresses the model computed. ncu reports the
// kernel's l1tex__data_pipe_lsu_wavefronts_mem_shared.sum (and the per-operation metrics it
// knows); a case passes when that equals the prediction. Negative control: for each swizzled
// case whose prediction without the swizzle differs, that prediction must disagree with the
// counter. With --out, the cases, ncu's CSV and one line per case are written to DIR.
// Without ncu (searched as $NCU, on PATH, under /usr/local/cuda/bin and /opt/nvidia) the probe
// skips with that message.
#pragma once

#include <iosfwd>
#include <string>

#include "tma_probe.hpp"

namespace cuteref_gpu {

// With dry_run, lists the cases and the model's predictions without running anything.
ProbeTally run_banks_probe(std::ostream& out, const std::string& out_dir, bool dry_run);

// The child side, run under ncu: launches one kernel per case of the case file. Returns 0.
int run_banks_kernels(const std::string& case_file);

}  // namespace cuteref_gpu
