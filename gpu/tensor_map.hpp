// The tensor map (CUtensorMap) of a TMA copy, encoded by the driver from the model's
// TmaParams: the probes hand the hardware exactly the parameters the model derived.
#pragma once

#include <cuda.h>

#include "atoms/tma.hpp"

namespace cuteref_gpu {

// Encodes `p` for the tensor at `gmem` with swizzle mode `swizzle_bits` (0 none, 1/2/3 for
// 32/64/128 bytes; a negative control may pass another mode than p's). Throws
// std::runtime_error when the driver refuses the parameters.
CUtensorMap encode(const cuteref::TmaParams& p, void* gmem, int swizzle_bits);

}  // namespace cuteref_gpu
