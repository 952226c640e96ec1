// TMA probe: loads and stores real tensor boxes with cp.async.bulk.tensor and compares
// every shared-memory / global-memory byte with the image the model predicts.
#pragma once

#include <iosfwd>

namespace cuteref_gpu {

struct ProbeTally {
  int passed = 0;
  int failed = 0;
};

// Runs the TMA case matrix, printing one line per matrix cell and every failure.
ProbeTally run_tma_probe(std::ostream& out);

}  // namespace cuteref_gpu
