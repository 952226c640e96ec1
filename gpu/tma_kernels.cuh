// TMA probe kernels: one thread issues cp.async.bulk.tensor between global memory and a
// 1024-byte-aligned shared-memory box; the load completes on an mbarrier.
#pragma once

#include <cuda.h>
#include <cstdint>

namespace cuteref_gpu {

// The TMA probes' launch shape: one CTA of this many threads, and the dynamic shared memory
// they allow (the largest box or tile plus 1024 bytes for the alignment).
constexpr int kTmaThreads = 128;
constexpr int kTmaMaxDynamicSmem = 200 * 1024;

__device__ inline std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

__device__ inline std::uint8_t* aligned_box(std::uint8_t* raw) {
  const std::uint32_t a = smem_addr(raw);
  return raw + ((1024 - (a & 1023)) & 1023);
}

template <int Rank>
__device__ inline void tma_load(void* dst, const CUtensorMap* map, const int* c, std::uint64_t* bar) {
  const std::uint32_t d = smem_addr(dst), b = smem_addr(bar);
  const std::uint64_t m = reinterpret_cast<std::uint64_t>(map);
  if constexpr (Rank == 1)
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                 :: "r"(d), "l"(m), "r"(c[0]), "r"(b) : "memory");
  else if constexpr (Rank == 2)
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(b) : "memory");
  else if constexpr (Rank == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                 :: "r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(b) : "memory");
  else if constexpr (Rank == 4)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                 :: "r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(b) : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                 :: "r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(b) : "memory");
}

template <int Rank>
__device__ inline void tma_store(const CUtensorMap* map, const int* c, const void* src) {
  const std::uint32_t s = smem_addr(src);
  const std::uint64_t m = reinterpret_cast<std::uint64_t>(map);
  if constexpr (Rank == 1)
    asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%2}], [%1];" :: "l"(m), "r"(s), "r"(c[0]) : "memory");
  else if constexpr (Rank == 2)
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];" :: "l"(m), "r"(s), "r"(c[0]), "r"(c[1]) : "memory");
  else if constexpr (Rank == 3)
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%2, %3, %4}], [%1];" :: "l"(m), "r"(s), "r"(c[0]), "r"(c[1]), "r"(c[2]) : "memory");
  else if constexpr (Rank == 4)
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%0, {%2, %3, %4, %5}], [%1];" :: "l"(m), "r"(s), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]) : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group [%0, {%2, %3, %4, %5, %6}], [%1];" :: "l"(m), "r"(s), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]) : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// Fills `bytes` bytes at `smem` with `poison` and initializes the mbarrier `bar` (one arrival),
// ordered before the copy engine's writes (the poison stores are generic-proxy stores).
__device__ inline void poison_and_init_barrier(std::uint8_t* smem, std::uint32_t bytes, std::uint8_t poison,
                                               std::uint64_t* bar) {
  for (std::uint32_t i = threadIdx.x; i < bytes; i += blockDim.x) smem[i] = poison;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem_addr(bar)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
}

// Announces `bytes` bytes of transactions on `bar` (thread 0 only, before issuing the copies).
__device__ inline void expect_bytes(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem_addr(bar)), "r"(bytes) : "memory");
}

// Waits until phase 0 of `bar` completes (all announced bytes arrived).
__device__ inline void wait_barrier(std::uint64_t* bar) {
  std::uint32_t done = 0;
  while (!done) {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done) : "r"(smem_addr(bar)) : "memory");
  }
}

struct Coords {
  int c[5];
};

// Poison the box, load it with TMA, copy the raw shared-memory bytes to `out`.
template <int Rank>
__global__ void tma_load_kernel(const __grid_constant__ CUtensorMap map, Coords coords, std::uint8_t* out,
                                std::uint32_t box_bytes, std::uint8_t poison) {
  extern __shared__ std::uint8_t raw[];
  __shared__ alignas(8) std::uint64_t bar;
  std::uint8_t* box = aligned_box(raw);
  poison_and_init_barrier(box, box_bytes, poison, &bar);
  if (threadIdx.x == 0) {
    expect_bytes(&bar, box_bytes);
    tma_load<Rank>(box, &map, coords.c, &bar);
  }
  wait_barrier(&bar);
  for (std::uint32_t i = threadIdx.x; i < box_bytes; i += blockDim.x) out[i] = box[i];
}

// Fill the box from `image` (ordinary stores), then TMA-store it to global memory.
template <int Rank>
__global__ void tma_store_kernel(const __grid_constant__ CUtensorMap map, Coords coords, const std::uint8_t* image,
                                 std::uint32_t box_bytes) {
  extern __shared__ std::uint8_t raw[];
  std::uint8_t* box = aligned_box(raw);
  for (std::uint32_t i = threadIdx.x; i < box_bytes; i += blockDim.x) box[i] = image[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) tma_store<Rank>(&map, coords.c, box);
}

// One box copy of a whole-tile transfer: where the box starts in the tile (bytes, before the
// swizzle: the copy engine swizzles by shared-memory address) and its TMA coordinates.
struct TileCopy {
  std::uint32_t smem_byte_offset;
  int c[5];
};

// A whole tile as CuTe's copy(tma, tAgA, tAsA) moves it: `n` box loads, all completing on one
// mbarrier; then the raw tile bytes go to `out`. The tile base is 1024-byte aligned.
template <int Rank>
__global__ void tma_tile_load_kernel(const __grid_constant__ CUtensorMap map, const TileCopy* copies, int n,
                                     std::uint8_t* out, std::uint32_t tile_bytes, std::uint32_t box_bytes,
                                     std::uint8_t poison) {
  extern __shared__ std::uint8_t raw[];
  __shared__ alignas(8) std::uint64_t bar;
  std::uint8_t* tile = aligned_box(raw);
  poison_and_init_barrier(tile, tile_bytes, poison, &bar);
  if (threadIdx.x == 0) {
    // Every box transfers its full size (out-of-bounds elements are zero-filled, and counted).
    expect_bytes(&bar, box_bytes * static_cast<std::uint32_t>(n));
    for (int i = 0; i < n; ++i) tma_load<Rank>(tile + copies[i].smem_byte_offset, &map, copies[i].c, &bar);
  }
  wait_barrier(&bar);
  for (std::uint32_t i = threadIdx.x; i < tile_bytes; i += blockDim.x) out[i] = tile[i];
}

// Fill the tile from `image`, then store it box by box to global memory.
template <int Rank>
__global__ void tma_tile_store_kernel(const __grid_constant__ CUtensorMap map, const TileCopy* copies, int n,
                                      const std::uint8_t* image, std::uint32_t tile_bytes) {
  extern __shared__ std::uint8_t raw[];
  std::uint8_t* tile = aligned_box(raw);
  for (std::uint32_t i = threadIdx.x; i < tile_bytes; i += blockDim.x) tile[i] = image[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    for (int i = 0; i < n; ++i) tma_store<Rank>(&map, copies[i].c, tile + copies[i].smem_byte_offset);
}

}  // namespace cuteref_gpu
