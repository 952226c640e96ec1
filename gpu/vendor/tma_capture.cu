#include "tma_capture.hpp"

#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <cstdlib>
#include <string>

namespace cuteref_gpu::vendor {

std::vector<CapturedEncode>& captured_encodes() {
  static std::vector<CapturedEncode> calls;
  return calls;
}

namespace {
PFN_cuTensorMapEncodeTiled_v12000 driver_encode() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
      p = nullptr;
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}
}  // namespace

}  // namespace cuteref_gpu::vendor

// The driver API function, defined here so that CUTLASS's direct call lands in the harness.
extern "C" CUresult CUDAAPI cuTensorMapEncodeTiled(CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank, void* address,
                                                   const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box,
                                                   const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                                                   CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                                                   CUtensorMapFloatOOBfill oob) {
  using namespace cuteref_gpu::vendor;
  CapturedEncode c;
  c.data_type = static_cast<int>(type);
  c.rank = static_cast<int>(rank);
  c.address = address;
  for (cuuint32_t i = 0; i < rank && i < 5; ++i) {
    c.dims[i] = dims[i];
    if (i > 0) c.strides[i] = strides[i - 1];
    c.box[i] = box[i];
    c.element_strides[i] = element_strides[i];
  }
  c.interleave = static_cast<int>(interleave);
  c.swizzle = static_cast<int>(swizzle);
  c.l2_promotion = static_cast<int>(l2);
  c.oob_fill = static_cast<int>(oob);
  const auto fn = driver_encode();
  // Without a driver (CUTEREF_VENDOR_HOST_ONLY=1 on a machine without a GPU) the call is only
  // recorded; CuTe would otherwise assert on the failure.
  const char* host_only = std::getenv("CUTEREF_VENDOR_HOST_ONLY");
  const bool record_only = !fn && host_only && std::string(host_only) == "1";
  const CUresult r = fn ? fn(map, type, rank, address, dims, strides, box, element_strides, interleave, swizzle, l2, oob)
                        : record_only ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
  c.result = static_cast<int>(r);
  captured_encodes().push_back(c);
  return r;
}
