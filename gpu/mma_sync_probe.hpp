// Warp-level probe: mma.sync (m16n8k16 f16/bf16, m16n8k8 tf32, m16n8k32 s8) with A and B
// registers filled through the model's ALayout/BLayout and every C register checked against
// the (m, n) the model's CLayout names.
#pragma once

#include <iosfwd>

#include "tma_probe.hpp"

namespace cuteref_gpu {

ProbeTally run_mma_sync_probe(std::ostream& out);

}  // namespace cuteref_gpu
