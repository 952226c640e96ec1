// CUTLASS's Hopper FMHA (example 88_hopper_fmha, the warp-specialized cooperative forward kernel)
// under differential test against the model: its CuTe types for one element type and head dim,
// compared on the host with what the model derives from the kernel's parameters.
//   The kernel builds two GEMM collectives with CUTLASS's CollectiveBuilder: QK (S = Q K^T, tile
//   (BlockQ / MMA warp groups, BlockKV, D), Q and K K-major, SS GMMA) and PV (O = P V, tile
//   (BlockQ / warp groups, D, BlockKV), V MN-major for 16-bit types); PV's TiledMMA is then turned
//   into an RS one (P from the QK accumulator registers). Q's SMEM is QK's A layout cut to the Q
//   stage count, K's is QK's B layout, V's is PV's B layout.
// Host checks: SmemLayoutQ/K/V (as functions, with the profile where CuTe keeps it), both
// TiledMMAs' (thread, value) layouts of A, B and C, the P handoff (the QK accumulator's
// (thread, value) coordinates are those the PV RS atom reads for A, value by value), O's SMEM
// staging in the epilogue, and the arguments the mainloop and the epilogue pass to
// cuTensorMapEncodeTiled for Q, K, V and O (fmha_tma_checks).
// Controls: V's majorness the other way round, V's swizzle one narrower, the P handoff against
// an SS atom's A layout and against the PV operand's tile indexed row-major, V's tensor map from
// the K-major tile; each must differ, reported with the first difference.
#pragma once

#include <map>
#include <ostream>

#include "cutlass_gemm_case.cuh"
#include "fmha_result.hpp"
#include "tile_to_shape.hpp"

#include "collective/fmha_fusion.hpp"  // -I examples/88_hopper_fmha
#include "kernel/fmha_kernel_builder.hpp"

namespace cuteref_gpu::vendor {

// The parameters of one FMHA forward kernel (the rest is example 88's: f32 accumulators, 2 MMA
// warp groups, 5 K/V stages, 2 Q stages, BlockQ = BlockKV = 128).
struct FmhaSpec {
  std::string name;
  std::string type;  // f16 | bf16
  int head_dim = 0;
};

template <class Element_, int HeadDim>
struct FmhaConfig {
  using Element = Element_;
  using TileShape = cute::Shape<cute::_128, cute::_128, cute::Int<HeadDim>>;
  using StrideQ = cute::tuple<int, cute::_1, cute::tuple<int, int>>;  // (seq, D, (batch, head))
  using StrideK = StrideQ;
  using StrideV = StrideQ;  // 16-bit V: D contiguous, so MN-major for O = P V
  using Builder = cutlass::fmha::kernel::FmhaBuilder<Element, float, float, TileShape, StrideQ, StrideK, StrideV,
                                                     cutlass::fmha::collective::DefaultFusion, cutlass::gemm::KernelTmaWarpSpecializedCooperative>;
  using Kernel = typename Builder::Kernel;
  using Mainloop = typename Builder::CollectiveMainloop;
  // O's epilogue: CUTLASS's SM90 TMA epilogue (warp-specialized schedule) over the PV tile.
  using Epilogue = typename Builder::CollectiveEpilogue;
  using EpilogueTma = typename Epilogue::CollectiveEpilogueTMA;
};

// The two GEMMs as the model's GemmSpecs: QK and PV with the kernel's tiles, stages and atoms.
struct FmhaGemms {
  GemmSpec qk, pv;
  int stages_q = 2;
  std::int64_t epi_m = 0, epi_n = 0;  // O's epilogue tile (CUTLASS's policy over PV's tile)
};

inline FmhaGemms fmha_gemms(const FmhaSpec& f) {
  const std::string word = f.type == "bf16" ? "F32BF16BF16" : "F32F16F16";
  const int bm = 128 / 2, bkv = 128, d = f.head_dim, stages = 5;
  FmhaGemms g;
  g.qk = GemmSpec{f.name + "_qk", f.type, true, true, bm, bkv, d, 1, 1, "ws", stages, 16,
                  "SM90_64x" + std::to_string(bkv) + "x16_" + word + "_SS<K,K>", 1, false};
  // PV's SMEM comes from an SS builder (A K-major, unused; V MN-major); its TiledMMA is the RS atom.
  g.pv = GemmSpec{f.name + "_pv", f.type, true, false, bm, d, bkv, 1, 1, "ws", stages, 16,
                  "SM90_64x" + std::to_string(d) + "x16_" + word + "_RS<K,MN>", 1, false};
  std::tie(g.epi_m, g.epi_n) = cutlass_epilogue_tile(false, 16, bm, d);
  return g;
}

// O's SMEM staging (epi_m, epi_n, stages): O is D-contiguous, so N-major (the GMMA K-major atom
// along D), the widest swizzle whose atom divides the epilogue tile's D extent.
inline cuteref::ComposedLayout o_staging(const FmhaGemms& g, int stages) {
  return operand_layout(true, cutlass_swizzle_choice(true, g.epi_m, g.epi_n, 16), 16, g.epi_m, g.epi_n, stages);
}

// "" when, for every thread and value, the QK accumulator (partition_C of the (BM, BKV) tile)
// and the PV atom's A operand (partition_A of the (BM, BKV) tile) name the same coordinate: the
// registers the RS GMMA reads for P are the accumulator's, in order. Else the first difference.
// `a_tile_row_major` (a control) indexes the PV operand's tile row-major, as a P layout that
// confuses the query and key modes would.
inline std::string p_handoff_differs(const cuteref::TiledMma& qk, const cuteref::TiledMma& pv, std::int64_t bm, std::int64_t bkv,
                                     bool a_tile_row_major = false) {
  using cuteref::IntTuple;
  const cuteref::Layout ref = cuteref::make_layout(IntTuple::tuple({IntTuple::static_int(bm), IntTuple::static_int(bkv)}));
  const cuteref::Layout ref_a = a_tile_row_major ? cuteref::Layout(IntTuple::tuple({IntTuple::static_int(bm), IntTuple::static_int(bkv)}),
                                                                   IntTuple::tuple({IntTuple::static_int(bkv), IntTuple::static_int(1)}))
                                                 : ref;
  const std::int64_t threads = cuteref::tiled_mma_size(qk);
  if (threads != cuteref::tiled_mma_size(pv))
    return "QK has " + std::to_string(threads) + " threads, PV " + std::to_string(cuteref::tiled_mma_size(pv));
  for (std::int64_t t = 0; t < threads; ++t) {
    const cuteref::Partition c = cuteref::partition_C(qk, t, ref), a = cuteref::partition_A(pv, t, ref_a);
    const std::int64_t nc = cuteref::size_value(c.layout), na = cuteref::size_value(a.layout);
    if (nc != na) return "thread " + std::to_string(t) + ": " + std::to_string(nc) + " accumulator values, " + std::to_string(na) + " A values";
    for (std::int64_t v = 0; v < nc; ++v) {
      // Both read as column-major indices of the (BM, BKV) tile (the control's row-major ones too).
      const std::int64_t s = c.offset + cuteref::apply_index(c.layout, v), p = a.offset + cuteref::apply_index(a.layout, v);
      if (s != p)
        return "(thread " + std::to_string(t) + ", value " + std::to_string(v) + "): accumulator holds S(" + std::to_string(s % bm) + "," +
               std::to_string(s / bm) + "), the PV atom reads P(" + std::to_string(p % bm) + "," + std::to_string(p / bm) + ")";
    }
  }
  return "";
}

template <class Cfg>
void fmha_host_checks(const FmhaSpec& f, KernelReport& r) {
  using namespace cute;
  using ML = typename Cfg::Mainloop;
  const FmhaGemms g = fmha_gemms(f);
  const auto guarded = [&](const std::string& kind, const std::string& what, const std::function<std::string()>& diff) {
    try {
      const std::string d = diff();
      r.add(kind, what, d.empty(), d);
    } catch (const std::exception& e) {
      r.add(kind, what, false, std::string("error: ") + e.what());
    }
  };
  // A control holds when the changed model differs from CuTe; its detail is that difference.
  const auto control = [&](const std::string& what, const std::function<std::string()>& diff) {
    try {
      const std::string d = diff();
      r.add("control", what, !d.empty(), d.empty() ? "not caught: the changed model agrees with CuTe" : d);
    } catch (const std::exception& e) {
      r.add("control", what, true, std::string("refused: ") + e.what());
    }
  };
  if (ML::StagesQ::value != g.stages_q || ML::Stages::value != g.qk.stages)
    r.add("host", "stage counts", false, "CUTLASS: Q " + std::to_string(ML::StagesQ::value) + ", K/V " + std::to_string(ML::Stages::value));
  const ModelGemm qk = derive(g.qk), pv = derive(g.pv);
  GemmSpec q_spec = g.qk;
  q_spec.stages = g.stages_q;
  const ModelGemm q_only = derive(q_spec);
  const std::string text_v = detail::printed(typename ML::SmemLayoutV{});
  guarded("host", "SmemLayoutQ", [&] { return differs(cuteref::Value(q_only.smem_a), detail::printed(typename ML::SmemLayoutQ{}), false); });
  guarded("host", "SmemLayoutK", [&] { return differs(cuteref::Value(qk.smem_b), detail::printed(typename ML::SmemLayoutK{}), true); });
  guarded("host", "SmemLayoutV", [&] { return differs(cuteref::Value(pv.smem_b), text_v, true); });
  // O's staging: CUTLASS keeps SmemLayoutD private; its epilogue tile and SMEM atom are public.
  using EpiTile = typename Cfg::EpilogueTma::EpilogueTile;
  const std::int64_t cute_epi_m = size<0>(EpiTile{}), cute_epi_n = size<1>(EpiTile{});
  r.add("host", "O's epilogue tile", cute_epi_m == g.epi_m && cute_epi_n == g.epi_n,
        "CUTLASS (" + std::to_string(cute_epi_m) + "," + std::to_string(cute_epi_n) + "), model (" + std::to_string(g.epi_m) + "," +
            std::to_string(g.epi_n) + ")");
  guarded("host", "SmemLayoutAtomD (O's staging atom)", [&] {
    return differs(cuteref::Value(cuteref::gmma_smem_atom(cuteref::GmmaMajor::K, cutlass_swizzle_choice(true, g.epi_m, g.epi_n, 16), 16)),
                   detail::printed(typename Cfg::EpilogueTma::SmemLayoutAtomD{}), true);
  });
  using MmaQK = typename ML::TiledMmaQK;
  using MmaPV = typename ML::TiledMmaPV;
  guarded("host", "TiledMmaQK A (thread,value)", [&] { return tv_differs(qk, 'A', detail::printed(MmaQK{}.get_layoutA_TV())); });
  guarded("host", "TiledMmaQK B (thread,value)", [&] { return tv_differs(qk, 'B', detail::printed(MmaQK{}.get_layoutB_TV())); });
  guarded("host", "TiledMmaQK C (thread,value)", [&] { return tv_differs(qk, 'C', detail::printed(MmaQK{}.get_layoutC_TV())); });
  guarded("host", "TiledMmaPV A (thread,value), RS", [&] { return tv_differs(pv, 'A', detail::printed(MmaPV{}.get_layoutA_TV())); });
  guarded("host", "TiledMmaPV B (thread,value)", [&] { return tv_differs(pv, 'B', detail::printed(MmaPV{}.get_layoutB_TV())); });
  guarded("host", "TiledMmaPV C (thread,value)", [&] { return tv_differs(pv, 'C', detail::printed(MmaPV{}.get_layoutC_TV())); });
  constexpr bool kRs = cute::is_same_v<typename MmaPV::FrgTypeA, typename MmaPV::ValTypeA>;
  r.add("host", "TiledMmaPV reads A from registers", kRs, kRs ? "" : "CUTLASS's PV TiledMMA is not RS");
  guarded("host", "P handoff (QK accumulator = PV A operand)", [&] { return p_handoff_differs(qk.tiled, pv.tiled, g.qk.bm, g.qk.bn); });

  GemmSpec flipped = g.pv;
  flipped.b_k_major = true;
  control("V K-major instead of MN-major", [&] { return differs(cuteref::Value(derive(flipped).smem_b), text_v, false); });
  control("V's swizzle one narrower", [&] {
    const cuteref::GmmaSwizzle kernel_sw = cutlass_swizzle_choice(false, g.pv.bn, g.pv.bk, 16);
    const cuteref::GmmaSwizzle narrower = static_cast<cuteref::GmmaSwizzle>((static_cast<int>(kernel_sw) + 3) % 4);
    return differs(cuteref::Value(operand_layout(false, narrower, 16, g.pv.bn, g.pv.bk, g.pv.stages)), text_v, false);
  });
  control("P handed to an SS atom's A layout", [&] {
    GemmSpec ss = g.pv;
    ss.atom = "SM90_64x" + std::to_string(f.head_dim) + "x16_" + (f.type == "bf16" ? "F32BF16BF16" : "F32F16F16") + "_SS<K,MN>";
    return p_handoff_differs(qk.tiled, derive(ss).tiled, g.qk.bm, g.qk.bn);
  });
  control("P's tile indexed row-major (query and key modes confused)",
          [&] { return p_handoff_differs(qk.tiled, pv.tiled, g.qk.bm, g.qk.bn, true); });
}

// The GMEM layout of a (seq, D, (B, H)) tensor with D contiguous, as the example's strides give it
// (seq stride D, batch stride H seq D, head stride seq D; D's stride static, the rest dynamic), or
// with `d_first` its (D, seq, (B, H)) view: V as PV's B operand, CUTLASS's select<1,0,2> of V's strides.
inline cuteref::Layout fmha_gmem_layout(const FmhaProblem& p, int seq, bool d_first) {
  using cuteref::IntTuple;
  const auto dyn = [](std::int64_t v) { return IntTuple::integer(v); };
  const IntTuple batch_shape = IntTuple::tuple({dyn(p.batches), dyn(p.heads)});
  const IntTuple batch_stride = IntTuple::tuple({dyn(std::int64_t(p.heads) * seq * p.dim), dyn(std::int64_t(seq) * p.dim)});
  if (d_first)
    return cuteref::Layout(IntTuple::tuple({dyn(p.dim), dyn(seq), batch_shape}),
                           IntTuple::tuple({IntTuple::static_int(1), dyn(p.dim), batch_stride}));
  return cuteref::Layout(IntTuple::tuple({dyn(seq), dyn(p.dim), batch_shape}), IntTuple::tuple({dyn(p.dim), IntTuple::static_int(1), batch_stride}));
}

// The TMA parameters: the mainloop's to_underlying_arguments (which builds the QK and PV
// collectives' tensor maps) is run over Q, K and V buffers of problem `p`, the epilogue's over O
// (a TMA store from one stage of O's staging), and the arguments of
// each cuTensorMapEncodeTiled call (tma_capture.hpp) are compared with the model's
// make_tma_params of the tensor's GMEM layout and one stage of the model's SMEM layout. On a GPU
// the buffers are real allocations (the driver checks the map); with CUTEREF_VENDOR_HOST_ONLY=1
// stand-in addresses, the calls only recorded. The PV collective also encodes a map for its A
// operand over K's buffer, which the kernel never loads (P comes from registers): not compared.
template <class Cfg>
void fmha_tma_checks(const FmhaSpec& f, const FmhaProblem& p, KernelReport& r) {
  using namespace cute;
  using ML = typename Cfg::Mainloop;
  using Element = typename Cfg::Element;
  const FmhaGemms g = fmha_gemms(f);
  const ModelGemm qk = derive(g.qk), pv = derive(g.pv);
  GemmSpec q_spec = g.qk;
  q_spec.stages = g.stages_q;
  const ModelGemm q_only = derive(q_spec);
  const char* host_only_env = std::getenv("CUTEREF_VENDOR_HOST_ONLY");
  const bool host_only = host_only_env && std::string(host_only_env) == "1";
  const std::size_t n_q = std::size_t(p.batches) * p.heads * p.seq_q * p.dim, n_kv = std::size_t(p.batches) * p.heads * p.seq_kv * p.dim;
  Element* q = reinterpret_cast<Element*>(std::uintptr_t(1) << 32);
  Element* k = reinterpret_cast<Element*>(std::uintptr_t(3) << 32);
  Element* v = reinterpret_cast<Element*>(std::uintptr_t(5) << 32);
  Element* o = reinterpret_cast<Element*>(std::uintptr_t(7) << 32);
  if (!host_only) {
    q = detail::device_alloc<Element>(n_q);
    k = detail::device_alloc<Element>(n_kv);
    v = detail::device_alloc<Element>(n_kv);
    o = detail::device_alloc<Element>(n_q);
  }
  using S = typename Cfg::StrideQ;
  const S sq{p.dim, _1{}, make_tuple(p.heads * p.seq_q * p.dim, p.seq_q * p.dim)};
  const S skv{p.dim, _1{}, make_tuple(p.heads * p.seq_kv * p.dim, p.seq_kv * p.dim)};
  const typename ML::Arguments args{q, sq, k, skv, v, skv};
  const auto problem = make_tuple(p.batches, p.heads, p.seq_q, p.seq_kv, p.dim);
  const typename Cfg::Epilogue::Arguments out_args{o, sq, nullptr, make_tuple(_1{}, make_tuple(p.heads * p.seq_q, p.seq_q))};
  captured_encodes().clear();
  detail::silenced([&] {
    (void)ML::to_underlying_arguments(problem, args, nullptr);
    (void)Cfg::Epilogue::to_underlying_arguments(problem, out_args, nullptr);
  });
  const std::vector<CapturedEncode> calls = captured_encodes();
  if (!host_only) {
    CUDA_CHECK(cudaFree(q));
    CUDA_CHECK(cudaFree(k));
    CUDA_CHECK(cudaFree(v));
    CUDA_CHECK(cudaFree(o));
  }
  // The first call over `address` (K's buffer is encoded twice: QK's B first, then PV's unused A).
  const auto call_for = [&](const void* address) -> const CapturedEncode* {
    for (const CapturedEncode& c : calls)
      if (c.address == address) return &c;
    return nullptr;
  };
  const auto check = [&](const std::string& what, const void* address, const cuteref::Layout& gmem, const cuteref::ComposedLayout& smem) {
    try {
      const CapturedEncode* c = call_for(address);
      const std::string d = c ? tma_differs(cuteref::make_tma_params(gmem, cuteref::Value(smem), 16), *c)
                              : "CUTLASS encoded no tensor map for " + what;
      r.add("host", "TMA tensor map " + what, d.empty(), d);
    } catch (const std::exception& e) {
      r.add("host", "TMA tensor map " + what, false, std::string("error: ") + e.what());
    }
  };
  check("Q", q, fmha_gmem_layout(p, p.seq_q, false), stage_slice(q_only.smem_a, 0));
  check("K", k, fmha_gmem_layout(p, p.seq_kv, false), stage_slice(qk.smem_b, 0));
  check("V", v, fmha_gmem_layout(p, p.seq_kv, true), stage_slice(pv.smem_b, 0));
  check("O (store)", o, fmha_gmem_layout(p, p.seq_q, false), stage_slice(o_staging(g, 1), 0));
  try {
    const cuteref::GmmaSwizzle kernel_sw = cutlass_swizzle_choice(false, g.pv.bn, g.pv.bk, 16);
    const cuteref::ComposedLayout narrower =
        stage_slice(operand_layout(false, static_cast<cuteref::GmmaSwizzle>((static_cast<int>(kernel_sw) + 3) % 4), 16, g.pv.bn, g.pv.bk, 1), 0);
    const CapturedEncode* c = call_for(v);
    const std::string d = c ? tma_differs(cuteref::make_tma_params(fmha_gmem_layout(p, p.seq_kv, true), cuteref::Value(narrower), 16), *c) : "";
    r.add("control", "V's tensor map from the tile with the swizzle one narrower", !d.empty(), d.empty() ? "not caught: the maps agree" : d);
  } catch (const std::exception& e) {
    r.add("control", "V's tensor map from the tile with the swizzle one narrower", false, std::string("error: ") + e.what());
  }
}

// Prints a kernel's failures, its controls and one line of counts per kind; adds to the tallies.
// A kernel with no check of a kind in `required` counts as a failure: nothing was compared.
inline void print_report(std::ostream& out, const std::string& name, const std::vector<Check>& checks,
                         const std::vector<std::string>& required, int& passed, int& failed) {
  std::map<std::string, std::pair<int, int>> counts;  // kind -> (ok, all)
  for (const auto& c : checks) {
    (c.ok ? passed : failed) += 1;
    counts[c.kind].first += c.ok;
    counts[c.kind].second += 1;
    if (c.kind == "control")
      out << (c.ok ? "negative control " : "FAIL negative control ") << name << ": " << c.what << ": " << c.detail << "\n";
    else if (!c.ok)
      out << "FAIL " << name << " " << c.kind << " " << c.what << ": " << c.detail << "\n";
    else if (c.kind == "result" || c.kind == "placement")
      out << name << " " << c.what << ": " << c.detail << "\n";
  }
  out << name << ":";
  for (const auto& [kind, k] : counts) out << " " << kind << " " << k.first << "/" << k.second;
  out << "\n";
  for (const std::string& kind : required)
    if (counts[kind].second == 0) {
      ++failed;
      out << "FAIL " << name << ": no " << kind << " comparison ran\n";
    }
}

}  // namespace cuteref_gpu::vendor
