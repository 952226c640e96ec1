// Writes a layout as the events of a walk over its trees, for the algebra's results: open()
// before a tuple's elements, leaf() for each leaf, close() after them. The leaves are held
// inline while they fit (bracketed_leaves.hpp), so that a small result is made without
// building trees; past kInlineLeaves leaves, or deeper than kInlineDepth, its trees are built.
#pragma once

#include <cstddef>
#include <vector>

#include "bracketed_leaves.hpp"
#include "flat_int.hpp"
#include "layout.hpp"

namespace cuteref {

class LayoutWriter {
 public:
  void open() {
    ++pending_;
    if (++depth_ > kInlineDepth && !spilling_) spill();
  }
  // @pre shape >= 1, stride an integer (the caller's decisions guarantee it; not re-checked).
  void leaf(FlatInt shape, FlatInt stride) {
    if (!spilling_ && inline_.n < kInlineLeaves) {
      const std::size_t i = inline_.n++;
      inline_.opens[i] = static_cast<std::uint8_t>(pending_);  // pending_ <= depth_ <= kInlineDepth
      inline_.closes[i] = 0;
      inline_.shapes[i] = shape.v;
      inline_.strides[i] = stride.v;
      if (shape.st) inline_.shape_static |= static_cast<std::uint8_t>(1u << i);
      if (stride.st) inline_.stride_static |= static_cast<std::uint8_t>(1u << i);
    } else {
      if (!spilling_) spill();
      spilled_.push_back({shape, stride, pending_, 0});
    }
    pending_ = 0;
  }
  // @pre a leaf was written since the matching open(): no tuple is empty (CuTe has no empty
  //      modes, and an empty tuple has no form). Throws Error otherwise.
  void close() {
    if (pending_ > 0 || leaf_count() == 0) throw_empty_tuple();
    --depth_;
    if (spilling_) ++spilled_.back().closes;
    else ++inline_.closes[inline_.n - 1];
  }
  std::size_t leaf_count() const { return spilling_ ? spilled_.size() : inline_.n; }

  // The layout written. @pre every open() closed, at least one leaf, one tree (the writes of
  // a walk over one layout's trees).
  Layout layout() const;

 private:
  struct Spilled {
    FlatInt shape, stride;
    unsigned opens, closes;
  };
  void spill();  // moves the inline leaves to spilled_
  [[noreturn]] static void throw_empty_tuple();

  BracketedLeaves inline_;
  std::vector<Spilled> spilled_;
  bool spilling_ = false;
  unsigned pending_ = 0;  // tuples opened since the last leaf
  int depth_ = 0;
};

// The flat layout of n modes shapes[i]:strides[i]: a leaf layout for one, a flat tuple for
// several. @pre n >= 1, shapes >= 1, integer strides (not re-checked).
Layout flat_layout(const FlatInt* shapes, const FlatInt* strides, std::size_t n);

// Every leaf of l, left to right, as FlatInts into (shapes, strides). Returns false (the
// vectors then hold a prefix) when l has a scaled-basis stride.
bool append_layout_leaves(const Layout& l, FlatInts& shapes, FlatInts& strides);

}  // namespace cuteref
