// The arguments of every cuTensorMapEncodeTiled call the vendor code makes. CUTLASS is compiled
// with CUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL, so its make_tma_copy calls the driver function by
// name; tma_capture.cu defines that function, records the arguments and forwards them to the
// driver's own entry point. Host only; not thread-safe (the harness is single-threaded).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <vector>

namespace cuteref_gpu::vendor {

struct CapturedEncode {
  int data_type = 0;
  int rank = 0;
  const void* address = nullptr;
  std::uint64_t dims[5] = {};
  std::uint64_t strides[5] = {};  // bytes; [0] unused (dimension 0 is the element)
  std::uint32_t box[5] = {};
  std::uint32_t element_strides[5] = {};
  int interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0;
  int result = 0;  // the driver's CUresult
};

std::vector<CapturedEncode>& captured_encodes();

}  // namespace cuteref_gpu::vendor
