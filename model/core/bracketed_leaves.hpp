// A small layout of integer leaves held inline, without tuple trees: its leaves left to right
// (shape and stride values with their static flags) and its nesting as data, the number of
// tuples that open just before each leaf and close just after it. `(2,(3,4)):(1,(2,6))` is
// the leaves 2:1, 3:2, 4:6 with opens 1,1,0 and closes 0,0,2; the leaf layout `4:1` is one
// leaf with no tuple around it. Every tree whose tuples are all non-empty has exactly one
// such form, so the form is a function of the trees (and equality of forms is equality of
// trees, static flags included).
//
// Why: the algebra reads its operands' leaves and writes its results' leaves; building and
// walking tuple trees for that was half of its instructions (bench/README.md). A Layout holds
// this form when its layout has one (layout.hpp) and builds its trees only when asked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "flat_int.hpp"
#include "int_tuple.hpp"

namespace cuteref {

// Most leaves held inline (the layouts of the algebra's usual operands and results; a larger
// layout keeps its trees only).
inline constexpr std::size_t kInlineLeaves = 8;
// Deepest nesting held inline (a deeper layout keeps its trees only): bounds the recursion
// that rebuilds the trees.
inline constexpr int kInlineDepth = 16;

struct BracketedLeaves {
  std::uint8_t n = 0;                       // leaves, 1..kInlineLeaves
  std::uint8_t opens[kInlineLeaves] = {};   // tuples opened just before leaf i
  std::uint8_t closes[kInlineLeaves] = {};  // tuples closed just after leaf i

  // Leaf i's shape and stride. @pre i < n, and leaf i was written.
  FlatInt shape(std::size_t i) const { return load(2 * i); }
  FlatInt stride(std::size_t i) const { return load(2 * i + 1); }
  // Writes leaf i. @pre i < kInlineLeaves. Written and read as FlatInt objects, not as bytes:
  // a byte copy is a store the compiler must assume may change any object, so an operation
  // writing its result would read its operands' values again after every leaf it writes
  // (bench/README.md). Whole forms are still copied as bytes, which creates the FlatInts in
  // the copy (they are trivially copyable).
  void set_leaf(std::size_t i, FlatInt shape, FlatInt stride) {
    new (leaf_bytes_ + 2 * i * sizeof(FlatInt)) FlatInt{shape.v, shape.st};
    new (leaf_bytes_ + (2 * i + 1) * sizeof(FlatInt)) FlatInt{stride.v, stride.st};
  }
  // The n leaves, copied to shapes[0..n) and strides[0..n).
  void copy_leaves(FlatInt* shapes, FlatInt* strides) const {
    for (std::size_t i = 0; i < n; ++i) {
      std::memcpy(static_cast<void*>(shapes + i), leaf_bytes_ + 2 * i * sizeof(FlatInt), sizeof(FlatInt));
      std::memcpy(static_cast<void*>(strides + i), leaf_bytes_ + (2 * i + 1) * sizeof(FlatInt), sizeof(FlatInt));
    }
  }
  // True when the whole layout is one leaf (not a tuple).
  bool is_leaf() const { return n == 1 && opens[0] == 0; }

  // Equal forms: equal trees (values, static flags and nesting).
  bool operator==(const BracketedLeaves& o) const;

 private:
  // Slot k of leaf_bytes_ (leaf k / 2's shape for k even, its stride for k odd).
  FlatInt load(std::size_t k) const {
    const FlatInt* p = std::launder(reinterpret_cast<const FlatInt*>(leaf_bytes_ + k * sizeof(FlatInt)));
    return FlatInt{p->v, p->st};
  }
  // The leaves as FlatInts in bytes, each leaf's shape next to its stride: a small layout's
  // leaves lie in one or two cache lines, next to n, opens and closes (bench/README.md). The
  // slots past n are never read, and a copy of the form copies them as bytes (no zeroing of
  // unused slots, no indeterminate value read).
  alignas(FlatInt) unsigned char leaf_bytes_[2 * kInlineLeaves * sizeof(FlatInt)];
};

static_assert(std::is_trivially_copyable_v<FlatInt>, "leaves are held as bytes");

// The form of the layout (shape, stride) into `out`. Returns false (out unspecified) when it
// has none: a leaf that is not an integer (a scaled basis, `_`), an empty tuple, more than
// kInlineLeaves leaves or nesting deeper than kInlineDepth.
// @pre shape and stride are congruent (a layout's).
bool bracketed_leaves_of(const IntTuple& shape, const IntTuple& stride, BracketedLeaves& out);

// The trees the form stands for. @pre b is a form (bracketed_leaves_of's, or one written
// by a LayoutWriter): every tuple it opens it closes, and it is one tree.
void trees_of(const BracketedLeaves& b, IntTuple& shape, IntTuple& stride);

}  // namespace cuteref
