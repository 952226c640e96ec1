// The CUTLASS SM90 GEMM kernels under differential test (issue 15): one entry per kernel,
// generated from the table in gen_cutlass_kernels.py, each with its parameters (what the model
// derives from) and the function that runs its comparisons.
#pragma once

#include <string>
#include <vector>

namespace cuteref_gpu::vendor {

// The parameters of one CollectiveBuilder GEMM, as the table gives them.
struct GemmSpec {
  std::string name;        // e.g. f16_TN_coop_128x128x64_c2x1
  std::string type;        // f16 | bf16 | e4m3 | tf32 | s8
  bool a_k_major = true;   // A RowMajor (K-major) or ColumnMajor (M-major)
  bool b_k_major = true;   // B ColumnMajor (K-major) or RowMajor (N-major)
  int bm = 0, bn = 0, bk = 0;
  int cluster_m = 1, cluster_n = 1;
  std::string schedule;    // ws | coop | pingpong
  int stages = 0;
  int bits = 0;            // element width of A and B
  std::string atom;        // the model's name of the GMMA atom CUTLASS's builder picks
  int atoms_m = 1;         // AtomLayoutMNK (atoms_m, 1, 1): 2 for the cooperative schedule
  bool a_in_registers = false;  // an RS kernel: A read from SMEM into registers, then RS GMMA
};

// One comparison: what was compared, whether it held, and the first difference or the count.
struct Check {
  std::string kind;  // host | placement | result | control
  std::string what;
  bool ok = false;
  std::string detail;
};

struct KernelReport {
  std::vector<Check> checks;
  void add(const std::string& kind, const std::string& what, bool ok, const std::string& detail) {
    checks.push_back({kind, what, ok, detail});
  }
};

using RunKernel = KernelReport (*)(const GemmSpec&);

struct RegisteredKernel {
  GemmSpec spec;
  RunKernel run;
};

// Every generated kernel (gen_cutlass_kernels.py writes the registry).
const std::vector<RegisteredKernel>& registered_kernels();

}  // namespace cuteref_gpu::vendor
