#include "ldmatrix_probe.hpp"

#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "atoms/copy_atom.hpp"
#include "composition.hpp"
#include "coordinates.hpp"
#include "cuda_check.hpp"
#include "isolated_runner.hpp"
#include "recast.hpp"

namespace cuteref_gpu {

using cuteref::CopyAtom;
using cuteref::IntTuple;
using cuteref::Layout;

namespace {

// Shared memory: kSlots rows of 8 16-bit words (16 bytes, ldmatrix's row). The matrices'
// rows (at most 32) are scattered over the slots by a per-case permutation.
constexpr int kSlots = 64;
constexpr int kWords = kSlots * 8;
constexpr std::uint32_t kPoison = 0xFFFFFFFFu;  // never an id: ids are 0x1000 + word < 0x8000

// One warp: copies the image into shared memory, lane l hands in byte offset lane_offset[l],
// writes its N destination registers to out[4 * l + i].
template <int N, bool Trans>
__global__ void ldmatrix_kernel(const std::uint16_t* image, const std::uint32_t* lane_offset, std::uint32_t* out) {
  __shared__ alignas(16) std::uint16_t smem[kWords];
  const int lane = threadIdx.x;
  for (int i = lane; i < kWords; i += 32) smem[i] = image[i];
  __syncthreads();
  const std::uint32_t addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem)) + lane_offset[lane];
  std::uint32_t r[4] = {kPoison, kPoison, kPoison, kPoison};
  if constexpr (N == 1 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
  else if constexpr (N == 2 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
  else if constexpr (N == 4 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
  else if constexpr (N == 1 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
  else if constexpr (N == 2 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
  for (int i = 0; i < N; ++i) out[lane * 4 + i] = r[i];
}

struct LdsmCase {
  int matrices;        // the instruction executed: .x1 / .x2 / .x4
  bool trans;          // ... with .trans
  CopyAtom model;      // the layouts the host predicts with (the atom, or a control's wrong one)
  int variant;         // which row -> slot permutation
  bool stray_lanes;    // lanes whose address is not read point at rows that hold no data
  std::string control; // empty for a real case; else what is wrong in `model`
};

// Row r of the copied data lives in shared-memory slot (a * r + b) mod 64 (a odd: a bijection).
int slot_of(int variant, std::int64_t row) {
  static const int a[] = {1, 5, 37, 63}, b[] = {0, 3, 17, 63};
  return static_cast<int>((a[variant] * row + b[variant]) % kSlots);
}

std::uint16_t id_of_word(int word) { return static_cast<std::uint16_t>(0x1000 + word); }

std::int64_t at(const Layout& l, std::int64_t t, std::int64_t v) {
  return cuteref::apply(l, IntTuple::tuple({IntTuple::integer(t), IntTuple::integer(v)})).value();
}

std::string instruction(int matrices, bool trans) {
  return "ldmatrix.x" + std::to_string(matrices) + (trans ? ".trans" : "");
}

// Where an id read back came from, for the mismatch message.
std::string describe_id(std::uint32_t id, int variant, int data_rows) {
  if (id == 0xFFFFu) return "poison (never written)";
  const int word = static_cast<int>(id) - 0x1000;
  if (word < 0 || word >= kWords) return "not an id of the image";
  for (int row = 0; row < data_rows; ++row)
    if (slot_of(variant, row) == word / 8)
      return "matrix " + std::to_string(row / 8) + " row " + std::to_string(row % 8) + " column " + std::to_string(word % 8);
  return "a shared-memory row outside the matrices";
}

CaseOutcome run_case(const LdsmCase& c) {
  const std::int64_t n = c.matrices;
  const int data_rows = static_cast<int>(8 * n);
  // The model's layouts in 16-bit values, as Copy_Atom<Traits, uint16_t> has them.
  const Layout src = cuteref::recast(c.model.src_layout, 1, 16);
  const Layout dst = cuteref::recast(c.model.dst_layout, 1, 16);
  const Layout& thr = c.model.thr_id;
  if (cuteref::size_value(cuteref::mode(src, 0)) != 32 || cuteref::size_value(cuteref::mode(src, 1)) != 8 ||
      cuteref::size_value(cuteref::mode(dst, 0)) != 32 || cuteref::size_value(cuteref::mode(dst, 1)) != 2 * n ||
      cuteref::size_value(thr) != 32)
    throw std::runtime_error(c.model.name + ": the model's layouts do not have 32 threads x (8 source, " +
                             std::to_string(2 * n) + " destination) 16-bit values");

  // Lane addresses from the SrcLayout: each thread must source one whole 16-byte row.
  std::vector<std::uint32_t> lane_offset(32, 0);
  for (std::int64_t t = 0; t < 32; ++t) {
    const std::int64_t lane = cuteref::apply_index(thr, t);
    const std::int64_t first = at(src, t, 0);
    for (std::int64_t j = 0; j < 8; ++j)
      if (at(src, t, j) != first + j || first % 8 != 0 || first / 8 >= data_rows)
        throw std::runtime_error(c.model.name + ": the model's SrcLayout does not give thread " + std::to_string(t) +
                                 " one whole row of the matrices");
    lane_offset[static_cast<std::size_t>(lane)] = static_cast<std::uint32_t>(16 * slot_of(c.variant, first / 8));
    if (c.stray_lanes && lane >= data_rows)
      lane_offset[static_cast<std::size_t>(lane)] = static_cast<std::uint32_t>(16 * slot_of(c.variant, kSlots - 1 - lane % 8));
  }
  std::vector<std::uint16_t> image(kWords);
  for (int w = 0; w < kWords; ++w) image[static_cast<std::size_t>(w)] = id_of_word(w);

  std::uint16_t* d_image;
  std::uint32_t *d_offset, *d_out;
  CUDA_CHECK(cudaMalloc(&d_image, kWords * sizeof(std::uint16_t)));
  CUDA_CHECK(cudaMalloc(&d_offset, 32 * sizeof(std::uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_out, 32 * 4 * sizeof(std::uint32_t)));
  CUDA_CHECK(cudaMemcpy(d_image, image.data(), kWords * sizeof(std::uint16_t), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_offset, lane_offset.data(), 32 * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0xFF, 32 * 4 * sizeof(std::uint32_t)));
  if (c.matrices == 1 && !c.trans) ldmatrix_kernel<1, false><<<1, 32>>>(d_image, d_offset, d_out);
  else if (c.matrices == 2 && !c.trans) ldmatrix_kernel<2, false><<<1, 32>>>(d_image, d_offset, d_out);
  else if (c.matrices == 4 && !c.trans) ldmatrix_kernel<4, false><<<1, 32>>>(d_image, d_offset, d_out);
  else if (c.matrices == 1) ldmatrix_kernel<1, true><<<1, 32>>>(d_image, d_offset, d_out);
  else if (c.matrices == 2) ldmatrix_kernel<2, true><<<1, 32>>>(d_image, d_offset, d_out);
  else ldmatrix_kernel<4, true><<<1, 32>>>(d_image, d_offset, d_out);
  CUDA_CHECK_LAUNCH();
  std::vector<std::uint32_t> out(32 * 4);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_image));
  CUDA_CHECK(cudaFree(d_offset));
  CUDA_CHECK(cudaFree(d_out));

  // Value v of a thread is half v % 2 of register v / 2 (its bits 16v .. 16v+15).
  int checked = 0;
  for (std::int64_t t = 0; t < 32; ++t) {
    const std::int64_t lane = cuteref::apply_index(thr, t);
    for (std::int64_t v = 0; v < 2 * n; ++v) {
      const std::int64_t e = at(dst, t, v);
      const std::int64_t row = e / 8, col = e % 8;
      const std::uint16_t want = id_of_word(8 * slot_of(c.variant, row) + static_cast<int>(col));
      const std::uint32_t got = (out[static_cast<std::size_t>(lane * 4 + v / 2)] >> (16 * (v % 2))) & 0xFFFFu;
      if (got != want) {
        std::ostringstream s;
        s << "thread " << t << " (lane " << lane << ") value " << v << " (register " << v / 2 << " half " << v % 2
          << "): model's DstLayout names element " << e << " (matrix " << row / 8 << " row " << row % 8 << " column "
          << col << ", id 0x" << std::hex << want << "), the register holds 0x" << got << std::dec << " ("
          << describe_id(got, c.variant, data_rows) << ")";
        return {true, false, false, s.str()};
      }
      ++checked;
    }
  }
  // The registers the instruction does not write keep the poison.
  for (std::int64_t lane = 0; lane < 32; ++lane)
    for (std::int64_t i = n; i < 4; ++i)
      if (out[static_cast<std::size_t>(lane * 4 + i)] != kPoison)
        return {true, false, false, "lane " + std::to_string(lane) + " register " + std::to_string(i) + " was written"};
  return {true, true, false, std::to_string(checked) + " values"};
}

// A wrong TV layout for controls: the thread mode composed with a permutation of the lanes
// within each group of 8 (lane a + 2b + 8c -> 4a + b + 8c).
Layout permute_threads(const Layout& tv) {
  const IntTuple s2 = IntTuple::static_int(2), s4 = IntTuple::static_int(4);
  const Layout perm(IntTuple::tuple({IntTuple::tuple({s2, s4}), s4}),
                    IntTuple::tuple({IntTuple::tuple({s4, IntTuple::static_int(1)}), IntTuple::static_int(8)}));
  return cuteref::make_layout_from_modes({cuteref::composition(cuteref::mode(tv, 0), perm), cuteref::mode(tv, 1)});
}

}  // namespace

ProbeTally run_ldmatrix_probe(std::ostream& out) {
  std::vector<LdsmCase> cases;
  for (bool trans : {false, true})
    for (int n : {1, 2, 4})
      for (int variant = 0; variant < 4; ++variant)
        cases.push_back({n, trans, cuteref::ldmatrix_atom(n, trans), variant, variant >= 2, ""});
  const std::size_t first_control = cases.size();
  for (int n : {1, 2, 4}) {
    cases.push_back({n, true, cuteref::ldmatrix_atom(n, false), 1, false, "predicted with the non-.trans atom"});
    cases.push_back({n, false, cuteref::ldmatrix_atom(n, true), 1, false, "predicted with the .trans atom"});
    CopyAtom src_wrong = cuteref::ldmatrix_atom(n, false);
    src_wrong.src_layout = permute_threads(src_wrong.src_layout);
    cases.push_back({n, false, src_wrong, 1, false, "row addresses from a SrcLayout with permuted threads"});
    for (bool trans : {false, true}) {
      CopyAtom dst_wrong = cuteref::ldmatrix_atom(n, trans);
      dst_wrong.dst_layout = permute_threads(dst_wrong.dst_layout);
      cases.push_back({n, trans, dst_wrong, 1, false, "predicted with a DstLayout with permuted threads"});
    }
  }
  const std::vector<CaseOutcome> results = run_isolated(cases.size(), [&](std::size_t i) { return run_case(cases[i]); });
  ProbeTally tally;
  int caught = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const LdsmCase& c = cases[i];
    const CaseOutcome& r = results[i];
    const std::string what = instruction(c.matrices, c.trans) + " vs " + c.model.name + ", rows permutation " +
                             std::to_string(c.variant) + (c.stray_lanes ? ", stray lane addresses" : "");
    if (i >= first_control) {
      if (!r.ok && r.message.find("model's DstLayout names") != std::string::npos) {
        ++caught;
        ++tally.passed;
        out << "negative control caught: " << what << " " << c.control << ": " << r.message << "\n";
      } else {
        ++tally.failed;
        out << "FAIL negative control not caught: " << what << " " << c.control << ": "
            << (r.ok ? "no mismatch" : r.message) << "\n";
      }
      continue;
    }
    if (r.ok) ++tally.passed;
    else ++tally.failed;
    out << what << ": " << (r.ok ? "pass (" + r.message + ")" : "FAIL " + r.message) << "\n";
  }
  out << "ldmatrix negative controls: " << caught << "/" << (cases.size() - first_control) << " caught\n";
  return tally;
}

}  // namespace cuteref_gpu
