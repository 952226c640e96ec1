// Runs probe cases in forked children so that a case that faults the GPU (which leaves the
// CUDA context unusable) ends only its child; the parent resumes with the next case in a
// fresh child. The parent process must not initialize CUDA.
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
// (then the child ends and the next case starts in a fresh child).
std::vector<CaseOutcome> run_isolated(std::size_t count, const std::function<CaseOutcome(std::size_t)>& run);

}  // namespace cuteref_gpu
