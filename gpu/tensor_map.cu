#include "tensor_map.hpp"

#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <stdexcept>
#include <string>

#include "cuda_check.hpp"

namespace cuteref_gpu {

namespace {

PFN_cuTensorMapEncodeTiled_v12000 encode_fn() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q;
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess || !p) throw std::runtime_error("cuTensorMapEncodeTiled not found in the driver");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

}  // namespace

CUtensorMap encode(const cuteref::TmaParams& p, void* gmem, int swizzle_bits) {
  CUtensorMap map;
  CUtensorMapDataType dtype = p.element_bytes == 1   ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                              : p.element_bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                                                     : CU_TENSOR_MAP_DATA_TYPE_UINT32;
  const CUtensorMapSwizzle sw[] = {CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B,
                                   CU_TENSOR_MAP_SWIZZLE_128B};
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], estr[5];
  for (int i = 0; i < p.rank; ++i) {
    dims[i] = p.global_dim[i];
    box[i] = p.box_dim[i];
    estr[i] = p.element_stride[i];
    if (i > 0) strides[i - 1] = p.global_stride_bytes[i];
  }
  CUresult r = encode_fn()(&map, dtype, static_cast<cuuint32_t>(p.rank), gmem, dims, strides, box, estr,
                           CU_TENSOR_MAP_INTERLEAVE_NONE, sw[swizzle_bits], CU_TENSOR_MAP_L2_PROMOTION_NONE,
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) throw std::runtime_error("cuTensorMapEncodeTiled failed with CUresult " + std::to_string(r));
  return map;
}

}  // namespace cuteref_gpu
