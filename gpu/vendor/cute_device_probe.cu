#include "cute_device_probe.hpp"

#include <cute/tensor.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/arch/copy_sm75.hpp>
#include <cute/arch/copy_sm90.hpp>

#include <cstring>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "atoms/mma_atom.hpp"
#include "atoms/tiled_mma.hpp"
#include "atoms/tma.hpp"
#include "coordinates.hpp"
#include "cuda_check.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "isolated_runner.hpp"
#include "make_layout.hpp"
#include "notation.hpp"
#include "tma_capture.hpp"
#include "vendor_model.hpp"

namespace cuteref_gpu {

namespace {

using namespace cute;

cuteref::Value model_eval(const std::string& text) { return cuteref::parse_and_evaluate(text, &cuteref::standard_functions()); }

cuteref::ComposedLayout model_composed(const std::string& text) {
  const cuteref::Value v = model_eval(text);
  if (!v.is_composed()) throw std::runtime_error(text + " is not a composed layout");
  return std::get<cuteref::ComposedLayout>(v.data);
}

cuteref::Layout col_major(std::int64_t x, std::int64_t y) {
  return cuteref::make_layout(cuteref::IntTuple::tuple({cuteref::IntTuple::static_int(x), cuteref::IntTuple::static_int(y)}));
}

// The first (thread, value) where the device's coordinate index differs from the model's
// partition of the column-major (x, y) tile; "" when all agree.
std::string partition_differs(const std::vector<int>& got, int threads, int values, const cuteref::TiledMma& tiled, char op,
                              std::int64_t x, std::int64_t y) {
  const cuteref::Layout ref = col_major(x, y);
  for (int t = 0; t < threads; ++t) {
    const cuteref::Partition p = op == 'A' ? cuteref::partition_A(tiled, t, ref) : cuteref::partition_C(tiled, t, ref);
    if (cuteref::size_value(p.layout) != values)
      return "thread " + std::to_string(t) + ": CuTe has " + std::to_string(values) + " values, the model " +
             std::to_string(cuteref::size_value(p.layout));
    for (int v = 0; v < values; ++v) {
      const std::int64_t want = p.offset + cuteref::apply_index(p.layout, v);
      const int g = got[std::size_t(t) * values + v];
      if (g != want)
        return "(thread " + std::to_string(t) + ", value " + std::to_string(v) + "): CuTe (" + std::to_string(g % x) + "," +
               std::to_string(g / x) + "), model (" + std::to_string(want % x) + "," + std::to_string(want / x) + ")";
    }
  }
  return "";
}

// The first slot of a 16-bit SMEM image where the id the model's composed layout names is not
// there: slot layout(x + X*y) must hold `id(x, y)`.
std::string slots_differ(const std::vector<std::uint16_t>& img, const cuteref::ComposedLayout& layout, int x_extent, int y_extent,
                         const std::function<std::uint16_t(int, int)>& id) {
  for (int y = 0; y < y_extent; ++y)
    for (int x = 0; x < x_extent; ++x) {
      const std::int64_t slot = cuteref::apply_composed(layout, x + std::int64_t(x_extent) * y);
      if (slot < 0 || slot >= std::int64_t(img.size())) return "(" + std::to_string(x) + "," + std::to_string(y) + ") maps outside the tile";
      if (img[std::size_t(slot)] != id(x, y))
        return "(" + std::to_string(x) + "," + std::to_string(y) + ") at model slot " + std::to_string(slot) + ": SMEM holds " +
               std::to_string(img[std::size_t(slot)]) + ", expected " + std::to_string(id(x, y));
    }
  return "";
}

struct Result {
  std::vector<std::pair<std::string, std::string>> checks;    // (what, first difference)
  std::vector<std::pair<std::string, std::string>> controls;  // (what, first difference: must be non-empty)
};

// ---- 1. make_tma_copy + tma_partition + copy, TiledMMA partition + gemm (one SS wgmma tile) ----

template <class T, class SmemA, class SmemB, class MmaOp, int BM, int BN, int BK, class TmaA, class TmaB>
__global__ void ss_gemm_kernel(__grid_constant__ TmaA const tma_a, __grid_constant__ TmaB const tma_b, float* c, int* coords,
                               std::uint16_t* smem_a_out) {
  extern __shared__ char smem_raw[];
  char* base = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t(1023));
  T* sa = reinterpret_cast<T*>(base);
  T* sb = reinterpret_cast<T*>(base + BM * BK * sizeof(T));
  std::uint64_t* bar = reinterpret_cast<std::uint64_t*>(base + (BM + BN) * BK * sizeof(T));
  Tensor sA = make_tensor(make_smem_ptr(sa), SmemA{});
  Tensor sB = make_tensor(make_smem_ptr(sb), SmemB{});
  if (threadIdx.x == 0) initialize_barrier(*bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    Tensor mA = tma_a.get_tma_tensor(make_shape(Int<BM>{}, Int<BK>{}));
    Tensor mB = tma_b.get_tma_tensor(make_shape(Int<BN>{}, Int<BK>{}));
    auto [tAgA, tAsA] = tma_partition(tma_a, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sA), group_modes<0, 2>(mA));
    auto [tBgB, tBsB] = tma_partition(tma_b, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sB), group_modes<0, 2>(mB));
    set_barrier_transaction_bytes(*bar, (BM + BN) * BK * sizeof(T));
    copy(tma_a.with(*bar), tAgA, tAsA);
    copy(tma_b.with(*bar), tBgB, tBsB);
  }
  wait_barrier(*bar, 0);
  for (int i = threadIdx.x; i < BM * BK; i += blockDim.x) smem_a_out[i] = reinterpret_cast<std::uint16_t*>(sa)[i];

  TiledMMA mma = make_tiled_mma(MmaOp{});
  auto thr = mma.get_slice(threadIdx.x);
  Tensor gC = make_tensor(make_gmem_ptr(c), make_layout(make_shape(Int<BM>{}, Int<BN>{})));
  Tensor tCsA = thr.partition_A(sA);
  Tensor tCsB = thr.partition_B(sB);
  Tensor tCrA = thr.make_fragment_A(tCsA);
  Tensor tCrB = thr.make_fragment_B(tCsB);
  Tensor tCgC = thr.partition_C(gC);
  Tensor tCrC = thr.make_fragment_C(tCgC);
  clear(tCrC);
  warpgroup_fence_operand(tCrC);
  warpgroup_arrive();
  gemm(mma, tCrA, tCrB, tCrC);
  warpgroup_commit_batch();
  warpgroup_wait<0>();
  warpgroup_fence_operand(tCrC);
  copy(tCrC, tCgC);
  Tensor tCcC = thr.partition_C(make_identity_tensor(make_shape(Int<BM>{}, Int<BN>{})));
  for (int i = 0; i < int(size(tCcC)); ++i) coords[threadIdx.x * int(size(tCcC)) + i] = int(get<0>(tCcC(i)) + BM * get<1>(tCcC(i)));
}

template <class T, GMMA::Major MA, GMMA::Major MB, class AtomA, class AtomB, class MmaOp, int BM, int BN, int BK>
Result ss_gemm_case(const std::string& model_atom_a, const std::string& model_atom_b, const std::string& model_mma, int bits) {
  Result r;
  using SmemA = decltype(tile_to_shape(AtomA{}, make_shape(Int<BM>{}, Int<BK>{})));
  using SmemB = decltype(tile_to_shape(AtomB{}, make_shape(Int<BN>{}, Int<BK>{})));
  // GMEM: A (BM,BK) and B (BN,BK), contiguous along the operand's major mode.
  constexpr bool a_k = MA == GMMA::Major::K, b_k = MB == GMMA::Major::K;
  const auto layout_of = [](auto mn, auto k, auto k_major) {
    if constexpr (decltype(k_major)::value) return make_layout(make_shape(mn, k), make_stride(int(k), Int<1>{}));
    else return make_layout(make_shape(mn, k), make_stride(Int<1>{}, int(mn)));
  };
  std::vector<T> h_a(BM * BK), h_b(BN * BK);
  const auto ga = layout_of(Int<BM>{}, Int<BK>{}, cute::bool_constant<a_k>{});
  const auto gb = layout_of(Int<BN>{}, Int<BK>{}, cute::bool_constant<b_k>{});
  for (int k = 0; k < BK; ++k) {
    for (int m = 0; m < BM; ++m) h_a[ga(m, k)] = T(float((m * 7 + k * 3) % 9 - 4));
    for (int n = 0; n < BN; ++n) h_b[gb(n, k)] = T(float((n * 5 + k * 11) % 7 - 3));
  }
  T *d_a = nullptr, *d_b = nullptr;
  float* d_c = nullptr;
  int* d_coords = nullptr;
  std::uint16_t* d_sa = nullptr;
  CUDA_CHECK(cudaMalloc(&d_a, h_a.size() * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&d_b, h_b.size() * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&d_c, BM * BN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_coords, 128 * (BM * BN / 128) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_sa, BM * BK * sizeof(std::uint16_t)));
  CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), h_a.size() * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), h_b.size() * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_c, 0xFF, BM * BN * sizeof(float)));

  vendor::captured_encodes().clear();
  auto tma_a = make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr(d_a), ga), SmemA{});
  auto tma_b = make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr(d_b), gb), SmemB{});
  // make_tma_copy's tensor maps against the model's tma_params of the same GMEM and SMEM layouts.
  const auto model_gmem = [](int mn, int k, bool k_major) {
    return k_major ? cuteref::parse_layout("(" + std::to_string(mn) + "," + std::to_string(k) + "):(" + std::to_string(k) + ",_1)")
                   : cuteref::parse_layout("(" + std::to_string(mn) + "," + std::to_string(k) + "):(_1," + std::to_string(mn) + ")");
  };
  const std::string smem_a_expr = "tile_to_shape(" + model_atom_a + ", (" + std::to_string(BM) + "," + std::to_string(BK) + "))";
  const std::string smem_b_expr = "tile_to_shape(" + model_atom_b + ", (" + std::to_string(BN) + "," + std::to_string(BK) + "))";
  const cuteref::ComposedLayout model_sa = model_composed(smem_a_expr), model_sb = model_composed(smem_b_expr);
  for (int i = 0; i < 2; ++i) {
    std::string d;
    try {
      const auto& calls = vendor::captured_encodes();
      if (calls.size() < 2) throw std::runtime_error("make_tma_copy made " + std::to_string(calls.size()) + " driver calls, expected 2");
      const cuteref::TmaParams p = cuteref::make_tma_params(i == 0 ? model_gmem(BM, BK, a_k) : model_gmem(BN, BK, b_k),
                                                            cuteref::Value(i == 0 ? model_sa : model_sb), bits);
      d = vendor::tma_differs(p, calls[std::size_t(i)]);
    } catch (const std::exception& e) {
      d = std::string("error: ") + e.what();
    }
    r.checks.push_back({std::string("make_tma_copy tensor map ") + (i == 0 ? "A" : "B"), d});
  }

  auto kernel = ss_gemm_kernel<T, SmemA, SmemB, MmaOp, BM, BN, BK, decltype(tma_a), decltype(tma_b)>;
  const int smem = 1024 + (BM + BN) * BK * int(sizeof(T)) + 64;
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  std::vector<float> h_c(BM * BN);
  std::vector<int> coords(128 * (BM * BN / 128));
  std::vector<std::uint16_t> img(BM * BK);
  // Pass 1: A holds unique ids (raw bits m + BM k + 1) for the SMEM image; pass 2: small integers
  // for the product.
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<T> data = h_a;
    if (pass == 0)
      for (int k = 0; k < BK; ++k)
        for (int m = 0; m < BM; ++m) {
          const std::uint16_t bits16 = std::uint16_t(m + BM * k + 1);
          std::memcpy(&data[ga(m, k)], &bits16, 2);
        }
    CUDA_CHECK(cudaMemcpy(d_a, data.data(), data.size() * sizeof(T), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_c, 0xFF, BM * BN * sizeof(float)));
    kernel<<<1, 128, smem>>>(tma_a, tma_b, d_c, d_coords, d_sa);
    CUDA_CHECK_LAUNCH();
    if (pass == 0) {
      CUDA_CHECK(cudaMemcpy(img.data(), d_sa, img.size() * sizeof(std::uint16_t), cudaMemcpyDeviceToHost));
    } else {
      CUDA_CHECK(cudaMemcpy(h_c.data(), d_c, h_c.size() * sizeof(float), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(coords.data(), d_coords, coords.size() * sizeof(int), cudaMemcpyDeviceToHost));
    }
  }

  // SMEM A: the slot the model's composed layout names holds the id of A(m, k).
  const auto id = [&](int m, int k) { return std::uint16_t(m + BM * k + 1); };
  r.checks.push_back({"SMEM A after tma_partition + copy (" + model_sa.to_string() + ")", slots_differ(img, model_sa, BM, BK, id)});
  const cuteref::ComposedLayout plain{cuteref::Swizzle(0, 4, 3), model_sa.offset, model_sa.layout};
  r.controls.push_back({"SMEM A predicted without its swizzle", slots_differ(img, plain, BM, BK, id)});
  const cuteref::TiledMma tiled = cuteref::make_tiled_mma(cuteref::mma_atom(model_mma), cuteref::parse_layout("(_1,_1,_1):(_0,_0,_0)"));
  const int values = BM * BN / 128;
  r.checks.push_back({"partition_C of an identity tensor (128 threads)", partition_differs(coords, 128, values, tiled, 'C', BM, BN)});
  std::string cdiff;
  for (int n = 0; n < BN && cdiff.empty(); ++n)
    for (int m = 0; m < BM && cdiff.empty(); ++m) {
      long long want = 0;
      for (int k = 0; k < BK; ++k) want += (long long)((m * 7 + k * 3) % 9 - 4) * ((n * 5 + k * 11) % 7 - 3);
      if (h_c[m + BM * n] != float(want))
        cdiff = "C(" + std::to_string(m) + "," + std::to_string(n) + ") = " + std::to_string(h_c[m + BM * n]) + ", exact " + std::to_string(want);
    }
  r.checks.push_back({"gemm: C = A B (" + std::to_string(BM) + "x" + std::to_string(BN) + "x" + std::to_string(BK) + ")", cdiff});
  // Control: the coordinates predicted for a row-major C tile (a kernel that writes C transposed).
  {
    std::string d;
    const cuteref::Layout row_major = cuteref::make_layout_right(cuteref::IntTuple::tuple({cuteref::IntTuple::static_int(BM),
                                                                                            cuteref::IntTuple::static_int(BN)}));
    for (int t = 0; t < 128 && d.empty(); ++t) {
      const cuteref::Partition p = cuteref::partition_C(tiled, t, row_major);
      for (int v = 0; v < values && d.empty(); ++v) {
        const std::int64_t rm = p.offset + cuteref::apply_index(p.layout, v);  // m * BN + n
        if (coords[std::size_t(t) * values + v] != rm)
          d = "(thread " + std::to_string(t) + ", value " + std::to_string(v) + "): CuTe index " +
              std::to_string(coords[std::size_t(t) * values + v]) + ", row-major prediction " + std::to_string(rm);
      }
    }
    r.controls.push_back({"partition_C predicted for a row-major C tile", d});
  }
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
  cudaFree(d_coords);
  cudaFree(d_sa);
  return r;
}

// ---- 2. ldmatrix and stmatrix TiledCopies over swizzled SMEM ----------------------------------

// SMEM for the SM80 16x8x16 MMA tiled 2x2: K-major (64 x 64) half_t rows under Swizzle<3,3,3>
// (CUTLASS's SM80 idiom), filled by CuTe (sA(m,k) = id) and read by ldmatrix into A fragments;
// then C fragments holding their coordinates stored by stmatrix into an (64 x 64) swizzled tile.
using SmemAtom80 = decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}));
using Smem80 = decltype(tile_to_shape(SmemAtom80{}, Shape<_64, _64>{}));

__global__ void ldst_matrix_kernel(std::uint16_t* regs_a, std::uint16_t* smem_a_out, std::uint16_t* smem_c_out) {
  __shared__ alignas(1024) cutlass::half_t sa[64 * 64];
  __shared__ alignas(1024) cutlass::half_t sc[64 * 64];
  Tensor sA = make_tensor(make_smem_ptr(sa), Smem80{});
  Tensor sC = make_tensor(make_smem_ptr(sc), Smem80{});
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) {
    sA(i % 64, i / 64) = cutlass::half_t::bitcast(std::uint16_t(i));  // id of (m, k) = m + 64 k
    reinterpret_cast<std::uint16_t*>(sc)[i] = 0xFFFF;
  }
  __syncthreads();
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2, _1>>{});
  auto thr = mma.get_slice(threadIdx.x);
  Tensor tCrA = thr.partition_fragment_A(sA);
  auto s2r = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, cutlass::half_t>{}, mma);
  auto s2r_thr = s2r.get_slice(threadIdx.x);
  copy(s2r, s2r_thr.partition_S(sA), s2r_thr.retile_D(tCrA));
  for (int i = 0; i < int(size(tCrA)); ++i) regs_a[threadIdx.x * int(size(tCrA)) + i] = tCrA(i).raw();

  Tensor tCrC = thr.partition_fragment_C(sC);
  Tensor tCcC = thr.partition_C(make_identity_tensor(make_shape(_64{}, _64{})));
  for (int i = 0; i < int(size(tCrC)); ++i) tCrC(i) = cutlass::half_t::bitcast(std::uint16_t(get<0>(tCcC(i)) + 64 * get<1>(tCcC(i))));
  auto r2s = make_tiled_copy_C(Copy_Atom<SM90_U32x2_STSM_N, cutlass::half_t>{}, mma);
  auto r2s_thr = r2s.get_slice(threadIdx.x);
  copy(r2s, r2s_thr.retile_S(tCrC), r2s_thr.partition_D(sC));
  __syncthreads();
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) {
    smem_a_out[i] = reinterpret_cast<std::uint16_t*>(sa)[i];
    smem_c_out[i] = reinterpret_cast<std::uint16_t*>(sc)[i];
  }
}

Result ldst_matrix_case() {
  Result r;
  const int threads = 128;
  const int values = int(size(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2, _1>>{})
                                  .get_slice(0)
                                  .partition_fragment_A(make_tensor(make_gmem_ptr((cutlass::half_t*)nullptr), Smem80{}))));
  std::uint16_t *d_regs = nullptr, *d_sa = nullptr, *d_sc = nullptr;
  CUDA_CHECK(cudaMalloc(&d_regs, threads * values * sizeof(std::uint16_t)));
  CUDA_CHECK(cudaMalloc(&d_sa, 64 * 64 * sizeof(std::uint16_t)));
  CUDA_CHECK(cudaMalloc(&d_sc, 64 * 64 * sizeof(std::uint16_t)));
  ldst_matrix_kernel<<<1, threads>>>(d_regs, d_sa, d_sc);
  CUDA_CHECK_LAUNCH();
  std::vector<std::uint16_t> regs(threads * values), img_a(64 * 64), img_c(64 * 64);
  CUDA_CHECK(cudaMemcpy(regs.data(), d_regs, regs.size() * 2, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(img_a.data(), d_sa, img_a.size() * 2, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(img_c.data(), d_sc, img_c.size() * 2, cudaMemcpyDeviceToHost));
  cudaFree(d_regs);
  cudaFree(d_sa);
  cudaFree(d_sc);

  // The model's SMEM layout: the same tiling of the same swizzled atom, on element offsets.
  const cuteref::ComposedLayout model_s = model_composed("tile_to_shape(Sw<3,3,3> o _0 o (_8,_64):(_64,_1), (_64,_64))");
  const auto id = [](int x, int y) { return std::uint16_t(x + 64 * y); };
  r.checks.push_back({"SMEM A written by CuTe through " + model_s.to_string(), slots_differ(img_a, model_s, 64, 64, id)});
  const cuteref::TiledMma tiled = cuteref::make_tiled_mma(cuteref::mma_atom("SM80_16x8x16_F16F16F16F16_TN"), cuteref::parse_layout("(_2,_2,_1):(_1,_2,_0)"));
  std::vector<int> got(regs.begin(), regs.end());
  r.checks.push_back({"ldmatrix TiledCopy (SM75_U32x4_LDSM_N) into A fragments, every (thread, register)",
                      partition_differs(got, threads, values, tiled, 'A', 64, 64)});
  r.checks.push_back({"stmatrix TiledCopy (SM90_U32x2_STSM_N) of C fragments, every SMEM slot", slots_differ(img_c, model_s, 64, 64, id)});
  // Controls: the A fragments predicted with the warps in N-major order; the stmatrix image
  // predicted with the swizzle's shift changed.
  const cuteref::TiledMma wrong = cuteref::make_tiled_mma(cuteref::mma_atom("SM80_16x8x16_F16F16F16F16_TN"), cuteref::parse_layout("(_2,_2,_1):(_2,_1,_0)"));
  r.controls.push_back({"ldmatrix registers predicted with N-major warps", partition_differs(got, threads, values, wrong, 'A', 64, 64)});
  const cuteref::ComposedLayout other = model_composed("tile_to_shape(Sw<3,3,4> o _0 o (_8,_64):(_64,_1), (_64,_64))");
  r.controls.push_back({"stmatrix image predicted with Sw<3,3,4>", slots_differ(img_c, other, 64, 64, id)});
  return r;
}

std::string encode(const Result& r) {
  std::string s;
  for (const auto& [what, d] : r.checks) s += std::string(s.empty() ? "" : "\x1e") + "c\x1f" + what + "\x1f" + d;
  for (const auto& [what, d] : r.controls) s += std::string(s.empty() ? "" : "\x1e") + "n\x1f" + what + "\x1f" + d;
  for (char& ch : s)
    if (ch == '\n') ch = ' ';
  return s;
}

struct DeviceCase {
  const char* name;
  Result (*run)();
};

const DeviceCase kCases[] = {
    {"SS gemm f16 K/K SW128 64x64x64",
     [] {
       return ss_gemm_case<cutlass::half_t, GMMA::Major::K, GMMA::Major::K, GMMA::Layout_K_SW128_Atom<cutlass::half_t>,
                           GMMA::Layout_K_SW128_Atom<cutlass::half_t>, SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>, 64, 64,
                           64>("gmma_atom(K, SW128, 16)", "gmma_atom(K, SW128, 16)", "SM90_64x64x16_F32F16F16_SS<K,K>", 16);
     }},
    {"SS gemm f16 MN/MN SW64/SW32 64x64x64",
     [] {
       return ss_gemm_case<cutlass::half_t, GMMA::Major::MN, GMMA::Major::MN, GMMA::Layout_MN_SW64_Atom<cutlass::half_t>,
                           GMMA::Layout_MN_SW32_Atom<cutlass::half_t>, SM90_64x64x16_F32F16F16_SS<GMMA::Major::MN, GMMA::Major::MN>, 64,
                           64, 64>("gmma_atom(MN, SW64, 16)", "gmma_atom(MN, SW32, 16)", "SM90_64x64x16_F32F16F16_SS<MN,MN>", 16);
     }},
    {"SS gemm bf16 K/MN SW64/SW128 64x128x32",
     [] {
       return ss_gemm_case<cutlass::bfloat16_t, GMMA::Major::K, GMMA::Major::MN, GMMA::Layout_K_SW64_Atom<cutlass::bfloat16_t>,
                           GMMA::Layout_MN_SW128_Atom<cutlass::bfloat16_t>,
                           SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K, GMMA::Major::MN>, 64, 128, 32>(
           "gmma_atom(K, SW64, 16)", "gmma_atom(MN, SW128, 16)", "SM90_64x128x16_F32BF16BF16_SS<K,MN>", 16);
     }},
    {"ldmatrix / stmatrix TiledCopy, SM80 16x8x16 x 2x2, Swizzle<3,3,3> SMEM", ldst_matrix_case},
};

}  // namespace

ProbeTally run_cute_device_probe(std::ostream& out) {
  ProbeTally tally;
  const std::size_t n = sizeof(kCases) / sizeof(kCases[0]);
  const std::vector<CaseOutcome> results = run_isolated(n, [&](std::size_t i) {
    return CaseOutcome{true, true, false, "\x1d" + encode(kCases[i].run())};
  });
  int checks = 0, checks_ok = 0, controls = 0, caught = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const CaseOutcome& o = results[i];
    if (o.message.empty() || o.message[0] != '\x1d') {
      ++tally.failed;
      out << "FAIL cute device " << kCases[i].name << ": " << (o.message.empty() ? "no result" : o.message) << "\n";
      continue;
    }
    const std::string s = o.message.substr(1);
    int case_checks = 0, case_ok = 0, case_controls = 0, case_caught = 0;
    for (std::size_t start = 0; start <= s.size();) {
      const std::size_t end = std::min(s.find('\x1e', start), s.size());
      const std::string item = s.substr(start, end - start);
      start = end + 1;
      const auto a = item.find('\x1f'), b = item.find('\x1f', a + 1);
      if (a == std::string::npos || b == std::string::npos) continue;
      const bool control = item.substr(0, a) == "n";
      const std::string what = item.substr(a + 1, b - a - 1), d = item.substr(b + 1);
      if (control) {
        ++case_controls;
        if (!d.empty()) ++case_caught;
        out << (d.empty() ? "FAIL negative control not caught: " : "negative control caught: ") << kCases[i].name << ": " << what
            << (d.empty() ? "" : ": " + d) << "\n";
        (d.empty() ? tally.failed : tally.passed) += 1;
      } else {
        ++case_checks;
        if (d.empty()) ++case_ok;
        else out << "FAIL cute device " << kCases[i].name << ": " << what << ": " << d << "\n";
        (d.empty() ? tally.passed : tally.failed) += 1;
      }
    }
    if (case_checks == 0) {
      ++tally.failed;
      out << "FAIL cute device " << kCases[i].name << ": no check ran\n";
    }
    out << "cute device " << kCases[i].name << ": " << case_ok << "/" << case_checks << " checks, controls " << case_caught << "/"
        << case_controls << " caught\n";
    checks += case_checks;
    checks_ok += case_ok;
    controls += case_controls;
    caught += case_caught;
  }
  out << "cute device code: " << checks_ok << "/" << checks << " checks, " << caught << "/" << controls << " controls caught\n";
  return tally;
}

}  // namespace cuteref_gpu
