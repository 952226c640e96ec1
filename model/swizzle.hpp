// Swizzle<B,M,S> and ComposedLayout (swizzle o [offset o] layout), CuTe's definitions.
//
// Swizzle<B,M,S>(x): the B bits of x at [M + max(0,S), M + max(0,S) + B) are XOR-ed into
// the B bits at [M - min(0,S), M - min(0,S) + B), i.e. for S >= 0 bits [M+S, M+S+B) into
// bits [M, M+B). Legal (CuTe's static_assert) when B >= 0, M >= 0, |S| >= B; it is then
// an involution.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "int_tuple.hpp"
#include "layout.hpp"

namespace cuteref {

class Swizzle {
 public:
  // Precondition (checked): 0 <= B, 0 <= M, |S| >= B, and all masks fit in 63 bits.
  Swizzle(int b, int m, int s);
  int bits() const { return b_; }
  int base() const { return m_; }
  int shift() const { return s_; }
  // Mask of the source bits (those read) and of the destination bits (those XOR-ed).
  std::int64_t source_mask() const;
  std::int64_t destination_mask() const;
  // Apply to an offset of any sign (CuTe's Swizzle XORs the two's-complement pattern:
  // Sw<1,0,1>(-1) == -2).
  std::int64_t operator()(std::int64_t offset) const;
  bool operator==(const Swizzle& o) const = default;
  std::string to_string() const;

 private:
  int b_, m_, s_;
};

// The offset slot of a composed layout: an integer (CuTe's `_0`, `32`) or a vendor
// smem_ptr token such as `smem_ptr[16b](unset)`, kept verbatim with its element width.
struct ComposedOffset {
  std::optional<IntTuple> value;  // an integer offset
  std::string pointer_token;      // e.g. "smem_ptr[16b](unset)"; empty if value is set
  int pointer_element_bits = 0;   // the [Nb] of the token
  bool operator==(const ComposedOffset& o) const = default;
  std::string to_string() const { return value ? value->to_string() : pointer_token; }
};

// ComposedLayout: x -> swizzle(offset + layout(x)). With no offset the offset is 0.
struct ComposedLayout {
  Swizzle swizzle;
  std::optional<ComposedOffset> offset;
  Layout layout;
  bool operator==(const ComposedLayout& o) const = default;
  std::string to_string() const;
  void append_text(std::string& out, std::size_t limit = SIZE_MAX) const;  // as Layout's
};

// size(C) = size(C.layout): the domain is the inner layout's (CuTe's size of a
// ComposedLayout is size(layout_b)). Overflow is an error.
IntTuple size(const ComposedLayout& c);

// cosize(C) = cosize(C.layout), CuTe's definition (cosize of a ComposedLayout is
// cosize(layout_b)): neither the offset nor the swizzle enter it. It is therefore not
// always 1 + the largest value C reaches: the swizzle can move an offset above it, e.g.
// Sw<3,4,3> o 129:1 has cosize 129 but maps index 128 to 144 (bit 7 XOR-ed into bit 4).
// Precondition: as cosize(Layout), integer strides.
IntTuple cosize(const ComposedLayout& c);

}  // namespace cuteref
