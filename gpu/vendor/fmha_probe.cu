// `cuteref-gpu attention`: CUTLASS's Hopper FMHA (example 88, warp-specialized cooperative forward
// kernel) for f16 and bf16 at head dims 64 and 128, each kernel in a child process (run_isolated):
// the host comparisons of fmha_case.cuh (CuTe types, TMA parameters), the placement of Q, K and V
// read back from the kernel's own loads (fmha_placement.cuh), then the kernel on the GPU with
// small-integer Q, K, V (B 1, H 2, 256 queries, 256 keys: two Q tiles, two K/V tiles, so the
// online softmax rescales), O against a float64 reference:
//   bounded  Q, K in {-1,0,1}, V in {-4..4}. S = Q K^T is exact in f32; the error comes from P
//            rounded to the element type before the PV GMMA (relative u each: u = 2^-11 f16,
//            2^-8 bf16, round to nearest) and from O rounded to it (relative u), the f32 softmax
//            (exp2 approximation, scaling, row sums) adding under 2^-14 relative. Since O is a
//            convex combination of V's rows, |O - ref| <= (2u + 2^-14) max|V|.
//   exact    Q = 0: every score is 0, P = 1, O(q, d) is the mean of V's column d over the 256
//            keys; V(k, d) = c_d + (-1)^k e_{k,d} with the e cancelling in pairs, so the mean is
//            c_d, exact in every type. Compared for equality.
// Controls (result): the reference reading V transposed (the other majorness of the same
// buffer), and P's key columns within each 16-wide GMMA K block taken in the other half order
// (k xor 8); both must leave the bound, reported with the first differing element.
#include <cuda_runtime.h>

#include <iostream>

#include "cuda_check.hpp"
#include "fmha_case.cuh"  // before the example's device wrapper, which needs CuTe already included
#include "device/device_universal.hpp"
#include "fmha_placement.cuh"
#include "fmha_probe.hpp"
#include "fmha_result.hpp"
#include "isolated_runner.hpp"
#include "report_wire.hpp"

namespace cuteref_gpu::vendor {
namespace {

// Small integers by a fixed hash of the position, in [lo, hi].
int small(std::uint64_t i, std::uint64_t salt, int lo, int hi) {
  std::uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ salt * 0xC2B2AE3D27D4EB4Full;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return lo + int(x % std::uint64_t(hi - lo + 1));
}

// Precondition: p.dim == D.
template <class Element, int D>
void fmha_result_checks(const FmhaSpec& f, const FmhaProblem& p, KernelReport& r) {
  using namespace cute;
  using Cfg = FmhaConfig<Element, D>;
  using Op = cutlass::device::Universal<typename Cfg::Kernel>;
  const std::size_t n_q = std::size_t(p.batches) * p.heads * p.seq_q * D, n_kv = std::size_t(p.batches) * p.heads * p.seq_kv * D;
  const double u = f.type == "bf16" ? std::ldexp(1.0, -8) : std::ldexp(1.0, -11);
  const VAddress kernel_v = [](const FmhaProblem& pr, int b, int h, int k, int d) { return pr.offset(b, h, k, d, pr.seq_kv); };
  const VAddress transposed_v = [](const FmhaProblem& pr, int b, int h, int k, int d) {
    return (std::int64_t(b) * pr.heads + h) * pr.seq_kv * pr.dim + std::int64_t(d) * pr.seq_kv + k;
  };
  const PColumn same = [](int k) { return k; };
  const PColumn halves_swapped = [](int k) { return k ^ 8; };

  Element *d_q = nullptr, *d_k = nullptr, *d_v = nullptr, *d_o = nullptr;
  float* d_lse = nullptr;
  CUDA_CHECK(cudaMalloc(&d_q, n_q * sizeof(Element)));
  CUDA_CHECK(cudaMalloc(&d_k, n_kv * sizeof(Element)));
  CUDA_CHECK(cudaMalloc(&d_v, n_kv * sizeof(Element)));
  CUDA_CHECK(cudaMalloc(&d_o, n_q * sizeof(Element)));
  CUDA_CHECK(cudaMalloc(&d_lse, std::size_t(p.batches) * p.heads * p.seq_q * sizeof(float)));
  // Runs the kernel on (q, k, v) and returns O as doubles; "" or what failed in `error`.
  const auto run = [&](const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v, std::string& error) {
    std::vector<Element> hq(n_q), hk(n_kv), hv(n_kv), ho(n_q);
    for (std::size_t i = 0; i < n_q; ++i) hq[i] = Element(float(q[i]));
    for (std::size_t i = 0; i < n_kv; ++i) hk[i] = Element(float(k[i])), hv[i] = Element(float(v[i]));
    CUDA_CHECK(cudaMemcpy(d_q, hq.data(), n_q * sizeof(Element), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_k, hk.data(), n_kv * sizeof(Element), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_v, hv.data(), n_kv * sizeof(Element), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_o, 0xFF, n_q * sizeof(Element)));  // NaN in both types: an unwritten O fails
    using S = typename Cfg::StrideQ;
    const S sq{D, _1{}, make_tuple(p.heads * p.seq_q * D, p.seq_q * D)}, skv{D, _1{}, make_tuple(p.heads * p.seq_kv * D, p.seq_kv * D)};
    cutlass::KernelHardwareInfo hw;
    hw.device_id = 0;
    hw.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(0);
    typename Op::Arguments args{{p.batches, p.heads, p.seq_q, p.seq_kv, D},
                                {d_q, sq, d_k, skv, d_v, skv},
                                {d_o, sq, d_lse, make_tuple(_1{}, make_tuple(p.heads * p.seq_q, p.seq_q))},
                                hw};
    Op op;
    std::vector<double> out(n_q);
    if (op.can_implement(args) != cutlass::Status::kSuccess) {
      error = "CUTLASS: can_implement refused the problem";
      return out;
    }
    const std::size_t ws = Op::get_workspace_size(args);
    void* workspace = nullptr;
    if (ws) CUDA_CHECK(cudaMalloc(&workspace, ws));
    if (op.initialize(args, workspace) != cutlass::Status::kSuccess || op.run() != cutlass::Status::kSuccess) {
      error = std::string("CUTLASS: initialize or run failed: ") + cudaGetErrorString(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    if (workspace) CUDA_CHECK(cudaFree(workspace));
    CUDA_CHECK(cudaMemcpy(ho.data(), d_o, n_q * sizeof(Element), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < n_q; ++i) out[i] = double(float(ho[i]));
    return out;
  };

  // ---- bounded: general small integers -------------------------------------------------------
  std::vector<double> q(n_q), k(n_kv), v(n_kv);
  for (std::size_t i = 0; i < n_q; ++i) q[i] = small(i, 1, -1, 1);
  for (std::size_t i = 0; i < n_kv; ++i) k[i] = small(i, 2, -1, 1), v[i] = small(i, 3, -4, 4);
  std::string error;
  const std::vector<double> o = run(q, k, v, error);
  const double bound = (2 * u + std::ldexp(1.0, -14)) * 4;
  std::int64_t compared = 0;
  if (!error.empty()) {
    r.add("result", "O within the bound", false, error);
  } else {
    const std::string diff = fmha_first_difference(p, o, fmha_reference(p, q, k, v, kernel_v, same), bound, &compared);
    r.add("result", "O within (2u + 2^-14) max|V| of the float64 reference", diff.empty(),
          diff.empty() ? std::to_string(compared) + " elements, bound " + std::to_string(bound) : diff);
    const auto control = [&](const std::string& what, const VAddress& at_v, const PColumn& column) {
      std::int64_t n = 0;
      const std::string d = fmha_first_difference(p, o, fmha_reference(p, q, k, v, at_v, column), bound, &n);
      r.add("control", what, !d.empty(), d.empty() ? "not caught: the kernel's O is within the bound of the changed reference" : d);
    };
    control("V read with the other majorness", transposed_v, same);
    control("P's key columns in the other half order within each K block (k xor 8)", kernel_v, halves_swapped);
  }

  // ---- exact: all-equal scores ----------------------------------------------------------------
  std::vector<double> q0(n_q, 0.0), v_mean(n_kv);
  std::vector<double> want(n_q);
  for (int b = 0; b < p.batches; ++b)
    for (int h = 0; h < p.heads; ++h)
      for (int d = 0; d < D; ++d) {
        const int c = small(std::uint64_t(d) + 1000 * h, 4, -4, 4);
        for (int kk = 0; kk < p.seq_kv; kk += 2) {
          const int e = small(std::uint64_t(kk) * D + d + 100000 * h, 5, 0, 3);  // paired: +e at kk, -e at kk+1
          v_mean[p.offset(b, h, kk, d, p.seq_kv)] = c + e;
          v_mean[p.offset(b, h, kk + 1, d, p.seq_kv)] = c - e;
        }
        for (int i = 0; i < p.seq_q; ++i) want[p.offset(b, h, i, d, p.seq_q)] = c;
      }
  error.clear();
  const std::vector<double> o0 = run(q0, k, v_mean, error);
  if (!error.empty()) {
    r.add("result", "O exact (all-equal scores)", false, error);
  } else {
    const std::string diff = fmha_first_difference(p, o0, want, 0.0, &compared);
    r.add("result", "O exact: Q = 0, O = the mean of V's rows", diff.empty(), diff.empty() ? std::to_string(compared) + " elements" : diff);
  }
  CUDA_CHECK(cudaFree(d_q));
  CUDA_CHECK(cudaFree(d_k));
  CUDA_CHECK(cudaFree(d_v));
  CUDA_CHECK(cudaFree(d_o));
  CUDA_CHECK(cudaFree(d_lse));
}

template <class Element, int D>
KernelReport run_case(const FmhaSpec& f) {
  KernelReport r;
  FmhaProblem p;
  p.dim = D;
  fmha_host_checks<FmhaConfig<Element, D>>(f, r);
  const auto guarded = [&](const char* what, const std::function<void()>& run) {
    try {
      run();
    } catch (const std::exception& e) {
      r.add("result", what, false, std::string("error: ") + e.what());
    }
  };
  guarded("TMA parameters", [&] { fmha_tma_checks<FmhaConfig<Element, D>>(f, p, r); });
  guarded("placement probe", [&] { fmha_placement_checks<FmhaConfig<Element, D>>(f, p, r); });
  guarded("kernel run", [&] { fmha_result_checks<Element, D>(f, p, r); });
  return r;
}

}  // namespace
}  // namespace cuteref_gpu::vendor

namespace cuteref_gpu {

ProbeTally run_attention_probe(std::ostream& out) {
  using namespace vendor;
  const std::pair<FmhaSpec, KernelReport (*)(const FmhaSpec&)> kernels[] = {
      {{"fmha_f16_d64", "f16", 64}, run_case<cutlass::half_t, 64>},
      {{"fmha_f16_d128", "f16", 128}, run_case<cutlass::half_t, 128>},
      {{"fmha_bf16_d64", "bf16", 64}, run_case<cutlass::bfloat16_t, 64>},
      {{"fmha_bf16_d128", "bf16", 128}, run_case<cutlass::bfloat16_t, 128>},
  };
  const std::size_t count = std::size(kernels);
  const std::vector<CaseOutcome> results = run_isolated(count, [&](std::size_t i) {
    const KernelReport r = kernels[i].second(kernels[i].first);
    bool ok = true;
    for (const auto& c : r.checks) ok = ok && c.ok;
    return CaseOutcome{true, ok, false, "\x1d" + encode_report(r)};
  });
  int passed = 0, failed = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const CaseOutcome& o = results[i];
    if (o.message.empty() || o.message[0] != '\x1d') {  // the kernel's process died or threw
      ++failed;
      out << "FAIL attention " << kernels[i].first.name << ": " << (o.message.empty() ? "no result" : o.message) << "\n";
      continue;
    }
    print_report(out, kernels[i].first.name, decode_report(o.message.substr(1)), {"host", "placement", "result", "control"}, passed, failed);
  }
  return ProbeTally{passed, failed};
}

}  // namespace cuteref_gpu
