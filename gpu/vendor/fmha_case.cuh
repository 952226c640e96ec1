// CUTLASS's Hopper FMHA (example 88_hopper_fmha, the warp-specialized cooperative forward kernel)
// under differential test against the model: its CuTe types for one element type and head dim,
// compared on the host with what the model derives from the kernel's parameters.
//   The kernel builds two GEMM collectives with CUTLASS's CollectiveBuilder: QK (S = Q K^T, tile
//   (BlockQ / MMA warp groups, BlockKV, D), Q and K K-major, SS GMMA) and PV (O = P V, tile
//   (BlockQ / warp groups, D, BlockKV), V MN-major for 16-bit types); PV's TiledMMA is then turned
//   into an RS one (P from the QK accumulator registers). Q's SMEM is QK's A layout cut to the Q
//   stage count, K's is QK's B layout, V's is PV's B layout.
// Host checks: SmemLayoutQ/K/V (as functions, with the profile where CuTe keeps it), both
// TiledMMAs' (thread, value) layouts of A, B and C, and the P handoff (the QK accumulator's
// (thread, value) coordinates are those the PV RS atom reads for A, value by value).
// Controls: V's majorness the other way round, V's swizzle one narrower, the P handoff against
// an SS atom's A layout and against the PV operand's tile indexed row-major; each must differ,
// reported with the first difference.
#pragma once

#include <map>
#include <ostream>

#include "cutlass_gemm_case.cuh"
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
  using Kernel = typename cutlass::fmha::kernel::FmhaBuilder<Element, float, float, TileShape, StrideQ, StrideK, StrideV,
                                                             cutlass::fmha::collective::DefaultFusion,
                                                             cutlass::gemm::KernelTmaWarpSpecializedCooperative>::Kernel;
  // The builder's mainloop, named directly (the kernel does not export it).
  using Mainloop = cutlass::fmha::collective::FmhaMainloopTmaWarpSpecialized<Element, float, float, TileShape, StrideQ, StrideK,
                                                                            StrideV, cutlass::fmha::collective::DefaultFusion>;
};

// The two GEMMs as the model's GemmSpecs: QK and PV with the kernel's tiles, stages and atoms.
struct FmhaGemms {
  GemmSpec qk, pv;
  int stages_q = 2;
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
  return g;
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
    using cuteref::IntTuple;
    cuteref::TileOrder mn_order;  // MN-major tiles in the order (2,1,3), as CUTLASS's collective asks
    mn_order.order = IntTuple::tuple({IntTuple::static_int(2), IntTuple::static_int(1), IntTuple::static_int(3)});
    const cuteref::ComposedLayout v = cuteref::tile_to_shape(
        cuteref::gmma_smem_atom(cuteref::GmmaMajor::MN, narrower, 16),
        IntTuple::tuple({IntTuple::static_int(g.pv.bn), IntTuple::static_int(g.pv.bk), IntTuple::static_int(g.pv.stages)}), mn_order);
    return differs(cuteref::Value(v), text_v, false);
  });
  control("P handed to an SS atom's A layout", [&] {
    GemmSpec ss = g.pv;
    ss.atom = "SM90_64x" + std::to_string(f.head_dim) + "x16_" + (f.type == "bf16" ? "F32BF16BF16" : "F32F16F16") + "_SS<K,MN>";
    return p_handoff_differs(qk.tiled, derive(ss).tiled, g.qk.bm, g.qk.bn);
  });
  control("P's tile indexed row-major (query and key modes confused)",
          [&] { return p_handoff_differs(qk.tiled, pv.tiled, g.qk.bm, g.qk.bn, true); });
}

// Prints a kernel's failures, its controls and one line of counts per kind; adds to the tallies.
// A kernel with no check or no control counts as a failure: nothing was compared.
inline void print_report(std::ostream& out, const std::string& name, const KernelReport& r, int& passed, int& failed) {
  std::map<std::string, std::pair<int, int>> counts;  // kind -> (ok, all)
  for (const auto& c : r.checks) {
    (c.ok ? passed : failed) += 1;
    counts[c.kind].first += c.ok;
    counts[c.kind].second += 1;
    if (c.kind == "control")
      out << (c.ok ? "negative control " : "FAIL negative control ") << name << ": " << c.what << ": " << c.detail << "\n";
    else if (!c.ok)
      out << "FAIL " << name << " " << c.kind << " " << c.what << ": " << c.detail << "\n";
    else if (c.kind == "result")
      out << name << " " << c.what << ": " << c.detail << "\n";
  }
  out << name << ":";
  for (const auto& [kind, k] : counts) out << " " << kind << " " << k.first << "/" << k.second;
  out << "\n";
  if (counts["host"].second == 0 || counts["control"].second == 0) {
    ++failed;
    out << "FAIL " << name << ": no comparison ran\n";
  }
}

}  // namespace cuteref_gpu::vendor
