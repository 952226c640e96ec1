// The bridge to Triton's linear layouts (triton-lang/triton, include/triton/Tools/LinearLayout.h):
// a map from named input dimensions (register, lane, warp, block; or offset) to output
// dimensions (dim0, dim1, ...), given by one basis vector per input bit, the value at any input
// being the XOR of the basis vectors of its set bits. An F2 layout of power-of-two shape is the
// same object: its index bits are the input bits, its F2 values the outputs.
//
// Conventions of the bridge (what Triton's MMA conversions use, LinearLayoutConversionsTest.cpp):
// the index bits of the layout are taken lowest first and split into the named input dims in the
// order given (a CuTe TV layout (thread, value) of 128 threads: lane = 5 bits, warp = 2 bits,
// then register); an offset of a tile (T0, T1, ...) (CuTe's column-major: offset = d0 + T0 * d1
// + ...) is the output vector (d0, d1, ...), dim0 first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "f2_layout.hpp"

namespace cuteref {

struct LinearLayoutBases {
  struct InputDim {
    std::string name;
    std::vector<std::vector<std::int64_t>> bases;  // bases[bit][output dim]
  };
  std::vector<InputDim> inputs;
};

// One named input dimension of `bits` index bits.
struct InputDimBits {
  std::string name;
  int bits;
};

// The basis vectors of F split over `dims` (their bits must add up to log2 size(F)) and `tile`
// (powers of two; every value of F must lie in the tile). An empty tile means one output
// dimension, the offset itself. Throws Error naming the precondition.
LinearLayoutBases to_linear_layout(const F2Layout& f, const std::vector<InputDimBits>& dims,
                                   const std::vector<std::int64_t>& tile);

// Back: the F2 layout whose top-level modes are the input dims in order (each the coalesced
// modes of its bits, 1:F0 for none) and whose values are the outputs as tile offsets. Every
// basis vector has one entry per tile dimension (one when the tile is empty), inside it.
F2Layout from_linear_layout(const LinearLayoutBases& bases, const std::vector<std::int64_t>& tile);

}  // namespace cuteref
