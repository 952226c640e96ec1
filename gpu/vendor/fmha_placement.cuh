// The placement of Q, K and V in CUTLASS's Hopper FMHA (example 88) against the model: a kernel
// that runs the mainloop's own load code (load_kv_maybe_q with the collective's Params, its TMA
// copies, its pipelines and its SharedStorage) for one CTA's tile, waits on the pipelines' full
// barriers as the MMA warp groups do, and copies the SMEM tensors out raw. The inputs are element
// ids (element_ids.hpp), so the host reads, for every (row, column, stage) the kernel loaded, the
// slot the model's SMEM layout (swizzle included) names and compares it with the id of the GMEM
// element that belongs there.
// Controls: the same read-back against the model's layouts with the swizzle one narrower and with
// the other majorness, for Q, K and V; each must differ, reported with the first differing slot.
#pragma once

#include <cuda_runtime.h>

#include "element_ids.hpp"
#include "fmha_case.cuh"

namespace cuteref_gpu::vendor {

namespace detail {

// The kernel's load-warp barrier, which load_kv_maybe_q<true> (Q loaded by the same warp) leaves unused.
struct UnusedLoadWarpBarrier {
  __device__ void arrive() {}
  __device__ void wait(int) {}
};

// Waits for `state`'s full barrier for at most about a second of %globaltimer, so that a load that
// never completes is reported instead of hanging the probe; true when the stage's bytes arrived.
template <class Pipeline, class State>
__device__ bool wait_bounded(Pipeline& pipeline, State state) {
  const auto now = [] {
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
  };
  const std::uint64_t start = now();
  while (pipeline.consumer_try_wait(state) != cutlass::BarrierStatus::WaitDone)
    if (now() - start > 1000000000ull) return false;
  return true;
}

template <class ML>
struct FmhaPlacementStorage {
  typename ML::SharedStorage tensors;  // Q, and K / V in one union, as the kernel's TensorStorage
  alignas(16) typename ML::MainloopPipeline::SharedStorage pipeline;
  alignas(16) typename ML::MainloopPipelineQ::SharedStorage pipeline_q;
};

// One CTA of 128 threads (one warp group): warp 0 runs the mainloop's loads of CTA tile `blk`
// (query block, (batch, head)): the Q tiles of both MMA warp groups, then K and V of every KV
// tile, each into the next pipeline stage; every thread then waits for each stage's bytes
// (*loads_done stays 1 when all arrived within the bound).
// Precondition: 2 * the KV tile count <= the K/V stage count (no stage is reused).
template <class ML>
__global__ void fmha_placement_kernel(__grid_constant__ typename ML::Params const params, cute::tuple<int, int, int, int, int> problem,
                                      int q_blk, int batch, int head, int kv_loads, std::uint8_t* out_q, std::uint8_t* out_kv,
                                      int* loads_done) {
  using namespace cute;
  using Storage = FmhaPlacementStorage<ML>;
  extern __shared__ char smem_raw[];
  char* base = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t(1023));
  Storage& storage = *reinterpret_cast<Storage*>(base);
  using Pipeline = typename ML::MainloopPipeline;
  using PipelineQ = typename ML::MainloopPipelineQ;
  typename Pipeline::Params pp;
  pp.transaction_bytes = ML::kInnerLoadBytes;
  pp.role = Pipeline::ThreadCategory::ProducerConsumer;
  pp.is_leader = threadIdx.x == 0;  // the lane elect_one_sync picks in warp 0
  pp.num_consumers = blockDim.x;
  typename PipelineQ::Params pq;
  pq.transaction_bytes = ML::kOuterLoadBytes;
  pq.role = PipelineQ::ThreadCategory::ProducerConsumer;
  pq.is_leader = threadIdx.x == 0;
  pq.num_consumers = blockDim.x;
  Pipeline pipeline(storage.pipeline, pp, Shape<_1, _1, _1>{});
  PipelineQ pipeline_q(storage.pipeline_q, pq, Shape<_1, _1, _1>{});
  __syncthreads();
  auto write = cutlass::make_producer_start_state<Pipeline>();
  auto write_q = cutlass::make_producer_start_state<PipelineQ>();
  ML mainloop;
  UnusedLoadWarpBarrier unused;
  const auto blk = make_coord(q_blk, _0{}, make_coord(batch, head));
  if (threadIdx.x < 32)
    mainloop.template load_kv_maybe_q<true>(0, blk, params, problem, pipeline, write, pipeline_q, write_q, storage.tensors, unused, false);
  typename ML::PipelineState read;
  typename ML::PipelineStateQ read_q;
  bool arrived = true;
  for (int i = 0; i < kv_loads; ++i, ++read) arrived = wait_bounded(pipeline, read) && arrived;
  for (int i = 0; i < ML::NumMmaWarpGroups; ++i, ++read_q) arrived = wait_bounded(pipeline_q, read_q) && arrived;
  if (!arrived) *loads_done = 0;
  constexpr int kBytesQ = int(cosize_v<typename ML::SmemLayoutQ> * sizeof(typename ML::Element));
  constexpr int kBytesKV = int(cosize_v<typename ML::SmemLayoutK> * sizeof(typename ML::Element));
  const std::uint8_t* q = reinterpret_cast<const std::uint8_t*>(storage.tensors.smem_q.data());
  const std::uint8_t* kv = reinterpret_cast<const std::uint8_t*>(storage.tensors.smem_k.data());
  for (int i = threadIdx.x; i < kBytesQ; i += blockDim.x) out_q[i] = q[i];
  for (int i = threadIdx.x; i < kBytesKV; i += blockDim.x) out_kv[i] = kv[i];
}

}  // namespace detail

// The GMMA swizzle one narrower than `sw` (SW128 -> SW64 -> SW32 -> INTER -> SW128).
inline cuteref::GmmaSwizzle one_narrower(cuteref::GmmaSwizzle sw) { return static_cast<cuteref::GmmaSwizzle>((static_cast<int>(sw) + 3) % 4); }

// The placement checks of one FMHA kernel for problem `p` (its KV tiles must fit the stages
// without reuse), CTA tile (query block 1, batch 0, head 1) or the last one the problem has.
template <class Cfg>
void fmha_placement_checks(const FmhaSpec& f, const FmhaProblem& p, KernelReport& r) {
  using namespace cute;
  using ML = typename Cfg::Mainloop;
  using Element = typename Cfg::Element;
  static_assert(sizeof(Element) == 2, "ids are written in two passes of 16 bits");
  const int eb = 2;
  const FmhaGemms g = fmha_gemms(f);
  const int bq = int(get<0>(typename Cfg::TileShape{})), bkv = int(get<1>(typename Cfg::TileShape{}));
  const int kv_tiles = (p.seq_kv + bkv - 1) / bkv, kv_loads = 2 * kv_tiles;
  if (kv_loads > ML::Stages::value || p.seq_kv % bkv != 0 || p.seq_q % bq != 0) {
    r.add("placement", "placement probe", false, "the problem's KV tiles do not fit the K/V stages once, or a tile is partial");
    return;
  }
  const int q_blk = std::min(1, p.seq_q / bq - 1), batch = 0, head = std::min(1, p.heads - 1);
  const std::size_t n_q = std::size_t(p.batches) * p.heads * p.seq_q * p.dim, n_kv = std::size_t(p.batches) * p.heads * p.seq_kv * p.dim;
  // Ids by tensor and GMEM offset, in separate ranges so that a load from the wrong tensor shows.
  const auto id_q = [&](std::int64_t offset) { return offset + 1; };
  const auto id_k = [&](std::int64_t offset) { return std::int64_t(n_q) + offset + 1; };
  const auto id_v = [&](std::int64_t offset) { return std::int64_t(n_q + n_kv) + offset + 1; };

  Element* d_q = detail::device_alloc<Element>(n_q);
  Element* d_k = detail::device_alloc<Element>(n_kv);
  Element* d_v = detail::device_alloc<Element>(n_kv);
  using S = typename Cfg::StrideQ;
  const S sq{p.dim, _1{}, make_tuple(p.heads * p.seq_q * p.dim, p.seq_q * p.dim)};
  const S skv{p.dim, _1{}, make_tuple(p.heads * p.seq_kv * p.dim, p.seq_kv * p.dim)};
  const cute::tuple<int, int, int, int, int> problem{p.batches, p.heads, p.seq_q, p.seq_kv, p.dim};
  const typename ML::Params params = ML::to_underlying_arguments(problem, typename ML::Arguments{d_q, sq, d_k, skv, d_v, skv}, nullptr);
  const int bytes_q = int(cosize_v<typename ML::SmemLayoutQ> * sizeof(Element));
  const int bytes_kv = int(cosize_v<typename ML::SmemLayoutK> * sizeof(Element));
  const int smem_bytes = int(sizeof(detail::FmhaPlacementStorage<ML>)) + 1024;
  CUDA_CHECK(cudaFuncSetAttribute(detail::fmha_placement_kernel<ML>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  std::uint8_t* d_out_q = detail::device_alloc<std::uint8_t>(bytes_q);
  std::uint8_t* d_out_kv = detail::device_alloc<std::uint8_t>(bytes_kv);
  int* d_loads_done = detail::device_alloc<int>(1);

  // The model's layouts: Q (64, D, Q stages), K (BlockKV, D, stages), V (D, BlockKV, stages), and the controls'.
  GemmSpec q_spec = g.qk;
  q_spec.stages = g.stages_q;
  const ModelGemm q_model = derive(q_spec), qk = derive(g.qk), pv = derive(g.pv);
  const auto sw = [](bool k_major, std::int64_t mn, std::int64_t k) { return cutlass_swizzle_choice(k_major, mn, k, 16); };
  struct Operand {
    const char* name;
    cuteref::ComposedLayout layout, narrower, flipped;
  };
  const Operand q_op{"Q", q_model.smem_a, operand_layout(true, one_narrower(sw(true, g.qk.bm, g.qk.bk)), 16, g.qk.bm, g.qk.bk, g.stages_q),
                     operand_layout(false, sw(false, g.qk.bm, g.qk.bk), 16, g.qk.bm, g.qk.bk, g.stages_q)};
  const Operand k_op{"K", qk.smem_b, operand_layout(true, one_narrower(sw(true, g.qk.bn, g.qk.bk)), 16, g.qk.bn, g.qk.bk, g.qk.stages),
                     operand_layout(false, sw(false, g.qk.bn, g.qk.bk), 16, g.qk.bn, g.qk.bk, g.qk.stages)};
  const Operand v_op{"V", pv.smem_b, operand_layout(false, one_narrower(sw(false, g.pv.bn, g.pv.bk)), 16, g.pv.bn, g.pv.bk, g.pv.stages),
                     operand_layout(true, sw(true, g.pv.bn, g.pv.bk), 16, g.pv.bn, g.pv.bk, g.pv.stages)};
  // first[operand][0: the model, 1: narrower, 2: flipped]: the first difference, "" while none.
  std::string first[3][3];
  std::int64_t slots[3] = {0, 0, 0};  // compared by the model's layout, per operand
  try {
    for (int pass = 0; pass < passes_for(eb); ++pass) {
      std::vector<std::uint8_t> hq(n_q * eb), hk(n_kv * eb), hv(n_kv * eb);
      for (std::size_t i = 0; i < n_q; ++i) write_elem(hq, std::int64_t(i), eb, pass_value(id_q(std::int64_t(i)), eb, pass));
      for (std::size_t i = 0; i < n_kv; ++i) {
        write_elem(hk, std::int64_t(i), eb, pass_value(id_k(std::int64_t(i)), eb, pass));
        write_elem(hv, std::int64_t(i), eb, pass_value(id_v(std::int64_t(i)), eb, pass));
      }
      CUDA_CHECK(cudaMemcpy(d_q, hq.data(), hq.size(), cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemcpy(d_k, hk.data(), hk.size(), cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemcpy(d_v, hv.data(), hv.size(), cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemset(d_out_q, 0xA5, bytes_q));
      CUDA_CHECK(cudaMemset(d_out_kv, 0xA5, bytes_kv));
      const int one = 1;
      CUDA_CHECK(cudaMemcpy(d_loads_done, &one, sizeof one, cudaMemcpyHostToDevice));
      detail::fmha_placement_kernel<ML>
          <<<1, 128, smem_bytes>>>(params, problem, q_blk, batch, head, kv_loads, d_out_q, d_out_kv, d_loads_done);
      CUDA_CHECK_LAUNCH();
      int loads_done = 0;
      CUDA_CHECK(cudaMemcpy(&loads_done, d_loads_done, sizeof loads_done, cudaMemcpyDeviceToHost));
      if (loads_done != 1) throw std::runtime_error("the mainloop's loads did not all arrive within a second (id pass " + std::to_string(pass) + ")");
      std::vector<std::uint8_t> img_q(bytes_q), img_kv(bytes_kv);
      CUDA_CHECK(cudaMemcpy(img_q.data(), d_out_q, bytes_q, cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(img_kv.data(), d_out_kv, bytes_kv, cudaMemcpyDeviceToHost));
      // Every (i0, i1) of stage `stage` of `op`'s (E0, E1, stages) layout: the slot each of the three
      // layouts names must hold pass `pass` of want(i0, i1).
      const auto check = [&](const std::vector<std::uint8_t>& img, const Operand& op, int which, std::int64_t e0, std::int64_t e1, int stage,
                             const std::function<std::int64_t(std::int64_t, std::int64_t)>& want) {
        const cuteref::ComposedLayout* layouts[3] = {&op.layout, &op.narrower, &op.flipped};
        for (int l = 0; l < 3; ++l)
          for (std::int64_t i1 = 0; i1 < e1 && first[which][l].empty(); ++i1)
            for (std::int64_t i0 = 0; i0 < e0 && first[which][l].empty(); ++i0) {
              const std::int64_t slot = cuteref::apply_composed(*layouts[l], i0 + e0 * (i1 + e1 * stage));
              const std::uint64_t expected = pass_value(want(i0, i1), eb, pass);
              if (l == 0) ++slots[which];
              if (slot < 0 || (slot + 1) * eb > std::int64_t(img.size())) {
                first[which][l] = std::string(op.name) + " stage " + std::to_string(stage) + " (" + std::to_string(i0) + "," +
                                  std::to_string(i1) + "): slot " + std::to_string(slot) + " outside the " + std::to_string(img.size()) + " bytes";
              } else if (const std::uint64_t got = read_elem(img, slot, eb); got != expected) {
                first[which][l] = std::string(op.name) + " stage " + std::to_string(stage) + " (" + std::to_string(i0) + "," +
                                  std::to_string(i1) + "), id pass " + std::to_string(pass) + ": slot " + std::to_string(slot) + " holds " +
                                  std::to_string(got) + ", expected " + std::to_string(expected);
              }
            }
      };
      // The CTA's Q tiles, one per MMA warp group, go to Q stages 0, 1, ...: stage s holds query
      // rows (q_blk * warp groups + s) * 64 + r.
      for (int s = 0; s < ML::NumMmaWarpGroups; ++s)
        check(img_q, q_op, 0, g.qk.bm, p.dim, s, [&](std::int64_t row, std::int64_t d) {
          return id_q(p.offset(batch, head, int((q_blk * ML::NumMmaWarpGroups + s) * g.qk.bm + row), int(d), p.seq_q));
        });
      // KV tile t: K into stage 2t, V into stage 2t + 1 (the loads alternate in one pipeline).
      for (int t = 0; t < kv_tiles; ++t) {
        check(img_kv, k_op, 1, bkv, p.dim, 2 * t, [&](std::int64_t key, std::int64_t d) {
          return id_k(p.offset(batch, head, int(t * bkv + key), int(d), p.seq_kv));
        });
        check(img_kv, v_op, 2, p.dim, bkv, 2 * t + 1, [&](std::int64_t d, std::int64_t key) {
          return id_v(p.offset(batch, head, int(t * bkv + key), int(d), p.seq_kv));
        });
      }
    }
    const std::string where = " (CTA tile q " + std::to_string(q_blk) + ", b " + std::to_string(batch) + ", h " + std::to_string(head) + ")";
    const char* names[3] = {"Q", "K", "V"};
    for (int o = 0; o < 3; ++o) {
      r.add("placement", std::string("SMEM ") + names[o] + " slots" + where, first[o][0].empty() && slots[o] > 0,
            first[o][0].empty() ? std::to_string(slots[o]) + " slots (both id passes)" : first[o][0]);
      r.add("control", std::string("placement: ") + names[o] + " read with the swizzle one narrower", !first[o][1].empty(),
            first[o][1].empty() ? "not caught: every slot matched" : "caught: " + first[o][1]);
      r.add("control", std::string("placement: ") + names[o] + " read with the other majorness", !first[o][2].empty(),
            first[o][2].empty() ? "not caught: every slot matched" : "caught: " + first[o][2]);
    }
  } catch (const std::exception& e) {
    r.add("placement", "placement probe", false, std::string("error: ") + e.what());
  }
  cudaFree(d_q);
  cudaFree(d_k);
  cudaFree(d_v);
  cudaFree(d_out_q);
  cudaFree(d_out_kv);
  cudaFree(d_loads_done);
}

}  // namespace cuteref_gpu::vendor
