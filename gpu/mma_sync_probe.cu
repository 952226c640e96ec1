#include "mma_sync_probe.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "atoms/mma_atom.hpp"
#include "coordinates.hpp"
#include "cuda_check.hpp"
#include "isolated_runner.hpp"

namespace cuteref_gpu {

using cuteref::IntTuple;
using cuteref::Layout;
using cuteref::MmaAtom;

namespace {

enum class Kind { F16, BF16, TF32, S8 };

// One warp: 4 A registers, 2 B registers, 4 C registers per thread; C starts at zero.
template <Kind K>
__global__ void mma_sync_kernel(const std::uint32_t* a_regs, const std::uint32_t* b_regs, std::uint32_t* out) {
  const int t = threadIdx.x;
  std::uint32_t a0 = a_regs[t * 4], a1 = a_regs[t * 4 + 1], a2 = a_regs[t * 4 + 2], a3 = a_regs[t * 4 + 3];
  std::uint32_t b0 = b_regs[t * 2], b1 = b_regs[t * 2 + 1];
  std::uint32_t d[4] = {0, 0, 0, 0};
  if constexpr (K == Kind::F16)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  else if constexpr (K == Kind::BF16)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  else if constexpr (K == Kind::TF32)
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  else
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  for (int i = 0; i < 4; ++i) out[t * 4 + i] = d[i];
}

struct MmaCase {
  const char* atom_name;
  Kind kind;
  bool wrong_a_layout = false;  // negative control: A placed by a wrong TV layout
};

std::uint32_t encode(Kind k, int v) {
  if (k == Kind::F16) {
    __half h = __float2half(static_cast<float>(v));
    std::uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
  }
  if (k == Kind::BF16) {
    __nv_bfloat16 h = __float2bfloat16(static_cast<float>(v));
    std::uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
  }
  if (k == Kind::TF32) {
    float f = static_cast<float>(v);
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  return static_cast<std::uint8_t>(static_cast<std::int8_t>(v));
}

std::int64_t at(const Layout& l, std::int64_t t, std::int64_t v) {
  return cuteref::apply(l, IntTuple::tuple({IntTuple::integer(t), IntTuple::integer(v)})).value();
}

// Registers of every thread for an operand: value v of thread t is element `layout(t, v)`,
// (32 / bits) values per register, low bits first.
std::vector<std::uint32_t> registers(const Layout& layout, const std::vector<int>& values, Kind k, int bits, int per_thread) {
  std::vector<std::uint32_t> regs(static_cast<std::size_t>(32 * per_thread), 0);
  const std::int64_t nvals = cuteref::size_value(cuteref::mode(layout, 1));
  const int per_reg = 32 / bits;
  for (std::int64_t t = 0; t < 32; ++t)
    for (std::int64_t v = 0; v < nvals; ++v)
      regs[static_cast<std::size_t>(t * per_thread + v / per_reg)] |=
          (bits == 32 ? encode(k, values[at(layout, t, v)]) : encode(k, values[at(layout, t, v)]) << (bits * (v % per_reg)));
  return regs;
}

CaseOutcome run_case(const MmaCase& c) {
  const MmaAtom atom = cuteref::mma_atom(c.atom_name);
  const int bits = cuteref::mma_element_bits(atom.type_a);
  std::mt19937 rng(static_cast<unsigned>(atom.k * 31 + bits + (c.wrong_a_layout ? 7 : 0)));
  std::vector<int> a(static_cast<std::size_t>(atom.m * atom.k)), b(static_cast<std::size_t>(atom.n * atom.k));
  for (int& x : a) x = static_cast<int>(rng() % 7) - 3;
  for (int& x : b) x = static_cast<int>(rng() % 7) - 3;
  Layout a_layout = atom.a_layout;
  if (c.wrong_a_layout) {
    // A wrong TV layout: the first two value strides exchanged.
    const IntTuple& d = atom.a_layout.stride()[1];
    std::vector<IntTuple> swapped = d.elements().to_vector();
    std::swap(swapped[0], swapped[1]);
    a_layout = Layout(atom.a_layout.shape(), IntTuple::tuple({atom.a_layout.stride()[0], IntTuple::tuple(swapped)}));
  }
  const std::vector<std::uint32_t> ra = registers(a_layout, a, c.kind, bits, 4);
  const std::vector<std::uint32_t> rb = registers(atom.b_layout, b, c.kind, bits, 2);
  std::uint32_t *d_a, *d_b, *d_out;
  CUDA_CHECK(cudaMalloc(&d_a, ra.size() * 4));
  CUDA_CHECK(cudaMalloc(&d_b, rb.size() * 4));
  CUDA_CHECK(cudaMalloc(&d_out, 32 * 4 * 4));
  CUDA_CHECK(cudaMemcpy(d_a, ra.data(), ra.size() * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, rb.data(), rb.size() * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0xEE, 32 * 4 * 4));
  switch (c.kind) {
    case Kind::F16: mma_sync_kernel<Kind::F16><<<1, 32>>>(d_a, d_b, d_out); break;
    case Kind::BF16: mma_sync_kernel<Kind::BF16><<<1, 32>>>(d_a, d_b, d_out); break;
    case Kind::TF32: mma_sync_kernel<Kind::TF32><<<1, 32>>>(d_a, d_b, d_out); break;
    case Kind::S8: mma_sync_kernel<Kind::S8><<<1, 32>>>(d_a, d_b, d_out); break;
  }
  CUDA_CHECK_LAUNCH();
  std::vector<std::uint32_t> out(32 * 4);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_out));
  const std::int64_t nvals = cuteref::size_value(cuteref::mode(atom.c_layout, 1));
  for (std::int64_t t = 0; t < 32; ++t)
    for (std::int64_t v = 0; v < nvals; ++v) {
      const std::int64_t idx = at(atom.c_layout, t, v), mi = idx % atom.m, ni = idx / atom.m;
      long long want = 0;
      for (std::int64_t kk = 0; kk < atom.k; ++kk) want += a[mi + kk * atom.m] * b[ni + kk * atom.n];
      const std::uint32_t reg = out[t * 4 + v];
      double got;
      if (c.kind == Kind::S8) {
        got = static_cast<std::int32_t>(reg);
      } else {
        float f;
        std::memcpy(&f, &reg, 4);
        got = f;
      }
      if (got != static_cast<double>(want)) {
        std::ostringstream s;
        s << "thread " << t << " value " << v << ": model's CLayout names (m,n) = (" << mi << "," << ni
          << ") whose product is " << want << ", the register holds " << got;
        return {true, false, false, s.str()};
      }
    }
  return {true, true, false, ""};
}

}  // namespace

ProbeTally run_mma_sync_probe(std::ostream& out) {
  std::vector<MmaCase> cases = {
      {"SM80_16x8x16_F32F16F16F32_TN", Kind::F16},
      {"SM80_16x8x16_F32BF16BF16F32_TN", Kind::BF16},
      {"SM80_16x8x8_F32TF32TF32F32_TN", Kind::TF32},
      {"SM80_16x8x32_S32S8S8S32_TN", Kind::S8},
  };
  const std::size_t first_control = cases.size();
  for (std::size_t i = 0; i < first_control; ++i) cases.push_back({cases[i].atom_name, cases[i].kind, true});
  const std::vector<CaseOutcome> results =
      run_isolated(cases.size(), [&](std::size_t i) { return run_case(cases[i]); });
  ProbeTally tally;
  int caught = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const CaseOutcome& r = results[i];
    if (i >= first_control) {
      if (!r.ok && r.message.find("model's CLayout names") != std::string::npos) {
        ++caught;
        ++tally.passed;
        out << "negative control caught: " << cases[i].atom_name << " with A placed by a wrong TV layout: " << r.message
            << "\n";
      } else {
        ++tally.failed;
        out << "FAIL negative control not caught: " << cases[i].atom_name << ": " << (r.ok ? "no mismatch" : r.message)
            << "\n";
      }
      continue;
    }
    if (r.ok) ++tally.passed;
    else ++tally.failed;
    out << "mma.sync " << cases[i].atom_name << ": " << (r.ok ? "pass" : "FAIL " + r.message) << "\n";
  }
  out << "mma.sync negative controls: " << caught << "/" << (cases.size() - first_control) << " caught\n";
  return tally;
}

}  // namespace cuteref_gpu
