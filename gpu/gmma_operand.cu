#include "gmma_operand.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "evaluate.hpp"
#include "function_table.hpp"
#include "notation.hpp"

namespace cuteref_gpu {

namespace {

const char* kSwizzleNames[] = {"INTER", "SW32", "SW64", "SW128"};

}  // namespace

std::uint32_t encode_element(const std::string& type, int v) {
  if (type == "f16") {
    __half h = __float2half(static_cast<float>(v));
    std::uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
  }
  if (type == "bf16") {
    __nv_bfloat16 h = __float2bfloat16(static_cast<float>(v));
    std::uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
  }
  if (type == "tf32") {
    float f = static_cast<float>(v);
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  if (type == "e4m3") return __nv_fp8_e4m3(static_cast<float>(v)).__x;
  if (type == "e5m2") return __nv_fp8_e5m2(static_cast<float>(v)).__x;
  if (type == "s8") return static_cast<std::uint8_t>(static_cast<std::int8_t>(v));
  throw std::runtime_error("unknown operand type " + type);
}

double read_accumulator(const std::string& type, const std::uint32_t* regs, std::int64_t v) {
  if (type == "f32") {
    float f;
    std::memcpy(&f, &regs[v], 4);
    return f;
  }
  if (type == "s32") return static_cast<std::int32_t>(regs[v]);
  const std::uint16_t half_bits = static_cast<std::uint16_t>(regs[v / 2] >> (16 * (v % 2)));
  __half h;
  std::memcpy(&h, &half_bits, 2);
  return __half2float(h);
}

GmmaOperandImage gmma_operand_image(cuteref::GmmaMajor major, int swizzle, int bits, std::int64_t rows,
                                    std::int64_t k, std::int64_t k_step, const std::vector<int>& values,
                                    const std::string& type) {
  if (k_step <= 0 || k % k_step != 0)
    throw std::runtime_error("gmma_operand_image: K " + std::to_string(k) + " is not a multiple of the K step " +
                             std::to_string(k_step));
  const std::int64_t width = (16 << swizzle) * 8 / bits;  // the atom's contiguous extent, elements
  const std::int64_t kt = major == cuteref::GmmaMajor::K ? (k + width - 1) / width * width : k;
  const std::string atom = std::string("gmma_atom(") + (major == cuteref::GmmaMajor::K ? "K" : "MN") + ", " +
                           kSwizzleNames[swizzle] + ", " + std::to_string(bits) + ")";
  const std::string tile_expr = "tile_to_shape(" + atom + ", (" + std::to_string(rows) + "," + std::to_string(kt) + "))";
  const cuteref::Value tile = cuteref::parse_and_evaluate(tile_expr, &cuteref::standard_functions());
  const cuteref::Value step0 = cuteref::parse_and_evaluate(
      "composition(" + tile_expr + ", (" + std::to_string(rows) + ":1," + std::to_string(k_step) + ":1))",
      &cuteref::standard_functions());
  const int bytes = bits / 8;
  GmmaOperandImage op;
  op.layout = tile.to_string();
  std::vector<std::int64_t> where(static_cast<std::size_t>(rows * k));
  std::int64_t max_index = 0;
  for (std::int64_t i = 0; i < rows * k; ++i) {
    where[i] = cuteref::evaluate_at(tile, i).value();
    max_index = std::max(max_index, where[i]);
  }
  op.image.assign(static_cast<std::size_t>(((max_index + 1) * bytes + 1023) / 1024 * 1024), 0x5A);
  for (std::int64_t i = 0; i < rows * k; ++i) {
    const std::uint32_t e = encode_element(type, values[static_cast<std::size_t>(i)]);
    std::memcpy(op.image.data() + where[i] * bytes, &e, static_cast<std::size_t>(bytes));
  }
  const std::uint64_t desc0 = cuteref::make_gmma_desc(step0, bits, 0).descriptor.encode();
  for (std::int64_t s = 0; s < k / k_step; ++s) {
    // The step's first element (0, s * k_step). Its offset in the swizzled tile is the unswizzled
    // start the descriptor needs only when the swizzle Sw<b,4,3> leaves it alone: no bits in the
    // swizzle's source field [7, 7 + b) of the byte address.
    const std::int64_t start = where[static_cast<std::size_t>(rows * s * k_step)] * bytes;
    if (start % 16 != 0 || ((start >> 7) & ((1 << swizzle) - 1)) != 0)
      throw std::runtime_error("gmma_operand_image: K step " + std::to_string(s) + " of " + op.layout +
                               " starts at byte " + std::to_string(start) +
                               ", not 16-byte aligned or moved by the swizzle");
    op.desc.push_back(desc0 + static_cast<std::uint64_t>(start >> 4));
  }
  return op;
}

}  // namespace cuteref_gpu
