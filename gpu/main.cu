// cuteref-gpu: the GPU differential harness. Runs the probes on the first CUDA device and
// prints a case matrix and a final `N passed, M failed` line. Exits 77 (skip) when no
// Hopper GPU is present, so that the meson suite `gpu` skips on machines without one.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "attention_chain_probe.hpp"
#include "banks_probe.hpp"
#include "cuda_check.hpp"
#include "dsl_probe.hpp"
#include "tma_probe.hpp"
#include "tma_tile_probe.hpp"
#include "ldmatrix_probe.hpp"
#include "mma_sync_probe.hpp"
#include "wgmma_probe.hpp"
#ifdef CUTEREF_GPU_VENDOR
#include "vendor/vendor_probe.hpp"
#endif
#ifdef CUTEREF_GPU_FMHA
#include "vendor/fmha_probe.hpp"
#endif

namespace {

// Prints the device; returns 0 for a Hopper GPU, 77 (skip) for none or another kind.
int describe_device() {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::cout << "cuteref-gpu: no CUDA device (" << (err != cudaSuccess ? cudaGetErrorString(err) : "0 devices")
              << "): skipping" << std::endl;
    return 77;
  }
  try {
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    int driver = 0, runtime = 0;
    CUDA_CHECK(cudaDriverGetVersion(&driver));
    CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    std::cout << "device: " << prop.name << " (sm_" << prop.major << prop.minor << "), driver API " << driver
              << ", runtime " << runtime << std::endl;
    if (prop.major != 9) {
      std::cout << "cuteref-gpu: the probes need a Hopper GPU (sm_90); skipping" << std::endl;
      return 77;
    }
    return 0;
  } catch (const std::exception& e) {
    std::cout << "cuteref-gpu: error: " << e.what() << std::endl;
    return 1;
  }
}

// describe_device in a forked child: the parent never initializes CUDA (probes run their
// cases in forked children, a faulting kernel ends only its child, and a CUDA context does not
// survive fork). Returns describe_device's status.
int check_device_in_child() {
  std::cout.flush();
  const pid_t pid = fork();
  if (pid == 0) _exit(describe_device());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace

struct Probe {
  const char* name;
  cuteref_gpu::ProbeTally (*run)(std::ostream&);
};
const Probe kProbes[] = {{"tma", cuteref_gpu::run_tma_probe},
                         {"tma_tile", cuteref_gpu::run_tma_tile_probe},
                         {"mma", cuteref_gpu::run_mma_sync_probe},
                         {"ldmatrix", cuteref_gpu::run_ldmatrix_probe},
                         {"wgmma", cuteref_gpu::run_wgmma_probe},
                         {"attention_chain", cuteref_gpu::run_attention_chain_probe},
                         {"dsl", cuteref_gpu::run_dsl_probe},
#ifdef CUTEREF_GPU_FMHA
                         {"attention", cuteref_gpu::run_attention_probe},
#endif
#ifdef CUTEREF_GPU_VENDOR
                         {"vendor", cuteref_gpu::run_vendor_probe},
#endif
};

// A malformed command line exits 64 (EX_USAGE), as every cuteref command does (README.md).
constexpr int kExitUsage = 64;

// `banks [--out DIR] [--dry-run]`: the bank-conflict probe, which drives ncu itself (not in `all`:
// it needs Nsight Compute); `banks-kernels FILE` is its child, run under ncu.
int banks_main(int argc, char** argv) {
  const std::string what = argv[1];
  try {
    if (what == "banks-kernels") {
      if (argc != 3) {
        std::cerr << "error: usage: cuteref-gpu banks-kernels CASE_FILE\n";
        return kExitUsage;
      }
      return cuteref_gpu::run_banks_kernels(argv[2]);
    }
    std::string out_dir;
    bool dry_run = false;
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--dry-run") dry_run = true;
      else if (a == "--out" && i + 1 < argc) out_dir = argv[++i];
      else {
        std::cerr << "error: usage: cuteref-gpu banks [--out DIR] [--dry-run]\n";
        return kExitUsage;
      }
    }
    if (!dry_run)
      if (const int rc = check_device_in_child(); rc != 0) return rc;
    const cuteref_gpu::ProbeTally t = cuteref_gpu::run_banks_probe(std::cout, out_dir, dry_run);
    std::cout << "banks: " << t.passed << " passed, " << t.failed << " failed" << std::endl;
    if (dry_run) return 0;
    return t.failed == 0 && t.passed > 0 ? 0 : (t.failed == 0 ? 77 : 1);
  } catch (const std::exception& e) {
    std::cout << "cuteref-gpu banks: error: " << e.what() << std::endl;
    return 1;
  }
}

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "all";
  if (what == "banks" || what == "banks-kernels") return banks_main(argc, argv);
  const bool known = what == "all" || std::any_of(std::begin(kProbes), std::end(kProbes),
                                                  [&](const Probe& p) { return what == p.name; });
  // Probes built only on request (-Dgpu_fmha, -Dgpu_vendor) skip (exit 77) when left out.
  std::vector<std::pair<std::string, std::string>> not_built;  // (probe, what is missing)
#ifndef CUTEREF_GPU_FMHA
  not_built.emplace_back("attention", "CUTLASS's FMHA is not built into this harness (-Dgpu_fmha=enabled");
#endif
#ifndef CUTEREF_GPU_VENDOR
  not_built.emplace_back("vendor", "the CUTLASS kernels are not built into this harness (-Dgpu_vendor=enabled");
#endif
  for (const auto& [probe, missing] : not_built)
    if (what == probe) {
      std::cout << "cuteref-gpu " << probe << ": " << missing
                << ", or build on the GPU machine with gpu/vendor/device_build.py): skipping\n";
      return 77;
    }
  if (what == "--help" || !known || argc > 2) {
    std::cout << "usage: cuteref-gpu [tma|tma_tile|wgmma|attention_chain|dsl|mma|ldmatrix|attention|vendor|all|banks [--out DIR] [--dry-run]]\n"
                 "  tma    cp.async.bulk.tensor loads and stores vs the model's TMA parameters and SMEM layouts\n"
                 "  tma_tile  whole CTA tiles into GMMA-atom SMEM layouts, box by box, vs the model's tma_copies\n"
                 "  wgmma  wgmma.mma_async vs the model's GMMA atoms, descriptors and TV layouts\n"
                 "  attention_chain  S = Q K^T (SS wgmma), S converted in registers as the model's register_permutation\n"
                 "         says, O = P V (RS wgmma) for f16/bf16/e4m3/e5m2, N = 64..256, vs the exact product\n"
                 "  dsl    CuTe DSL kernels compiled ahead of time (gpu/dsl/dsl_kernels.py): the DSL's layouts, placement\n"
                 "         through identity tensors and the result vs the model (needs dsl_manifest.txt beside the harness)\n"
                 "  mma    mma.sync (m16n8k16 f16/bf16, m16n8k8 tf32, m16n8k32 s8) vs the model's TV layouts\n"
                 "  ldmatrix  ldmatrix .x1/.x2/.x4 with and without .trans vs the model's copy atoms' TV layouts\n"
                 "  attention  CUTLASS's Hopper FMHA (example 88; f16, bf16; D 64, 128): CuTe types, TMA parameters, Q/K/V\n"
                 "         placement from the kernel's own loads, O vs float64 (when built with it)\n"
                 "  vendor CUTLASS's SM90 GEMM kernels and CuTe's device code vs the model (when built with them)\n"
                 "  all    every probe above\n"
                 "  banks  shared-memory wavefronts: the model's smem_wavefronts vs Nsight Compute's counters (runs ncu;\n"
                 "         not part of all); --out DIR keeps the cases, ncu's CSV and a line per case; --dry-run lists\n"
                 "         the cases and predictions without a GPU\n";
    return what == "--help" && argc == 2 ? 0 : kExitUsage;
  }
  if (what == "dsl" && cuteref_gpu::dsl_kernel_dir().empty()) {
    std::cout << "cuteref-gpu dsl: no DSL kernels were built (no CuTe DSL at build time): skipping\n";
    return 77;
  }
  if (const int rc = check_device_in_child(); rc != 0) return rc;
  // A keeper child holds a CUDA context for the whole run, so that each case's child finds the
  // GPU initialized (without persistence mode the driver otherwise sets the GPU up again for
  // every child that opens it). CUTEREF_GPU_KEEPER=0 leaves it out.
  int keeper_pipe[2] = {-1, -1};
  pid_t keeper = -1;
  const char* keeper_env = std::getenv("CUTEREF_GPU_KEEPER");
  if (!(keeper_env && std::string(keeper_env) == "0") && pipe(keeper_pipe) == 0) {
    std::cout.flush();
    keeper = fork();
    if (keeper == 0) {
      close(keeper_pipe[1]);
      cudaFree(nullptr);
      char byte;
      while (read(keeper_pipe[0], &byte, 1) > 0) {
      }
      _exit(0);
    }
    close(keeper_pipe[0]);
  }
  struct KeeperStop {
    int fd;
    pid_t pid;
    ~KeeperStop() {
      if (fd >= 0) close(fd);
      if (pid > 0) waitpid(pid, nullptr, 0);
    }
  } keeper_stop{keeper_pipe[1], keeper};
  try {
    cuteref_gpu::ProbeTally t;
    for (const Probe& probe : kProbes) {
      if (what != "all" && what != probe.name) continue;
      const auto start = std::chrono::steady_clock::now();
      const cuteref_gpu::ProbeTally p = probe.run(std::cout);
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      std::cout << probe.name << ": " << p.passed << " passed, " << p.failed << " failed (" << took.count() << " s)" << std::endl;
      t.passed += p.passed;
      t.failed += p.failed;
    }
    std::cout << t.passed << " passed, " << t.failed << " failed" << std::endl;
    return t.failed == 0 && t.passed > 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cout << "cuteref-gpu: error: " << e.what() << std::endl;
    return 1;
  }
}
