#include "wgmma_probe.hpp"

#include <cstring>
#include <map>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "atoms/gmma_descriptor.hpp"
#include "atoms/mma_atom.hpp"
#include "coordinates.hpp"
#include "cuda_check.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "gmma_operand.hpp"
#include "isolated_runner.hpp"
#include "notation.hpp"
#include "wgmma_kernels.cuh"

namespace cuteref_gpu {

using cuteref::IntTuple;
using cuteref::MmaAtom;
using cuteref::Value;

namespace {

const char* kSwizzleNames[] = {"INTER", "SW32", "SW64", "SW128"};

enum class Control { None, SwapLboSbo, WrongSwizzleMode, WrongCLayout };

struct WgmmaCase {
  std::size_t instance;
  int swizzle;  // 0..3: INTER, SW32, SW64, SW128 (both operands)
  Control control = Control::None;
  std::string describe() const {
    std::string s = std::string(wgmma_instances()[instance].atom_name) + " " + kSwizzleNames[swizzle];
    if (control == Control::SwapLboSbo) s += " [control: LBO/SBO swapped in the descriptors]";
    if (control == Control::WrongSwizzleMode) s += " [control: descriptor swizzle mode off by one]";
    if (control == Control::WrongCLayout) s += " [control: checked against another atom's C layout]";
    return s;
  }
};

// The operand tile (rows x k elements) in shared memory, from the model: the GMMA atom of
// that majorness and swizzle tiled to the operand (CuTe's tile_to_shape), restricted to the
// first k columns when the atom is wider than one instruction's K.
Value operand_tile(cuteref::GmmaMajor major, int swizzle, int bits, std::int64_t rows, std::int64_t k) {
  const std::int64_t width = (16 << swizzle) * 8 / bits;  // the atom's contiguous extent, elements
  const std::string atom = std::string("gmma_atom(") + (major == cuteref::GmmaMajor::K ? "K" : "MN") + ", " +
                           kSwizzleNames[swizzle] + ", " + std::to_string(bits) + ")";
  std::string expr;
  if (major == cuteref::GmmaMajor::K) {
    const std::int64_t kt = ((k + width - 1) / width) * width;
    expr = "composition(tile_to_shape(" + atom + ", (" + std::to_string(rows) + "," + std::to_string(kt) + ")), (" +
           std::to_string(rows) + ":1," + std::to_string(k) + ":1))";
  } else {
    expr = "tile_to_shape(" + atom + ", (" + std::to_string(rows) + "," + std::to_string(k) + "))";
  }
  return cuteref::parse_and_evaluate(expr, &cuteref::standard_functions());
}

// Small integers, exact in every operand type and in every accumulator.
int operand_value(std::mt19937& rng) { return static_cast<int>(rng() % 7) - 3; }

struct Operand {
  std::vector<std::uint8_t> image;
  std::uint64_t desc = 0;
};

// Places element (r, c) of a rows x k operand at the model's SMEM position.
Operand build_operand(const Value& tile, int bits, std::int64_t rows, std::int64_t k, const std::vector<int>& values,
                      const std::string& type) {
  const int bytes = bits / 8;
  std::int64_t max_index = 0;
  std::vector<std::int64_t> where(static_cast<std::size_t>(rows * k));
  for (std::int64_t i = 0; i < rows * k; ++i) {
    where[i] = cuteref::evaluate_at(tile, i).value();
    max_index = std::max(max_index, where[i]);
  }
  Operand op;
  op.image.assign(static_cast<std::size_t>(((max_index + 1) * bytes + 1023) / 1024 * 1024), 0x5A);
  for (std::int64_t i = 0; i < rows * k; ++i) {
    const std::uint32_t e = encode_element(type, values[i]);
    std::memcpy(op.image.data() + where[i] * bytes, &e, static_cast<std::size_t>(bytes));
  }
  op.desc = cuteref::make_gmma_desc(tile, bits, 0).descriptor.encode();
  return op;
}

std::uint64_t swap_lbo_sbo(std::uint64_t word) {
  cuteref::GmmaDescriptor d = cuteref::GmmaDescriptor::decode(word);
  std::swap(d.leading_byte_offset, d.stride_byte_offset);
  return d.encode();
}

std::uint64_t other_swizzle_mode(std::uint64_t word) {
  cuteref::GmmaDescriptor d = cuteref::GmmaDescriptor::decode(word);
  d.layout_type = static_cast<cuteref::GmmaLayoutType>((static_cast<int>(d.layout_type) + 1) % 4);
  return d.encode();
}

CaseOutcome run_case(const WgmmaCase& c) {
  const WgmmaInstance& inst = wgmma_instances()[c.instance];
  const MmaAtom atom = cuteref::mma_atom(inst.atom_name);
  const int bits = cuteref::mma_element_bits(atom.type_a);
  const std::int64_t m = atom.m, n = atom.n, k = atom.k;
  std::mt19937 rng(static_cast<unsigned>(c.instance * 131 + c.swizzle * 7 + static_cast<int>(c.control)));
  std::vector<int> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(n * k));
  for (int& x : a) x = operand_value(rng);  // a[i + kk * m]
  for (int& x : b) x = operand_value(rng);  // b[j + kk * n]

  std::optional<Operand> op_a;
  if (!atom.a_in_registers)
    op_a = build_operand(operand_tile(atom.major_a, c.swizzle, bits, m, k), bits, m, k, a, atom.type_a);
  Operand op_b = build_operand(operand_tile(atom.major_b, c.swizzle, bits, n, k), bits, n, k, b, atom.type_b);
  std::uint64_t desc_a = op_a ? op_a->desc : 0, desc_b = op_b.desc;
  if (c.control == Control::SwapLboSbo) {
    desc_b = swap_lbo_sbo(desc_b);
    if (op_a) desc_a = swap_lbo_sbo(desc_a);
  }
  if (c.control == Control::WrongSwizzleMode) {
    desc_b = other_swizzle_mode(desc_b);
    if (op_a) desc_a = other_swizzle_mode(desc_a);
  }

  // RS: each thread's A registers from the model's ALayout: value v of thread t is the
  // element at ALayout(t, v), packed (32 / bits) values per register, low bits first.
  std::vector<std::uint32_t> a_frag(128 * 4, 0);
  if (atom.a_in_registers) {
    const std::int64_t values = cuteref::size_value(cuteref::mode(atom.a_layout, 1));
    const int per_reg = 32 / bits;
    for (std::int64_t t = 0; t < 128; ++t)
      for (std::int64_t v = 0; v < values; ++v) {
        const std::int64_t idx =
            cuteref::apply(atom.a_layout, IntTuple::tuple({IntTuple::integer(t), IntTuple::integer(v)})).value();
        const std::uint32_t e = encode_element(atom.type_a, a[static_cast<std::size_t>(idx)]);
        a_frag[static_cast<std::size_t>(t * 4 + v / per_reg)] |= e << (bits * (v % per_reg));
      }
  }

  std::uint8_t *d_a = nullptr, *d_b = nullptr;
  std::uint32_t *d_frag = nullptr, *d_out = nullptr;
  const std::size_t a_bytes = op_a ? op_a->image.size() : 0;
  const std::size_t out_words = 128 * static_cast<std::size_t>(inst.registers);
  CUDA_CHECK(cudaMalloc(&d_a, std::max<std::size_t>(a_bytes, 16)));
  CUDA_CHECK(cudaMalloc(&d_b, op_b.image.size()));
  CUDA_CHECK(cudaMalloc(&d_frag, a_frag.size() * 4));
  CUDA_CHECK(cudaMalloc(&d_out, out_words * 4));
  if (op_a) CUDA_CHECK(cudaMemcpy(d_a, op_a->image.data(), a_bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, op_b.image.data(), op_b.image.size(), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_frag, a_frag.data(), a_frag.size() * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0xEE, out_words * 4));  // poison: no accumulator value looks like it
  WgmmaArgs args{d_a, static_cast<std::uint32_t>(a_bytes), d_b, static_cast<std::uint32_t>(op_b.image.size()),
                 desc_a, desc_b, d_frag, d_out};
  // A negative control's wrong descriptor reads elsewhere in shared memory; give it a large
  // allocation so that it reads wrong values (a reported mismatch) rather than faulting.
  const std::size_t smem = c.control == Control::None ? a_bytes + op_b.image.size() + 1024 : 200 * 1024;
  CUDA_CHECK(cudaFuncSetAttribute(inst.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  inst.kernel<<<1, 128, smem>>>(args);
  CUDA_CHECK_LAUNCH();
  std::vector<std::uint32_t> out(out_words);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out_words * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_frag));
  CUDA_CHECK(cudaFree(d_out));

  // Check every (thread, value) against the product at the (m, n) the CLayout names.
  cuteref::Layout c_layout = atom.c_layout;
  if (c.control == Control::WrongCLayout) {
    // A wrong TV layout: the first two value modes' strides exchanged (a thread's column
    // pair and row pair confused).
    c_layout = cuteref::Layout(atom.c_layout.shape(), IntTuple::tuple({atom.c_layout.stride()[0],
        IntTuple::tuple({atom.c_layout.stride()[1][1], atom.c_layout.stride()[1][0], atom.c_layout.stride()[1][2]})}));
  }
  const std::int64_t values = cuteref::size_value(cuteref::mode(c_layout, 1));
  for (std::int64_t t = 0; t < 128; ++t)
    for (std::int64_t v = 0; v < values; ++v) {
      const std::int64_t idx =
          cuteref::apply(c_layout, IntTuple::tuple({IntTuple::integer(t), IntTuple::integer(v)})).value();
      const std::int64_t mi = idx % m, ni = idx / m;
      long long want = 0;
      for (std::int64_t kk = 0; kk < k; ++kk)
        want += static_cast<long long>(a[static_cast<std::size_t>(mi + kk * m)]) * b[static_cast<std::size_t>(ni + kk * n)];
      const double got = read_accumulator(atom.type_d,
                                          out.data() + t * inst.registers, v);
      if (got != static_cast<double>(want)) {
        std::ostringstream s;
        s << "thread " << t << " value " << v << ": model's CLayout names (m,n) = (" << mi << "," << ni
          << ") whose product is " << want << ", the register holds " << got;
        return {true, false, false, s.str()};
      }
    }
  return {true, true, false, ""};
}

bool compatible(const MmaAtom& atom, int swizzle) {
  // An MN-major operand must fill whole atoms along MN: rows * bytes a multiple of the width.
  const int bits = cuteref::mma_element_bits(atom.type_a);
  const std::int64_t width_elems = (16 << swizzle) * 8 / bits;
  if (atom.major_a == cuteref::GmmaMajor::MN && !atom.a_in_registers && atom.m % width_elems != 0) return false;
  if (atom.major_b == cuteref::GmmaMajor::MN && atom.n % width_elems != 0) return false;
  return true;
}

}  // namespace

ProbeTally run_wgmma_probe(std::ostream& out) {
  ProbeTally tally;
  std::vector<WgmmaCase> cases;
  std::size_t skipped_shapes = 0;
  for (std::size_t i = 0; i < wgmma_instances().size(); ++i) {
    const MmaAtom atom = cuteref::mma_atom(wgmma_instances()[i].atom_name);
    for (int sw = 0; sw < 4; ++sw) {
      if (compatible(atom, sw)) cases.push_back({i, sw});
      else ++skipped_shapes;
    }
  }
  const std::size_t first_control = cases.size();
  // Negative controls on f16 SS and RS atoms with 128-byte swizzle.
  for (std::size_t i = 0; i < wgmma_instances().size(); ++i) {
    const std::string name = wgmma_instances()[i].atom_name;
    if (name == "SM90_64x64x16_F32F16F16_SS<K,K>" || name == "SM90_64x64x16_F32F16F16_RS<K,K>" ||
        name == "SM90_64x256x16_F32BF16BF16_SS<MN,MN>")
      for (Control ctl : {Control::SwapLboSbo, Control::WrongSwizzleMode, Control::WrongCLayout})
        cases.push_back({i, 3, ctl});
  }

  const std::vector<CaseOutcome> results =
      run_isolated(cases.size(), [&](std::size_t i) { return run_case(cases[i]); });
  std::map<std::string, std::pair<int, int>> matrix;
  int caught = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const WgmmaCase& c = cases[i];
    const CaseOutcome& r = results[i];
    if (i >= first_control) {
      if (r.ran && !r.ok && r.message.find("model's CLayout names") != std::string::npos) {
        ++caught;
        ++tally.passed;
        out << "negative control caught: " << c.describe() << ": " << r.message << "\n";
      } else {
        ++tally.failed;
        out << "FAIL negative control not caught: " << c.describe() << ": " << (r.ok ? "no mismatch" : r.message)
            << "\n";
      }
      continue;
    }
    std::string name = wgmma_instances()[c.instance].atom_name;
    // Matrix cell: the type family, form and majorness, all N together.
    const std::string family = name.substr(name.find('_', 5) + 1);
    auto& cell = matrix[family + " " + kSwizzleNames[c.swizzle]];
    ++cell.second;
    if (r.ok) {
      ++cell.first;
      ++tally.passed;
    } else {
      ++tally.failed;
      out << "FAIL " << c.describe() << ": " << r.message << "\n";
    }
  }
  for (const auto& [cell, pt] : matrix) out << "wgmma " << cell << ": " << pt.first << "/" << pt.second << "\n";
  out << "wgmma negative controls: " << caught << "/" << (cases.size() - first_control) << " caught\n";
  out << "wgmma (shape, swizzle) pairs not formed because an MN-major operand is narrower than the swizzle atom: "
      << skipped_shapes << "\n";
  return tally;
}

}  // namespace cuteref_gpu
