// Layout = (Shape, Stride): CuTe's layout, a function from a 1-D colexicographic index
// (or a coordinate congruent to the shape) to an offset.
//
// Invariants checked at construction:
//   - shape and stride are congruent;
//   - every shape leaf is an integer >= 1 (CuTe has no empty modes);
//   - every stride leaf is an integer or a scaled basis.
#pragma once

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "bracketed_leaves.hpp"
#include "int_tuple.hpp"

namespace cuteref {

namespace detail {
struct LayoutFromValidParts;
}

class Layout {
 public:
  Layout(IntTuple shape, IntTuple stride);
  Layout(const Layout& o);
  Layout(Layout&& o) noexcept;
  Layout& operator=(const Layout& o);
  Layout& operator=(Layout&& o) noexcept;
  ~Layout() = default;

  // The trees. A layout made by the algebra from its leaves (leaves() below) builds them on
  // the first call, once (thread-safe: a layout may be read by several threads).
  const IntTuple& shape() const {
    if (trees_.load(std::memory_order_acquire) != kTreesReady) build_trees();
    return shape_;
  }
  const IntTuple& stride() const {
    if (trees_.load(std::memory_order_acquire) != kTreesReady) build_trees();
    return stride_;
  }
  // The leaves and nesting held inline (bracketed_leaves.hpp), or null when the layout has
  // no such form (a scaled-basis stride, an empty tuple, more than kInlineLeaves leaves or
  // deeper than kInlineDepth). A function of the layout: two equal layouts both have it or
  // both lack it.
  const BracketedLeaves* leaves() const { return has_leaves_ ? &leaves_ : nullptr; }

  // True if some stride leaf is a scaled basis (the layout maps to coordinates).
  bool has_basis_strides() const { return !has_leaves_ && stride_.has_basis(); }

  bool operator==(const Layout& o) const;

  // CuTe notation: `shape:stride`.
  std::string to_string() const;
  // Appends it to `out`, stopping early once out is longer than `limit` (IntTuple::append_text).
  void append_text(std::string& out, std::size_t limit = SIZE_MAX) const;

 private:
  // Skips the invariant checks: only for layouts assembled from the modes of layouts that
  // were checked (see detail::LayoutFromValidParts).
  struct Unchecked {};
  Layout(Unchecked, IntTuple shape, IntTuple stride) noexcept;
  // The layout whose form fill(leaves) writes, in place, into a form with n = 0 and no
  // opens or closes (its leaf slots are not zeroed: only those below n are read). A fill
  // that throws (an overflow in the result's arithmetic) leaves no layout.
  struct FillLeaves {};
  template <class Fill>
  Layout(Unchecked, FillLeaves, Fill&& fill) noexcept(noexcept(fill(std::declval<BracketedLeaves&>())))
      : has_leaves_(true), trees_(kTreesAbsent) {
    fill(leaves_);
  }
  friend struct detail::LayoutFromValidParts;

  // trees_: the trees are absent (only the leaves are held), being built by one thread, or ready.
  static constexpr std::uint8_t kTreesAbsent = 0, kTreesBuilding = 1, kTreesReady = 2;
  void build_trees() const;
  // Takes o's leaves and trees (copied or moved): the common part of the copies and moves.
  template <class Other>
  void take_from(Other&& o);

  // Invariant: the leaves or the trees (or both) are held; has_leaves_ iff the trees have the
  // form (bracketed_leaves_of). A layout made from trees holds both; one made from leaves
  // holds the trees once built.
  // The flags first and the form next, its leaves right after its nesting: an operation
  // reading a small operand held as its form touches its first one or two cache lines only
  // (bench/README.md); the trees, absent from most results, last.
  bool has_leaves_ = false;
  mutable std::atomic<std::uint8_t> trees_{kTreesReady};
  BracketedLeaves leaves_;
  mutable IntTuple shape_;
  mutable IntTuple stride_;
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
  // The layout whose form fill(b) writes into an empty form b (n = 0, no opens or closes;
  // in place: no copy of the form); its trees are built when asked. @pre the form's leaves
  // are valid (shapes >= 1). An exception from fill propagates (no layout is made).
  template <class Fill>
  static Layout make_leaves(Fill&& fill) noexcept(noexcept(fill(std::declval<BracketedLeaves&>()))) {
    return Layout(Layout::Unchecked{}, Layout::FillLeaves{}, std::forward<Fill>(fill));
  }
  // l's own form, for a LayoutWriter to write in place. @pre l was made by make_leaves.
  static BracketedLeaves& form_of(Layout& l) noexcept { return l.leaves_; }
  // Moves l's shape and stride out (l is left an invalid husk, only to be destroyed). Builds
  // them first when l holds only its leaves.
  static void take_parts(Layout&& l, IntTuple& shape, IntTuple& stride) {
    l.shape();
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
// The same as a plain value with its static flag (for the algebra's flat paths).
FlatInt cosize_flat(const Layout& l);

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
// The same with m0 copied (its form only, when both modes hold one).
Layout make_layout_from_modes(const Layout& m0, Layout&& m1);

}  // namespace cuteref
