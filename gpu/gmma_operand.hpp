// GMMA operands on the host: element encodings, accumulator decoding, and shared-memory images
// of whole operand tiles laid out by the model's GMMA atoms with one descriptor per K step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "atoms/gmma_descriptor.hpp"
#include "atoms/mma_atom.hpp"

namespace cuteref_gpu {

// The bits of the small integer v in an operand type (f16, bf16, tf32, e4m3, e5m2, s8).
// Precondition (checked): the type is one of those; v is exact in it (the caller's choice of v).
std::uint32_t encode_element(const std::string& type, int v);

// The accumulator value `v` of a thread from its registers (f32, s32, or f16 packed two to a
// register, low half first).
double read_accumulator(const std::string& type, const std::uint32_t* regs, std::int64_t v);

// A rows x k operand (values[r + rows * c]) in shared memory as tile_to_shape(gmma_atom(MAJOR,
// SWIZZLE, BITS), ...) places it, K padded up to the atom's width for K-major. desc[s] reads the
// K step s (columns s*k_step .. +k_step) for an image at shared address 0; the kernel adds its
// address. The step's descriptor is step 0's with the start address moved to the step's first
// element, as CuTe's descriptor iterator does (the swizzle acts on the absolute address).
// Preconditions (checked): k is a multiple of k_step; each step starts 16-byte aligned.
struct GmmaOperandImage {
  std::vector<std::uint8_t> image;  // padded to whole KiB; unused bytes 0x5A
  std::vector<std::uint64_t> desc;  // one per K step
  std::string layout;               // the model's SMEM layout of the tile, for reports
};
GmmaOperandImage gmma_operand_image(cuteref::GmmaMajor major, int swizzle, int bits, std::int64_t rows,
                                    std::int64_t k, std::int64_t k_step, const std::vector<int>& values,
                                    const std::string& type);

}  // namespace cuteref_gpu
