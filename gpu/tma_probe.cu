#include "tma_probe.hpp"

#include <cuda.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <tuple>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "atoms/tma.hpp"
#include "coordinates.hpp"
#include "cuda_check.hpp"
#include "element_ids.hpp"
#include "tensor_map.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "isolated_runner.hpp"
#include "make_layout.hpp"
#include "seed_swizzle_hypothesis.hpp"
#include "tma_kernels.cuh"

namespace cuteref_gpu {

using cuteref::ComposedLayout;
using cuteref::ComposedOffset;
using cuteref::IntTuple;
using cuteref::Layout;
using cuteref::Swizzle;
using cuteref::TmaParams;
using cuteref::Value;

namespace {


struct TmaCase {
  int elem_bytes;
  int swizzle_bits;                 // 0 none, 1/2/3: 32/64/128-byte
  std::vector<std::int64_t> gdim;   // elements, innermost first
  std::vector<std::int64_t> gstride;  // elements
  std::vector<std::int64_t> box;
  std::array<std::int64_t, 5> origin{};
  bool store;
  int encode_swizzle_bits;          // what the tensor map is encoded with (differs in negative controls)
  std::string model_rejection;      // the model's diagnostic for this copy, empty if it accepts it
  bool predict_unswizzled = false;  // negative control: predict without the swizzle
  std::string describe() const {
    std::ostringstream s;
    s << (store ? "store" : "load") << " e" << elem_bytes * 8 << " sw" << (swizzle_bits ? (16 << swizzle_bits) : 0)
      << " gdim(";
    for (std::size_t i = 0; i < gdim.size(); ++i) s << (i ? "," : "") << gdim[i];
    s << ") box(";
    for (std::size_t i = 0; i < box.size(); ++i) s << (i ? "," : "") << box[i];
    s << ") origin(";
    for (std::size_t i = 0; i < box.size(); ++i) s << (i ? "," : "") << origin[i];
    s << ")";
    return s.str();
  }
};

IntTuple int_tuple_of(const std::vector<std::int64_t>& v) {
  std::vector<IntTuple> e;
  for (auto x : v) e.push_back(IntTuple::integer(x));
  return IntTuple::tuple(std::move(e));
}

Value smem_layout_of(const TmaCase& c) {
  Layout box = cuteref::make_layout(int_tuple_of(c.box));
  if (c.swizzle_bits == 0) return Value(box);
  const int bits = c.elem_bytes * 8;
  return Value(ComposedLayout{Swizzle(c.swizzle_bits, 4, 3),
                              ComposedOffset{std::nullopt, "smem_ptr[" + std::to_string(bits) + "b](unset)", bits}, box});
}

template <int Rank>
void launch(bool store, const CUtensorMap& map, const Coords& c, std::uint8_t* out_or_image, std::uint32_t box_bytes,
            std::uint8_t poison) {
  // Set every time: a device reset after a failed case drops function attributes.
  CUDA_CHECK(cudaFuncSetAttribute(tma_load_kernel<Rank>, cudaFuncAttributeMaxDynamicSharedMemorySize, kTmaMaxDynamicSmem));
  CUDA_CHECK(cudaFuncSetAttribute(tma_store_kernel<Rank>, cudaFuncAttributeMaxDynamicSharedMemorySize, kTmaMaxDynamicSmem));
  const std::size_t smem = box_bytes + 1024;
  if (store) tma_store_kernel<Rank><<<1, kTmaThreads, smem>>>(map, c, out_or_image, box_bytes);
  else tma_load_kernel<Rank><<<1, kTmaThreads, smem>>>(map, c, out_or_image, box_bytes, poison);
  CUDA_CHECK_LAUNCH();
}

void launch_rank(int rank, bool store, const CUtensorMap& map, const Coords& c, std::uint8_t* buf,
                 std::uint32_t box_bytes, std::uint8_t poison) {
  switch (rank) {
    case 1: return launch<1>(store, map, c, buf, box_bytes, poison);
    case 2: return launch<2>(store, map, c, buf, box_bytes, poison);
    case 3: return launch<3>(store, map, c, buf, box_bytes, poison);
    case 4: return launch<4>(store, map, c, buf, box_bytes, poison);
    case 5: return launch<5>(store, map, c, buf, box_bytes, poison);
  }
  throw std::runtime_error("bad rank");
}

struct Outcome {
  bool ok = true;
  std::string first_mismatch;
  bool seed_hypothesis_consistent = true;
};

// The tensor map of a copy the model rejects, filled in as the case states it, so that the
// hardware can show what it does with it (fault, or an image other than the layout's).
TmaParams raw_params(const TmaCase& c, const Value& smem) {
  TmaParams p;
  p.rank = static_cast<int>(c.gdim.size());
  p.element_bytes = c.elem_bytes;
  for (int i = 0; i < p.rank; ++i) {
    p.global_dim[i] = static_cast<std::uint64_t>(c.gdim[i]);
    p.global_stride_bytes[i] = static_cast<std::uint64_t>(c.gstride[i] * c.elem_bytes);
    p.box_dim[i] = static_cast<std::uint32_t>(c.box[i]);
    p.element_stride[i] = 1;
  }
  p.swizzle = static_cast<cuteref::TmaSwizzle>(c.swizzle_bits);
  p.smem_layout = smem;
  return p;
}

Outcome run_case(const TmaCase& c) {
  Outcome o;
  const int eb = c.elem_bytes;
  Layout gmem(int_tuple_of(c.gdim), int_tuple_of(c.gstride));
  Value smem = smem_layout_of(c);
  TmaParams p = c.model_rejection.empty() ? cuteref::make_tma_params(gmem, smem, eb * 8) : raw_params(c, smem);
  // Negative control: the prediction forgets the swizzle that the tensor map applies.
  if (c.predict_unswizzled) p.smem_layout = Value(cuteref::make_layout(int_tuple_of(c.box)));
  const std::vector<std::int64_t> image = cuteref::tma_predicted_image(p, gmem, c.origin);
  const std::int64_t box_elems = static_cast<std::int64_t>(image.size());
  const std::uint32_t box_bytes = static_cast<std::uint32_t>(box_elems * eb);
  const std::int64_t gmem_elems = cuteref::cosize(gmem).value();
  const std::size_t gmem_bytes = static_cast<std::size_t>(gmem_elems * eb);

  std::uint8_t* d_gmem = nullptr;
  std::uint8_t* d_box = nullptr;
  CUDA_CHECK(cudaMalloc(&d_gmem, gmem_bytes));
  CUDA_CHECK(cudaMalloc(&d_box, box_bytes));
  CUtensorMap map = encode(p, d_gmem, c.encode_swizzle_bits);
  Coords coords{};
  for (int i = 0; i < p.rank; ++i) coords.c[i] = static_cast<int>(c.origin[i]);

  // Seed 000's formula as an alternative prediction of where box element e lands.
  Layout plain_box = cuteref::make_layout(int_tuple_of(c.box));
  auto seed_position = [&](std::int64_t e) -> std::int64_t {
    std::int64_t byte = seed000_swizzle(c.swizzle_bits, 4, 3, cuteref::apply_index(plain_box, e) * eb);
    return byte % eb == 0 && byte / eb < box_elems ? byte / eb : -1;
  };

  const std::uint8_t poisons[2] = {0xEE, 0x11};
  for (int pass = 0; pass < passes_for(eb) && o.ok; ++pass) {
    for (std::uint8_t poison : poisons) {
      if (!c.store) {
        const std::vector<std::uint8_t> host = id_image(gmem_elems, eb, pass);
        CUDA_CHECK(cudaMemcpy(d_gmem, host.data(), gmem_bytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemset(d_box, 0xA5, box_bytes));
        launch_rank(p.rank, false, map, coords, d_box, box_bytes, poison);
        std::vector<std::uint8_t> got(box_bytes);
        CUDA_CHECK(cudaMemcpy(got.data(), d_box, box_bytes, cudaMemcpyDeviceToHost));
        for (std::int64_t pos = 0; pos < box_elems; ++pos) {
          const std::uint64_t want = image[pos] < 0 ? 0 : pass_value(image[pos] + 1, eb, pass);
          const std::uint64_t have = read_elem(got, pos, eb);
          if (want != have && o.ok) {
            o.ok = false;
            std::ostringstream s;
            s << "smem element " << pos << ": model predicts " << want << " (gmem offset " << image[pos] << "), hardware wrote "
              << have << " (pass " << pass << ", poison 0x" << std::hex << int(poison) << ")";
            o.first_mismatch = s.str();
          }
        }
        if (c.swizzle_bits > 0 && pass == 0 && poison == poisons[0]) {
          // Does seed 000's formula explain the hardware's image?
          for (std::int64_t e = 0; e < box_elems; ++e) {
            const std::int64_t pos_model = cuteref::evaluate_at(smem, e).value();
            const std::int64_t pos_seed = seed_position(e);
            if (pos_seed < 0 || read_elem(got, pos_seed, eb) != read_elem(got, pos_model, eb)) {
              o.seed_hypothesis_consistent = false;
              break;
            }
          }
        }
      } else {
        // Store: the box image holds value(pos) at SMEM position pos; gmem is poisoned.
        const std::vector<std::uint8_t> img = id_image(box_elems, eb, pass);
        const std::vector<std::uint8_t> host(gmem_bytes, poison);
        CUDA_CHECK(cudaMemcpy(d_box, img.data(), box_bytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d_gmem, host.data(), gmem_bytes, cudaMemcpyHostToDevice));
        launch_rank(p.rank, true, map, coords, d_box, box_bytes, poison);
        std::vector<std::uint8_t> got(gmem_bytes);
        CUDA_CHECK(cudaMemcpy(got.data(), d_gmem, gmem_bytes, cudaMemcpyDeviceToHost));
        std::vector<std::uint8_t> want_bytes(gmem_bytes, poison);
        for (std::int64_t pos = 0; pos < box_elems; ++pos)
          if (image[pos] >= 0) write_elem(want_bytes, image[pos], eb, pass_value(pos + 1, eb, pass));
        for (std::int64_t i = 0; i < gmem_elems && o.ok; ++i) {
          const std::uint64_t want = read_elem(want_bytes, i, eb), have = read_elem(got, i, eb);
          if (want != have) {
            o.ok = false;
            std::ostringstream s;
            s << "gmem element " << i << ": model predicts " << want << ", hardware wrote " << have << " (pass " << pass
              << ")";
            o.first_mismatch = s.str();
          }
        }
      }
    }
  }
  CUDA_CHECK(cudaFree(d_gmem));
  CUDA_CHECK(cudaFree(d_box));
  return o;
}

std::int64_t round_up(std::int64_t x, std::int64_t m) { return (x + m - 1) / m * m; }

// Builds a tensor around a box: dims give partial boxes at the ends, rows padded by 16 bytes.
TmaCase make_case(int eb, int swz, const std::vector<std::int64_t>& box, int origin_kind, bool store) {
  TmaCase c{eb, swz, {}, {}, box, {}, store, swz};
  const std::size_t r = box.size();
  for (std::size_t i = 0; i < r; ++i) c.gdim.push_back(i == 0 ? 2 * box[0] + 5 : 2 * box[i] + 1);
  std::int64_t stride = 1;
  for (std::size_t i = 0; i < r; ++i) {
    c.gstride.push_back(stride);
    const std::int64_t extent = i == 0 ? round_up(c.gdim[0] * eb, 16) / eb : stride * c.gdim[i];
    stride = (i == 0 ? extent : extent) + 16 / eb;
  }
  for (std::size_t i = 0; i < r; ++i) {
    const std::int64_t granule = 16 / eb;  // elements per 16 bytes
    const std::int64_t far = c.gdim[i] - box[i] / 2 - 1;
    if (origin_kind == 0) c.origin[i] = 0;
    else if (origin_kind == 1) c.origin[i] = box[i];                                 // an interior tile
    else if (origin_kind == 2) c.origin[i] = i == 0 ? far / granule * granule : far;  // hangs over the far end
    else if (origin_kind == 3) c.origin[i] = i == 0 ? -granule : -1;                 // starts before the tensor
    else if (origin_kind == 4) c.origin[i] = i == 0 ? 3 : 1;                         // unaligned inner start
    else c.origin[i] = far;                                                          // far end, unaligned
  }
  try {
    Layout gmem(int_tuple_of(c.gdim), int_tuple_of(c.gstride));
    TmaParams p = cuteref::make_tma_params(gmem, smem_layout_of(c), eb * 8);
    cuteref::check_tma_copy(p, c.origin, store ? cuteref::TmaDirection::Store : cuteref::TmaDirection::Load);
  } catch (const cuteref::Error& e) {
    c.model_rejection = e.what();
  }
  return c;
}


std::string cell_of(const TmaCase& c) {
  return std::string(c.store ? "store" : "load ") + " e" + std::to_string(c.elem_bytes * 8) + " sw" +
         std::to_string(c.swizzle_bits ? (16 << c.swizzle_bits) : 0) + " rank" + std::to_string(c.box.size());
}

}  // namespace

// The copies the hardware is known to fault on (gpu/RESULTS.md: an innermost start that is not
// a multiple of 16 bytes, a store starting before the tensor): 0 none, 1 unaligned start, 2 store
// before the tensor. Each costs a fresh CUDA context, and a fault is serialized GPU-wide.
int expected_fault(const TmaCase& c) {
  if (c.model_rejection.empty()) return 0;
  if ((c.origin[0] * c.elem_bytes) % 16 != 0) return 1;
  for (std::size_t d = 0; d < c.box.size(); ++d)
    if (c.store && c.origin[d] < 0) return 2;
  return 0;
}

ProbeTally run_tma_probe(std::ostream& out) {
  ProbeTally tally;
  std::vector<TmaCase> cases;
  // Faulting copies are confirmed once per (rule, element size, swizzle, direction) unless
  // CUTEREF_GPU_ALL_FAULTS=1 (each fault costs about half a second of the matrix's time).
  const char* all_faults_env = std::getenv("CUTEREF_GPU_ALL_FAULTS");
  const bool all_faults = all_faults_env && std::string(all_faults_env) == "1";
  std::set<std::tuple<int, int, int, bool>> fault_kinds;
  // CUTEREF_GPU_TMA_ACCEPTED_ONLY=1 leaves out every copy the model rejects (they are invalid
  // copies on purpose): for runs under compute-sanitizer, whose reports they would fill.
  const char* accepted_env = std::getenv("CUTEREF_GPU_TMA_ACCEPTED_ONLY");
  const bool only_accepted = accepted_env && std::string(accepted_env) == "1";
  if (only_accepted) out << "tma: the copies the model rejects are left out (CUTEREF_GPU_TMA_ACCEPTED_ONLY=1)\n";
  int faults_left_out = 0;
  for (int eb : {1, 2, 4})
    for (int swz = 0; swz <= 3; ++swz) {
      std::vector<std::int64_t> inners;
      if (swz == 0) inners = {64 / eb, 256};
      else {
        inners.push_back((16 << swz) / eb);
        if (swz >= 2) inners.push_back((8 << swz) / eb);
      }
      for (std::int64_t inner : inners) {
        std::vector<std::vector<std::int64_t>> boxes = {{inner, 8}, {inner, 37}, {inner, 4, 3}, {inner, 3, 2, 2},
                                                        {inner, 2, 2, 2, 3}};
        if (swz == 0 && inner == 256 && eb <= 2) boxes.push_back({256, 256});  // the largest legal 2-D box
        for (const auto& box : boxes)
          for (int origin_kind = 0; origin_kind < 6; ++origin_kind)
            for (bool store : {false, true}) {
              TmaCase c = make_case(eb, swz, box, origin_kind, store);
              // Copies the model rejects are confirmed on rank-2 boxes only: each one that
              // faults costs a fresh CUDA context (a child process).
              if (!c.model_rejection.empty() && (box.size() != 2 || only_accepted)) continue;
              if (const int rule = expected_fault(c);
                  rule && !all_faults && !fault_kinds.insert({rule, eb, swz, store}).second) {
                ++faults_left_out;
                continue;
              }
              cases.push_back(c);
            }
      }
    }
  // Negative controls: the tensor map is encoded with a different swizzle mode than the
  // model predicts; the harness must report a mismatch.
  const std::size_t first_control = cases.size();
  for (int eb : {1, 2, 4})
    for (int swz = 1; swz <= 3; ++swz) {
      TmaCase wrong_map = make_case(eb, swz, {(16 << swz) / eb, 8}, 1, false);
      wrong_map.encode_swizzle_bits = 0;  // the tensor map omits the swizzle the model predicts
      cases.push_back(wrong_map);
      TmaCase wrong_prediction = make_case(eb, swz, {(16 << swz) / eb, 8}, 1, false);
      wrong_prediction.predict_unswizzled = true;  // the prediction omits the swizzle the map applies
      cases.push_back(wrong_prediction);
    }

  // The copies expected to fault run each in their own process; every other copy, the rejected
  // ones that produce another image included, shares one.
  const auto faults = [&](std::size_t i) { return expected_fault(cases[i]) != 0; };
  std::size_t faulting = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) faulting += faults(i) ? 1 : 0;
  out << "tma copies expected to fault: " << faulting << " run, each in its own process; " << faults_left_out
      << " further ones of the same (rule, element size, swizzle, direction) left out (CUTEREF_GPU_ALL_FAULTS=1 runs them)\n";
  const std::vector<CaseOutcome> results = run_isolated(
      cases.size(),
      [&](std::size_t i) {
        Outcome o = run_case(cases[i]);
        return CaseOutcome{true, o.ok, o.seed_hypothesis_consistent, o.first_mismatch};
      },
      faults);
  std::map<std::string, std::pair<int, int>> matrix;  // cell -> (passed, total)
  std::map<std::string, std::pair<int, int>> rejected;  // model diagnostic kind -> (confirmed, total)
  int seed_consistent = 0, seed_checked = 0, caught = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const TmaCase& c = cases[i];
    const CaseOutcome& r = results[i];
    if (i >= first_control) {
      if (r.ran && !r.ok && r.message.find("model predicts") != std::string::npos) {
        ++caught;
        ++tally.passed;
        out << "negative control caught: " << c.describe()
            << (c.predict_unswizzled ? " predicted without its swizzle" : " encoded without its swizzle") << ": "
            << r.message << "\n";
      } else {
        ++tally.failed;
        out << "FAIL negative control not caught: " << c.describe() << ": " << (r.ok ? "no mismatch" : r.message) << "\n";
      }
      continue;
    }
    if (!c.model_rejection.empty()) {
      // The model declines this copy. The hardware must not do what the naive composed-layout
      // image says (it faults or differs), else the model's diagnostic is unjustified.
      std::string rule = c.model_rejection.substr(c.model_rejection.find(": ") + 2);
      rule = rule.substr(0, std::min(rule.find_first_of(";("), std::size_t{70}));
      auto& rj = rejected[rule];
      ++rj.second;
      const bool hardware_disagrees = r.message.find("model predicts") != std::string::npos ||
                                      r.message.find("cudaDeviceSynchronize") != std::string::npos;
      if (hardware_disagrees) {
        ++rj.first;
        ++tally.passed;
      } else if (!r.ok) {
        ++tally.failed;
        out << "FAIL could not run a copy the model rejects: " << c.describe() << ": " << r.message << "\n";
      } else {
        ++tally.failed;
        out << "FAIL the model rejects a copy the hardware performs as the layout predicts: " << c.describe() << ": "
            << c.model_rejection << "\n";
      }
      continue;
    }
    auto& m = matrix[cell_of(c)];
    ++m.second;
    if (r.ok) {
      ++m.first;
      ++tally.passed;
    } else {
      ++tally.failed;
      out << "FAIL " << c.describe() << ": " << r.message << "\n";
    }
    if (r.ok && !c.store && c.swizzle_bits > 0) {
      ++seed_checked;
      seed_consistent += r.flag ? 1 : 0;
    }
  }
  for (const auto& [cell, pt] : matrix) out << "tma " << cell << ": " << pt.first << "/" << pt.second << "\n";
  for (const auto& [rule, pt] : rejected)
    out << "tma model diagnostic confirmed by the hardware (fault or different image) '" << rule << "': " << pt.first
        << "/" << pt.second << "\n";
  out << "tma negative controls: " << caught << "/" << (cases.size() - first_control) << " caught\n";
  out << "tma seed 000 swizzle formula consistent with the hardware in " << seed_consistent << "/" << seed_checked
      << " passing swizzled loads (the model's formula, CuTe's, matched all of them)\n";
  return tally;
}

}  // namespace cuteref_gpu
