// cuteref-gpu: the GPU differential harness. Runs the probes on the first CUDA device and
// prints a case matrix and a final `N passed, M failed` line. Exits 77 (skip) when no
// Hopper GPU is present, so that the meson suite `gpu` skips on machines without one.
#include <cuda_runtime.h>

#include <algorithm>
#include <iostream>
#include <iterator>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include "banks_probe.hpp"
#include "cuda_check.hpp"
#include "tma_probe.hpp"
#include "tma_tile_probe.hpp"
#include "ldmatrix_probe.hpp"
#include "mma_sync_probe.hpp"
#include "wgmma_probe.hpp"

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

}  // namespace

struct Probe {
  const char* name;
  cuteref_gpu::ProbeTally (*run)(std::ostream&);
};
const Probe kProbes[] = {{"tma", cuteref_gpu::run_tma_probe},
                         {"tma_tile", cuteref_gpu::run_tma_tile_probe},
                         {"mma", cuteref_gpu::run_mma_sync_probe},
                         {"ldmatrix", cuteref_gpu::run_ldmatrix_probe},
                         {"wgmma", cuteref_gpu::run_wgmma_probe}};

// `banks [--out DIR] [--dry-run]`: the bank-conflict probe, which drives ncu itself (not in `all`:
// it needs Nsight Compute); `banks-kernels FILE` is its child, run under ncu.
int banks_main(int argc, char** argv) {
  const std::string what = argv[1];
  try {
    if (what == "banks-kernels") {
      if (argc < 3) throw std::runtime_error("usage: cuteref-gpu banks-kernels CASE_FILE");
      return cuteref_gpu::run_banks_kernels(argv[2]);
    }
    std::string out_dir;
    bool dry_run = false;
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--dry-run") dry_run = true;
      else if (a == "--out" && i + 1 < argc) out_dir = argv[++i];
      else throw std::runtime_error("usage: cuteref-gpu banks [--out DIR] [--dry-run]");
    }
    if (!dry_run) {
      std::cout.flush();
      const pid_t pid = fork();
      if (pid == 0) _exit(describe_device());
      int status = 0;
      waitpid(pid, &status, 0);
      const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
      if (rc != 0) return rc;
    }
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
  if (what == "--help" || !known) {
    std::cout << "usage: cuteref-gpu [tma|tma_tile|wgmma|mma|ldmatrix|all|banks [--out DIR] [--dry-run]]\n"
                 "  tma    cp.async.bulk.tensor loads and stores vs the model's TMA parameters and SMEM layouts\n"
                 "  tma_tile  whole CTA tiles into GMMA-atom SMEM layouts, box by box, vs the model's tma_copies\n"
                 "  wgmma  wgmma.mma_async vs the model's GMMA atoms, descriptors and TV layouts\n"
                 "  mma    mma.sync (m16n8k16 f16/bf16, m16n8k8 tf32, m16n8k32 s8) vs the model's TV layouts\n"
                 "  ldmatrix  ldmatrix .x1/.x2/.x4 with and without .trans vs the model's copy atoms' TV layouts\n"
                 "  all    every probe above\n"
                 "  banks  shared-memory wavefronts: the model's smem_wavefronts vs Nsight Compute's counters (runs ncu;\n"
                 "         not part of all); --out DIR keeps the cases, ncu's CSV and a line per case; --dry-run lists\n"
                 "         the cases and predictions without a GPU\n";
    return what == "--help" ? 0 : 2;
  }
  // The parent never initializes CUDA: probes run their cases in forked children (a
  // faulting kernel ends only its child), and a CUDA context does not survive fork.
  std::cout.flush();
  const pid_t pid = fork();
  if (pid == 0) _exit(describe_device());
  int status = 0;
  waitpid(pid, &status, 0);
  const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  if (rc != 0) return rc;
  try {
    cuteref_gpu::ProbeTally t;
    for (const Probe& probe : kProbes) {
      if (what != "all" && what != probe.name) continue;
      const cuteref_gpu::ProbeTally p = probe.run(std::cout);
      std::cout << probe.name << ": " << p.passed << " passed, " << p.failed << " failed" << std::endl;
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
