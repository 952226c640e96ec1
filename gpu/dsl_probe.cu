#include "dsl_probe.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iterator>
#include <fstream>
#include <map>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "atoms/mma_atom.hpp"
#include "atoms/register_permutation.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "coordinates.hpp"
#include "cuda_check.hpp"
#include "equality.hpp"
#include "function_table.hpp"
#include "gmma_operand.hpp"
#include "isolated_runner.hpp"
#include "notation.hpp"

namespace cuteref_gpu {

using cuteref::IntTuple;

namespace {

// One kernel's manifest: key -> the rest of its line.
using Manifest = std::map<std::string, std::string>;

std::map<std::string, Manifest> read_manifest(const std::string& dir) {
  std::ifstream in(dir + "/dsl_manifest.txt");
  if (!in) throw std::runtime_error("cannot read " + dir + "/dsl_manifest.txt");
  std::map<std::string, Manifest> kernels;
  for (std::string line; std::getline(in, line);) {
    std::istringstream s(line);
    std::string kernel, key;
    s >> kernel >> key;
    std::string rest;
    std::getline(s >> std::ws, rest);
    kernels[kernel][key] = rest;
  }
  return kernels;
}

const std::string& field(const Manifest& m, const std::string& key) {
  const auto it = m.find(key);
  if (it == m.end()) throw std::runtime_error("dsl_manifest.txt has no `" + key + "` line");
  return it->second;
}

std::vector<char> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A DSL SMEM printout `S<B,M,S> o 0 o L`: the DSL keeps the GMMA swizzle on byte addresses (its
// helpers move it to the SMEM pointer), as the model's `Sw<B,M,S> o smem_ptr[BITSb](unset) o L`.
cuteref::Value dsl_smem_layout(const std::string& text, int bits) {
  const std::size_t first = text.find(" o "), second = text.find(" o ", first + 3);
  if (text.rfind("S<", 0) != 0 || second == std::string::npos)
    throw std::runtime_error("unexpected DSL SMEM layout print: " + text);
  const std::string swizzle = "Sw" + text.substr(1, first - 1);
  return cuteref::parse_and_evaluate(swizzle + " o smem_ptr[" + std::to_string(bits) + "b](unset) o " + text.substr(second + 3),
                                     &cuteref::standard_functions());
}

std::string functional_difference(const cuteref::Value& model, const cuteref::Value& dsl, const std::string& dsl_text) {
  const cuteref::Verdict v = cuteref::functional_equal(model, dsl);
  return v.holds ? "" : "model " + model.to_string() + " vs DSL " + dsl_text + ": " + v.reason;
}

struct Check {
  std::string kind, what;
  bool ok;
  std::string detail;
};

// Loads the kernel's cubin and launches it on one block of 128 threads: the pointers in order into
// its 8-byte parameters, zeros into the others (empty structs such as the TiledMMA), the dynamic
// shared memory the manifest gives. Returns after the kernel completed.
void launch_cubin(const std::string& dir, const Manifest& m, const std::vector<void*>& pointers) {
  const std::vector<char> cubin = read_file(dir + "/" + field(m, "cubin"));
  cudaLibrary_t library = nullptr;
  CUDA_CHECK(cudaLibraryLoadData(&library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  cudaKernel_t kernel = nullptr;
  CUDA_CHECK(cudaLibraryGetKernel(&kernel, library, field(m, "entry").c_str()));
  std::istringstream sizes(field(m, "params"));
  std::vector<int> param_sizes;
  for (int sz; sizes >> sz;) param_sizes.push_back(sz);
  std::vector<std::uint64_t> slots(param_sizes.size(), 0);
  std::vector<void*> args(param_sizes.size());
  std::size_t next_pointer = 0;
  for (std::size_t i = 0; i < param_sizes.size(); ++i) {
    if (param_sizes[i] == 8) {
      if (next_pointer == pointers.size()) throw std::runtime_error("the kernel has more 8-byte parameters than pointers");
      std::memcpy(&slots[i], &pointers[next_pointer++], 8);
    } else if (param_sizes[i] > 8) {
      throw std::runtime_error("the kernel has a " + std::to_string(param_sizes[i]) + "-byte parameter");
    }
    args[i] = &slots[i];
  }
  if (next_pointer != pointers.size()) throw std::runtime_error("the kernel has fewer pointer parameters than expected");
  const int smem = std::stoi(field(m, "smem"));
  if (smem > 48 * 1024)
    CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel), cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(1), dim3(128), args.data(), static_cast<std::size_t>(smem), nullptr));
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaLibraryUnload(library));
}

// A kernel's comparisons: `note` holds when there is no difference, `control` when there is one.
struct Checks {
  std::vector<Check> list;
  void note(const std::string& kind, const std::string& what, const std::string& diff) {
    list.push_back({kind, what, diff.empty(), diff});
  }
  void control(const std::string& what, const std::string& diff) {
    list.push_back({"control", what, !diff.empty(), diff.empty() ? "not caught" : "caught: " + diff});
  }
};

cuteref::Value model_value(const std::string& expr) { return cuteref::parse_and_evaluate(expr, &cuteref::standard_functions()); }

const cuteref::Layout kOneAtom(IntTuple::tuple({IntTuple::static_int(1), IntTuple::static_int(1), IntTuple::static_int(1)}),
                               IntTuple::tuple({IntTuple::static_int(0), IntTuple::static_int(0), IntTuple::static_int(0)}));

// The wgmma_gemm_f16 kernel (gpu/dsl/dsl_kernels.py): C (M x N, column-major f32) = A (M x K, K-major
// f16) B (N x K, K-major f16)^T by SS WGMMA; COORD[t * V + v] = m + M n of thread t's value v.
std::vector<Check> run_wgmma_gemm(const std::string& dir, const Manifest& m) {
  Checks checks;
  const auto note = [&](const std::string& kind, const std::string& what, const std::string& diff) { checks.note(kind, what, diff); };
  const auto control = [&](const std::string& what, const std::string& diff) { checks.control(what, diff); };
  std::istringstream shape(field(m, "shape"));
  std::int64_t M = 0, N = 0, K = 0;
  shape >> M >> N >> K;
  const std::string atom_name = "SM90_64x" + std::to_string(N) + "x16_F32F16F16_SS<K,K>";
  const cuteref::TiledMma tiled = cuteref::make_tiled_mma(cuteref::mma_atom(atom_name), kOneAtom);
  const auto smem_model = [&](const char* swizzle, std::int64_t rows) {
    return model_value(std::string("tile_to_shape(gmma_atom(K, ") + swizzle + ", 16), (" + std::to_string(rows) + "," +
                       std::to_string(K) + "))");
  };

  // ---- host: what the DSL printed at compile time, against the model ----------------------
  note("host", "SMEM A", functional_difference(smem_model("SW128", M), dsl_smem_layout(field(m, "smem_a"), 16), field(m, "smem_a")));
  note("host", "SMEM B", functional_difference(smem_model("SW128", N), dsl_smem_layout(field(m, "smem_b"), 16), field(m, "smem_b")));
  const std::pair<const char*, cuteref::MmaOperand> tvs[] = {
      {"tv_a", cuteref::MmaOperand::A}, {"tv_b", cuteref::MmaOperand::B}, {"tv_c", cuteref::MmaOperand::C}};
  for (const auto& [key, op] : tvs)
    note("host", std::string("TiledMMA ") + key, functional_difference(cuteref::Value(cuteref::tiled_mma_layout_tv(tiled, op)),
                                                                      model_value(field(m, key)), field(m, key)));
  control("host: SMEM A against the model's SW64 tile",
          functional_difference(smem_model("SW64", M), dsl_smem_layout(field(m, "smem_a"), 16), field(m, "smem_a")));

  // ---- the kernel ---------------------------------------------------------------------------
  std::mt19937 rng(2026);
  std::vector<int> a(static_cast<std::size_t>(M * K)), b(static_cast<std::size_t>(N * K));  // a[m K + k], b[n K + k]
  for (int& x : a) x = static_cast<int>(rng() % 9) - 4;
  for (int& x : b) x = static_cast<int>(rng() % 7) - 3;
  std::vector<std::uint16_t> ha(a.size()), hb(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) ha[i] = static_cast<std::uint16_t>(encode_element("f16", a[i]));
  for (std::size_t i = 0; i < b.size(); ++i) hb[i] = static_cast<std::uint16_t>(encode_element("f16", b[i]));
  const std::int64_t values = M * N / 128;
  void *d_a = nullptr, *d_b = nullptr, *d_c = nullptr, *d_coord = nullptr;
  CUDA_CHECK(cudaMalloc(&d_a, ha.size() * 2));
  CUDA_CHECK(cudaMalloc(&d_b, hb.size() * 2));
  CUDA_CHECK(cudaMalloc(&d_c, static_cast<std::size_t>(M * N) * 4));
  CUDA_CHECK(cudaMalloc(&d_coord, static_cast<std::size_t>(128 * values) * 4));
  CUDA_CHECK(cudaMemcpy(d_a, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_c, 0xEE, static_cast<std::size_t>(M * N) * 4));  // poison
  CUDA_CHECK(cudaMemset(d_coord, 0xEE, static_cast<std::size_t>(128 * values) * 4));

  launch_cubin(dir, m, {d_a, d_b, d_c, d_coord});
  std::vector<float> c(static_cast<std::size_t>(M * N));
  std::vector<std::int32_t> coord(static_cast<std::size_t>(128 * values));
  CUDA_CHECK(cudaMemcpy(c.data(), d_c, c.size() * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(coord.data(), d_coord, coord.size() * 4, cudaMemcpyDeviceToHost));
  for (void* p : {d_a, d_b, d_c, d_coord}) CUDA_CHECK(cudaFree(p));

  // ---- placement: each (thread, value) of C at the (m, n) the model's partition_C names -----
  // `swap` exchanges the first two value modes (each of extent 2: bits 0 and 1 of the value index).
  const cuteref::Layout tv_c = cuteref::tiled_mma_layout_tv(tiled, cuteref::MmaOperand::C);
  const auto placement = [&](bool swap) {
    for (std::int64_t t = 0; t < 128; ++t)
      for (std::int64_t v = 0; v < values; ++v) {
        const std::int64_t mv = swap ? (v & ~std::int64_t{3}) | ((v & 1) << 1) | ((v >> 1) & 1) : v;
        const std::int64_t want = cuteref::apply_index(tv_c, t + 128 * mv), got = coord[static_cast<std::size_t>(t * values + v)];
        if (want != got)
          return "(thread " + std::to_string(t) + ", value " + std::to_string(v) + "): the DSL kernel's identity tensor gives (" +
                 std::to_string(got % M) + "," + std::to_string(got / M) + "), the model (" + std::to_string(want % M) + "," +
                 std::to_string(want / M) + ")";
      }
    return std::string();
  };
  note("placement", "C partition of identity (128 threads x " + std::to_string(values) + " values)", placement(false));
  control("placement: C layout with its first two value modes exchanged", placement(true));

  // ---- result: C against the exact product ---------------------------------------------------
  const auto result = [&](bool a_m_major) {
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t mm = 0; mm < M; ++mm) {
        long long want = 0;
        for (std::int64_t k = 0; k < K; ++k)
          want += static_cast<long long>(a[static_cast<std::size_t>(a_m_major ? mm + M * k : mm * K + k)]) * b[static_cast<std::size_t>(n * K + k)];
        const float got = c[static_cast<std::size_t>(mm + M * n)];
        if (static_cast<double>(got) != static_cast<double>(want))
          return "C(" + std::to_string(mm) + "," + std::to_string(n) + ") = " + std::to_string(got) + ", exact " + std::to_string(want);
      }
    return std::string();
  };
  note("result", "C = A B^T, " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K), result(false));
  control("result: the product with A read M-major", result(true));
  return checks.list;
}

// The attention_chain_f16 kernel (gpu/dsl/dsl_kernels.py): S = Q K^T (SS WGMMA, Q (M x D), K (N x D)
// row-major f16), P = S in f16 with the accumulator's value i as the PV A fragment's value i, O = P V
// (RS WGMMA, V^T (D x N) D-contiguous), O (M x D) column-major f32; D = K of the manifest's shape.
std::vector<Check> run_attention_chain(const std::string& dir, const Manifest& m) {
  Checks checks;
  const auto note = [&](const std::string& kind, const std::string& what, const std::string& diff) { checks.note(kind, what, diff); };
  const auto control = [&](const std::string& what, const std::string& diff) { checks.control(what, diff); };
  std::istringstream shape(field(m, "shape"));
  std::int64_t M = 0, N = 0, D = 0;
  shape >> M >> N >> D;
  const std::string qk_name = "SM90_64x" + std::to_string(N) + "x16_F32F16F16_SS<K,K>";
  const std::string pv_name = "SM90_64x" + std::to_string(D) + "x16_F32F16F16_RS<K,MN>";
  const cuteref::TiledMma qk = cuteref::make_tiled_mma(cuteref::mma_atom(qk_name), kOneAtom);
  const cuteref::TiledMma pv = cuteref::make_tiled_mma(cuteref::mma_atom(pv_name), kOneAtom);
  const auto smem_v_model = [&](const char* major) {
    return model_value(std::string("tile_to_shape(gmma_atom(") + major + ", SW128, 16), (" + std::to_string(D) + "," +
                       std::to_string(N) + "))");
  };

  // ---- host ------------------------------------------------------------------------------------
  note("host", "SMEM V^T", functional_difference(smem_v_model("MN"), dsl_smem_layout(field(m, "smem_v"), 16), field(m, "smem_v")));
  const std::tuple<const char*, const cuteref::TiledMma*, cuteref::MmaOperand> tvs[] = {
      {"tv_s", &qk, cuteref::MmaOperand::C}, {"tv_p", &pv, cuteref::MmaOperand::A}, {"tv_o", &pv, cuteref::MmaOperand::C}};
  for (const auto& [key, mma, op] : tvs)
    note("host", std::string("TiledMMA ") + key, functional_difference(cuteref::Value(cuteref::tiled_mma_layout_tv(*mma, op)),
                                                                      model_value(field(m, key)), field(m, key)));
  // The kernel hands value i of S to value i of P: right exactly when the model says nothing moves.
  const cuteref::RegisterPermutation handoff = cuteref::register_permutation(
      cuteref::mma_register_fragment(qk, cuteref::MmaOperand::C, 0), cuteref::mma_register_fragment(pv, cuteref::MmaOperand::A, 0));
  note("host", "register_permutation(S -> P) is the identity the kernel uses",
       handoff.move == cuteref::RegisterMove::Identity ? "" : "the model answers " + cuteref::describe(handoff).substr(0, 200));
  control("host: SMEM V^T against the model's K-major tile",
          functional_difference(smem_v_model("K"), dsl_smem_layout(field(m, "smem_v"), 16), field(m, "smem_v")));

  // ---- the kernel -----------------------------------------------------------------------------
  std::mt19937 rng(25);
  std::vector<int> q(static_cast<std::size_t>(M * D)), k(static_cast<std::size_t>(N * D)), v(static_cast<std::size_t>(N * D));
  for (int& x : q) x = static_cast<int>(rng() % 3) - 1;  // q[m D + d]: |S| <= 3 D, exact in f16
  for (int& x : k) x = static_cast<int>(rng() % 7) - 3;  // k[n D + d]
  for (int& x : v) x = static_cast<int>(rng() % 7) - 3;  // v[n D + d]
  const auto upload = [](const std::vector<int>& x) {
    std::vector<std::uint16_t> h(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) h[i] = static_cast<std::uint16_t>(encode_element("f16", x[i]));
    void* d = nullptr;
    CUDA_CHECK(cudaMalloc(&d, h.size() * 2));
    CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * 2, cudaMemcpyHostToDevice));
    return d;
  };
  void* d_q = upload(q);
  void* d_k = upload(k);
  void* d_v = upload(v);
  void* d_o = nullptr;
  CUDA_CHECK(cudaMalloc(&d_o, static_cast<std::size_t>(M * D) * 4));
  CUDA_CHECK(cudaMemset(d_o, 0xEE, static_cast<std::size_t>(M * D) * 4));  // poison
  launch_cubin(dir, m, {d_q, d_k, d_v, d_o});
  std::vector<float> o(static_cast<std::size_t>(M * D));
  CUDA_CHECK(cudaMemcpy(o.data(), d_o, o.size() * 4, cudaMemcpyDeviceToHost));
  for (void* p : {d_q, d_k, d_v, d_o}) CUDA_CHECK(cudaFree(p));

  // ---- result: O against the exact product (V's rows through `pi`) -----------------------------
  std::vector<long long> s(static_cast<std::size_t>(M * N));
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) {
      long long acc = 0;
      for (std::int64_t d = 0; d < D; ++d) acc += q[static_cast<std::size_t>(i * D + d)] * k[static_cast<std::size_t>(j * D + d)];
      s[static_cast<std::size_t>(i + M * j)] = acc;
    }
  const auto result = [&](const std::vector<std::int64_t>& pi) {
    for (std::int64_t e = 0; e < D; ++e)
      for (std::int64_t i = 0; i < M; ++i) {
        long long want = 0;
        for (std::int64_t j = 0; j < N; ++j)
          want += s[static_cast<std::size_t>(i + M * j)] * v[static_cast<std::size_t>(pi[static_cast<std::size_t>(j)] * D + e)];
        const float got = o[static_cast<std::size_t>(i + M * e)];
        if (static_cast<double>(got) != static_cast<double>(want))
          return "O(" + std::to_string(i) + "," + std::to_string(e) + ") = " + std::to_string(got) + ", exact " + std::to_string(want);
      }
    return std::string();
  };
  std::vector<std::int64_t> identity(static_cast<std::size_t>(N));
  for (std::int64_t j = 0; j < N; ++j) identity[static_cast<std::size_t>(j)] = j;
  note("result", "O = (Q K^T) V, " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(D), result(identity));
  // Control: V's rows in the order the e4m3 handoff's relabeling would read them.
  const cuteref::RegisterPermutation fp8 = cuteref::register_permutation(
      cuteref::mma_register_fragment(cuteref::make_tiled_mma(cuteref::mma_atom("SM90_64x" + std::to_string(N) + "x32_F32E4M3E4M3_SS_TN"), kOneAtom),
                                     cuteref::MmaOperand::C, 0),
      cuteref::mma_register_fragment(cuteref::make_tiled_mma(cuteref::mma_atom("SM90_64x" + std::to_string(D) + "x32_F32E4M3E4M3_RS_TN"), kOneAtom),
                                     cuteref::MmaOperand::A, 0));
  control("result: V's rows through the e4m3 handoff's PI", result(fp8.relabel.size() == identity.size() ? fp8.relabel : identity));
  return checks.list;
}

std::string encode(const std::vector<Check>& checks) {
  std::string s;
  for (const Check& c : checks) {
    if (!s.empty()) s += '\x1e';
    s += c.kind + '\x1f' + c.what + '\x1f' + (c.ok ? "1" : "0") + '\x1f' + c.detail;
  }
  return s;
}

std::vector<Check> decode(const std::string& s) {
  std::vector<Check> out;
  std::size_t start = 0;
  while (start < s.size()) {
    const std::size_t end = std::min(s.find('\x1e', start), s.size());
    const std::string item = s.substr(start, end - start);
    std::vector<std::string> f;
    std::size_t a = 0;
    for (std::size_t b; (b = item.find('\x1f', a)) != std::string::npos; a = b + 1) f.push_back(item.substr(a, b - a));
    f.push_back(item.substr(a));
    if (f.size() == 4) out.push_back({f[0], f[1], f[2] == "1", f[3]});
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string dsl_kernel_dir() {
  if (const char* env = std::getenv("CUTEREF_DSL_KERNELS"))
    return std::ifstream(std::string(env) + "/dsl_manifest.txt") ? env : "";
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return "";
  std::string dir(self, static_cast<std::size_t>(n));
  dir = dir.substr(0, dir.rfind('/'));
  return std::ifstream(dir + "/dsl_manifest.txt") ? dir : "";
}

ProbeTally run_dsl_probe(std::ostream& out) {
  ProbeTally tally;
  const std::string dir = dsl_kernel_dir();
  if (dir.empty()) {
    out << "dsl: no dsl_manifest.txt beside the harness or in $CUTEREF_DSL_KERNELS (the CuTe DSL was not there at build "
           "time): no DSL kernel ran\n";
    return tally;
  }
  const std::map<std::string, Manifest> kernels = read_manifest(dir);
  std::vector<std::string> names;
  for (const auto& [name, m] : kernels) names.push_back(name);
  const std::vector<CaseOutcome> results = run_isolated(names.size(), [&](std::size_t i) {
    std::vector<Check> checks;
    if (names[i] == "wgmma_gemm_f16") checks = run_wgmma_gemm(dir, kernels.at(names[i]));
    else if (names[i] == "attention_chain_f16") checks = run_attention_chain(dir, kernels.at(names[i]));
    else throw std::runtime_error("no launcher for the DSL kernel " + names[i]);
    bool ok = true;
    for (const Check& c : checks) ok = ok && c.ok;
    return CaseOutcome{true, ok, false, "\x1d" + encode(checks)};
  });
  for (std::size_t i = 0; i < names.size(); ++i) {
    const CaseOutcome& o = results[i];
    if (o.message.empty() || o.message[0] != '\x1d') {
      ++tally.failed;
      out << "FAIL dsl " << names[i] << ": " << (o.message.empty() ? "no result" : o.message) << "\n";
      continue;
    }
    std::map<std::string, std::pair<int, int>> counts;
    for (const Check& c : decode(o.message.substr(1))) {
      auto& k = counts[c.kind];
      ++k.second;
      if (c.ok) {
        ++k.first;
        ++tally.passed;
      } else {
        ++tally.failed;
      }
      if (c.kind == "control")
        out << (c.ok ? "negative control " : "FAIL negative control ") << names[i] << ": " << c.what << ": " << c.detail << "\n";
      else if (!c.ok)
        out << "FAIL dsl " << names[i] << " " << c.kind << " " << c.what << ": " << c.detail << "\n";
    }
    out << "dsl " << names[i] << ": host " << counts["host"].first << "/" << counts["host"].second << ", placement "
        << counts["placement"].first << "/" << counts["placement"].second << ", result " << counts["result"].first << "/"
        << counts["result"].second << ", controls " << counts["control"].first << "/" << counts["control"].second << " caught\n";
  }
  return tally;
}

}  // namespace cuteref_gpu
