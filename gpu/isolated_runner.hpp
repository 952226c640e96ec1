// Runs probe cases in forked children so that a case that faults the GPU (which leaves the
// CUDA context unusable) ends only its child. Cases that are not expected to fault share one
// child (one CUDA context); after an unexpected fault the next case starts in a fresh child.
// Cases expected to fault run one per child, several children at once (each its own context),
// so that their context set-up overlaps. The parent process must not initialize CUDA.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace cuteref_gpu {

struct CaseOutcome {
  bool ran = false;
  bool ok = false;
  bool flag = false;    // a probe-specific observation (e.g. "seed formula consistent")
  std::string message;  // the first mismatch, or the error
};

// `run(i)` runs case i in a child and returns its outcome; it may throw on CUDA errors
// (then the child ends and the next case starts in a fresh child). `may_fault(i)` marks the
// cases expected to fault (none when empty). The number of concurrent children for those is
// $CUTEREF_GPU_FAULT_WORKERS (default 8; 1 runs them one after another).
std::vector<CaseOutcome> run_isolated(std::size_t count, const std::function<CaseOutcome(std::size_t)>& run,
                                      const std::function<bool(std::size_t)>& may_fault = {});

}  // namespace cuteref_gpu
