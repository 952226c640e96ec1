#include "tma_tile_probe.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "atoms/tma.hpp"
#include "coordinates.hpp"
#include "cuda_check.hpp"
#include "element_ids.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "isolated_runner.hpp"
#include "notation.hpp"
#include "tensor_map.hpp"
#include "tma_kernels.cuh"

namespace cuteref_gpu {

using cuteref::IntTuple;
using cuteref::Layout;
using cuteref::TmaParams;
using cuteref::Value;

namespace {

const char* const kSwizzleNames[] = {"INTER", "SW32", "SW64", "SW128"};

enum class Control { None, PredictUnswizzled, CoordinatesReversed };

// One CTA tile of an (M, K) GMEM tensor moved to or from a GMMA-atom SMEM tile, box by box,
// with the tensor map and the copies the model derives (make_tma_params, tma_copies).
struct TileCase {
  int elem_bytes;
  bool k_major;          // SMEM atom majorness; GMEM is contiguous along the same mode
  int swizzle;           // 0..3: INTER, SW32, SW64, SW128
  std::int64_t tile_m, tile_k;
  std::int64_t tiles_m, tiles_k;  // GMEM holds this many tiles (the last one partial, see gmem())
  std::int64_t tm, tk;            // which tile is copied
  bool store;
  Control control = Control::None;

  std::string smem_expr() const {
    return std::string("tile_to_shape(gmma_atom(") + (k_major ? "K" : "MN") + ", " + kSwizzleNames[swizzle] + ", " +
           std::to_string(elem_bytes * 8) + "), (_" + std::to_string(tile_m) + ",_" + std::to_string(tile_k) + "))";
  }
  // GMEM extents: whole tiles plus a partial one in each mode, so that a tile at the far end
  // hangs over the tensor and its out-of-bounds elements are zero-filled (loads) or dropped
  // (stores); the leading dimension is padded by 16 bytes.
  std::int64_t extent_m() const { return tiles_m * tile_m - tile_m / 2; }
  std::int64_t extent_k() const { return tiles_k * tile_k - tile_k / 2; }
  std::int64_t leading() const {
    const std::int64_t inner = k_major ? extent_k() : extent_m();
    const std::int64_t granule = 16 / elem_bytes;
    return (inner + granule - 1) / granule * granule + granule;
  }
  Layout gmem() const {
    auto i = [](std::int64_t v) { return IntTuple::integer(v); };
    const IntTuple shape = IntTuple::tuple({i(extent_m()), i(extent_k())});
    return Layout(shape, k_major ? IntTuple::tuple({i(leading()), i(1)}) : IntTuple::tuple({i(1), i(leading())}));
  }
  std::string describe() const {
    std::ostringstream s;
    s << (store ? "store " : "load ") << smem_expr() << " of gmem " << gmem().to_string() << " tile (" << tm << ","
      << tk << ")";
    if (control == Control::PredictUnswizzled) s << " [control: predicted without the swizzle]";
    if (control == Control::CoordinatesReversed) s << " [control: box coordinates in reverse copy order]";
    return s.str();
  }
};

template <int Rank>
void launch(const TileCase& c, const CUtensorMap& map, const TileCopy* d_copies, int n, std::uint8_t* buf,
            std::uint32_t tile_bytes, std::uint32_t box_bytes, std::uint8_t poison) {
  CUDA_CHECK(cudaFuncSetAttribute(tma_tile_load_kernel<Rank>, cudaFuncAttributeMaxDynamicSharedMemorySize, kTmaMaxDynamicSmem));
  CUDA_CHECK(cudaFuncSetAttribute(tma_tile_store_kernel<Rank>, cudaFuncAttributeMaxDynamicSharedMemorySize, kTmaMaxDynamicSmem));
  const std::size_t smem = tile_bytes + 1024;
  if (c.store) tma_tile_store_kernel<Rank><<<1, kTmaThreads, smem>>>(map, d_copies, n, buf, tile_bytes);
  else tma_tile_load_kernel<Rank><<<1, kTmaThreads, smem>>>(map, d_copies, n, buf, tile_bytes, box_bytes, poison);
  CUDA_CHECK_LAUNCH();
}

// Where each tile element (m, k) lives: its SMEM element position (after the swizzle) and its
// GMEM element offset, or -1 where it lies outside the tensor.
struct Placement {
  std::vector<std::int64_t> smem_position;
  std::vector<std::int64_t> gmem_offset;
};

Placement place(const TileCase& c, const Value& smem) {
  Placement pl;
  const Layout g = c.gmem();
  const std::int64_t sm = c.k_major ? c.leading() : 1, sk = c.k_major ? 1 : c.leading();
  // The control predicts with the SMEM layout minus its swizzle: the inner layout.
  const Value predict = c.control == Control::PredictUnswizzled ? Value(std::get<cuteref::ComposedLayout>(smem.data).layout)
                                                                 : smem;
  for (std::int64_t t = 0; t < c.tile_m * c.tile_k; ++t) {
    const std::int64_t m = c.tm * c.tile_m + t % c.tile_m, k = c.tk * c.tile_k + t / c.tile_m;
    pl.smem_position.push_back(cuteref::evaluate_at(predict, t).value());
    pl.gmem_offset.push_back(m < c.extent_m() && k < c.extent_k() ? m * sm + k * sk : -1);
  }
  return pl;
}

struct Outcome {
  bool ok = true;
  int copies = 0;
  std::string first_mismatch;
};

Outcome run_case(const TileCase& c) {
  Outcome o;
  const int eb = c.elem_bytes;
  const Layout gmem = c.gmem();
  const Value smem = cuteref::parse_and_evaluate(c.smem_expr(), &cuteref::standard_functions());
  const TmaParams p = cuteref::make_tma_params(gmem, smem, eb * 8);
  const cuteref::TmaCopies copies = cuteref::tma_copies(gmem, smem, eb * 8);

  // The tile's origin in TMA coordinates: TMA dimension i walks GMEM mode tma_modes[i].
  const std::int64_t tile_origin[2] = {c.tm * c.tile_m, c.tk * c.tile_k};
  std::vector<TileCopy> host_copies;
  const std::int64_t n = cuteref::size_value(copies.smem_offsets);
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int64_t jc = c.control == Control::CoordinatesReversed ? n - 1 - j : j;
    TileCopy tc{};
    tc.smem_byte_offset = static_cast<std::uint32_t>(cuteref::apply_index(copies.smem_offsets, j) * eb);
    const IntTuple coord = cuteref::evaluate_at(Value(copies.coordinates), jc);
    for (int i = 0; i < p.rank; ++i) {
      if (p.tma_modes[i].size() != 1) throw std::runtime_error("a TMA dimension merges GMEM modes: not a tile case");
      const std::int64_t rel = coord.is_tuple() ? (static_cast<std::size_t>(i) < coord.rank() ? coord[i].value() : 0)
                                                : (i == 0 ? coord.value() : 0);
      tc.c[i] = static_cast<int>(tile_origin[p.tma_modes[i][0]] + rel);
    }
    host_copies.push_back(tc);
  }
  o.copies = static_cast<int>(n);

  const Placement pl = place(c, smem);
  std::int64_t box_elems = 1;
  for (int i = 0; i < p.rank; ++i) box_elems *= p.box_dim[i];
  const std::uint32_t box_bytes = static_cast<std::uint32_t>(box_elems * eb);
  const std::int64_t tile_elems = cuteref::cosize(std::get<cuteref::ComposedLayout>(smem.data).layout).value();
  const std::uint32_t tile_bytes = static_cast<std::uint32_t>(tile_elems * eb);
  const std::int64_t gmem_elems = cuteref::cosize(gmem).value();
  const std::size_t gmem_bytes = static_cast<std::size_t>(gmem_elems * eb);

  std::uint8_t *d_gmem = nullptr, *d_tile = nullptr;
  TileCopy* d_copies = nullptr;
  CUDA_CHECK(cudaMalloc(&d_gmem, gmem_bytes));
  CUDA_CHECK(cudaMalloc(&d_tile, tile_bytes));
  CUDA_CHECK(cudaMalloc(&d_copies, host_copies.size() * sizeof(TileCopy)));
  CUDA_CHECK(cudaMemcpy(d_copies, host_copies.data(), host_copies.size() * sizeof(TileCopy), cudaMemcpyHostToDevice));
  const CUtensorMap map = encode(p, d_gmem, static_cast<int>(p.swizzle));
  auto launch_rank = [&](std::uint8_t* buf, std::uint8_t poison) {
    switch (p.rank) {
      case 2: return launch<2>(c, map, d_copies, static_cast<int>(n), buf, tile_bytes, box_bytes, poison);
      case 3: return launch<3>(c, map, d_copies, static_cast<int>(n), buf, tile_bytes, box_bytes, poison);
    }
    throw std::runtime_error("tile probe: unexpected TMA rank " + std::to_string(p.rank));
  };

  auto mismatch = [&](const std::string& what) {
    if (!o.ok) return;
    o.ok = false;
    o.first_mismatch = what;
  };
  const std::uint8_t poisons[2] = {0xEE, 0x11};
  for (int pass = 0; pass < passes_for(eb) && o.ok; ++pass) {
    for (std::uint8_t poison : poisons) {
      if (!c.store) {
        const std::vector<std::uint8_t> host = id_image(gmem_elems, eb, pass);
        CUDA_CHECK(cudaMemcpy(d_gmem, host.data(), gmem_bytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemset(d_tile, 0xA5, tile_bytes));
        launch_rank(d_tile, poison);
        std::vector<std::uint8_t> got(tile_bytes);
        CUDA_CHECK(cudaMemcpy(got.data(), d_tile, tile_bytes, cudaMemcpyDeviceToHost));
        // Every SMEM position holds the id of the GMEM element placed there (0 where the
        // element lies outside the tensor); positions no tile element maps to keep the poison.
        std::vector<std::uint64_t> want(static_cast<std::size_t>(tile_elems), poison * 0x0101010101010101ull);
        for (auto& w : want) w &= eb >= 8 ? ~0ull : ((1ull << (8 * eb)) - 1);
        for (std::size_t t = 0; t < pl.smem_position.size(); ++t)
          want[pl.smem_position[t]] = pl.gmem_offset[t] < 0 ? 0 : pass_value(pl.gmem_offset[t] + 1, eb, pass);
        for (std::int64_t pos = 0; pos < tile_elems && o.ok; ++pos) {
          const std::uint64_t have = read_elem(got, pos, eb);
          if (have != want[pos]) {
            std::ostringstream s;
            s << "smem element " << pos << ": model predicts " << want[pos] << ", hardware wrote " << have << " (pass "
              << pass << ")";
            mismatch(s.str());
          }
        }
      } else {
        // SMEM position pos holds id pos+1; GMEM is poisoned; each tile element inside the
        // tensor must receive the id of its SMEM position, every other GMEM element keeps the poison.
        const std::vector<std::uint8_t> img = id_image(tile_elems, eb, pass);
        const std::vector<std::uint8_t> host(gmem_bytes, poison);
        CUDA_CHECK(cudaMemcpy(d_tile, img.data(), tile_bytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d_gmem, host.data(), gmem_bytes, cudaMemcpyHostToDevice));
        launch_rank(d_tile, poison);
        CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<std::uint8_t> got(gmem_bytes);
        CUDA_CHECK(cudaMemcpy(got.data(), d_gmem, gmem_bytes, cudaMemcpyDeviceToHost));
        std::vector<std::uint8_t> want_bytes(gmem_bytes, poison);
        for (std::size_t t = 0; t < pl.smem_position.size(); ++t)
          if (pl.gmem_offset[t] >= 0)
            write_elem(want_bytes, pl.gmem_offset[t], eb, pass_value(pl.smem_position[t] + 1, eb, pass));
        for (std::int64_t i = 0; i < gmem_elems && o.ok; ++i) {
          const std::uint64_t want = read_elem(want_bytes, i, eb), have = read_elem(got, i, eb);
          if (want != have) {
            std::ostringstream s;
            s << "gmem element " << i << ": model predicts " << want << ", hardware wrote " << have << " (pass " << pass
              << ")";
            mismatch(s.str());
          }
        }
      }
    }
  }
  CUDA_CHECK(cudaFree(d_gmem));
  CUDA_CHECK(cudaFree(d_tile));
  CUDA_CHECK(cudaFree(d_copies));
  return o;
}

}  // namespace

ProbeTally run_tma_tile_probe(std::ostream& out) {
  ProbeTally tally;
  std::vector<TileCase> cases;
  for (int eb : {1, 2, 4})
    for (bool k_major : {true, false})
      for (int swizzle = 0; swizzle < 4; ++swizzle) {
        // Tiles of 128 bytes x 64 or 128 rows: several swizzle atoms along the contiguous mode
        // for the narrow swizzles, several boxes, and the 8-row atoms repeated along the other mode.
        const std::int64_t wide = 128 / eb;
        for (std::int64_t rows : {64, 128}) {
          const std::int64_t tile_m = k_major ? rows : wide, tile_k = k_major ? wide : rows;
          for (bool store : {false, true})
            for (int where = 0; where < 3; ++where) {
              // The first tile, an interior one, and the last (partial) one.
              const std::int64_t tm = where == 0 ? 0 : where == 1 ? 1 : 2, tk = where == 0 ? 0 : where == 1 ? 1 : 2;
              cases.push_back(TileCase{eb, k_major, swizzle, tile_m, tile_k, 3, 3, tm, tk, store});
            }
        }
      }
  const std::size_t first_control = cases.size();
  for (int eb : {1, 2, 4})
    for (bool k_major : {true, false}) {
      const std::int64_t wide = 128 / eb;
      const std::int64_t tile_m = k_major ? 64 : wide, tile_k = k_major ? wide : 64;
      TileCase unswizzled{eb, k_major, 3, tile_m, tile_k, 3, 3, 1, 1, false, Control::PredictUnswizzled};
      cases.push_back(unswizzled);
      // SW32 tiles of 128 bytes take several boxes along the contiguous mode.
      TileCase reversed{eb, k_major, 1, tile_m, tile_k, 3, 3, 1, 1, false, Control::CoordinatesReversed};
      cases.push_back(reversed);
    }

  const std::vector<CaseOutcome> results = run_isolated(cases.size(), [&](std::size_t i) {
    const Outcome o = run_case(cases[i]);
    return CaseOutcome{true, o.ok, o.copies > 1, o.first_mismatch};
  });
  std::map<std::string, std::pair<int, int>> matrix;  // cell -> (passed, total)
  int multi_box = 0, caught = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const TileCase& c = cases[i];
    const CaseOutcome& r = results[i];
    if (i >= first_control) {
      if (r.ran && !r.ok && r.message.find("model predicts") != std::string::npos) {
        ++caught;
        ++tally.passed;
        out << "tma tile negative control caught: " << c.describe() << ": " << r.message << "\n";
      } else {
        ++tally.failed;
        out << "FAIL tma tile negative control not caught: " << c.describe() << ": " << (r.ok ? "no mismatch" : r.message)
            << "\n";
      }
      continue;
    }
    const std::string cell = std::string(c.store ? "store" : "load ") + " e" + std::to_string(c.elem_bytes * 8) + " " +
                             (c.k_major ? "K " : "MN") + " " + kSwizzleNames[c.swizzle];
    auto& m = matrix[cell];
    ++m.second;
    if (r.ok) {
      ++m.first;
      ++tally.passed;
      multi_box += r.flag ? 1 : 0;
    } else {
      ++tally.failed;
      out << "FAIL " << c.describe() << ": " << r.message << "\n";
    }
  }
  for (const auto& [cell, pt] : matrix) out << "tma tile " << cell << ": " << pt.first << "/" << pt.second << "\n";
  out << "tma tile: " << multi_box << " passing cases moved their tile in more than one box\n";
  out << "tma tile negative controls: " << caught << "/" << (cases.size() - first_control) << " caught\n";
  return tally;
}

}  // namespace cuteref_gpu
