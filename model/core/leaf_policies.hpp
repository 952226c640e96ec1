// The model's leaf policies for the generic decisions (leaf_ops.hpp): a leaf's value is a
// CheckedInt, and a result carries CuTe's static flag (static iff every operand is; a
// constant is static), as leaf_arith.hpp's arithmetic does. Diagnostics print the leaf.
#pragma once

#include <cstdint>
#include <string>

#include "flat_int.hpp"
#include "int_tuple.hpp"
#include "leaf_arith.hpp"
#include "scalar.hpp"

namespace cuteref {

// An integer leaf as a plain value with its static flag (the hot paths).
struct FlatIntLeaf {
  using Leaf = FlatInt;
  using Scalar = CheckedInt;
  static CheckedInt value(FlatInt x) { return x.v; }
  // `&`, not `&&`: both flags are plain bools, so no branch is needed to combine them.
  static FlatInt make(CheckedInt v, FlatInt a, FlatInt b) { return {v.v, static_cast<bool>(a.st & b.st)}; }
  static FlatInt make(CheckedInt v, FlatInt a) { return {v.v, a.st}; }
  static FlatInt constant(std::int64_t v) { return {v, true}; }
  static std::string operand(FlatInt x) { return std::string(" ").append(x.to_string()); }
};

// An IntTuple leaf: an integer, or (a stride) a scaled basis, which scale() and same() keep
// apart from the integers.
struct IntTupleLeaf {
  using Leaf = IntTuple;
  using Scalar = CheckedInt;
  static CheckedInt value(const IntTuple& x) { return x.value(); }
  static IntTuple make(CheckedInt v, const IntTuple& a, const IntTuple& b) {
    return IntTuple::integer(v.v, a.is_static() && b.is_static());
  }
  static IntTuple make(CheckedInt v, const IntTuple& a) { return IntTuple::integer(v.v, a.is_static()); }
  static IntTuple constant(std::int64_t v) { return IntTuple::static_int(v); }
  static std::string operand(const IntTuple& x) { return std::string(" ").append(x.to_string()); }
  static bool is_static(const IntTuple& x) { return x.is_static(); }
  static IntTuple scale(const IntTuple& c, const IntTuple& d) { return scale_stride_leaf(c, d); }
  static bool same(const IntTuple& a, const IntTuple& b) { return a.same_values(b); }
  static bool same_position(const IntTuple& a, const IntTuple& b) {
    return a.is_basis() == b.is_basis() && (!a.is_basis() || a.basis_path() == b.basis_path());
  }
};

}  // namespace cuteref
