#include "vendor_model.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include "atoms/gmma_descriptor.hpp"
#include "composed_advance.hpp"
#include "coordinates.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "make_layout.hpp"
#include "notation.hpp"
#include "tile_to_shape.hpp"

namespace cuteref_gpu::vendor {

using namespace cuteref;

namespace {

IntTuple si(std::int64_t v) { return IntTuple::static_int(v); }
IntTuple tuple3(std::int64_t a, std::int64_t b, std::int64_t c) { return IntTuple::tuple({si(a), si(b), si(c)}); }

}  // namespace

ComposedLayout operand_layout(bool k_major, GmmaSwizzle sw, int bits, std::int64_t mn, std::int64_t k, int stages) {
  const ComposedLayout atom = gmma_smem_atom(k_major ? GmmaMajor::K : GmmaMajor::MN, sw, bits);
  TileOrder order;
  if (!k_major) order.order = tuple3(2, 1, 3);
  return tile_to_shape(atom, tuple3(mn, k, stages), order);
}

GmmaSwizzle cutlass_swizzle_choice(bool k_major, std::int64_t mn_extent, std::int64_t k_extent, int bits, bool rs) {
  const bool narrow_first = rs && !k_major && bits == 32;
  const std::vector<GmmaSwizzle> order = narrow_first ? std::vector<GmmaSwizzle>{GmmaSwizzle::SW32, GmmaSwizzle::Inter}
                                                      : std::vector<GmmaSwizzle>{GmmaSwizzle::SW128, GmmaSwizzle::SW64,
                                                                                 GmmaSwizzle::SW32, GmmaSwizzle::Inter};
  for (GmmaSwizzle sw : order) {
    const ComposedLayout atom = gmma_smem_atom(k_major ? GmmaMajor::K : GmmaMajor::MN, sw, bits);
    const std::int64_t extent = size_value(mode(atom.layout, k_major ? 1 : 0));
    if ((k_major ? k_extent : mn_extent) % extent == 0) return sw;
  }
  throw Error("no GMMA SMEM atom tiles a " + std::to_string(mn_extent) + "x" + std::to_string(k_extent) + " operand tile");
}

std::pair<std::int64_t, std::int64_t> cutlass_epilogue_tile(bool cooperative, int bits_d, std::int64_t bm, std::int64_t bn) {
  const std::int64_t n_perf = !cooperative && bits_d == 8 && bn % 64 == 0 ? 64 : 32;
  return {std::min<std::int64_t>(cooperative ? 128 : 64, bm), std::gcd(std::min(n_perf, bn), bn)};
}

ModelGemm derive(const GemmSpec& s, const Overrides& o) {
  const MmaAtom atom = mma_atom(o.atom.empty() ? s.atom : o.atom);
  const bool a_k_major = s.a_k_major != o.flip_a_major;
  const GmmaSwizzle swa = o.swizzle_a >= 0 ? static_cast<GmmaSwizzle>(o.swizzle_a)
                                           : cutlass_swizzle_choice(a_k_major, s.bm, s.bk, s.bits, s.a_in_registers);
  const GmmaSwizzle swb = cutlass_swizzle_choice(s.b_k_major, s.bn, s.bk, s.bits, s.a_in_registers);
  return ModelGemm{make_tiled_mma(atom, Layout(tuple3(s.atoms_m, 1, 1), tuple3(1, s.atoms_m, s.atoms_m))),
                   operand_layout(a_k_major, swa, s.bits, s.bm, s.bk, s.stages),
                   operand_layout(s.b_k_major, swb, s.bits, s.bn, s.bk, s.stages), atom.m * s.atoms_m, atom.n, atom.k};
}

Layout gmem_layout(bool k_major, std::int64_t mn, std::int64_t k, std::int64_t ld) {
  const IntTuple shape = IntTuple::tuple({IntTuple::integer(mn), IntTuple::integer(k), IntTuple::integer(1)});
  // A batch of one: cutlass::make_cute_packed_stride gives the L mode stride 0.
  if (k_major) return Layout(shape, IntTuple::tuple({IntTuple::integer(ld), si(1), IntTuple::integer(0)}));
  return Layout(shape, IntTuple::tuple({si(1), IntTuple::integer(ld), IntTuple::integer(0)}));
}

ComposedLayout stage_slice(const ComposedLayout& s, int stage) {
  const IntTuple coord = IntTuple::tuple({IntTuple::underscore(), IntTuple::underscore(), si(stage)});
  const auto [inner, offset] = slice_and_offset(coord, s.layout);
  return advance_composed(s, inner, offset.value());
}

std::string differs(const Value& model, const std::string& cute_text, bool profile) {
  const Value cute = parse_and_evaluate(cute_text, &standard_functions());
  const Verdict v = functional_equal(model, cute);
  if (!v.holds) return "model " + model.to_string() + " vs CuTe " + cute_text + ": " + v.reason;
  if (profile) {
    const Layout* a = model.is_composed() ? &std::get<ComposedLayout>(model.data).layout
                                          : model.is_layout() ? &std::get<Layout>(model.data) : nullptr;
    const Layout* b = cute.is_composed() ? &std::get<ComposedLayout>(cute.data).layout
                                         : cute.is_layout() ? &std::get<Layout>(cute.data) : nullptr;
    if (a && b && !a->shape().same_values(b->shape()))
      return "same function, different shape: model " + model.to_string() + " vs CuTe " + cute_text;
  }
  return "";
}

std::string tv_differs(const ModelGemm& m, char op, const std::string& cute_tv_text) {
  const Layout tv = parse_layout(cute_tv_text);
  const std::int64_t threads = size_value(mode(tv, 0)), values = size_value(mode(tv, 1));
  const std::int64_t x = op == 'B' ? m.tile_n : m.tile_m, y = op == 'C' ? m.tile_n : m.tile_k;
  const Layout ref = make_layout(IntTuple::tuple({si(x), si(y)}));
  if (threads != tiled_mma_size(m.tiled))
    return "CuTe's TiledMMA has " + std::to_string(threads) + " threads, the model's " + std::to_string(tiled_mma_size(m.tiled));
  for (std::int64_t t = 0; t < threads; ++t) {
    const Partition p = op == 'A' ? partition_A(m.tiled, t, ref) : op == 'B' ? partition_B(m.tiled, t, ref) : partition_C(m.tiled, t, ref);
    if (size_value(p.layout) != values)
      return "thread " + std::to_string(t) + ": the model's partition has " + std::to_string(size_value(p.layout)) +
             " values, CuTe's " + std::to_string(values);
    for (std::int64_t v = 0; v < values; ++v) {
      const std::int64_t want = apply_index(tv, t + threads * v), got = p.offset + apply_index(p.layout, v);
      if (want != got)
        return "(thread " + std::to_string(t) + ", value " + std::to_string(v) + "): CuTe index " + std::to_string(want) +
               " = (" + std::to_string(want % x) + "," + std::to_string(want / x) + "), model " + std::to_string(got) + " = (" +
               std::to_string(got % x) + "," + std::to_string(got / x) + ")";
    }
  }
  return "";
}

std::string descriptor_differs(std::uint64_t cute_word, std::uint32_t cute_base_start, const ModelGemm& m, char op, int bits) {
  const ComposedLayout& s = op == 'A' ? m.smem_a : m.smem_b;
  const ComposedLayout p = op == 'A' ? partition_A(m.tiled, 0, s) : partition_B(m.tiled, 0, s);
  const ComposedLayout tile{p.swizzle, p.offset, mode(p.layout, 0)};
  const GmmaDescriptor want = make_gmma_desc(Value(tile), bits, 0).descriptor;
  GmmaDescriptor got = GmmaDescriptor::decode(cute_word);
  got.start_address = (got.start_address - cute_base_start) & 0x3FFF;
  auto fields = [](const GmmaDescriptor& d) {
    return "(start " + std::to_string(d.start_address) + ", LBO " + std::to_string(d.leading_byte_offset) + ", SBO " +
           std::to_string(d.stride_byte_offset) + ", base " + std::to_string(d.base_offset) + ", layout " +
           std::to_string(static_cast<int>(d.layout_type)) + ")";
  };
  if (got == want) return "";
  return "CuTe " + fields(got) + " vs model " + fields(want) + " of " + tile.to_string();
}

std::string tma_differs(const TmaParams& model, const CapturedEncode& c) {
  auto list = [](const auto* v, int from, int n) {
    std::string s = "(";
    for (int i = from; i < n; ++i) s += (i > from ? "," : "") + std::to_string(v[i]);
    return s + ")";
  };
  const std::string cute = "CuTe rank " + std::to_string(c.rank) + " dims " + list(c.dims, 0, c.rank) + " strides " +
                           list(c.strides, 1, c.rank) + " box " + list(c.box, 0, c.rank) + " swizzle " + std::to_string(c.swizzle);
  const std::string mine = "model " + model.to_string();
  if (c.result != 0) return "the driver refused CuTe's call (CUresult " + std::to_string(c.result) + "); " + cute;
  if (c.rank != model.rank) return "rank: " + cute + " vs " + mine;
  for (int i = 0; i < c.rank; ++i) {
    if (c.dims[i] != model.global_dim[i]) return "globalDim[" + std::to_string(i) + "]: " + cute + " vs " + mine;
    if (i > 0 && c.strides[i] != model.global_stride_bytes[i]) return "globalStrides[" + std::to_string(i) + "]: " + cute + " vs " + mine;
    if (c.box[i] != model.box_dim[i]) return "boxDim[" + std::to_string(i) + "]: " + cute + " vs " + mine;
    if (c.element_strides[i] != model.element_stride[i]) return "elementStrides[" + std::to_string(i) + "]: " + cute + " vs " + mine;
  }
  if (c.interleave != model.interleave) return "interleave: " + cute + " vs " + mine;
  if (c.swizzle != static_cast<int>(model.swizzle)) return "swizzle: " + cute + " vs " + mine;
  return "";
}

}  // namespace cuteref_gpu::vendor
