#include "banks_probe.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <utility>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "atoms/copy_bank_conflicts.hpp"
#include "atoms/gmma_smem_atom.hpp"
#include "atoms/smem_banks.hpp"
#include "atoms/swizzle_synthesis.hpp"
#include "atoms/tiled_copy.hpp"
#include "coordinates.hpp"
#include "cuda_check.hpp"
#include "evaluate.hpp"
#include "notation.hpp"
#include "function_table.hpp"
#include "tile_to_shape.hpp"

namespace cuteref_gpu {

using cuteref::ComposedLayout;
using cuteref::IntTuple;
using cuteref::Layout;
using cuteref::SmemInstruction;

namespace {

// ---------------------------------------------------------------- kernels (run under ncu)

// The instructions a kernel executes, in the case file's numbering.
enum Kind : int {
  kLd8, kLd16, kLd32, kLd64, kLd128,
  kSt8, kSt16, kSt32, kSt64, kSt128,
  kLdsm1, kLdsm2, kLdsm4, kLdsm1T, kLdsm2T, kLdsm4T,
  kStsm1, kStsm2, kStsm4, kStsm1T, kStsm2T, kStsm4T,
  kCpAsync4, kCpAsync8, kCpAsync16,
  kKinds
};

constexpr std::uint32_t kInactive = 0xFFFFFFFFu;  // a lane that does not access (ld/st only)
constexpr int kMaxAddress = 64 * 1024;            // every case's bytes lie below this
constexpr int kSmemBytes = kMaxAddress + 2048;     // + room to align the base to 1024 bytes

// One warp; lane l accesses byte lane_addr[l] of a 1024-byte aligned shared buffer with the
// kernel's one shared-memory instruction. Nothing else in the kernel touches shared memory.
template <int K>
__global__ void bank_probe(const std::uint32_t* lane_addr, const uint4* gsrc, std::uint32_t* out) {
  extern __shared__ __align__(16) unsigned char smem[];
  const std::uint32_t lane = threadIdx.x;
  const std::uint32_t base = (static_cast<std::uint32_t>(__cvta_generic_to_shared(smem)) + 1023u) & ~1023u;
  const std::uint32_t off = lane_addr[lane];
  const bool active = off != kInactive;
  const std::uint32_t a = base + (active ? off : 0u);
  std::uint32_t r0 = lane, r1 = lane ^ 1u, r2 = lane ^ 2u, r3 = lane ^ 3u;
  if constexpr (K == kLd8) {
    if (active) asm volatile("ld.shared.u8 %0, [%1];" : "=r"(r0) : "r"(a) : "memory");
  } else if constexpr (K == kLd16) {
    if (active) asm volatile("ld.shared.u16 %0, [%1];" : "=r"(r0) : "r"(a) : "memory");
  } else if constexpr (K == kLd32) {
    if (active) asm volatile("ld.shared.b32 %0, [%1];" : "=r"(r0) : "r"(a) : "memory");
  } else if constexpr (K == kLd64) {
    if (active) asm volatile("ld.shared.v2.b32 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
  } else if constexpr (K == kLd128) {
    if (active)
      asm volatile("ld.shared.v4.b32 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
  } else if constexpr (K == kSt8) {
    if (active) asm volatile("st.shared.u8 [%0], %1;" ::"r"(a), "r"(r0) : "memory");
  } else if constexpr (K == kSt16) {
    if (active) asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "r"(r0) : "memory");
  } else if constexpr (K == kSt32) {
    if (active) asm volatile("st.shared.b32 [%0], %1;" ::"r"(a), "r"(r0) : "memory");
  } else if constexpr (K == kSt64) {
    if (active) asm volatile("st.shared.v2.b32 [%0], {%1,%2};" ::"r"(a), "r"(r0), "r"(r1) : "memory");
  } else if constexpr (K == kSt128) {
    if (active) asm volatile("st.shared.v4.b32 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
  } else if constexpr (K == kLdsm1) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a) : "memory");
  } else if constexpr (K == kLdsm2) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
  } else if constexpr (K == kLdsm4) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
  } else if constexpr (K == kLdsm1T) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a) : "memory");
  } else if constexpr (K == kLdsm2T) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
  } else if constexpr (K == kLdsm4T) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
  } else if constexpr (K == kStsm1) {
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(a), "r"(r0) : "memory");
  } else if constexpr (K == kStsm2) {
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" ::"r"(a), "r"(r0), "r"(r1) : "memory");
  } else if constexpr (K == kStsm4) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3)
                 : "memory");
  } else if constexpr (K == kStsm1T) {
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(a), "r"(r0) : "memory");
  } else if constexpr (K == kStsm2T) {
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" ::"r"(a), "r"(r0), "r"(r1) : "memory");
  } else if constexpr (K == kStsm4T) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(r0), "r"(r1), "r"(r2),
                 "r"(r3)
                 : "memory");
  } else if constexpr (K == kCpAsync4 || K == kCpAsync8 || K == kCpAsync16) {
    constexpr int bytes = K == kCpAsync4 ? 4 : K == kCpAsync8 ? 8 : 16;
    if (active) asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(a), "l"(gsrc + lane), "n"(bytes) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
  }
  out[lane * 4 + 0] = r0;
  out[lane * 4 + 1] = r1;
  out[lane * 4 + 2] = r2;
  out[lane * 4 + 3] = r3;
}

using KernelFn = void (*)(const std::uint32_t*, const uint4*, std::uint32_t*);

template <int... K>
constexpr std::array<KernelFn, sizeof...(K)> kernel_table(std::integer_sequence<int, K...>) {
  return {&bank_probe<K>...};
}

const std::array<KernelFn, kKinds>& kernels() {
  static const auto table = kernel_table(std::make_integer_sequence<int, kKinds>{});
  return table;
}

// The kernel for an instruction name (smem_instruction's spellings; cp.async.ca.N).
int kind_of(const std::string& instr) {
  static const std::map<std::string, int> kinds = {
      {"ld.shared.b8", kLd8},           {"ld.shared.b16", kLd16},        {"ld.shared.b32", kLd32},
      {"ld.shared.v2.b32", kLd64},      {"ld.shared.b64", kLd64},        {"ld.shared.v4.b32", kLd128},
      {"ld.shared.b128", kLd128},       {"ld.shared.v2.b64", kLd128},    {"st.shared.b8", kSt8},
      {"st.shared.b16", kSt16},         {"st.shared.b32", kSt32},        {"st.shared.v2.b32", kSt64},
      {"st.shared.b64", kSt64},         {"st.shared.v4.b32", kSt128},    {"st.shared.b128", kSt128},
      {"st.shared.v2.b64", kSt128},     {"ldmatrix.x1", kLdsm1},         {"ldmatrix.x2", kLdsm2},
      {"ldmatrix.x4", kLdsm4},          {"ldmatrix.x1.trans", kLdsm1T},  {"ldmatrix.x2.trans", kLdsm2T},
      {"ldmatrix.x4.trans", kLdsm4T},   {"stmatrix.x1", kStsm1},         {"stmatrix.x2", kStsm2},
      {"stmatrix.x4", kStsm4},          {"stmatrix.x1.trans", kStsm1T},  {"stmatrix.x2.trans", kStsm2T},
      {"stmatrix.x4.trans", kStsm4T},   {"cp.async.ca.4", kCpAsync4},    {"cp.async.ca.8", kCpAsync8},
      {"cp.async.ca.16", kCpAsync16}};
  const auto it = kinds.find(instr);
  if (it == kinds.end()) throw std::runtime_error("banks probe: no kernel for `" + instr + "`");
  return it->second;
}

// ---------------------------------------------------------------- cases (host, from the model)

using Offsets = std::vector<std::vector<std::int64_t>>;  // lane -> element offsets of its values

struct BankCase {
  std::string category;  // gmma_atom, tiled_copy, strides, probe, random, cp_async, synth
  std::string what;
  std::string instr;     // smem_instruction's name, or cp.async.ca.N
  int bits = 0;
  std::vector<std::uint32_t> lane_bytes;  // 32 lanes' byte addresses (kInactive: no access)
  std::int64_t predicted = 0;
  std::int64_t ideal = 0;                 // the model's conflict-free count for the instruction
  std::optional<std::int64_t> control;    // the prediction without the swizzle, when it differs
  std::string report;                     // the model's account (describe)
};

// The model's instruction for a case (cp.async counted as st.shared of its width).
SmemInstruction model_instruction(const std::string& instr) {
  if (instr.rfind("cp.async.ca.", 0) == 0) {
    const int bytes = std::stoi(instr.substr(12));
    return cuteref::smem_instruction(bytes == 4 ? "st.shared.b32" : bytes == 8 ? "st.shared.v2.b32" : "st.shared.v4.b32");
  }
  return cuteref::smem_instruction(instr);
}

class CaseBuilder {
 public:
  std::vector<BankCase> cases;

  // Adds a case: the model predicts from `offsets` (and `unswizzled`, the control).
  void add(const std::string& category, const std::string& what, const std::string& instr, int bits, const Offsets& offsets,
           const Offsets* unswizzled = nullptr) {
    const SmemInstruction in = model_instruction(instr);
    const auto accesses = cuteref::smem_accesses(in, offsets, bits);
    const cuteref::SmemWavefronts w = cuteref::smem_wavefronts(in, accesses);
    BankCase c{category, what, instr, bits, std::vector<std::uint32_t>(32, kInactive), w.wavefronts, w.ideal, std::nullopt,
               cuteref::describe(in, w)};
    const bool matrix = in.op == cuteref::SmemOp::LoadMatrix || in.op == cuteref::SmemOp::StoreMatrix;
    if (matrix) std::fill(c.lane_bytes.begin(), c.lane_bytes.end(), 0u);  // every lane executes; unread lanes at 0
    for (const auto& a : accesses) {
      if (a.byte_address + a.bytes > kMaxAddress)
        throw std::runtime_error("banks probe: case `" + what + "` addresses byte " + std::to_string(a.byte_address));
      c.lane_bytes[static_cast<std::size_t>(a.thread)] = static_cast<std::uint32_t>(a.byte_address);
    }
    if (unswizzled) {
      const std::int64_t u = cuteref::smem_wavefronts(in, cuteref::smem_accesses(in, *unswizzled, bits)).wavefronts;
      if (u != w.wavefronts) c.control = u;
    }
    cases.push_back(std::move(c));
  }
};

std::string sw_name(cuteref::GmmaSwizzle s) { return cuteref::to_string(s); }

// Offsets of a (MN, K) tile element through the composed tile and through its inner layout.
struct Tile {
  ComposedLayout layout;
  std::int64_t extent0, extent1;
  std::int64_t at(std::int64_t i0, std::int64_t i1, bool swizzled) const {
    const std::int64_t index = i0 + extent0 * i1;
    return swizzled ? cuteref::apply_composed(layout, index) : cuteref::apply_index(layout.layout, index);
  }
};

// Every GMMA shared-memory atom, tiled to (O rows along the strided mode) x (2 atoms or 4
// 16-byte chunks along the contiguous mode), read and written by ldmatrix / stmatrix (matrix
// j's 8 rows: 8 consecutive strided indices, 16 contiguous bytes each) and by vector loads and
// stores (vectors along the contiguous mode, lanes along it first or down the rows first).
void gmma_atom_cases(CaseBuilder& b) {
  using cuteref::GmmaMajor;
  using cuteref::GmmaSwizzle;
  for (int bits : {8, 16, 32})
    for (GmmaMajor major : {GmmaMajor::K, GmmaMajor::MN})
      for (GmmaSwizzle sw : {GmmaSwizzle::Inter, GmmaSwizzle::SW32, GmmaSwizzle::SW64, GmmaSwizzle::SW128}) {
        const ComposedLayout atom = cuteref::gmma_smem_atom(major, sw, bits);
        const std::int64_t atom_c = 8 * cuteref::swizzle_width_bytes(sw) / bits;  // contiguous extent
        const std::int64_t chunk = 128 / bits;                                   // 16 bytes
        const std::int64_t c_extent = std::max<std::int64_t>(2 * atom_c, 4 * chunk), o_extent = 32;
        const bool k_major = major == GmmaMajor::K;
        const IntTuple shape = k_major ? IntTuple::tuple({IntTuple::static_int(o_extent), IntTuple::static_int(c_extent)})
                                       : IntTuple::tuple({IntTuple::static_int(c_extent), IntTuple::static_int(o_extent)});
        const Tile tile{cuteref::tile_to_shape(atom, shape), k_major ? o_extent : c_extent, k_major ? c_extent : o_extent};
        const std::string name = std::string("gmma_atom(") + (k_major ? "K" : "MN") + ", " + sw_name(sw) + ", " +
                                 std::to_string(bits) + ") tiled to " + shape.to_string();
        auto element = [&](std::int64_t o, std::int64_t c, bool swz) { return k_major ? tile.at(o, c, swz) : tile.at(c, o, swz); };
        // ldmatrix / stmatrix: lane t supplies row t % 8 of matrix t / 8.
        auto matrix_offsets = [&](int n, std::int64_t o0, std::int64_t c0, bool swz) {
          Offsets off(static_cast<std::size_t>(8 * n));
          for (int t = 0; t < 8 * n; ++t) {
            const int j = t / 8, r = t % 8;
            const std::int64_t o = o0 + 8 * (n >= 2 ? j % 2 : 0) + r, c = c0 + chunk * (n == 4 ? j / 2 : 0);
            for (std::int64_t v = 0; v < chunk; ++v) off[static_cast<std::size_t>(t)].push_back(element(o, c + v, swz));
          }
          return off;
        };
        struct Pos {
          std::int64_t o0, c0;
        };
        const Pos positions[] = {{0, 0}, {8, std::min<std::int64_t>(2 * chunk, c_extent - 2 * chunk)}};
        for (const Pos& p : positions) {
          const std::string at = name + " at (row " + std::to_string(p.o0) + ", element " + std::to_string(p.c0) + ")";
          const Offsets sw_off = matrix_offsets(4, p.o0, p.c0, true), plain = matrix_offsets(4, p.o0, p.c0, false);
          for (const char* in : {"ldmatrix.x4", "ldmatrix.x4.trans", "stmatrix.x4", "stmatrix.x4.trans"})
            b.add("gmma_atom", at, in, bits, sw_off, &plain);
        }
        {
          const Offsets sw2 = matrix_offsets(2, 16, 0, true), plain2 = matrix_offsets(2, 16, 0, false);
          b.add("gmma_atom", name + " rows 16-31", "ldmatrix.x2", bits, sw2, &plain2);
          b.add("gmma_atom", name + " rows 16-31", "stmatrix.x2.trans", bits, sw2, &plain2);
          const Offsets sw1 = matrix_offsets(1, 8, chunk, true), plain1 = matrix_offsets(1, 8, chunk, false);
          b.add("gmma_atom", name + " rows 8-15", "ldmatrix.x1", bits, sw1, &plain1);
        }
        // Vectors of `bytes` along the contiguous mode.
        for (int bytes : {16, 8, 4}) {
          const std::int64_t vec = std::max<std::int64_t>(1, 8 * bytes / bits);
          if (8 * bytes < bits) continue;
          const std::int64_t per_row = std::min<std::int64_t>(32, c_extent / vec);
          for (bool rows_first : {false, true}) {
            auto vec_offsets = [&](bool swz) {
              Offsets off(32);
              for (int t = 0; t < 32; ++t) {
                const std::int64_t o = rows_first ? t % 8 : t / per_row;
                const std::int64_t c = rows_first ? (t / 8) * vec : (t % per_row) * vec;
                for (std::int64_t v = 0; v < vec; ++v) off[static_cast<std::size_t>(t)].push_back(element(o, c + v, swz));
              }
              return off;
            };
            const Offsets sw_off = vec_offsets(true), plain = vec_offsets(false);
            const std::string type = bytes == 16 ? "v4.b32" : bytes == 8 ? "v2.b32" : "b32";
            const std::string how = name + (rows_first ? ", lanes down the rows" : ", lanes along the rows");
            if (type == "b32" && rows_first) continue;
            b.add("gmma_atom", how, "ld.shared." + type, bits, sw_off, &plain);
            if (bytes != 8) b.add("gmma_atom", how, "st.shared." + type, bits, sw_off, &plain);
          }
        }
      }
}

cuteref::Value eval(const std::string& text) { return cuteref::parse_and_evaluate(text, &cuteref::standard_functions()); }

// The instructions of real tiled copies on GMMA tiles (the model's bank_conflicts), at most
// `limit` per copy; the control is the same copy on the tile without its swizzle.
void tiled_copy_cases(CaseBuilder& b) {
  struct Copy {
    const char* copy;  // a tiled copy expression
    const char* smem;  // a tensor expression
    cuteref::CopySide side;
  };
  const char* lds_a = "make_tiled_copy_A(SM75_U32x4_LDSM_N, 16, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1):(_2,_1,_0)))";
  const char* lds_b =
      "make_tiled_copy_B(SM75_U16x8_LDSM_T, 16, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1):(_2,_1,_0), (_32,_32,_16)))";
  const char* sts_c = "make_tiled_copy_C(SM90_U32x4_STSM_N, 16, make_tiled_mma(SM90_64x64x16_F16F16F16_SS<K,K>, (_1,_1,_1):(_0,_0,_0)))";
  const char* stt_c = "make_tiled_copy_C(SM90_U16x8_STSM_T, 16, make_tiled_mma(SM90_64x64x16_F16F16F16_SS<K,K>, (_1,_1,_1):(_0,_0,_0)))";
  const char* g2s = "make_tiled_copy(UniversalCopy<uint128_t>, 16, (_16,_8):(_8,_1), (_1,_8))";
  const char* g2s_mn = "make_tiled_copy(UniversalCopy<uint128_t>, 16, (_8,_16):(_1,_8), (_8,_1))";
  const char* g2s64 = "make_tiled_copy(UniversalCopy<uint64_t>, 32, (_16,_8):(_8,_1), (_1,_2))";
  const std::vector<Copy> copies = {
      {lds_a, "tile_to_shape(gmma_atom(K, SW128, 16), (_64,_64))", cuteref::CopySide::Source},
      {lds_a, "tile_to_shape(gmma_atom(K, SW64, 16), (_64,_32))", cuteref::CopySide::Source},
      {lds_a, "tile_to_shape(gmma_atom(K, SW32, 16), (_64,_32))", cuteref::CopySide::Source},
      {lds_a, "tile_to_shape(gmma_atom(K, INTER, 16), (_64,_32))", cuteref::CopySide::Source},
      {lds_a, "(_64,_64):(_64,_1)", cuteref::CopySide::Source},
      {lds_a, "(_64,_32):(_40,_1)", cuteref::CopySide::Source},
      {lds_b, "tile_to_shape(gmma_atom(MN, SW128, 16), (_64,_32))", cuteref::CopySide::Source},
      {lds_b, "tile_to_shape(gmma_atom(MN, SW64, 16), (_32,_32))", cuteref::CopySide::Source},
      {lds_b, "(_64,_32):(_1,_64)", cuteref::CopySide::Source},
      {sts_c, "tile_to_shape(gmma_atom(K, SW128, 16), (_64,_64))", cuteref::CopySide::Destination},
      {sts_c, "tile_to_shape(gmma_atom(K, SW32, 16), (_64,_64))", cuteref::CopySide::Destination},
      {sts_c, "(_64,_64):(_64,_1)", cuteref::CopySide::Destination},
      {stt_c, "tile_to_shape(gmma_atom(MN, SW128, 16), (_64,_64))", cuteref::CopySide::Destination},
      {stt_c, "(_64,_64):(_1,_64)", cuteref::CopySide::Destination},
      {g2s, "tile_to_shape(gmma_atom(K, SW128, 16), (_128,_64))", cuteref::CopySide::Destination},
      {g2s, "tile_to_shape(gmma_atom(K, SW128, 16), (_128,_64))", cuteref::CopySide::Source},
      {g2s, "(_128,_64):(_64,_1)", cuteref::CopySide::Destination},
      {g2s_mn, "tile_to_shape(gmma_atom(MN, SW64, 16), (_64,_64))", cuteref::CopySide::Destination},
      {g2s_mn, "(_64,_64):(_1,_64)", cuteref::CopySide::Source},
      {g2s64, "tile_to_shape(gmma_atom(K, SW64, 32), (_64,_32))", cuteref::CopySide::Destination},
      {g2s64, "(_64,_32):(_32,_1)", cuteref::CopySide::Source},
  };
  for (const Copy& c : copies) {
    const cuteref::Value tcv = eval(c.copy);
    const cuteref::Value smem = eval(c.smem);
    const auto& e = std::get<cuteref::MixedTuple>(tcv.data).elements;
    const cuteref::TiledCopy tc = cuteref::make_tiled_copy_tv(
        cuteref::copy_atom(std::get<cuteref::Symbol>(e[0].data).name), static_cast<int>(std::get<IntTuple>(e[1].data).value()),
        std::get<Layout>(e[2].data), std::get<IntTuple>(e[3].data));
    const cuteref::CopyBankConflicts banks = cuteref::bank_conflicts(tc, smem, c.side);
    std::optional<cuteref::CopyBankConflicts> plain;
    if (smem.is_composed()) plain = cuteref::bank_conflicts(tc, cuteref::Value(std::get<ComposedLayout>(smem.data).layout), c.side);
    const std::size_t limit = 6;
    for (std::size_t i = 0; i < banks.instructions.size() && i < limit; ++i) {
      const auto& ins = banks.instructions[i];
      const std::string what = std::string(c.copy) + " on " + c.smem + ": warp " + std::to_string(ins.warp) + " call " +
                               std::to_string(ins.call);
      b.add("tiled_copy", what, banks.instruction.name, banks.bits, ins.offsets, plain ? &plain->instructions[i].offsets : nullptr);
    }
  }
}

Offsets strided(int lanes, std::int64_t stride, std::int64_t values) {
  Offsets off(static_cast<std::size_t>(lanes));
  for (int t = 0; t < lanes; ++t)
    for (std::int64_t v = 0; v < values; ++v) off[static_cast<std::size_t>(t)].push_back(t * stride + v);
  return off;
}

// Known strides (the issue's 2, 8, 32, 33 words among them) and padded row pitches.
void stride_cases(CaseBuilder& b) {
  for (std::int64_t s : {0, 1, 2, 3, 4, 5, 8, 16, 17, 31, 32, 33, 48, 64, 65, 96}) {
    b.add("strides", "32-bit words at stride " + std::to_string(s), "ld.shared.b32", 32, strided(32, s, 1));
    b.add("strides", "32-bit words at stride " + std::to_string(s), "st.shared.b32", 32, strided(32, s, 1));
  }
  for (std::int64_t s : {0, 1, 2, 4, 5, 64, 128, 129}) {
    b.add("strides", "bytes at stride " + std::to_string(s), "ld.shared.b8", 8, strided(32, s, 1));
    b.add("strides", "bytes at stride " + std::to_string(s), "st.shared.b8", 8, strided(32, s, 1));
  }
  for (std::int64_t s : {1, 2, 3, 64, 65}) {
    b.add("strides", "16-bit values at stride " + std::to_string(s), "ld.shared.b16", 16, strided(32, s, 1));
    b.add("strides", "16-bit values at stride " + std::to_string(s), "st.shared.b16", 16, strided(32, s, 1));
  }
  for (std::int64_t s : {0, 1, 2, 3, 4, 8, 16, 17, 32}) {  // in 8-byte units
    b.add("strides", "8-byte vectors at stride " + std::to_string(s), "ld.shared.v2.b32", 32, strided(32, 2 * s, 2));
    b.add("strides", "8-byte vectors at stride " + std::to_string(s), "st.shared.v2.b32", 32, strided(32, 2 * s, 2));
  }
  for (std::int64_t s : {0, 1, 2, 3, 4, 8, 9, 16, 32}) {  // in 16-byte units
    b.add("strides", "16-byte vectors at stride " + std::to_string(s), "ld.shared.v4.b32", 32, strided(32, 4 * s, 4));
    b.add("strides", "16-byte vectors at stride " + std::to_string(s), "st.shared.v4.b32", 32, strided(32, 4 * s, 4));
  }
  for (std::int64_t pitch : {16, 32, 48, 64, 128, 144, 256, 272}) {  // bytes between the rows
    for (const char* in : {"ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4", "ldmatrix.x4.trans", "stmatrix.x1", "stmatrix.x2",
                           "stmatrix.x4", "stmatrix.x4.trans"}) {
      const int n = in[10] - '0';
      b.add("strides", "rows at a pitch of " + std::to_string(pitch) + " bytes", in, 16, strided(8 * n, pitch / 2, 8));
    }
  }
}

Offsets from_bytes(const std::vector<std::int64_t>& bytes, int width, int bits) {
  Offsets off;
  const std::int64_t per = 8 * width / bits, eb = bits / 8;
  for (std::int64_t a : bytes) {
    std::vector<std::int64_t> v;
    for (std::int64_t i = 0; i < per; ++i) v.push_back(a / eb + i);
    off.push_back(v);
  }
  return off;
}

// Patterns that tell rules apart: sharing across the halves / quarters of a warp, broadcasts,
// duplicated rows of ldmatrix.
void probe_cases(CaseBuilder& b) {
  std::vector<std::int64_t> a(32);
  auto fill = [&](auto f) {
    for (int t = 0; t < 32; ++t) a[static_cast<std::size_t>(t)] = f(t);
  };
  struct P {
    const char* what;
    int width;
    std::function<std::int64_t(int)> f;
  };
  const std::vector<P> patterns = {
      {"8-byte: half-warps at 16-byte stride, the second 8 bytes over", 8, [](int t) { return 16 * (t % 16) + 8 * (t / 16); }},
      {"8-byte: both half-warps the same 16 addresses", 8, [](int t) { return 8 * (t % 16); }},
      {"8-byte: every lane the same address", 8, [](int) { return 64; }},
      {"8-byte: lane pairs share (t/2)", 8, [](int t) { return 8 * (t / 2); }},
      {"8-byte: 32 lanes over 128 bytes, lane t at 8*(t%16), reversed halves", 8, [](int t) { return 8 * (t < 16 ? t : 31 - t); }},
      {"8-byte: the half-warps in different 128-byte lines, same banks", 8, [](int t) { return 8 * (t % 16) + 128 * (t / 16); }},
      {"16-byte: every lane the same address", 16, [](int) { return 256; }},
      {"16-byte: lane pairs share (t/2)", 16, [](int t) { return 16 * (t / 2); }},
      {"16-byte: lanes t and t^2 share", 16, [](int t) { return 16 * ((t & 1) + 2 * (t / 4)); }},
      {"16-byte: all quarter-warps the same 8 addresses", 16, [](int t) { return 16 * (t % 8); }},
      {"16-byte: quarter-warps at 16-byte stride 2 (conflict within a quarter)", 16, [](int t) { return 32 * (t % 8) + 256 * (t / 8); }},
      {"16-byte: lanes 0-7 conflict 2-way, others conflict-free", 16, [](int t) { return t < 8 ? 16 * (t % 4) + 128 * (t / 4) : 16 * t; }},
      {"16-byte: lanes interleaved across quarters (t*8 mod 32 order)", 16, [](int t) { return 16 * ((t % 4) * 8 + t / 4); }},
      {"16-byte: pairs t,t^1 share, pairs 32 bytes apart", 16, [](int t) { return 32 * (t / 2); }},
      {"16-byte: lanes t and t^4 share (not a packing pair)", 16, [](int t) { return 16 * ((t % 4) + 4 * (t / 8)); }},
      {"16-byte: groups of 4 lanes share an address", 16, [](int t) { return 16 * (t / 4); }},
      {"16-byte: pairs t,t^1 share but for lane 31", 16, [](int t) { return t == 31 ? 16 * 20 : 16 * (t / 2); }},
      {"16-byte: pairs t,t^1 share, 16 pairs over 8 banks-quads 2-way", 16, [](int t) { return 16 * ((t / 2) % 4) + 128 * (t / 8); }},
      {"16-byte: pairs t,t^2 share with a conflict within each half", 16, [](int t) { return 16 * ((t & 1) + 2 * (t / 4)) + 128 * ((t / 4) % 2); }},
      {"8-byte: pairs t,t^1 share, pairs 16 bytes apart", 8, [](int t) { return 16 * (t / 2); }},
      {"8-byte: pairs t,t^2 share", 8, [](int t) { return 8 * ((t & 1) + 2 * (t / 4)); }},
      {"8-byte: lanes t and t^16 share (the halves alike)", 8, [](int t) { return 8 * (t % 16); }},
      {"8-byte: pairs t,t^1 share, 16 addresses 2-way in banks", 8, [](int t) { return 8 * ((t / 2) % 8) + 128 * (t / 16); }},
      {"4-byte: pairs t,t^1 share at stride 32 words", 4, [](int t) { return 128 * (t / 2); }},
      {"4-byte: half the lanes broadcast one word, the rest stride 1", 4, [](int t) { return t < 16 ? 0 : 4 * t; }},
      {"4-byte: stride 32 words with pairs sharing", 4, [](int t) { return 128 * (t / 2); }},
  };
  for (const P& p : patterns) {
    fill(p.f);
    const std::string type = p.width == 16 ? "v4.b32" : p.width == 8 ? "v2.b32" : "b32";
    b.add("probe", p.what, "ld.shared." + type, 32, from_bytes(a, p.width, 32));
    b.add("probe", p.what, "st.shared." + type, 32, from_bytes(a, p.width, 32));
  }
  const std::vector<P> rows = {
      {"ldmatrix: the 4 matrices the same 8 rows", 16, [](int t) { return 16 * (t % 8); }},
      {"ldmatrix: rows duplicated in pairs within each matrix", 16, [](int t) { return 16 * (t / 2); }},
      {"ldmatrix: matrix 0 8-way conflicting, the others conflict-free", 16, [](int t) { return t < 8 ? 128 * t : 16 * t; }},
      {"ldmatrix: matrices 0 and 1 2-way conflicting within, disjoint banks", 16,
       [](int t) { return 16 * (t % 4) + 128 * ((t % 8) / 4) + 64 * (t / 8); }},
      {"ldmatrix: all 32 rows one 16-byte chunk", 16, [](int) { return 512; }},
  };
  for (const P& p : rows) {
    fill(p.f);
    for (const char* in : {"ldmatrix.x4", "stmatrix.x4", "ldmatrix.x2"}) {
      const int n = in[10] - '0';
      std::vector<std::int64_t> first(a.begin(), a.begin() + 8 * n);
      b.add("probe", p.what, in, 16, from_bytes(first, 16, 16));
    }
  }
}

// Random (32, V) address layouts: the lanes a random product of modes with random strides (in
// units of the access), the values contiguous, sometimes under a random swizzle that keeps
// each access contiguous; the control is the layout without its swizzle.
void random_cases(CaseBuilder& b, int count) {
  std::mt19937_64 rng(20261124);
  const char* const instrs[] = {"ld.shared.b32",    "st.shared.b32",     "ld.shared.v2.b32", "st.shared.v2.b32",
                                "ld.shared.v4.b32", "st.shared.v4.b32",  "ldmatrix.x4",      "ldmatrix.x4.trans",
                                "ldmatrix.x2",      "stmatrix.x4",       "stmatrix.x2.trans", "ld.shared.b16",
                                "st.shared.b8",     "ldmatrix.x1",       "stmatrix.x1"};
  const std::int64_t unit_strides[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 32, 33, 64};
  int made = 0;
  while (made < count) {
    const std::string instr = instrs[rng() % (sizeof instrs / sizeof *instrs)];
    const SmemInstruction in = cuteref::smem_instruction(instr);
    const int bits = in.access_bytes == 1 ? 8 : in.access_bytes == 2 ? 16 : (rng() % 2 ? 16 : 32);
    const std::int64_t values = 8 * in.access_bytes / bits, unit = values;  // one access in elements
    // Lane modes: 32 = a product of 1 to 3 factors.
    std::vector<std::int64_t> shape;
    std::int64_t left = 32;
    while (left > 1) {
      std::int64_t f = std::int64_t(1) << (1 + rng() % 5);
      while (f > left) f /= 2;
      if (shape.size() == 2) f = left;
      shape.push_back(f);
      left /= f;
    }
    std::vector<IntTuple> sh, st;
    for (std::int64_t f : shape) {
      sh.push_back(IntTuple::integer(f));
      st.push_back(IntTuple::integer(unit * unit_strides[rng() % (sizeof unit_strides / sizeof *unit_strides)]));
    }
    const std::int64_t base = unit * static_cast<std::int64_t>(rng() % 64);
    const Layout lanes(sh.size() == 1 ? sh[0] : IntTuple::tuple(sh), st.size() == 1 ? st[0] : IntTuple::tuple(st));
    // A swizzle on element offsets that keeps each access whole: M >= log2(values).
    int min_m = 0;
    while ((std::int64_t(1) << min_m) < values) ++min_m;
    const bool swizzled = rng() % 2 == 0;
    const int bb = 1 + static_cast<int>(rng() % 3), mm = min_m + static_cast<int>(rng() % 3), ss = bb + static_cast<int>(rng() % 3);
    const cuteref::Swizzle sw(bb, mm, ss);
    Offsets off(32), plain(32);
    bool ok = true;
    for (std::int64_t t = 0; t < 32; ++t)
      for (std::int64_t v = 0; v < values; ++v) {
        const std::int64_t e = base + cuteref::apply_index(lanes, t) + v;
        plain[static_cast<std::size_t>(t)].push_back(e);
        off[static_cast<std::size_t>(t)].push_back(swizzled ? sw(e) : e);
        if (sw(e) * bits / 8 + in.access_bytes > kMaxAddress) ok = false;
      }
    if (!ok) continue;
    const std::string what = "lanes " + lanes.to_string() + " + " + std::to_string(base) + " (" + std::to_string(bits) +
                             "-bit elements)" + (swizzled ? " under " + sw.to_string() : "");
    b.add("random", what, instr, bits, off, swizzled ? &plain : nullptr);
    ++made;
  }
}

// cp.async writes (not part of the model's verified rule: counted as st.shared of the width).
void cp_async_cases(CaseBuilder& b) {
  for (std::int64_t s : {1, 2, 8, 32, 33}) {
    b.add("cp_async", "4-byte cp.async at word stride " + std::to_string(s), "cp.async.ca.4", 32, strided(32, s, 1));
  }
  for (std::int64_t s : {1, 2, 16}) b.add("cp_async", "8-byte cp.async at stride " + std::to_string(s), "cp.async.ca.8", 32, strided(32, 2 * s, 2));
  for (std::int64_t s : {1, 2, 8}) b.add("cp_async", "16-byte cp.async at stride " + std::to_string(s), "cp.async.ca.16", 32, strided(32, 4 * s, 4));
}

// Synthesized layouts (model/atoms/swizzle_synthesis.hpp): for each (shared-memory layout, tiled
// copy) scenario, swizzle_for's answer; its first and last instructions are cases, each with the
// family's next-best member on the same instruction as the control (when their predictions
// differ, the counter must differ from the next-best's: the next-best measures worse). Scenarios
// whose unswizzled layout the copy does not accept are left out.
void synthesized_cases(CaseBuilder& b) {
  const char* mma2x2 = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (2,2,1):(1,2,0))";
  const std::vector<std::pair<std::string, std::vector<std::string>>> scenarios = {
      {std::string("make_tiled_copy_A(SM75_U32x4_LDSM_N, 16, ") + mma2x2 + ")",
       {"(32,64):(64,1)", "(32,32):(32,1)", "(32,128):(128,1)", "(64,64):(64,1)", "(32,16):(16,1)", "(64,32):(32,1)",
        "(32,256):(256,1)", "(32,64):(72,1)", "(32,64):(96,1)", "(64,128):(128,1)", "(32,48):(48,1)", "(32,64):(80,1)"}},
      {std::string("make_tiled_copy_A(SM75_U16x8_LDSM_T, 16, ") + mma2x2 + ")",
       {"(32,64):(1,32)", "(32,32):(1,32)", "(64,64):(1,64)", "(32,16):(1,32)", "(64,32):(1,64)", "(128,32):(1,128)",
        "(32,64):(1,40)", "(32,64):(1,48)", "(32,64):(1,64)", "(64,16):(1,64)"}},
      {"make_tiled_copy_B(SM75_U16x8_LDSM_T, 16, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1):(_2,_1,_0), (_32,_32,_16)))",
       {"(32,32):(1,32)", "(64,32):(1,64)", "(32,64):(1,32)", "(128,32):(1,128)", "(32,32):(1,40)", "(64,64):(1,64)",
        "(32,16):(1,32)", "(64,16):(1,64)"}},
      {"make_tiled_copy_B(SM75_U32x4_LDSM_N, 16, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1):(_2,_1,_0), (_32,_32,_16)))",
       {"(32,16):(16,1)", "(32,32):(32,1)", "(32,64):(64,1)", "(64,64):(64,1)", "(32,128):(128,1)", "(64,32):(32,1)",
        "(32,64):(72,1)"}},
      {"make_tiled_copy_C(SM90_U32x4_STSM_N, 16, make_tiled_mma(SM90_64x64x16_F16F16F16_SS<K,K>, (_1,_1,_1):(_0,_0,_0)))",
       {"(64,64):(64,1)", "(64,128):(128,1)", "(64,64):(72,1)", "(64,256):(256,1)", "(128,64):(64,1)", "(64,64):(96,1)"}},
      {"make_tiled_copy_C(SM90_U16x8_STSM_T, 16, make_tiled_mma(SM90_64x64x16_F16F16F16_SS<K,K>, (_1,_1,_1):(_0,_0,_0)))",
       {"(64,64):(1,64)", "(128,64):(1,128)", "(64,64):(1,72)", "(64,128):(1,64)", "(64,64):(1,96)"}},
      {"make_tiled_copy(UniversalCopy<uint128_t>, 16, (_16,_8):(_8,_1), (_1,_8))",
       {"(64,64):(64,1)", "(32,64):(64,1)", "(64,128):(128,1)", "(16,64):(64,1)", "(64,64):(72,1)", "(64,256):(256,1)"}},
      {"make_tiled_copy(UniversalCopy<uint128_t>, 16, (_8,_16):(_1,_8), (_8,_1))",
       {"(64,64):(1,64)", "(64,32):(1,64)", "(128,64):(1,128)", "(64,16):(1,64)", "(64,64):(1,72)"}},
      {"make_tiled_copy(UniversalCopy<uint128_t>, 16, (_32,_4):(_4,_1), (_1,_8))",
       {"(32,32):(32,1)", "(64,32):(32,1)", "(32,64):(64,1)", "(32,32):(40,1)", "(64,32):(64,1)", "(32,128):(128,1)"}},
      {"make_tiled_copy(UniversalCopy<uint64_t>, 32, (_16,_8):(_8,_1), (_1,_2))",
       {"(64,32):(32,1)", "(16,16):(16,1)", "(32,32):(32,1)", "(64,64):(64,1)", "(16,32):(32,1)", "(32,16):(16,1)"}},
      {"make_tiled_copy(UniversalCopy<uint32_t>, 32, (_32,_1):(_1,_0), (_1,_1))",
       {"(32,32):(32,1)", "(32,32):(1,32)", "(32,64):(64,1)", "(32,16):(16,1)", "(32,8):(8,1)", "(32,128):(128,1)",
        "(32,2):(2,1)", "(32,4):(4,1)"}},
      {"make_tiled_copy(UniversalCopy<uint32_t>, 32, (_8,_4):(_4,_1), (_1,_1))",
       {"(8,32):(32,1)", "(8,64):(64,1)", "(8,16):(16,1)", "(8,8):(8,1)", "(8,32):(1,8)", "(16,32):(32,1)"}},
      {"make_tiled_copy(UniversalCopy<uint64_t>, 64, (_32,_1):(_1,_0), (_1,_1))",
       {"(32,16):(16,1)", "(32,32):(32,1)", "(32,8):(8,1)", "(32,4):(4,1)", "(32,2):(2,1)", "(32,16):(1,32)"}},
      {"make_tiled_copy(UniversalCopy<uint16_t>, 16, (_32,_1):(_1,_0), (_1,_1))",
       {"(32,32):(32,1)", "(32,64):(64,1)", "(32,16):(16,1)", "(32,128):(128,1)", "(32,2):(2,1)", "(32,8):(8,1)"}},
      {"make_tiled_copy(UniversalCopy<uint128_t>, 32, (_32,_1):(_1,_0), (_1,_4))",
       {"(32,32):(32,1)", "(32,16):(16,1)", "(32,64):(64,1)", "(32,8):(8,1)", "(32,4):(4,1)"}},
  };
  for (const auto& [copy, layouts] : scenarios) {
    const cuteref::TiledCopy tc = cuteref::tiled_copy_arg({eval(copy)}, 0, "banks probe");
    for (const std::string& smem : layouts) {
      std::optional<cuteref::SwizzleSynthesis> s;
      try {
        s = cuteref::swizzle_for(std::get<Layout>(eval(smem).data), {{tc, cuteref::CopySide::Auto, std::nullopt, 0}});
      } catch (const cuteref::Error&) {
        continue;  // the copy does not fit this layout
      }
      const cuteref::SwizzleMember& best = s->family[s->best];
      const cuteref::CopyBankConflicts banks = cuteref::bank_conflicts(tc, cuteref::swizzled_smem(s->smem, best.swizzle, s->bits));
      std::optional<cuteref::CopyBankConflicts> next;
      if (s->next_best)
        next = cuteref::bank_conflicts(tc, cuteref::swizzled_smem(s->smem, s->family[*s->next_best].swizzle, s->bits));
      const std::string chosen = best.swizzle ? best.swizzle->to_string() : "no swizzle";
      const std::string runner = s->next_best ? (s->family[*s->next_best].swizzle ? s->family[*s->next_best].swizzle->to_string() : "no swizzle") : "-";
      std::vector<std::size_t> picks{0};
      if (banks.instructions.size() > 1) picks.push_back(banks.instructions.size() - 1);
      for (std::size_t i : picks) {
        const auto& ins = banks.instructions[i];
        const std::string what = "swizzle_for(" + smem + ", " + copy + ") = " + chosen + " (total " + std::to_string(best.total) +
                                 ", ideal " + std::to_string(s->ideal_total) + "; control: next best " + runner + "): warp " +
                                 std::to_string(ins.warp) + " call " + std::to_string(ins.call);
        b.add("synth", what, banks.instruction.name, banks.bits, ins.offsets, next ? &next->instructions[i].offsets : nullptr);
      }
    }
  }
}

// Every case, the categories interleaved (so that a run cut short by its time budget still
// covers each of them).
std::vector<BankCase> all_cases() {
  std::vector<std::vector<BankCase>> groups;
  for (void (*make)(CaseBuilder&) : {gmma_atom_cases, tiled_copy_cases, stride_cases, probe_cases, cp_async_cases, synthesized_cases}) {
    CaseBuilder b;
    make(b);
    groups.push_back(std::move(b.cases));
  }
  CaseBuilder r;
  random_cases(r, 160);
  groups.push_back(std::move(r.cases));
  std::vector<BankCase> out;
  for (std::size_t i = 0;; ++i) {
    bool any = false;
    for (auto& g : groups)
      if (i < g.size()) {
        out.push_back(std::move(g[i]));
        any = true;
      }
    if (!any) break;
  }
  return out;
}

// ---------------------------------------------------------------- ncu

struct Measured {
  int kind = -1;
  std::map<std::string, double> metrics;
};

std::string find_ncu() {
  if (const char* e = std::getenv("NCU"); e && *e) return e;
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    std::string d;
    while (std::getline(dirs, d, ':'))
      if (!d.empty() && access((d + "/ncu").c_str(), X_OK) == 0) return d + "/ncu";
  }
  if (access("/usr/local/cuda/bin/ncu", X_OK) == 0) return "/usr/local/cuda/bin/ncu";
  std::error_code ec;
  if (std::filesystem::is_directory("/opt/nvidia/nsight-compute", ec))
    for (const auto& entry : std::filesystem::directory_iterator("/opt/nvidia/nsight-compute", ec))
      if (access((entry.path() / "ncu").c_str(), X_OK) == 0) return (entry.path() / "ncu").string();
  return "";
}

std::string run_command(const std::string& cmd, int& status) {
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + cmd);
  std::string out;
  char buf[65536];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  status = pclose(pipe);
  return out;
}

// The metrics to read, as .sum: the total shared-memory wavefronts of the LSU pipe (always) and,
// where ncu lists them for this chip, the per-operation wavefronts, the bank conflicts and the
// executed instruction counts (to confirm each kernel ran its one instruction).
std::vector<std::string> choose_metrics(const std::string& ncu, std::ostream& out) {
  int status = 0;
  const std::string list = run_command("'" + ncu + "' --query-metrics --chip gh100 2>&1", status);
  const char* const wanted[] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st",
                                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm",
                                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared",
                                "smsp__inst_executed_op_shared_ld", "smsp__inst_executed_op_shared_st", "smsp__inst_executed_op_ldsm",
                                "smsp__inst_executed_op_stsm", "smsp__inst_executed_op_ldgsts"};
  std::vector<std::string> metrics{"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"};
  std::istringstream lines(list);
  std::string line;
  std::vector<std::string> listed;
  while (std::getline(lines, line)) {
    std::istringstream f(line);
    std::string name;
    f >> name;
    listed.push_back(name);
  }
  for (const char* w : wanted)
    if (std::find(listed.begin(), listed.end(), w) != listed.end()) metrics.push_back(std::string(w) + ".sum");
  if (metrics.size() == 1)
    out << "banks: ncu --query-metrics listed none of the other metrics (status " << status << "); reading only " << metrics[0] << "\n";
  return metrics;
}

// The instruction's own wavefronts: the kernel's op_ld + op_st wavefronts (ldmatrix counts under
// op_ld, stmatrix under op_st; measured 2026-11-24: the total of the kernel is that plus one
// wavefront on every kernel, which no instruction of the probe accounts for); without those
// metrics, the total.
double own_wavefronts(const Measured& m, const std::vector<std::string>& metrics) {
  const std::string ld = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", st = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
  if (m.metrics.count(ld) && m.metrics.count(st)) return m.metrics.at(ld) + m.metrics.at(st);
  return m.metrics.count(metrics[0]) ? m.metrics.at(metrics[0]) : -1;
}

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> f;
  std::string cur;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) {
      f.push_back(cur);
      cur.clear();
    } else cur += c;
  }
  f.push_back(cur);
  return f;
}


std::vector<Measured> parse_ncu_csv(const std::string& csv, const std::vector<std::string>& metrics) {
  std::vector<Measured> rows;
  std::vector<std::string> header;
  std::istringstream lines(csv);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("\"ID\"", 0) == 0) {
      header = csv_fields(line);
      continue;
    }
    if (header.empty() || line.empty() || line[0] != '"') continue;
    const auto f = csv_fields(line);
    if (f.size() != header.size() || f[0].empty() || !std::isdigit(static_cast<unsigned char>(f[0][0]))) continue;
    Measured m;
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (header[i] == "Kernel Name") {
        const auto p = f[i].find("bank_probe<");
        if (p != std::string::npos) {
          std::size_t q = p + 11;
          while (q < f[i].size() && !std::isdigit(static_cast<unsigned char>(f[i][q])) && f[i][q] != '>') ++q;
          if (q < f[i].size() && std::isdigit(static_cast<unsigned char>(f[i][q]))) m.kind = std::atoi(f[i].c_str() + q);
        }
      }
      if (std::find(metrics.begin(), metrics.end(), header[i]) != metrics.end()) {
        std::string v;
        for (char c : f[i])
          if (c != ',') v += c;
        m.metrics[header[i]] = v.empty() || v == "n/a" ? -1 : std::atof(v.c_str());
      }
    }
    rows.push_back(std::move(m));
  }
  return rows;
}

std::string self_path() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the harness's own path (/proc/self/exe)");
  return p.string();
}

}  // namespace

int run_banks_kernels(const std::string& case_file) {
  std::ifstream in(case_file);
  if (!in) throw std::runtime_error("banks-kernels: cannot read " + case_file);
  std::vector<std::pair<int, std::vector<std::uint32_t>>> cases;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    int kind;
    if (!(f >> kind)) continue;
    std::vector<std::uint32_t> a(32);
    for (auto& x : a) f >> x;
    cases.push_back({kind, a});
  }
  std::uint32_t *d_addr, *d_out;
  uint4* d_src;
  CUDA_CHECK(cudaMalloc(&d_addr, 32 * sizeof(std::uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_out, 128 * sizeof(std::uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_src, 32 * sizeof(uint4)));
  CUDA_CHECK(cudaMemset(d_src, 0x5A, 32 * sizeof(uint4)));
  for (KernelFn k : kernels())
    CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(k), cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  for (const auto& [kind, a] : cases) {
    if (kind < 0 || kind >= kKinds) throw std::runtime_error("banks-kernels: bad kind " + std::to_string(kind));
    CUDA_CHECK(cudaMemcpy(d_addr, a.data(), 32 * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    kernels()[static_cast<std::size_t>(kind)]<<<1, 32, kSmemBytes>>>(d_addr, d_src, d_out);
    CUDA_CHECK_LAUNCH();
  }
  CUDA_CHECK(cudaFree(d_addr));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_src));
  std::printf("banks-kernels: %zu kernels launched\n", cases.size());
  return 0;
}

ProbeTally run_banks_probe(std::ostream& out, const std::string& out_dir, bool dry_run) {
  ProbeTally tally;
  const std::vector<BankCase> cases = all_cases();
  std::map<std::string, int> per_category;
  for (const BankCase& c : cases) ++per_category[c.category];
  out << "banks: " << cases.size() << " cases from the model:";
  for (const auto& [k, n] : per_category) out << " " << k << " " << n;
  out << "\n";
  if (dry_run) {
    int conflicting = 0, controls = 0;
    for (const BankCase& c : cases) {
      conflicting += c.predicted > c.ideal;
      controls += c.control.has_value();
      out << c.category << "\t" << c.instr << "\t" << c.predicted << "\t" << (c.control ? std::to_string(*c.control) : "-") << "\t"
          << c.what << "\n";
    }
    out << "banks dry run: " << conflicting << " cases predicted above the ideal, " << controls << " with a control\n";
    return tally;
  }
  const std::string ncu = find_ncu();
  if (ncu.empty()) {
    out << "banks: ncu (Nsight Compute) not found ($NCU, PATH, /usr/local/cuda/bin, /opt/nvidia/nsight-compute): skipping\n";
    return tally;
  }
  int status = 0;
  out << "banks: ncu " << ncu << ": " << run_command("'" + ncu + "' --version 2>&1 | tail -1", status);
  const std::string dir = out_dir.empty() ? std::filesystem::temp_directory_path().string() : out_dir;
  const std::vector<std::string> metrics = choose_metrics(ncu, out);
  std::string list;
  for (const auto& m : metrics) list += (list.empty() ? "" : ",") + m;
  out << "banks: metrics " << list << "\n";
  // ncu runs the cases in chunks (one process each) until the time budget would be exceeded.
  const double budget = std::getenv("CUTEREF_BANKS_BUDGET_S") ? std::atof(std::getenv("CUTEREF_BANKS_BUDGET_S")) : 420.0;
  // A small first chunk measures ncu's time per kernel before the big ones are started.
  std::vector<Measured> rows;
  std::string all_csv;
  const auto t0 = std::chrono::steady_clock::now();
  double per_kernel = 0;
  for (std::size_t first = 0; first < cases.size();) {
    const std::size_t last = std::min(cases.size(), first + (first == 0 ? 40 : 200));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (first > 0 && elapsed + (per_kernel * static_cast<double>(last - first) + 5.0) > budget) {
      out << "banks: time budget " << budget << " s: stopping after " << first << " of " << cases.size() << " cases\n";
      break;
    }
    const std::string case_file = std::filesystem::temp_directory_path().string() + "/cuteref_banks_cases_" +
                                  std::to_string(getpid()) + "_" + std::to_string(first) + ".txt";
    {
      std::ofstream f(case_file);
      for (std::size_t i = first; i < last; ++i) {
        f << kind_of(cases[i].instr);
        for (std::uint32_t a : cases[i].lane_bytes) f << " " << a;
        f << "\n";
      }
    }
    const std::string cmd = "'" + ncu + "' --csv --page raw --print-units base --print-kernel-base demangled " +
                            "--clock-control none --cache-control none -k regex:bank_probe --metrics " + list + " '" +
                            self_path() + "' banks-kernels '" + case_file + "' 2>&1";
    const auto c0 = std::chrono::steady_clock::now();
    const std::string csv = run_command(cmd, status);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
    all_csv += csv;
    const std::vector<Measured> got = parse_ncu_csv(csv, metrics);
    out << "banks: ncu ran cases " << first << ".." << last - 1 << ": " << got.size() << " kernels in " << seconds << " s ("
        << (got.empty() ? 0.0 : seconds / static_cast<double>(got.size())) << " s per kernel), exit status " << status << "\n";
    if (got.size() != last - first) {
      out << "FAIL banks: ncu reported " << got.size() << " kernels for " << last - first << " cases; its output ends:\n"
          << csv.substr(csv.size() > 3000 ? csv.size() - 3000 : 0) << "\n";
      if (!out_dir.empty()) std::ofstream(dir + "/banks_ncu.csv") << all_csv;
      tally.failed += 1;
      return tally;
    }
    rows.insert(rows.end(), got.begin(), got.end());
    per_kernel = seconds / static_cast<double>(got.size());
    first = last;
  }
  if (!out_dir.empty()) std::ofstream(dir + "/banks_ncu.csv") << all_csv;
  struct Tally {
    int agree = 0, differ = 0;
  };
  std::map<std::string, Tally> by_category;
  int controls = 0, caught = 0, shown = 0, total_differs = 0;
  std::ofstream log;
  if (!out_dir.empty()) log.open(dir + "/banks_results.tsv");
  if (log) {
    log << "index\tcategory\tinstr\tbits\tpredicted\tcontrol\tmeasured(op_ld+op_st)";
    for (const auto& m : metrics) log << "\t" << m;
    log << "\twhat\tlane_bytes\n";
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const BankCase& c = cases[i];
    const Measured& m = rows[i];
    if (m.kind != -1 && m.kind != kind_of(c.instr)) {
      out << "FAIL banks: kernel " << i << " is bank_probe<" << m.kind << ">, case " << i << " runs " << c.instr << "\n";
      ++tally.failed;
      return tally;
    }
    const double measured = own_wavefronts(m, metrics);
    const double total = m.metrics.count(metrics[0]) ? m.metrics.at(metrics[0]) : -1;
    if (total != measured + 1) ++total_differs;
    const bool agree = measured == static_cast<double>(c.predicted);
    if (c.category == "cp_async") {
      // Reported, not counted: the model's rule is not claimed for cp.async.
    } else if (agree) {
      ++by_category[c.category].agree;
      ++tally.passed;
    } else {
      ++by_category[c.category].differ;
      ++tally.failed;
      if (shown++ < 30)
        out << "DIFFER " << c.category << ": " << c.instr << " " << c.what << ": model " << c.predicted << ", counter " << measured
            << "\n" << c.report;
    }
    if (c.control && c.category != "cp_async") {
      ++controls;
      if (static_cast<double>(*c.control) != measured) ++caught;
      else out << "control not caught: " << c.instr << " " << c.what << ": without the swizzle the model says " << *c.control
               << ", the counter " << measured << "\n";
    }
    if (log) {
      log << i << "\t" << c.category << "\t" << c.instr << "\t" << c.bits << "\t" << c.predicted << "\t"
          << (c.control ? std::to_string(*c.control) : "") << "\t" << measured;
      for (const auto& name : metrics) log << "\t" << (m.metrics.count(name) ? m.metrics.at(name) : -1);
      log << "\t" << c.what << "\t";
      for (std::size_t l = 0; l < 32; ++l) log << (l ? "," : "") << (c.lane_bytes[l] == kInactive ? std::int64_t{-1} : std::int64_t{c.lane_bytes[l]});
      log << "\n";
    }
  }
  for (const auto& [k, t] : by_category)
    out << "banks " << k << ": " << t.agree + t.differ << " pairs, " << t.agree << " agree, " << t.differ << " differ\n";
  int cp_total = 0, cp_agree = 0;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (cases[i].category == "cp_async") {
      ++cp_total;
      const double measured = rows[i].metrics.count(metrics[0]) ? rows[i].metrics.at(metrics[0]) : -1;
      if (measured == static_cast<double>(cases[i].predicted)) ++cp_agree;
      out << "cp_async (not counted): " << cases[i].what << ": st.shared rule " << cases[i].predicted << ", kernel total " << measured
          << "\n";
    }
  out << "banks: the kernel's total wavefronts differ from op_ld + op_st + 1 on " << total_differs << " of " << rows.size()
      << " kernels (cp.async's included)\n";
  out << "banks negative controls: " << caught << "/" << controls << " caught (predictions without the swizzle that differ)\n";
  out << "banks cp_async: " << cp_agree << "/" << cp_total << " equal to the st.shared rule (reported, not counted)\n";
  if (caught != controls) tally.failed += controls - caught;
  return tally;
}

}  // namespace cuteref_gpu
