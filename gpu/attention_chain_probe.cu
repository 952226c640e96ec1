#include "attention_chain_probe.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "atoms/mma_atom.hpp"
#include "atoms/register_permutation.hpp"
#include "atoms/tiled_mma.hpp"
#include "attention_chain_kernels.cuh"
#include "coordinates.hpp"
#include "cuda_check.hpp"
#include "gmma_operand.hpp"
#include "isolated_runner.hpp"

namespace cuteref_gpu {

using cuteref::IntTuple;
using cuteref::MmaAtom;

namespace {

enum class Control {
  None,
  NoPermutation,      // P's registers in S's order and V's rows in order: the 16-bit handoff
  RelabelOnly,        // V's rows through PI, but no permutation within the thread
  PermuteOnly,        // the permutation within the thread, but V's rows in order
  OtherTypesHandoff,  // a 16-bit chain given the e4m3 chain's answer for the same N
};

struct ChainCase {
  std::size_t instance;
  Control control = Control::None;
  std::string describe() const {
    const ChainInstance& in = chain_instances()[instance];
    std::string s = std::string(in.qk_atom) + " -> " + in.pv_atom;
    if (control == Control::NoPermutation) s += " [control: no fp8 permutation, V's rows in order]";
    if (control == Control::RelabelOnly) s += " [control: V's rows through PI, no permutation within the thread]";
    if (control == Control::PermuteOnly) s += " [control: permutation within the thread, V's rows in order]";
    if (control == Control::OtherTypesHandoff) s += " [control: the e4m3 chain's handoff applied to this 16-bit chain]";
    return s;
  }
};

cuteref::RegisterFragment fragment(const std::string& atom, cuteref::MmaOperand op) {
  const cuteref::Layout one(IntTuple::tuple({IntTuple::static_int(1), IntTuple::static_int(1), IntTuple::static_int(1)}),
                            IntTuple::tuple({IntTuple::static_int(0), IntTuple::static_int(0), IntTuple::static_int(0)}));
  return cuteref::mma_register_fragment(cuteref::make_tiled_mma(cuteref::mma_atom(atom), one), op, 0);
}

// The model's answer for handing the QK accumulator to the PV A operand, as the kernel's table:
// source[t * values + v] is the S value thread t converts into its P value v; pi[k] the row of V
// that the PV MMA's contraction index k must read.
struct Handoff {
  cuteref::RegisterPermutation answer;
  std::vector<std::uint16_t> source;
  std::vector<std::int64_t> pi;
};

Handoff model_handoff(const std::string& qk_atom, const std::string& pv_atom, std::int64_t n, std::int64_t values) {
  Handoff h;
  h.answer = cuteref::register_permutation(fragment(qk_atom, cuteref::MmaOperand::C),
                                           fragment(pv_atom, cuteref::MmaOperand::A));
  const cuteref::RegisterPermutation& r = h.answer;
  if (r.move == cuteref::RegisterMove::Shuffle)
    throw std::runtime_error("the model's handoff from " + qk_atom + " to " + pv_atom +
                             " moves data across lanes; this probe converts within each thread");
  if (r.threads != 128 || r.values != values || r.tile_rows != 64 || r.tile_cols != n)
    throw std::runtime_error("the model's handoff is over " + std::to_string(r.threads) + " threads x " +
                             std::to_string(r.values) + " values, tile (" + std::to_string(r.tile_rows) + "," +
                             std::to_string(r.tile_cols) + "); the kernel holds 128 x " + std::to_string(values) +
                             " over (64," + std::to_string(n) + ")");
  h.source.resize(static_cast<std::size_t>(128 * values));
  for (std::int64_t t = 0; t < 128; ++t)
    for (std::int64_t v = 0; v < values; ++v) {
      const cuteref::RegisterSource& s = r.source[static_cast<std::size_t>(t + 128 * v)];
      if (s.thread != t || s.value < 0 || s.value >= values)
        throw std::runtime_error("the model's handoff takes thread " + std::to_string(t) + "'s value " +
                                 std::to_string(v) + " from thread " + std::to_string(s.thread) + " value " +
                                 std::to_string(s.value));
      h.source[static_cast<std::size_t>(t * values + v)] = static_cast<std::uint16_t>(s.value);
    }
  h.pi.resize(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k) h.pi[k] = k;
  if (r.move == cuteref::RegisterMove::Relabel) {
    if (static_cast<std::int64_t>(r.relabel.size()) != n)
      throw std::runtime_error("the model's relabeling has " + std::to_string(r.relabel.size()) + " entries, N is " +
                               std::to_string(n));
    h.pi = r.relabel;
  }
  return h;
}

// The largest integer below which every integer is exact in the P type: S must stay within it.
int exact_bound(const std::string& type) {
  if (type == "f16") return 2048;
  if (type == "bf16") return 256;
  if (type == "e4m3") return 16;
  return 8;  // e5m2
}

// Q's row m: dense in {-1,0,1} for 16-bit P; for 8-bit P, a few +-1 entries so that with K in
// [-3,3] every score is exact in e4m3 (|S| <= 15) or e5m2 (|S| <= 6).
std::vector<int> make_q(std::mt19937& rng, const std::string& type, std::int64_t d) {
  std::vector<int> q(static_cast<std::size_t>(64 * d), 0);
  const int nonzeros = type == "e4m3" ? 5 : type == "e5m2" ? 2 : 0;
  for (std::int64_t m = 0; m < 64; ++m) {
    if (nonzeros == 0) {
      for (std::int64_t c = 0; c < d; ++c) q[m + 64 * c] = static_cast<int>(rng() % 3) - 1;
      continue;
    }
    for (int i = 0; i < nonzeros; ++i) q[m + 64 * (rng() % d)] = rng() % 2 ? 1 : -1;
  }
  return q;
}

CaseOutcome run_case(const ChainCase& c) {
  const ChainInstance& in = chain_instances()[c.instance];
  const MmaAtom qk = cuteref::mma_atom(in.qk_atom), pv = cuteref::mma_atom(in.pv_atom);
  const std::string type = in.p_type;
  const int bits = cuteref::mma_element_bits(qk.type_a);
  const std::int64_t n = in.n, d = in.head_dim, values = n / 2;
  if (qk.n != n || pv.n != d || d % qk.k != 0 || n % pv.k != 0 || d / qk.k != in.qk_steps || n / pv.k != in.pv_steps ||
      in.qk_steps > kChainMaxSteps || in.pv_steps > kChainMaxSteps)
    throw std::runtime_error("chain instance " + c.describe() + " disagrees with its atoms' shapes");

  Handoff h = model_handoff(in.qk_atom, in.pv_atom, n, values);
  if (c.control == Control::OtherTypesHandoff) {
    const std::string e4m3 = "SM90_64x" + std::to_string(n) + "x32_F32E4M3E4M3";
    h = model_handoff(e4m3 + "_SS_TN", "SM90_64x" + std::to_string(d) + "x32_F32E4M3E4M3_RS_TN", n, values);
  }
  if (c.control == Control::NoPermutation || c.control == Control::RelabelOnly)
    for (std::int64_t t = 0; t < 128; ++t)
      for (std::int64_t v = 0; v < values; ++v) h.source[static_cast<std::size_t>(t * values + v)] = static_cast<std::uint16_t>(v);
  if (c.control == Control::NoPermutation || c.control == Control::PermuteOnly)
    for (std::int64_t k = 0; k < n; ++k) h.pi[k] = k;

  std::mt19937 rng(static_cast<unsigned>(c.instance * 977 + static_cast<int>(c.control) * 13 + 5));
  const std::vector<int> q = make_q(rng, type, d);  // q[m + 64 * c]
  std::vector<int> kmat(static_cast<std::size_t>(n * d)), vmat(static_cast<std::size_t>(n * d));
  for (int& x : kmat) x = static_cast<int>(rng() % 7) - 3;  // K[j + n * c]
  for (int& x : vmat) x = static_cast<int>(rng() % 7) - 3;  // V[j + n * e]
  std::vector<long long> s(static_cast<std::size_t>(64 * n), 0);  // S[m + 64 * j]
  for (std::int64_t m = 0; m < 64; ++m)
    for (std::int64_t j = 0; j < n; ++j) {
      long long acc = 0;
      for (std::int64_t cc = 0; cc < d; ++cc) acc += q[m + 64 * cc] * kmat[j + n * cc];
      if (std::llabs(acc) > exact_bound(type))
        throw std::runtime_error("probe data: S(" + std::to_string(m) + "," + std::to_string(j) + ") = " +
                                 std::to_string(acc) + " is not exact in " + type);
      s[m + 64 * j] = acc;
    }
  // The PV MMA's B is V^T: B(e, k) for O's column e and contraction index k, read through PI.
  std::vector<int> vt(static_cast<std::size_t>(d * n));
  for (std::int64_t e = 0; e < d; ++e)
    for (std::int64_t k = 0; k < n; ++k) vt[e + d * k] = vmat[h.pi[k] + n * e];

  const GmmaOperandImage q_img = gmma_operand_image(qk.major_a, 3, bits, 64, d, qk.k, q, type);
  const GmmaOperandImage k_img = gmma_operand_image(qk.major_b, 3, bits, n, d, qk.k, kmat, type);
  const GmmaOperandImage v_img = gmma_operand_image(pv.major_b, 3, bits, d, n, pv.k, vt, type);

  std::uint8_t *d_q = nullptr, *d_k = nullptr, *d_v = nullptr;
  std::uint16_t* d_source = nullptr;
  std::uint32_t* d_out = nullptr;
  const std::size_t out_words = 128 * static_cast<std::size_t>(in.o_registers);
  CUDA_CHECK(cudaMalloc(&d_q, q_img.image.size()));
  CUDA_CHECK(cudaMalloc(&d_k, k_img.image.size()));
  CUDA_CHECK(cudaMalloc(&d_v, v_img.image.size()));
  CUDA_CHECK(cudaMalloc(&d_source, h.source.size() * 2));
  CUDA_CHECK(cudaMalloc(&d_out, out_words * 4));
  CUDA_CHECK(cudaMemcpy(d_q, q_img.image.data(), q_img.image.size(), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_k, k_img.image.data(), k_img.image.size(), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_v, v_img.image.data(), v_img.image.size(), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_source, h.source.data(), h.source.size() * 2, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0xEE, out_words * 4));  // poison: no O value looks like it
  ChainArgs args{};
  args.q_image = d_q;
  args.q_bytes = static_cast<std::uint32_t>(q_img.image.size());
  args.k_image = d_k;
  args.k_bytes = static_cast<std::uint32_t>(k_img.image.size());
  args.v_image = d_v;
  args.v_bytes = static_cast<std::uint32_t>(v_img.image.size());
  std::copy(q_img.desc.begin(), q_img.desc.end(), args.desc_q);
  std::copy(k_img.desc.begin(), k_img.desc.end(), args.desc_k);
  std::copy(v_img.desc.begin(), v_img.desc.end(), args.desc_v);
  args.source = d_source;
  args.out = d_out;
  const std::size_t smem = q_img.image.size() + k_img.image.size() + v_img.image.size() + 1024;
  CUDA_CHECK(cudaFuncSetAttribute(in.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  in.kernel<<<1, 128, smem>>>(args);
  CUDA_CHECK_LAUNCH();
  std::vector<std::uint32_t> out(out_words);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out_words * 4, cudaMemcpyDeviceToHost));
  for (void* p : {static_cast<void*>(d_q), static_cast<void*>(d_k), static_cast<void*>(d_v),
                  static_cast<void*>(d_source), static_cast<void*>(d_out)})
    CUDA_CHECK(cudaFree(p));

  // Every O register against sum_j S(m, j) V(j, e) at the (m, e) the PV atom's C layout names.
  const std::int64_t o_values = cuteref::size_value(cuteref::mode(pv.c_layout, 1));
  std::string first;
  std::int64_t differing = 0;
  for (std::int64_t t = 0; t < 128; ++t)
    for (std::int64_t v = 0; v < o_values; ++v) {
      const std::int64_t idx =
          cuteref::apply(pv.c_layout, IntTuple::tuple({IntTuple::integer(t), IntTuple::integer(v)})).value();
      const std::int64_t m = idx % 64, e = idx / 64;
      long long want = 0;
      for (std::int64_t j = 0; j < n; ++j) want += s[m + 64 * j] * vmat[j + n * e];
      const double got = read_accumulator("f32", out.data() + t * in.o_registers, v);
      if (got != static_cast<double>(want)) {
        if (differing++ == 0) {
          std::ostringstream msg;
          msg << "thread " << t << " value " << v << ": O(" << m << "," << e << ") = " << want
              << ", the register holds " << got;
          first = msg.str();
        }
      }
    }
  if (differing > 0)
    return {true, false, false, first + " (" + std::to_string(differing) + " of " + std::to_string(128 * o_values) +
                                    " O elements differ)"};
  return {true, true, false, ""};
}

std::size_t find_instance(const std::string& type, int n, bool v_mn_major) {
  for (std::size_t i = 0; i < chain_instances().size(); ++i) {
    const ChainInstance& in = chain_instances()[i];
    const bool mn = std::string(in.pv_atom).find(",MN>") != std::string::npos;
    if (in.p_type == type && in.n == n && mn == v_mn_major) return i;
  }
  throw std::runtime_error("no chain instance for " + type + " N=" + std::to_string(n));
}

}  // namespace

ProbeTally run_attention_chain_probe(std::ostream& out) {
  ProbeTally tally;
  std::vector<ChainCase> cases;
  for (std::size_t i = 0; i < chain_instances().size(); ++i) cases.push_back({i});
  const std::size_t first_control = cases.size();
  cases.push_back({find_instance("e4m3", 64, false), Control::NoPermutation});
  cases.push_back({find_instance("e4m3", 256, false), Control::NoPermutation});
  cases.push_back({find_instance("e5m2", 128, false), Control::NoPermutation});
  cases.push_back({find_instance("e4m3", 128, false), Control::RelabelOnly});
  cases.push_back({find_instance("e4m3", 128, false), Control::PermuteOnly});
  cases.push_back({find_instance("f16", 128, true), Control::OtherTypesHandoff});

  // What the model answers per P type (the kernel reads the tables at run time).
  for (const char* type : {"f16", "bf16", "e4m3", "e5m2"}) {
    const ChainInstance& in = chain_instances()[find_instance(type, 128, false)];
    const Handoff h = model_handoff(in.qk_atom, in.pv_atom, in.n, in.n / 2);
    out << "attention_chain handoff " << in.qk_atom << " C -> " << in.pv_atom << " A: "
        << cuteref::to_string(h.answer.move);
    if (h.answer.relabel_layout) out << ", PI = " << h.answer.relabel_layout->to_string();
    if (h.answer.value_moves && h.answer.value_permutation) out << ", P = " << h.answer.value_permutation->to_string();
    out << "\n";
  }

  const std::vector<CaseOutcome> results =
      run_isolated(cases.size(), [&](std::size_t i) { return run_case(cases[i]); });
  std::map<std::string, std::pair<int, int>> matrix;
  int caught = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const ChainCase& c = cases[i];
    const CaseOutcome& r = results[i];
    if (i >= first_control) {
      if (r.ran && !r.ok && r.message.find(": O(") != std::string::npos) {
        ++caught;
        ++tally.passed;
        out << "negative control caught: " << c.describe() << ": " << r.message << "\n";
      } else {
        ++tally.failed;
        out << "FAIL negative control not caught: " << c.describe() << ": " << (r.ok ? "no mismatch" : r.message)
            << "\n";
      }
      continue;
    }
    const ChainInstance& in = chain_instances()[c.instance];
    const bool mn = std::string(in.pv_atom).find(",MN>") != std::string::npos;
    auto& cell = matrix[std::string(in.p_type) + (mn ? " V MN-major" : " V K-major")];
    ++cell.second;
    if (r.ok) {
      ++cell.first;
      ++tally.passed;
    } else {
      ++tally.failed;
      out << "FAIL " << c.describe() << ": " << r.message << "\n";
    }
  }
  for (const auto& [cell, pt] : matrix) out << "attention_chain " << cell << ": " << pt.first << "/" << pt.second << "\n";
  out << "attention_chain negative controls: " << caught << "/" << (cases.size() - first_control) << " caught\n";
  return tally;
}

}  // namespace cuteref_gpu
