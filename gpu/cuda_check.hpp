// Every CUDA call of the harness goes through CUDA_CHECK; every launch is followed by
// CUDA_CHECK_LAUNCH (the launch's own error, then the kernel's completion).
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#define CUDA_CHECK(call)                                                                          \
  do {                                                                                            \
    cudaError_t err_ = (call);                                                                    \
    if (err_ != cudaSuccess)                                                                      \
      throw std::runtime_error(std::string(#call) + " failed at " __FILE__ ":" +                  \
                               std::to_string(__LINE__) + ": " + cudaGetErrorString(err_));       \
  } while (0)

#define CUDA_CHECK_LAUNCH()                   \
  do {                                        \
    CUDA_CHECK(cudaGetLastError());           \
    CUDA_CHECK(cudaDeviceSynchronize());      \
  } while (0)
