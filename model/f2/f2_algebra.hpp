// The layout algebra on F2 layouts (f2_layout.hpp), written from the definitions: coalesce,
// composition with any layout-like value on either side, the inverses and the complement, and
// the conversions between a swizzled layout `Sw<B,M,S> o L` and its F2 layout.
//
// Where a result must be an F2 layout but the function is not F2-linear on the domain (e.g. an
// integer layout whose strides carry into each other), the operation refuses with the first
// index where the function and every F2 layout built from its unit values differ.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "f2_layout.hpp"
#include "value.hpp"

namespace cuteref {

// The smallest power of two above every value (PyCuTe's coshape of an F2 layout: the codomain is
// bit vectors, XOR is not monotone). A mode (s, F d) reaches bit width w(s - 1) + w(d) - 1 and no
// more (the carry-less product's width), alone when the other coordinates are 0; the XOR of
// modes reaches no wider. 1 when every value is 0.
std::int64_t cosize(const F2Layout& l);

// Merged adjacent modes and dropped size-1 modes, the function kept. Two modes (s_a, F d_a),
// (s_b, F d_b) merge into (s_a * s_b, F d_a) exactly when both strides are F0, or s_a is a power
// of two and d_b == d_a << log2(s_a): for d_a != 0 and s_b > 1 the merged coordinate must split
// into c_a ^ (c_b << k), which needs c_a & s_a == 0 for every c_a < s_a. All size-1: `1:F0`.
F2Layout coalesce(const F2Layout& l);

// coalesce_z(L) (PyCuTe's coalesce_z over F2 strides): coalesce that keeps a trailing size-1 mode,
// so that L's values past its size (the last flat mode's coordinate taking the whole quotient)
// are kept too. Over the flat modes, left to right: trailing size-1 modes of the result are
// dropped before a mode is appended; the mode merges into the last one by coalesce's rule (a
// trailing (1, F e) merges into (s, F d) when e == d << log2(s): (c + s q) x d is
// (c x d) ^ (q x (d << log2 s)) for c < s a power of two), else it is appended.
// @post size(result) == size(L); depth(result) <= 1; result(i) == L(i) for every i >= 0
F2Layout coalesce_z(const F2Layout& l);

// The F2 layout over `shape` (leaves of power-of-two shape split into their bits, the bits of
// one leaf coalesced) whose value at every index is f(index); checked at every index (charged to
// the enumeration budget). Throws Error, naming `what`, when f is negative somewhere or not
// F2-linear on the domain.
F2Layout f2_layout_of(const IntTuple& shape, const std::function<std::int64_t(std::int64_t)>& f,
                      const std::string& what);

// The F2 layout of bit strides, one mode of size 2 per stride, coalesced (1:F0 when empty).
F2Layout f2_layout_from_bits(const std::vector<std::int64_t>& bit_strides);

// to_f2(X): X a layout with integer strides, a composed layout (an smem_ptr offset too) or an
// F2 layout, as an F2 layout over X's shape.
F2Layout to_f2(const Value& x);

// from_f2(F): an integer layout L (each top-level mode coalesced), or `Sw<B,M,S> o L`, whose
// function is F's; the first swizzle in
// the order B, then M, then S (S > 0 before S < 0) whose bits lie inside the width of F's image.
// Precondition (checked): a power-of-two shape; throws Error when no swizzle of that family
// makes Sw o F an integer layout.
Value from_f2(const F2Layout& f);
// from_f2(F, N): the same behind an smem pointer of N-bit elements, `Sw<B,M',S> o smem_ptr[Nb](unset)
// o L`, the swizzle on byte addresses (M' = M + log2(N / 8): pointer_swizzle.hpp's element form
// of it is the element swizzle found). Precondition (checked): N a power of two >= 8. Without a
// swizzle, the integer layout.
Value from_f2(const F2Layout& f, int element_bits);

// composition(A, B) = A o B as an F2 layout over B's shape, when A or B is an F2 layout and
// both are layout-like (layouts, composed layouts, F2 layouts), or A is a swizzle.
F2Layout f2_composition(const Value& a, const Value& b);

// Right inverse R: F(R(y)) == y for y < size(R) = 2^r, r the most low bits 0..r-1 that all lie
// in F's image (1:F0 when bit 0 does not). Precondition: a power-of-two shape.
F2Layout right_inverse(const F2Layout& f);

// Left inverse G: G(F(i)) == i for every index; its size is 2^w, w the bit width of F's image,
// and it maps the complement directions (complement(F)'s bits) to 0. Precondition: power-of-two
// shape and F injective (else Error naming two indices with one value).
F2Layout left_inverse(const F2Layout& f);

// Complement C: (F, C) is a bijection onto [0, 2^m), m = max(width of F's image, log2 cotarget);
// C's bits are the unit bits 2^t, ascending, that are not in the span of F's image and of the
// smaller ones. Preconditions: power-of-two shape, F injective, cotarget a power of two.
F2Layout complement(const F2Layout& f);
F2Layout complement(const F2Layout& f, std::int64_t cotarget);

}  // namespace cuteref
