// F2Layout: a layout whose strides are F2 values (PyCuTe's `F2` stride scalar, printed `F9`).
//
// A coordinate c times the stride F(d) is the carry-less product c (x) d (the polynomial
// product over GF(2) of the two bit patterns), and the modes' contributions combine by XOR
// instead of +:  L(c) = (c_0 (x) d_0) ^ (c_1 (x) d_1) ^ ...
// Under this arithmetic a swizzle is an ordinary layout: Sw<3,0,3> o (8,8):(1,8) is the
// function of (8,8):(F1,F9) (the row bits 3..5 also land on the column bits 0..2).
//
// Invariants checked at construction: shape and stride congruent; every shape leaf an integer
// >= 1; every stride leaf a non-negative integer (an F2 value is a finite bit pattern); the
// size fits in 64 bits. Static-ness of shape leaves is kept as written; F2 strides have none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "int_tuple.hpp"

namespace cuteref {

class F2Layout {
 public:
  F2Layout(IntTuple shape, IntTuple stride);
  const IntTuple& shape() const { return shape_; }
  // The stride tree: integer leaves holding the F2 values.
  const IntTuple& stride() const { return stride_; }
  bool operator==(const F2Layout& o) const { return shape_ == o.shape_ && stride_ == o.stride_; }
  // `shape:stride` with every stride leaf printed as PyCuTe prints an F2: `(8,8):(F1,F9)`.
  std::string to_string() const;
  void append_text(std::string& out, std::size_t limit = SIZE_MAX) const;

 private:
  IntTuple shape_;
  IntTuple stride_;
};

// Carry-less product of two non-negative integers. Throws Error when the product needs more
// than 63 bits (the bit widths add, less one).
std::int64_t carryless_multiply(std::int64_t a, std::int64_t b);

// Number of indices: the product of the shape leaves.
std::int64_t size_value(const F2Layout& l);

// L(index) for 0 <= index: the index is split into a colexicographic coordinate of the
// flattened shape (the last mode takes what is left, as CuTe's idx2crd does beyond the size).
std::int64_t apply_index(const F2Layout& l, std::int64_t index);

// The flattened (shape, F2 stride) leaves, in colexicographic order.
struct F2Mode {
  std::int64_t shape;
  std::int64_t stride;
  bool static_shape = false;  // the shape leaf was written `_8`
};
std::vector<F2Mode> flat_modes(const F2Layout& l);

// True when every shape leaf is a power of two: then L is linear over GF(2) in the bits of
// the index, determined by its values at the indices 2^j (f2_index_bases).
bool has_power_of_two_shape(const F2Layout& l);

// L(2^j) for every index bit j < log2(size). Precondition (checked, naming `operation`): a
// power-of-two shape.
std::vector<std::int64_t> f2_index_bases(const F2Layout& l, const char* operation);

}  // namespace cuteref
