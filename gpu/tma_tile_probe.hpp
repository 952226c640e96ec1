// TMA whole-tile probe: moves CTA tiles between an (M, K) GMEM tensor and GMMA-atom SMEM
// tiles (tile_to_shape of every atom majorness and swizzle) with the tensor map and the box
// copies the model derives (make_tma_params, tma_copies: CuTe's make_tma_copy and
// tma_partition), and checks every SMEM / GMEM element against the model's SMEM layout.
#pragma once

#include <iosfwd>

#include "tma_probe.hpp"

namespace cuteref_gpu {

// Runs the tile cases and negative controls, printing one line per matrix cell and every failure.
ProbeTally run_tma_tile_probe(std::ostream& out);

}  // namespace cuteref_gpu
