// cuteref-fmha-host: the host comparisons of CUTLASS's Hopper FMHA (fmha_case.cuh) for f16 and
// bf16 at head dims 64 and 128, with no GPU: the kernel's CuTe types are instantiated and printed,
// the tensor-map calls of its mainloop recorded (CUTEREF_VENDOR_HOST_ONLY=1, set here: this
// program never uses a GPU), nothing is launched. Prints one line per kernel and
// `N passed, M failed`; exits 1 on a failure.
#include <cstdlib>
#include <iostream>

#include "fmha_case.cuh"

namespace {

using cuteref_gpu::vendor::FmhaConfig;
using cuteref_gpu::vendor::FmhaSpec;
using cuteref_gpu::vendor::KernelReport;

template <class Element, int D>
KernelReport run(const FmhaSpec& f) {
  KernelReport r;
  cuteref_gpu::vendor::fmha_host_checks<FmhaConfig<Element, D>>(f, r);
  cuteref_gpu::vendor::FmhaProblem p;
  p.dim = D;
  cuteref_gpu::vendor::fmha_tma_checks<FmhaConfig<Element, D>>(f, p, r);
  return r;
}

}  // namespace

int main() {
  setenv("CUTEREF_VENDOR_HOST_ONLY", "1", 1);
  const std::pair<FmhaSpec, KernelReport (*)(const FmhaSpec&)> kernels[] = {
      {{"fmha_f16_d64", "f16", 64}, run<cutlass::half_t, 64>},
      {{"fmha_f16_d128", "f16", 128}, run<cutlass::half_t, 128>},
      {{"fmha_bf16_d64", "bf16", 64}, run<cutlass::bfloat16_t, 64>},
      {{"fmha_bf16_d128", "bf16", 128}, run<cutlass::bfloat16_t, 128>},
  };
  int passed = 0, failed = 0;
  for (const auto& [spec, fn] : kernels) cuteref_gpu::vendor::print_report(std::cout, spec.name, fn(spec).checks, {"host", "control"}, passed, failed);
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}
