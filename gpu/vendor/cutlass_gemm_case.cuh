// One CUTLASS SM90 CollectiveBuilder GEMM under differential test against the model (issue 15).
// Included by each generated kernel file (gen_cutlass_kernels.py), which instantiates
// run_gemm_case for one configuration. Three comparisons, each counted, and negative controls:
//   host      CuTe's SmemLayoutA/B, the TiledMMA's (thread, value) layouts of A, B, C, the GMMA
//             descriptors and descriptor-iterator layouts, and the arguments CUTLASS passes to
//             cuTensorMapEncodeTiled for A and B, against the model's derivation from the
//             kernel's parameters (vendor_model.hpp);
//   placement CuTe device code with the kernel's own types and TMA descriptors, as the collective
//             writes it (tma_partition + copy into the swizzled SMEM stage, the TiledMMA's
//             partition of identity tensors), every SMEM slot and (thread, value) against the
//             model's composed SMEM layout and partitions;
//   result    the kernel's D for a problem with partial tiles in M, N and K, element for element,
//             against the exact product on the host with A and B addressed by the model's GMEM
//             layouts (small-integer data, exact in every type).
// Controls: the model given the next narrower swizzle for A (host and placement), the model given
// A's majorness the other way round (host and placement), the model given an atom of half the N
// (host), the kernel launched with a wrong A stride (result).
// RS kernels (A through registers): A has no descriptor; its register fragment (make_fragment_A)
// is compared with the model's instead.
#pragma once

#include <cute/tensor.hpp>
#include <cutlass/cutlass.h>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/kernel/gemm_universal.hpp>
#include <cutlass/util/packed_stride.hpp>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <unistd.h>

#include "atoms/tma.hpp"
#include "coordinates.hpp"
#include "cuda_check.hpp"
#include "evaluate.hpp"
#include "make_layout.hpp"
#include "tma_capture.hpp"
#include "vendor_case.hpp"
#include "vendor_model.hpp"

namespace cuteref_gpu::vendor {

template <class ElementA_, class ElementB_, class Acc_, class Out_, class LayoutA_, class LayoutB_, class Tile_, class Cluster_,
          class Schedule_, int Stages_>
struct GemmConfig {
  using ElementA = ElementA_;
  using ElementB = ElementB_;
  using Acc = Acc_;
  using Out = Out_;
  using Tile = Tile_;
  using Cluster = Cluster_;
  static constexpr int kAlignA = 16 / sizeof(ElementA);
  static constexpr int kAlignB = 16 / sizeof(ElementB);
  static constexpr int kAlignOut = 16 / sizeof(Out);
  using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Tile, Cluster, cutlass::epilogue::collective::EpilogueTileAuto, Acc, Acc,
      Out, cutlass::layout::ColumnMajor, kAlignOut, Out, cutlass::layout::ColumnMajor, kAlignOut,
      cutlass::epilogue::NoSmemWarpSpecialized>::CollectiveOp;
  // Stages_ 0: CUTLASS's own count (its RS builder accepts only StageCountAutoCarveout), the
  // epilogue's shared storage carved out.
  using Stages = cute::conditional_t<(Stages_ > 0), cutlass::gemm::collective::StageCount<(Stages_ > 0 ? Stages_ : 1)>,
                                     cutlass::gemm::collective::StageCountAutoCarveout<int(sizeof(typename Epilogue::SharedStorage))>>;
  using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementA, LayoutA_, kAlignA, ElementB, LayoutB_, kAlignB, Acc, Tile, Cluster,
      Stages, Schedule_>::CollectiveOp;
  using Kernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>, Mainloop, Epilogue>;
  using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
};

namespace detail {

// CuTe's host print() of a value (it writes with printf), as text.
template <class T>
std::string printed(T const& x) {
  std::fflush(stdout);
  FILE* tmp = std::tmpfile();
  const int saved = dup(1);
  dup2(fileno(tmp), 1);
  cute::print(x);
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::rewind(tmp);
  std::string s;
  for (int ch; (ch = std::fgetc(tmp)) != EOF;) s += static_cast<char>(ch);
  std::fclose(tmp);
  return s;
}

// Runs `f` with stdout sent to /dev/null (CuTe's host descriptor code prints a line about the
// shared-memory address it cannot take on the host).
template <class F>
void silenced(F&& f) {
  std::fflush(stdout);
  FILE* null = std::fopen("/dev/null", "w");
  const int saved = dup(1);
  if (null) dup2(fileno(null), 1);
  f();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  if (null) std::fclose(null);
}

// The problem's M: two whole tiles and a partial one. An M-major A's leading dimension is M, which
// TMA needs 16-byte aligned: 40 rows are 80 bytes of 16-bit elements, 48 rows for 8-bit ones.
inline int problem_m(const GemmSpec& s) { return 2 * s.bm + (s.bits == 8 && !s.a_k_major ? 48 : 40); }

// Small-integer operand values, exact in every element type and in the f32 / s32 accumulator.
inline int value_a(std::int64_t m, std::int64_t k) { return int((m * 7 + k * 3) % 9) - 4; }
inline int value_b(std::int64_t n, std::int64_t k) { return int((n * 5 + k * 11) % 7) - 3; }

// The raw bits of an element buffer entry (for ids), any width up to 32 bits.
template <class T>
std::uint32_t raw_bits(T const& v) {
  std::uint32_t r = 0;
  std::memcpy(&r, &v, sizeof(T));
  return r;
}
template <class T>
T from_bits(std::uint32_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

template <class T>
T* device_alloc(std::size_t n) {
  T* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
  return p;
}

// The placement probe: the collective's own TMA loads (every multicast slice issued by this CTA
// alone, to itself) of tile (m_blk, n_blk, k_blk) into stage 0 of the kernel's SMEM layouts, copied
// out as raw bytes; and each thread's TiledMMA partition of identity tensors of the C and A tiles.
template <class Cfg>
__global__ void placement_kernel(__grid_constant__ typename Cfg::Mainloop::Params const params, int M, int N, int K, int m_blk,
                                 int n_blk, int k_blk, std::uint8_t* out_a, std::uint8_t* out_b, int* coord_c, int* coord_a) {
  using namespace cute;
  using X = Underscore;
  using ML = typename Cfg::Mainloop;
  using TiledMma = typename ML::TiledMma;
  using TA = typename TiledMma::ValTypeA;
  using TB = typename TiledMma::ValTypeB;
  using SmemA = typename ML::SmemLayoutA;
  using SmemB = typename ML::SmemLayoutB;
  using Tile = typename Cfg::Tile;
  constexpr int kStageBytesA = int(cosize(SmemA{}(_, _, Int<0>{})) * sizeof(TA));
  constexpr int kStageBytesB = int(cosize(SmemB{}(_, _, Int<0>{})) * sizeof(TB));
  constexpr int kBytesA = int(cosize(SmemA{}) * sizeof(TA));
  constexpr int kBytesB = int(cosize(SmemB{}) * sizeof(TB));
  extern __shared__ char smem_raw[];
  char* base = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t(1023));
  TA* sa = reinterpret_cast<TA*>(base);
  TB* sb = reinterpret_cast<TB*>(base + ((kBytesA + 1023) / 1024) * 1024);
  std::uint64_t* bar = reinterpret_cast<std::uint64_t*>(base + ((kBytesA + 1023) / 1024) * 1024 + ((kBytesB + 1023) / 1024) * 1024);

  Tensor sA = make_tensor(make_smem_ptr(sa), SmemA{});  // (BLK_M,BLK_K,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(sb), SmemB{});  // (BLK_N,BLK_K,PIPE)
  if (threadIdx.x == 0) initialize_barrier(*bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    Tensor mA = params.tma_load_a.get_tma_tensor(make_shape(M, K, 1));
    Tensor mB = params.tma_load_b.get_tma_tensor(make_shape(N, K, 1));
    Tensor gA = local_tile(mA, Tile{}, make_coord(_, _, _), Step<_1, X, _1>{})(_, _, m_blk, _, 0);  // (BLK_M,BLK_K,k)
    Tensor gB = local_tile(mB, Tile{}, make_coord(_, _, _), Step<X, _1, _1>{})(_, _, n_blk, _, 0);  // (BLK_N,BLK_K,k)
    constexpr int kBoxBytes = int(size<0>(Tile{}) * size<2>(Tile{}) * sizeof(TA) + size<1>(Tile{}) * size<2>(Tile{}) * sizeof(TB));
    set_barrier_transaction_bytes(*bar, kBoxBytes);
    // The slices the CTAs of a cluster would multicast, all issued here to this CTA only.
    for (int y = 0; y < int(size<1>(typename Cfg::Cluster{})); ++y) {
      auto block_tma_a = params.tma_load_a.get_slice(y);
      copy(params.tma_load_a.with(*bar, std::uint16_t(1)), block_tma_a.partition_S(gA)(_, _, _, k_blk),
           block_tma_a.partition_D(sA)(_, _, _, 0));
    }
    for (int x = 0; x < int(size<0>(typename Cfg::Cluster{})); ++x) {
      auto block_tma_b = params.tma_load_b.get_slice(x);
      copy(params.tma_load_b.with(*bar, std::uint16_t(1)), block_tma_b.partition_S(gB)(_, _, _, k_blk),
           block_tma_b.partition_D(sB)(_, _, _, 0));
    }
  }
  wait_barrier(*bar, 0);
  for (int i = threadIdx.x; i < kStageBytesA; i += blockDim.x) out_a[i] = reinterpret_cast<std::uint8_t*>(sa)[i];
  for (int i = threadIdx.x; i < kStageBytesB; i += blockDim.x) out_b[i] = reinterpret_cast<std::uint8_t*>(sb)[i];

  TiledMma mma;
  auto thr = mma.get_slice(threadIdx.x);
  Tensor cC = make_identity_tensor(make_shape(size<0>(Tile{}), size<1>(Tile{})));
  Tensor tCcC = thr.partition_C(cC);
  for (int i = 0; i < int(size(tCcC)); ++i)
    coord_c[threadIdx.x * int(size(tCcC)) + i] = int(get<0>(tCcC(i)) + size<0>(Tile{}) * get<1>(tCcC(i)));
  Tensor cA = make_identity_tensor(make_shape(size<0>(Tile{}), size<2>(Tile{})));
  Tensor tCcA = thr.partition_A(cA);
  for (int i = 0; i < int(size(tCcA)); ++i)
    coord_a[threadIdx.x * int(size(tCcA)) + i] = int(get<0>(tCcA(i)) + size<0>(Tile{}) * get<1>(tCcA(i)));
}

}  // namespace detail

// A spec with stages 0 takes the kernel's own stage count (what CUTLASS's builder chose); the
// model derives the SMEM layouts from it as from a given count.
template <class Cfg>
KernelReport run_gemm_case(const GemmSpec& spec) {
  GemmSpec s = spec;
  if (s.stages == 0) s.stages = Cfg::Mainloop::DispatchPolicy::Stages;
  using namespace cute;
  using Gemm = typename Cfg::Gemm;
  using ML = typename Cfg::Mainloop;
  using TiledMma = typename ML::TiledMma;
  using EA = typename Cfg::ElementA;
  using EB = typename Cfg::ElementB;
  using Out = typename Cfg::Out;
  using TA = typename TiledMma::ValTypeA;
  using TB = typename TiledMma::ValTypeB;
  // An RS TiledMMA's A fragment holds values (registers), an SS one's GMMA descriptors.
  constexpr bool kRsA = cute::is_same_v<typename TiledMma::FrgTypeA, typename TiledMma::ValTypeA>;
  KernelReport r;
  if (kRsA != s.a_in_registers)
    r.add("host", "RS or SS", false, std::string("the table says A is ") + (s.a_in_registers ? "" : "not ") +
                                         "read through registers; CUTLASS's builder chose otherwise");
  const ModelGemm model = derive(s);
  const auto note = [&](const std::string& kind, const std::string& what, const std::string& diff) { r.add(kind, what, diff.empty(), diff); };
  const auto guarded = [&](const std::string& kind, const std::string& what, const std::function<std::string()>& f) {
    try {
      note(kind, what, f());
    } catch (const std::exception& e) {
      r.add(kind, what, false, std::string("error: ") + e.what());
    }
  };

  // ---- host: layouts, TiledMMA, descriptors -------------------------------------------------
  guarded("host", "SmemLayoutA", [&] { return differs(cuteref::Value(model.smem_a), detail::printed(typename ML::SmemLayoutA{}), true); });
  guarded("host", "SmemLayoutB", [&] { return differs(cuteref::Value(model.smem_b), detail::printed(typename ML::SmemLayoutB{}), true); });
  guarded("host", "TiledMMA A (thread,value)", [&] { return tv_differs(model, 'A', detail::printed(TiledMma{}.get_layoutA_TV())); });
  guarded("host", "TiledMMA B (thread,value)", [&] { return tv_differs(model, 'B', detail::printed(TiledMma{}.get_layoutB_TV())); });
  guarded("host", "TiledMMA C (thread,value)", [&] { return tv_differs(model, 'C', detail::printed(TiledMma{}.get_layoutC_TV())); });
  {
    // CuTe's descriptors over a host buffer aligned to 2^18 bytes (start address field 0).
    const std::size_t bytes = std::size_t(cosize(typename ML::SmemLayoutA{}) * sizeof(TA) + cosize(typename ML::SmemLayoutB{}) * sizeof(TB));
    void* buf = std::aligned_alloc(1 << 18, ((bytes + (1 << 18) - 1) >> 18) << 18);
    Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<TA*>(buf)), typename ML::SmemLayoutA{});
    Tensor sB = make_tensor(make_smem_ptr(reinterpret_cast<TB*>(buf)), typename ML::SmemLayoutB{});
    auto thr = TiledMma{}.get_slice(0);
    Tensor tCsA = thr.partition_A(sA);
    Tensor tCsB = thr.partition_B(sB);
    std::string text_a, text_b;
    std::uint64_t word_a = 0, word_b = 0;
    detail::silenced([&] {
      auto fa = thr.make_fragment_A(tCsA);
      auto fb = thr.make_fragment_B(tCsB);
      if constexpr (!kRsA) word_a = (*fa.data()).desc_;
      word_b = (*fb.data()).desc_;
      text_a = detail::printed(fa.layout());
      text_b = detail::printed(fb.layout());
    });
    const std::uint32_t start = std::uint32_t((reinterpret_cast<std::uintptr_t>(buf) >> 4) & 0x3FFF);
    if constexpr (!kRsA) guarded("host", "GMMA descriptor A", [&] { return descriptor_differs(word_a, start, model, 'A', s.bits); });
    guarded("host", "GMMA descriptor B", [&] { return descriptor_differs(word_b, start, model, 'B', s.bits); });
    guarded("host", kRsA ? "A register fragment" : "descriptor iterator A", [&] {
      const cuteref::ComposedLayout p = cuteref::partition_A(model.tiled, 0, model.smem_a);
      return differs(cuteref::Value(cuteref::make_fragment_A(model.tiled, p.layout)), text_a, false);
    });
    guarded("host", "descriptor iterator B", [&] {
      const cuteref::ComposedLayout p = cuteref::partition_B(model.tiled, 0, model.smem_b);
      return differs(cuteref::Value(cuteref::make_fragment_B(model.tiled, p.layout)), text_b, false);
    });
    std::free(buf);
  }

  // ---- host: the tensor maps CUTLASS encodes, against the model's tma_params --------------
  // CUTLASS's to_underlying_arguments (make_tma_copy_A/B_sm90) over stand-in addresses: the
  // arguments it passes to cuTensorMapEncodeTiled (tma_capture.hpp) need no GPU memory.
  // On a GPU the driver needs a context (and is given real allocations); without one
  // (CUTEREF_VENDOR_HOST_ONLY=1) the calls are only recorded, over stand-in addresses.
  const char* host_only_env = std::getenv("CUTEREF_VENDOR_HOST_ONLY");
  const bool host_only = host_only_env && std::string(host_only_env) == "1";
  {
    const int M = detail::problem_m(s), N = s.bn + 56, K = 3 * s.bk + 32;
    EA* fake_a = reinterpret_cast<EA*>(std::uintptr_t(1) << 32);
    EB* fake_b = reinterpret_cast<EB*>(std::uintptr_t(3) << 32);
    if (!host_only) {
      CUDA_CHECK(cudaMalloc(&fake_a, std::size_t(M) * K * sizeof(EA)));
      CUDA_CHECK(cudaMalloc(&fake_b, std::size_t(N) * K * sizeof(EB)));
    }
    using StrideA = typename Gemm::GemmKernel::StrideA;
    using StrideB = typename Gemm::GemmKernel::StrideB;
    typename ML::Arguments margs{fake_a, cutlass::make_cute_packed_stride(StrideA{}, cute::make_shape(M, K, 1)), fake_b,
                                 cutlass::make_cute_packed_stride(StrideB{}, cute::make_shape(N, K, 1))};
    captured_encodes().clear();
    detail::silenced([&] { (void)ML::to_underlying_arguments(make_shape(M, N, K, 1), margs, nullptr); });
    for (const bool is_a : {true, false}) {
      guarded("host", is_a ? "TMA tensor map A" : "TMA tensor map B", [&]() -> std::string {
        const CapturedEncode* c = nullptr;
        for (const CapturedEncode& e : captured_encodes())
          if (e.address == (is_a ? static_cast<const void*>(fake_a) : static_cast<const void*>(fake_b))) c = &e;
        if (!c) return "CUTLASS encoded no tensor map for the operand";
        const cuteref::Layout g = is_a ? gmem_layout(s.a_k_major, M, K, s.a_k_major ? K : M) : gmem_layout(s.b_k_major, N, K, s.b_k_major ? K : N);
        const cuteref::TmaParams p = cuteref::make_tma_params(g, cuteref::Value(stage_slice(is_a ? model.smem_a : model.smem_b, 0)), s.bits,
                                                              is_a ? s.cluster_n : s.cluster_m);
        return tma_differs(p, *c);
      });
    }
    if (!host_only) {
      cudaFree(fake_a);
      cudaFree(fake_b);
    }
  }

  // CUTEREF_VENDOR_HOST_ONLY=1 stops here: the host comparisons above need no GPU.
  if (host_only) return r;

  // ---- the problem: partial tiles in M, N and K -----------------------------------------
  const int M = detail::problem_m(s), N = s.bn + 56, K = 3 * s.bk + 32;
  const int pad = 16;  // room for the wrong-stride control
  const std::int64_t ld_a = s.a_k_major ? K : M, ld_b = s.b_k_major ? K : N;
  const cuteref::Layout ga = gmem_layout(s.a_k_major, M, K, ld_a), gb = gmem_layout(s.b_k_major, N, K, ld_b);
  const std::size_t size_a = std::size_t(ld_a + pad) * (s.a_k_major ? M : K), size_b = std::size_t(ld_b) * (s.b_k_major ? N : K);
  std::vector<std::int64_t> at_a(std::size_t(M) * K), at_b(std::size_t(N) * K);  // (m,k) -> element offset, by the model
  for (int k = 0; k < K; ++k) {
    for (int m = 0; m < M; ++m) at_a[std::size_t(m) + std::size_t(M) * k] = cuteref::apply_index(ga, m + std::int64_t(M) * k);
    for (int n = 0; n < N; ++n) at_b[std::size_t(n) + std::size_t(N) * k] = cuteref::apply_index(gb, n + std::int64_t(N) * k);
  }
  EA* d_a = detail::device_alloc<EA>(size_a);
  EB* d_b = detail::device_alloc<EB>(size_b);
  Out* d_d = detail::device_alloc<Out>(std::size_t(M) * N);
  std::vector<EA> h_a(size_a, EA(0));
  std::vector<EB> h_b(size_b, EB(0));

  using StrideA = typename Gemm::GemmKernel::StrideA;
  using StrideB = typename Gemm::GemmKernel::StrideB;
  using StrideD = typename Gemm::GemmKernel::StrideD;
  const auto arguments = [&](std::int64_t lda) {
    StrideA sa = cutlass::make_cute_packed_stride(StrideA{}, cute::make_shape(M, K, 1));
    if constexpr (cute::is_static<cute::remove_cvref_t<decltype(get<1>(sa))>>::value) get<0>(sa) = lda;  // K-major
    else get<1>(sa) = lda;
    StrideB sb = cutlass::make_cute_packed_stride(StrideB{}, cute::make_shape(N, K, 1));
    StrideD sd = cutlass::make_cute_packed_stride(StrideD{}, cute::make_shape(M, N, 1));
    typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                  {M, N, K, 1},
                                  {d_a, sa, d_b, sb},
                                  {{}, nullptr, sd, d_d, sd}};
    args.epilogue.thread.alpha = 1;
    args.epilogue.thread.beta = 0;
    return args;
  };

  std::size_t workspace_bytes = Gemm::get_workspace_size(arguments(ld_a));
  void* workspace = nullptr;
  if (workspace_bytes) CUDA_CHECK(cudaMalloc(&workspace, workspace_bytes));

  // ---- placement: SMEM slots and TiledMMA partitions on the device ------------------------
  using Params = typename ML::Params;
  const auto kernel_args = arguments(ld_a);
  const Params params = ML::to_underlying_arguments(make_shape(M, N, K, 1), kernel_args.mainloop, workspace);
  const int threads = int(size(TiledMma{}));
  const int stage_bytes_a = int(cosize(typename ML::SmemLayoutA{}(_, _, Int<0>{})) * sizeof(TA));
  const int stage_bytes_b = int(cosize(typename ML::SmemLayoutB{}(_, _, Int<0>{})) * sizeof(TB));
  const int all_a = int(cosize(typename ML::SmemLayoutA{}) * sizeof(TA)), all_b = int(cosize(typename ML::SmemLayoutB{}) * sizeof(TB));
  const int smem_bytes = 1024 + ((all_a + 1023) / 1024) * 1024 + ((all_b + 1023) / 1024) * 1024 + 64;
  CUDA_CHECK(cudaFuncSetAttribute(detail::placement_kernel<Cfg>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  std::uint8_t *d_sa = detail::device_alloc<std::uint8_t>(stage_bytes_a), *d_sb = detail::device_alloc<std::uint8_t>(stage_bytes_b);
  const int values_c = int(size(TiledMma{}.get_slice(0).partition_C(make_identity_tensor(make_shape(s.bm, s.bn)))));
  const int values_a = int(size(TiledMma{}.get_slice(0).partition_A(make_identity_tensor(make_shape(s.bm, s.bk)))));
  int* d_cc = detail::device_alloc<int>(std::size_t(threads) * values_c);
  int* d_ca = detail::device_alloc<int>(std::size_t(threads) * values_a);

  // Ids: a coordinate + 1 (0 marks the zero fill beyond the tensor), in chunks of the element
  // width. CUTLASS encodes f32 operands of a tf32 GEMM with the TMA data type TFLOAT32, which
  // keeps only the sign, exponent and top 10 mantissa bits: there a chunk of 8 bits rides in
  // mantissa bits 13..20 of 1.0f (exact in tf32).
  const int id_bits = 16;  // coordinates < 65535
  const bool tf32 = s.type == "tf32";
  const int chunk_bits = tf32 ? 8 : std::min(s.bits, id_bits);
  const int chunks = id_bits / chunk_bits;
  const std::uint32_t chunk_mask = (1u << chunk_bits) - 1;
  const auto encode_chunk = [&](std::uint32_t chunk) { return tf32 ? 0x3F800000u | (chunk << 13) : chunk; };
  const cuteref::ComposedLayout stage_a = stage_slice(model.smem_a, 0), stage_b = stage_slice(model.smem_b, 0);
  const int narrower = (static_cast<int>(cutlass_swizzle_choice(s.a_k_major, s.bm, s.bk, s.bits, s.a_in_registers)) + 3) % 4;
  const cuteref::ComposedLayout wrong_a = stage_slice(derive(s, Overrides{"", narrower}).smem_a, 0);
  const cuteref::ComposedLayout flipped_a = stage_slice(derive(s, Overrides{"", -1, true}).smem_a, 0);
  const int last_m = (M - 1) / s.bm, last_n = (N - 1) / s.bn, last_k = (K - 1) / s.bk;
  std::string slot_a, slot_b, slot_wrong, slot_flipped;  // first differences
  int tiles_checked = 0;
  bool coords_done = false;
  std::string coords_c, coords_a;
  try {
    for (const int which : {0, 1}) {  // the first tile and the last (partial in M, N and K)
      const int mb = which ? last_m : 0, nb = which ? last_n : 0, kb = which ? last_k : 0;
      for (int coord = 0; coord < 2; ++coord)  // 0: the row (m or n), 1: k
        for (int chunk = 0; chunk < chunks; ++chunk) {
          const auto id = [&](std::int64_t row, std::int64_t k) {
            return encode_chunk(std::uint32_t(((coord == 0 ? row : k) + 1) >> (chunk * chunk_bits)) & chunk_mask);
          };
          for (int k = 0; k < K; ++k) {
            for (int m = 0; m < M; ++m) h_a[std::size_t(at_a[std::size_t(m) + std::size_t(M) * k])] = detail::from_bits<EA>(id(m, k));
            for (int n = 0; n < N; ++n) h_b[std::size_t(at_b[std::size_t(n) + std::size_t(N) * k])] = detail::from_bits<EB>(id(n, k));
          }
          CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), size_a * sizeof(EA), cudaMemcpyHostToDevice));
          CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), size_b * sizeof(EB), cudaMemcpyHostToDevice));
          CUDA_CHECK(cudaMemset(d_sa, 0xA5, stage_bytes_a));
          CUDA_CHECK(cudaMemset(d_sb, 0xA5, stage_bytes_b));
          detail::placement_kernel<Cfg><<<1, threads, smem_bytes>>>(params, M, N, K, mb, nb, kb, d_sa, d_sb, d_cc, d_ca);
          CUDA_CHECK_LAUNCH();
          std::vector<std::uint8_t> sa_img(stage_bytes_a), sb_img(stage_bytes_b);
          CUDA_CHECK(cudaMemcpy(sa_img.data(), d_sa, stage_bytes_a, cudaMemcpyDeviceToHost));
          CUDA_CHECK(cudaMemcpy(sb_img.data(), d_sb, stage_bytes_b, cudaMemcpyDeviceToHost));
          // Every (row, k) of the tile: the SMEM slot the model's composed layout names holds its id.
          const auto check = [&](const std::vector<std::uint8_t>& img, const cuteref::ComposedLayout& layout, int rows, int tile_row,
                                 int limit, const char* what, std::string& first) {
            const int eb = s.bits / 8;
            for (int k = 0; k < s.bk && first.empty(); ++k)
              for (int row = 0; row < rows && first.empty(); ++row) {
                const std::int64_t slot = cuteref::apply_composed(layout, row + std::int64_t(rows) * k);
                if (slot < 0 || (slot + 1) * eb > std::int64_t(img.size())) {
                  first = std::string(what) + ": (" + std::to_string(row) + "," + std::to_string(k) + ") at model slot " +
                          std::to_string(slot) + ", outside the stage's " + std::to_string(img.size()) + " bytes";
                  break;
                }
                std::uint32_t got = 0;
                std::memcpy(&got, img.data() + slot * eb, eb);
                const std::int64_t grow = std::int64_t(tile_row) * rows + row, gk = std::int64_t(kb) * s.bk + k;
                const std::uint32_t want = grow < limit && gk < K ? id(grow, gk) : 0;
                if (got != want)
                  first = std::string(what) + " tile (" + std::to_string(tile_row) + "," + std::to_string(kb) + ") " +
                          (coord ? "k" : "row") + "-id pass " + std::to_string(chunk) + ": (" + std::to_string(row) + "," +
                          std::to_string(k) + ") at model slot " + std::to_string(slot) + " holds " + std::to_string(got) +
                          ", expected " + std::to_string(want);
              }
          };
          check(sa_img, stage_a, s.bm, mb, M, "A", slot_a);
          check(sb_img, stage_b, s.bn, nb, N, "B", slot_b);
          check(sa_img, wrong_a, s.bm, mb, M, "A (wrong swizzle)", slot_wrong);
          check(sa_img, flipped_a, s.bm, mb, M, "A (other majorness)", slot_flipped);
          ++tiles_checked;
          if (!coords_done) {
            coords_done = true;
            std::vector<int> cc(std::size_t(threads) * values_c), ca(std::size_t(threads) * values_a);
            CUDA_CHECK(cudaMemcpy(cc.data(), d_cc, cc.size() * sizeof(int), cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(ca.data(), d_ca, ca.size() * sizeof(int), cudaMemcpyDeviceToHost));
            const cuteref::Layout ref_c = cuteref::make_layout(cuteref::IntTuple::tuple({cuteref::IntTuple::static_int(s.bm),
                                                                                          cuteref::IntTuple::static_int(s.bn)}));
            const cuteref::Layout ref_a = cuteref::make_layout(cuteref::IntTuple::tuple({cuteref::IntTuple::static_int(s.bm),
                                                                                          cuteref::IntTuple::static_int(s.bk)}));
            for (int t = 0; t < threads && coords_c.empty(); ++t) {
              const cuteref::Partition p = cuteref::partition_C(model.tiled, t, ref_c);
              for (int v = 0; v < values_c && coords_c.empty(); ++v) {
                const std::int64_t want = p.offset + cuteref::apply_index(p.layout, v);
                if (cc[std::size_t(t) * values_c + v] != want)
                  coords_c = "(thread " + std::to_string(t) + ", value " + std::to_string(v) + "): CuTe (" +
                             std::to_string(cc[std::size_t(t) * values_c + v] % s.bm) + "," +
                             std::to_string(cc[std::size_t(t) * values_c + v] / s.bm) + "), model (" + std::to_string(want % s.bm) +
                             "," + std::to_string(want / s.bm) + ")";
              }
            }
            for (int t = 0; t < threads && coords_a.empty(); ++t) {
              const cuteref::Partition p = cuteref::partition_A(model.tiled, t, ref_a);
              for (int v = 0; v < values_a && coords_a.empty(); ++v) {
                const std::int64_t want = p.offset + cuteref::apply_index(p.layout, v);
                if (ca[std::size_t(t) * values_a + v] != want)
                  coords_a = "(thread " + std::to_string(t) + ", value " + std::to_string(v) + "): CuTe index " +
                             std::to_string(ca[std::size_t(t) * values_a + v]) + ", model " + std::to_string(want);
              }
            }
          }
        }
    }
    note("placement", "SMEM A slots (" + std::to_string(tiles_checked) + " loads)", slot_a);
    note("placement", "SMEM B slots (" + std::to_string(tiles_checked) + " loads)", slot_b);
    note("placement", "TiledMMA C partition of identity (" + std::to_string(threads) + " threads)", coords_c);
    note("placement", "TiledMMA A partition of identity (" + std::to_string(threads) + " threads)", coords_a);
    r.add("control", "placement: A slots predicted with the wrong swizzle", !slot_wrong.empty(),
          slot_wrong.empty() ? "not caught: every slot matched" : "caught: " + slot_wrong);
    r.add("control", std::string("placement: A slots predicted ") + (s.a_k_major ? "M" : "K") + "-major", !slot_flipped.empty(),
          slot_flipped.empty() ? "not caught: every slot matched" : "caught: " + slot_flipped);
  } catch (const std::exception& e) {
    r.add("placement", "placement probe", false, std::string("error: ") + e.what());
  }

  // ---- result: D against the exact host product -------------------------------------------
  const auto run_and_compare = [&](std::int64_t lda) -> std::string {
    for (int k = 0; k < K; ++k) {
      for (int m = 0; m < M; ++m) h_a[std::size_t(at_a[std::size_t(m) + std::size_t(M) * k])] = EA(float(detail::value_a(m, k)));
      for (int n = 0; n < N; ++n) h_b[std::size_t(at_b[std::size_t(n) + std::size_t(N) * k])] = EB(float(detail::value_b(n, k)));
    }
    CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), size_a * sizeof(EA), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), size_b * sizeof(EB), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_d, 0xFF, std::size_t(M) * N * sizeof(Out)));  // poison
    Gemm g;
    const auto args = arguments(lda);
    if (g.can_implement(args) != cutlass::Status::kSuccess) return "CUTLASS cannot implement the problem";
    if (g.initialize(args, workspace) != cutlass::Status::kSuccess) return "CUTLASS initialize failed";
    if (g.run() != cutlass::Status::kSuccess) return "CUTLASS run failed";
    CUDA_CHECK_LAUNCH();
    std::vector<Out> h_d(std::size_t(M) * N);
    CUDA_CHECK(cudaMemcpy(h_d.data(), d_d, h_d.size() * sizeof(Out), cudaMemcpyDeviceToHost));
    for (int n = 0; n < N; ++n)
      for (int m = 0; m < M; ++m) {
        long long want = 0;
        for (int k = 0; k < K; ++k) want += (long long)detail::value_a(m, k) * detail::value_b(n, k);
        const double got = double(h_d[std::size_t(m) + std::size_t(M) * n]);
        if (got != double(want))
          return "D(" + std::to_string(m) + "," + std::to_string(n) + ") = " + std::to_string(got) + ", exact product " +
                 std::to_string(want) + " (M,N,K = " + std::to_string(M) + "," + std::to_string(N) + "," + std::to_string(K) + ")";
      }
    return "";
  };
  guarded("result", "D = A B, " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K), [&] { return run_and_compare(ld_a); });
  try {
    const std::string wrong = run_and_compare(ld_a + pad);
    r.add("control", "result: kernel launched with A's leading dimension off by " + std::to_string(pad), !wrong.empty(),
          wrong.empty() ? "not caught: D matched the product" : "caught: " + wrong);
  } catch (const std::exception& e) {
    r.add("control", "result: wrong A stride", false, std::string("error: ") + e.what());
  }

  // ---- host controls ---------------------------------------------------------------------
  try {
    const std::string d = differs(cuteref::Value(derive(s, Overrides{"", narrower}).smem_a), detail::printed(typename ML::SmemLayoutA{}), false);
    r.add("control", "host: SmemLayoutA with the swizzle " + cuteref::to_string(static_cast<cuteref::GmmaSwizzle>(narrower)), !d.empty(),
          d.empty() ? "not caught" : "caught: " + d);
  } catch (const std::exception& e) {
    r.add("control", "host: wrong swizzle", false, std::string("error: ") + e.what());
  }
  try {
    const std::string d = differs(cuteref::Value(derive(s, Overrides{"", -1, true}).smem_a), detail::printed(typename ML::SmemLayoutA{}), false);
    r.add("control", std::string("host: SmemLayoutA ") + (s.a_k_major ? "M" : "K") + "-major", !d.empty(),
          d.empty() ? "not caught" : "caught: " + d);
  } catch (const std::exception& e) {
    r.add("control", "host: other majorness", false, std::string("error: ") + e.what());
  }
  try {
    std::string half = s.atom;
    const auto x = half.find('x'), y = half.find('x', x + 1);
    half = half.substr(0, x + 1) + std::to_string(std::stoi(half.substr(x + 1, y - x - 1)) / 2) + half.substr(y);
    const std::string d = tv_differs(derive(s, Overrides{half, -1}), 'C', detail::printed(TiledMma{}.get_layoutC_TV()));
    r.add("control", "host: TiledMMA C with the atom " + half, !d.empty(), d.empty() ? "not caught" : "caught: " + d);
  } catch (const std::exception& e) {
    r.add("control", "host: wrong atom", false, std::string("error: ") + e.what());
  }

  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_d);
  cudaFree(d_sa);
  cudaFree(d_sb);
  cudaFree(d_cc);
  cudaFree(d_ca);
  if (workspace) cudaFree(workspace);
  return r;
}

}  // namespace cuteref_gpu::vendor
