// Writes a layout as the events of a walk over its trees, for the algebra's results: open()
// before a tuple's elements, leaf() for each leaf, close() after them. The leaves are written
// into the result's own inline form (bracketed_leaves.hpp), so that a small result is made
// without building trees or copying a form; past kInlineLeaves leaves, or deeper than
// kInlineDepth, its trees are built. write_layout below makes the result.
#pragma once

#include <cstddef>
#include <vector>

#include "bracketed_leaves.hpp"
#include "flat_int.hpp"
#include "layout.hpp"

namespace cuteref {

class LayoutWriter {
 public:
  // Writes into `form` (n = 0, opens and closes zero).
  explicit LayoutWriter(BracketedLeaves& form) noexcept : inline_(form) {}
  LayoutWriter(const LayoutWriter&) = delete;
  LayoutWriter& operator=(const LayoutWriter&) = delete;

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
      inline_.set_leaf(i, shape, stride);
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
  // The events of the layout whose form is b (a form: its tuples balanced, one tree).
  // Where its leaves fit and its nesting stays within kInlineDepth, b is copied after the
  // leaves written so far in one pass (the tuples opened since the last leaf open before
  // b's first); else event by event, which spills where leaf() and open() would.
  void form(const BracketedLeaves& b) {
    if (!spilling_ && std::size_t{inline_.n} + b.n <= kInlineLeaves) {
      const std::size_t base = inline_.n;
      int depth = depth_, deepest = depth_;
      for (std::size_t i = 0; i < b.n; ++i) {
        depth += b.opens[i];
        deepest = depth > deepest ? depth : deepest;
        depth -= b.closes[i];
        inline_.opens[base + i] = b.opens[i];
        inline_.closes[base + i] = b.closes[i];
        inline_.set_leaf(base + i, b.shape(i), b.stride(i));
      }
      if (deepest <= kInlineDepth) {  // then pending_ + b.opens[0] <= kInlineDepth: fits a byte
        inline_.opens[base] = static_cast<std::uint8_t>(inline_.opens[base] + pending_);
        pending_ = 0;
        inline_.n = static_cast<std::uint8_t>(base + b.n);
        return;
      }  // (the slots written past n are not read: leaf() writes a slot whole)
    }
    for (std::size_t i = 0; i < b.n; ++i) {
      for (unsigned k = 0; k < b.opens[i]; ++k) open();
      leaf(b.shape(i), b.stride(i));
      for (unsigned k = 0; k < b.closes[i]; ++k) close();
    }
  }
  std::size_t leaf_count() const { return spilling_ ? spilled_.size() : inline_.n; }

  // Puts the trees of a spilled layout into `result` (whose form this writer wrote); nothing
  // when the leaves stayed inline. @pre every open() closed, at least one leaf, one tree.
  void finish(Layout& result) const {
    if (spilling_) finish_spilled(result);
  }

 private:
  struct Spilled {
    FlatInt shape, stride;
    unsigned opens, closes;
  };
  void spill();  // moves the inline leaves to spilled_
  void finish_spilled(Layout& result) const;
  [[noreturn]] static void throw_empty_tuple();

  BracketedLeaves& inline_;
  std::vector<Spilled> spilled_;
  bool spilling_ = false;
  unsigned pending_ = 0;  // tuples opened since the last leaf
  int depth_ = 0;
};

// The layout that write(w) writes to a LayoutWriter w, made in place (its form is the
// result's own). @pre write makes the events of one layout whose leaves are valid (shapes
// >= 1, integer strides; not re-checked).
template <class Write>
Layout write_layout(Write&& write) {
  Layout result = detail::LayoutFromValidParts::make_leaves([](BracketedLeaves&) noexcept {});
  LayoutWriter w(detail::LayoutFromValidParts::form_of(result));
  write(w);
  w.finish(result);
  return result;
}

// flat_layout and append_layout_leaves are defined here, not in the .cpp: the algebra's drivers
// call them once or twice an operation, and gnu::flatten inlines only bodies it can see.

// Writes the form of the flat layout of n modes shapes[i]:strides[i] into the empty form b.
// Field by field: a copy of the leaves as one block becomes `rep movs` or a memcpy call where
// GCC sees that the arrays cannot overlap, slower than a small layout's few fields
// (bench/README.md, "Coalesce on the form's leaves").
// @pre 1 <= n <= kInlineLeaves, shapes >= 1, integer strides (not re-checked).
inline void write_flat_form(BracketedLeaves& b, const FlatInt* shapes, const FlatInt* strides, std::size_t n) noexcept {
  b.n = static_cast<std::uint8_t>(n);
  for (std::size_t i = 0; i < n; ++i)
    b.set_leaf(i, FlatInt{shapes[i].v, shapes[i].st}, FlatInt{strides[i].v, strides[i].st});
  if (n > 1) {
    b.opens[0] = 1;
    b.closes[n - 1] = 1;
  }
}

// The flat layout of n modes shapes[i]:strides[i]: a leaf layout for one, a flat tuple for
// several. @pre n >= 1, shapes >= 1, integer strides (not re-checked).
inline Layout flat_layout(const FlatInt* shapes, const FlatInt* strides, std::size_t n) {
  if (n > kInlineLeaves)
    return detail::LayoutFromValidParts::make(tuple_of_flat(shapes, n), tuple_of_flat(strides, n));
  return detail::LayoutFromValidParts::make_leaves(
      [&](BracketedLeaves& b) noexcept { write_flat_form(b, shapes, strides, n); });
}

// Every leaf of l, left to right, as FlatInts into (shapes, strides). Returns false (the
// vectors then hold a prefix) when l has a scaled-basis stride.
inline bool append_layout_leaves(const Layout& l, FlatInts& shapes, FlatInts& strides) {
  if (const BracketedLeaves* b = l.leaves()) {
    b->copy_leaves(shapes.append_uninitialized(b->n), strides.append_uninitialized(b->n));
    return true;
  }
  append_flat_ints(l.shape(), shapes);  // shape leaves are integers: a layout invariant
  return append_flat_ints(l.stride(), strides);
}

}  // namespace cuteref
