// Shorthands shared by the model's unit tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "atoms/tiled_copy.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "int_tuple.hpp"
#include "layout.hpp"
#include "notation.hpp"

namespace cuteref::test {

inline IntTuple I(std::int64_t v) { return IntTuple::integer(v); }
inline IntTuple S(std::int64_t v) { return IntTuple::static_int(v); }
inline IntTuple T(std::initializer_list<IntTuple> e) { return IntTuple::tuple(e); }
inline IntTuple U() { return IntTuple::underscore(); }
inline Layout L(const char* text) { return parse_layout(text); }
// l after nine size-1 modes (dynamic, strides 0..8): more than 8 leaves (kInlineLeaves), so it
// is held without a form and the algebra takes its vector paths. The same function on l's
// domain and, l's last mode staying last, past it too (composition extends A by its last mode).
inline Layout widened(const Layout& l) {
  std::vector<IntTuple> shape, stride;
  for (int k = 0; k < 9; ++k) {
    shape.push_back(I(1));
    stride.push_back(I(k));
  }
  shape.push_back(l.shape());
  stride.push_back(l.stride());
  return Layout(IntTuple::tuple(std::move(shape)), IntTuple::tuple(std::move(stride)));
}
inline IntTuple C(const char* text) { return parse_int_tuple(text); }
// A composed layout from its notation (`Sw<3,4,3> o 0 o (8,64):(64,1)`), and its value at index i.
inline ComposedLayout CL(const char* text) { return std::get<ComposedLayout>(parse_and_evaluate(text, nullptr).data); }
inline std::int64_t at(const ComposedLayout& c, std::int64_t i) { return evaluate_at(Value(c), i).value(); }
// The value of an EXPR, with every function of the model.
inline Value eval(const std::string& text) { return parse_and_evaluate(text, &standard_functions()); }
// The tiled copy an EXPR makes (`make_tiled_copy_C(...)`, ...).
inline TiledCopy tiled(const std::string& text) { return tiled_copy_arg({eval(text)}, 0, "test"); }

// CuTe's Swizzle<B,M,S> bit by bit, an oracle independent of swizzle.cpp: the destination field
// is the B bits starting at M + max(0,-S); destination bit i is XOR-ed with bit i + S (the
// source field starts at M + max(0,S)). Every other bit passes through.
inline std::int64_t reference_swizzle(int b, int m, int s, std::int64_t x) {
  const int dest = m + (s < 0 ? -s : 0);
  std::int64_t out = x;
  for (int i = dest; i < dest + b; ++i) out ^= ((x >> (i + s)) & 1) << i;
  return out;
}

// Runs `f`, expecting an Error whose message contains `needle`.
template <class F>
void expect_error(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected an Error containing '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

}  // namespace cuteref::test
