// The model's side of the CUTLASS kernel comparisons: what the model derives from a kernel's
// parameters (GemmSpec) and how a vendor value (CuTe's printout, a captured tensor-map call, a
// descriptor word) is compared with it. Host code; uses the model only through its API.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "atoms/gmma_smem_atom.hpp"
#include "atoms/tiled_mma.hpp"
#include "atoms/tma.hpp"
#include "swizzle.hpp"
#include "tma_capture.hpp"
#include "value.hpp"
#include "vendor_case.hpp"

namespace cuteref_gpu::vendor {

struct ModelGemm {
  cuteref::TiledMma tiled;
  cuteref::ComposedLayout smem_a, smem_b;  // (BM,BK,Stages), (BN,BK,Stages)
  std::int64_t tile_m = 0, tile_n = 0, tile_k = 0;  // the tiled MMA's (M,N,K) tile
};

// Negative controls: derive with another atom or another swizzle for A (-1: the kernel's), or
// with A's majorness the other way round.
struct Overrides {
  std::string atom;
  int swizzle_a = -1;
  bool flip_a_major = false;
};

// CUTLASS's builder policy for the SMEM atom (its ss_smem_selector, restated): the widest GMMA
// swizzle atom whose contiguous extent divides the tile's contiguous extent (the MN extent for an
// MN-major operand, K for K-major), the atom's extent taken from the model's gmma_smem_atom. For
// an RS kernel (rs_smem_selector) an MN-major operand of 32-bit elements takes SW32, else INTER
// (CUTLASS prefers it for the register copy's bank conflicts); the rest as above.
cuteref::GmmaSwizzle cutlass_swizzle_choice(bool k_major, std::int64_t mn_extent, std::int64_t k_extent, int bits,
                                            bool rs = false);

// CUTLASS's SM90 epilogue builder policy for EpilogueTileAuto (its sm90_compute_tile_shape_or_override,
// restated): the cooperative schedule takes (min(128, BM), gcd(min(32, BN), BN)), the warp-specialized
// one (min(64, BM), gcd(min(N', BN), BN)) with N' = 64 for 8-bit D when 64 divides BN, else 32.
std::pair<std::int64_t, std::int64_t> cutlass_epilogue_tile(bool cooperative, int bits_d, std::int64_t bm, std::int64_t bn);

// One operand's SMEM layout (MN, K, Stages): tile_to_shape(gmma_atom(major, sw, bits), ...), MN-major
// tiles in the order (2,1,3) as CUTLASS's collective asks.
cuteref::ComposedLayout operand_layout(bool k_major, cuteref::GmmaSwizzle sw, int bits, std::int64_t mn, std::int64_t k, int stages);

// The model's TiledMMA and SMEM layouts for the kernel: make_tiled_mma(atom, (atoms_m,1,1)) and
// tile_to_shape(gmma_atom(major, swizzle, bits), (BMN, BK, Stages)), MN-major tiles in the order
// (2,1,3) as CUTLASS's collective asks.
ModelGemm derive(const GemmSpec& s, const Overrides& o = {});

// The GMEM layout CUTLASS gives make_tma_copy: (MN, K, L=1) with the packed strides of the
// operand's majorness (K-major: (ld, _1, 0); MN-major: (_1, ld, 0): make_cute_packed_stride gives
// a batch of one the stride 0), ld the leading dimension (K or MN for packed data).
cuteref::Layout gmem_layout(bool k_major, std::int64_t mn, std::int64_t k, std::int64_t ld);

// Stage `stage` of an (MN, K, Stages) SMEM layout, as CuTe's SmemLayout(_,_,stage) (the offset of a
// non-zero stage goes into the composed layout).
cuteref::ComposedLayout stage_slice(const cuteref::ComposedLayout& s, int stage);

// "" when CuTe's printed value is the model's value as a function (and, with `profile`, with the
// same shape); else the first difference.
std::string differs(const cuteref::Value& model, const std::string& cute_text, bool profile);

// "" when CuTe's (thread, value) -> tile index layout of operand `op` ('A', 'B', 'C'; CuTe's
// get_layoutX_TV) gives, for every thread and value, the index the model's partition_X of the
// column-major tile puts there; else the first (thread, value) that differs.
std::string tv_differs(const ModelGemm& m, char op, const std::string& cute_tv_text);

// "" when CuTe's descriptor of the first MMA tile of stage 0 (word with its start address made
// relative to the buffer) equals the model's gmma_desc of thread 0's partition (mode 0); else what
// differs.
std::string descriptor_differs(std::uint64_t cute_word, std::uint32_t cute_base_start, const ModelGemm& m, char op, int bits);

// "" when the captured cuTensorMapEncodeTiled call has the model's arguments; else the first
// argument that differs.
std::string tma_differs(const cuteref::TmaParams& model, const CapturedEncode& c);

}  // namespace cuteref_gpu::vendor
