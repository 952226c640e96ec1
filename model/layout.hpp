// Layout = (Shape, Stride): CuTe's layout, a function from a 1-D colexicographic index
// (or a coordinate congruent to the shape) to an offset.
//
// Invariants checked at construction:
//   - shape and stride are congruent;
//   - every shape leaf is an integer >= 1 (CuTe has no empty modes);
//   - every stride leaf is an integer or a scaled basis.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "int_tuple.hpp"

namespace cuteref {

namespace detail {
struct LayoutFromValidParts;
}

class Layout {
 public:
  Layout(IntTuple shape, IntTuple stride);

  const IntTuple& shape() const { return shape_; }
  const IntTuple& stride() const { return stride_; }

  // True if some stride leaf is a scaled basis (the layout maps to coordinates).
  bool has_basis_strides() const { return stride_.has_basis(); }

  bool operator==(const Layout& o) const { return shape_ == o.shape_ && stride_ == o.stride_; }

  // CuTe notation: `shape:stride`.
  std::string to_string() const;
  // Appends it to `out`, stopping early once out is longer than `limit` (IntTuple::append_text).
  void append_text(std::string& out, std::size_t limit = SIZE_MAX) const;

 private:
  // Skips the invariant checks: only for layouts assembled from the modes of layouts that
  // were checked (see detail::LayoutFromValidParts).
  struct Unchecked {};
  Layout(Unchecked, IntTuple shape, IntTuple stride) noexcept : shape_(std::move(shape)), stride_(std::move(stride)) {}
  friend struct detail::LayoutFromValidParts;

  IntTuple shape_;
  IntTuple stride_;
};

namespace detail {
// Builds a layout without re-checking the invariants. Sound only when shape and stride are
// a valid layout's own (shape, stride), or tuples whose elements are the (shape, stride)
// pairs of valid layouts, recursively: such a pair is congruent with valid leaves by
// construction. The algebra's flat results (coalesce_flat, coalesce_x, composition's
// emitted modes) also use it: each states why its leaves are valid (shape an integer >= 1,
// stride an integer or a scaled basis); every other layout goes through the checked
// constructor.
struct LayoutFromValidParts {
  static Layout make(IntTuple shape, IntTuple stride) noexcept {
    return Layout(Layout::Unchecked{}, std::move(shape), std::move(stride));
  }
  // Moves l's shape and stride out (l is left an invalid husk, only to be destroyed).
  static void take_parts(Layout&& l, IntTuple& shape, IntTuple& stride) noexcept {
    shape = std::move(l.shape_);
    stride = std::move(l.stride_);
  }
};
}  // namespace detail

// Number of indices in the domain: product of shape leaves. Overflow is an error.
IntTuple size(const Layout& l);
std::int64_t size_value(const Layout& l);

// CuTe's cosize: 1 + sum over leaves of (shape-1)*|stride|, the size of the codomain the
// layout reaches from offset 0 (for non-negative strides: L(size-1)+1 when monotone).
// Precondition: integer strides.
IntTuple cosize(const Layout& l);

// rank = number of top-level modes (1 for a leaf); depth as IntTuple::depth.
std::size_t rank(const Layout& l);
int depth(const Layout& l);

// The i-th top-level mode. Precondition: i < rank.
Layout mode(const Layout& l, std::size_t i);
// Layout of the selected top-level modes, in the given order.
Layout select(const Layout& l, const std::vector<std::size_t>& modes);
// Flatten shape and stride to depth <= 1.
Layout flatten(const Layout& l);
// Group modes [begin, end) into one mode. Precondition: begin <= end <= rank.
Layout group_modes(const Layout& l, std::size_t begin, std::size_t end);
// Append / prepend a mode (a layout) at the top level.
Layout append(const Layout& l, const Layout& m);
Layout prepend(const Layout& l, const Layout& m);
// Build a layout from modes: make_layout(L0, L1, ...) = (L0.shape, L1.shape..):(..)
Layout make_layout_from_modes(const std::vector<Layout>& modes);
Layout make_layout_from_modes(std::initializer_list<Layout> modes);
// The two-mode layout (m0, m1), taking the modes' tuples over (no copies).
Layout make_layout_from_modes(Layout&& m0, Layout&& m1);

}  // namespace cuteref
