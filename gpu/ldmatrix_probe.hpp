// Warp-level probe: ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16. Shared memory
// holds unique 16-bit element ids; each lane hands in the row address the model's SrcLayout
// assigns it, and every 16-bit half of every destination register is checked against the
// element the model's DstLayout names for that (thread, value).
#pragma once

#include <iosfwd>

#include "tma_probe.hpp"

namespace cuteref_gpu {

ProbeTally run_ldmatrix_probe(std::ostream& out);

}  // namespace cuteref_gpu
