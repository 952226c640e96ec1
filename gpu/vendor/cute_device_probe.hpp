// CuTe's device code as the vendor writes it, against the model (issue 15 item 2):
//   - make_tma_copy + tma_partition + copy into swizzled GMMA SMEM, then TiledMMA partition_A/B/C,
//     make_fragment_A/B and gemm (wgmma) of one tile: the tensor-map arguments make_tma_copy
//     passes to the driver against the model's tma_params, every SMEM slot against the model's
//     composed layout, each thread's partition_C of an identity tensor against the model's
//     partition_C, and C against the exact product;
//   - a TiledCopy with ldmatrix (make_tiled_copy_A of SM75_U32x4_LDSM_N) from swizzled SMEM into
//     the SM80 MMA's A fragments: every (thread, register) holds the coordinate the model's
//     partition_A names;
//   - a TiledCopy with stmatrix (make_tiled_copy_C of SM90_U32x2_STSM_N) of C fragments that hold
//     their coordinates into swizzled SMEM: every slot the model's composed layout names holds
//     its coordinate.
// Each has a negative control (the model given another swizzle or another partition).
#pragma once

#include <iosfwd>

#include "tma_probe.hpp"  // ProbeTally

namespace cuteref_gpu {

ProbeTally run_cute_device_probe(std::ostream& out);

}  // namespace cuteref_gpu
