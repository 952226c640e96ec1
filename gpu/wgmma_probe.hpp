// WGMMA probe: real wgmma.mma_async on SMEM images laid out by the model's GMMA atoms, with
// the model's descriptors (and, for RS, the model's A fragment); every accumulator register
// of every thread is checked against the (m, n) the model's CLayout names.
#pragma once

#include <iosfwd>

#include "tma_probe.hpp"

namespace cuteref_gpu {

ProbeTally run_wgmma_probe(std::ostream& out);

}  // namespace cuteref_gpu
