// Hierarchical integer tuples, CuTe's IntTuple.
//
// An IntTuple is either a leaf or a (possibly empty) tuple of IntTuples. A leaf is one of
//   - an integer, remembering whether it is static (`_8`, a compile-time constant in CuTe)
//     or dynamic (`8`, a run-time value);
//   - a scaled basis `v@d0@d1...` (CuTe's ScaledBasis), used as a stride that produces a
//     coordinate instead of an integer offset;
//   - the underscore `_`, used only inside slicing coordinates.
// Static-ness propagates as in CuTe: the result of an operation on leaves is static iff
// every operand leaf is static.
#pragma once

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <new>
#include <string>
#include <vector>

#include "checked_math.hpp"

namespace cuteref {

// A scaled basis v@p[0]@p[1]...: in CuTe's notation the *last* printed index is the
// outermost position. `1@0@1` is E<1,0>: the coordinate (0,(1,0,..),..) — value 1 at
// position 0 of the sub-tuple at position 1. `path` is stored in printed order.
// Most indices one scaled basis may carry (`v@d0@d1...`, the same bound as the expression
// parser's nesting and the descriptor grammar's): each index is one level of the coordinate
// the basis produces, so this bounds the recursion of everything that walks it (composition's
// profiles, evaluation, printing). IntTuple::basis throws Error beyond it.
inline constexpr std::size_t kMaxBasisIndices = 256;
// Most elements of one tuple (the rank of any shape, stride, coordinate or tiler; CuTe's are a
// handful): several algorithms are quadratic in a rank (make_ordered_layout, composition's modes
// against modes, coordinates of scaled bases), so that a 1 MiB input could otherwise run for
// hours. Building a larger tuple throws Error naming the bound.
inline constexpr std::size_t kMaxTupleElements = 4096;

struct BasisPath {
  std::vector<int> printed;  // printed order: innermost first
  bool operator==(const BasisPath&) const = default;
};

class IntTuple;

// A read-only view of a tuple's elements (valid while the tuple it came from lives): the
// elements are stored inline in the tuple's shared node, so there is no vector to return.
class TupleElements {
 public:
  TupleElements() noexcept = default;
  TupleElements(const IntTuple* data, std::size_t size) noexcept : data_(data), size_(size) {}
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  const IntTuple* begin() const noexcept { return data_; }
  const IntTuple* end() const noexcept;
  const IntTuple* data() const noexcept { return data_; }
  const IntTuple& operator[](std::size_t i) const noexcept;
  const IntTuple& front() const noexcept { return *data_; }
  const IntTuple& back() const noexcept;
  // Element-wise exact equality.
  bool operator==(const TupleElements& o) const;
  std::vector<IntTuple> to_vector() const;

 private:
  const IntTuple* data_ = nullptr;
  std::size_t size_ = 0;
};

class IntTuple {
 public:
  enum class Kind : std::uint8_t { Integer, Basis, Underscore, Tuple };

  // The empty tuple ().
  IntTuple() noexcept : kind_(Kind::Tuple) {}
  IntTuple(const IntTuple& o) noexcept : kind_(o.kind_), is_static_(o.is_static_), value_(o.value_), node_(o.node_) {
    retain();
  }
  IntTuple(IntTuple&& o) noexcept : kind_(o.kind_), is_static_(o.is_static_), value_(o.value_), node_(o.node_) {
    o.node_ = nullptr;
  }
  // Both read o completely before releasing this tuple's storage: o may be an element of it.
  IntTuple& operator=(const IntTuple& o) noexcept {
    const Kind kind = o.kind_;
    const bool is_static = o.is_static_;
    const std::int64_t value = o.value_;
    Node* const node = o.node_;
    if (node != nullptr) node->refs.fetch_add(1, std::memory_order_relaxed);  // before release: self-assignment
    release();
    take(kind, is_static, value, node);
    return *this;
  }
  IntTuple& operator=(IntTuple&& o) noexcept {
    if (this == &o) return *this;
    const Kind kind = o.kind_;
    const bool is_static = o.is_static_;
    const std::int64_t value = o.value_;
    Node* const node = o.node_;
    o.node_ = nullptr;
    release();
    take(kind, is_static, value, node);
    return *this;
  }
  ~IntTuple() { release(); }

  static IntTuple integer(std::int64_t value, bool is_static = false) noexcept {
    IntTuple t;
    t.kind_ = Kind::Integer;
    t.value_ = value;
    t.is_static_ = is_static;
    return t;
  }
  static IntTuple static_int(std::int64_t value) noexcept { return integer(value, true); }
  static IntTuple basis(std::int64_t value, std::vector<int> printed_path, bool is_static = false);
  static IntTuple underscore();
  static IntTuple tuple(std::vector<IntTuple> elements) { return tuple_moved(elements.data(), elements.size()); }
  static IntTuple tuple(std::initializer_list<IntTuple> elements) {
    return tuple_copied(elements.begin(), elements.size());
  }
  static IntTuple tuple(TupleElements elements) { return tuple_copied(elements.data(), elements.size()); }
  // The tuple of n elements copied / moved from `first` (any contiguous storage).
  static IntTuple tuple_copied(const IntTuple* first, std::size_t n);
  static IntTuple tuple_moved(IntTuple* first, std::size_t n);
  // The tuple of the n elements make(0), ..., make(n - 1), built in place (no staging
  // vector). @pre make does not throw.
  template <class Make>
  static IntTuple tuple_made(std::size_t n, Make&& make) {
    IntTuple t;
    if (n == 0) return t;
    Node* node = allocate_tuple_node(n);
    IntTuple* elems = reinterpret_cast<IntTuple*>(node + 1);
    for (std::size_t i = 0; i < n; ++i) new (elems + i) IntTuple(make(i));
    t.node_ = node;
    return t;
  }

  // Two tuples of n elements each, built together in place (for a layout's shape and
  // stride): `shapes` and `strides` become n-tuples of () elements, then fill(i, s, d)
  // assigns element i of each, for i = 0, 1, ... in order. If fill throws, both stay valid
  // tuples (the elements not yet filled are ()).
  template <class Fill>
  static void tuples_filled(std::size_t n, IntTuple& shapes, IntTuple& strides, Fill&& fill) {
    shapes = IntTuple();
    strides = IntTuple();
    if (n == 0) return;
    shapes.node_ = allocate_tuple_node(n);
    for (std::size_t i = 0; i < n; ++i) new (shapes.mutable_element(i)) IntTuple();
    strides.node_ = allocate_tuple_node(n);
    for (std::size_t i = 0; i < n; ++i) new (strides.mutable_element(i)) IntTuple();
    for (std::size_t i = 0; i < n; ++i) fill(i, *shapes.mutable_element(i), *strides.mutable_element(i));
  }

  Kind kind() const { return kind_; }
  bool is_tuple() const { return kind_ == Kind::Tuple; }
  bool is_leaf() const { return kind_ != Kind::Tuple; }
  bool is_integer() const { return kind_ == Kind::Integer; }
  bool is_basis() const { return kind_ == Kind::Basis; }
  bool is_underscore() const { return kind_ == Kind::Underscore; }

  // Leaf accessors. Precondition: is_integer() or is_basis().
  std::int64_t value() const {
    if (kind_ != Kind::Integer && kind_ != Kind::Basis) throw_not_integer();
    return value_;
  }
  bool is_static() const { return is_static_; }
  const std::vector<int>& basis_path() const;

  // Tuple accessors. rank() of a leaf is 1, as in CuTe; operator[] on a leaf with i == 0
  // returns the leaf itself (CuTe's get<0> of an integer).
  std::size_t rank() const { return is_tuple() ? tuple_size() : 1; }
  const IntTuple& operator[](std::size_t i) const {
    if (is_tuple() && i < tuple_size()) return tuple_data()[i];
    if (!is_tuple() && i == 0) return *this;
    throw_out_of_range(i);
  }
  // The elements (empty for a leaf). Tuples are immutable values: copies share the elements.
  TupleElements elements() const {
    // () has no node, so no storage to point into (null + 1 is undefined behaviour).
    return is_tuple() && node_ != nullptr ? TupleElements(tuple_data(), tuple_size()) : TupleElements();
  }

  // depth: 0 for a leaf, 1 + max depth of the elements for a tuple (() has depth 1).
  int depth() const;

  // True if every integer leaf is static (vacuously for ()).
  bool all_static() const;
  // True if any leaf anywhere is an underscore / a basis.
  bool has_underscore() const;
  bool has_basis() const;

  // Exact structural equality, including static flags.
  bool operator==(const IntTuple& other) const;
  // Equal ignoring static flags.
  bool same_values(const IntTuple& other) const {
    if (kind_ == Kind::Integer && other.kind_ == Kind::Integer) return value_ == other.value_;  // the common case
    return same_values_slow(other);
  }

  std::string to_string() const;
  // Appends the notation to `out`, in time linear in its length (to_string uses it). Stops
  // early, with out.size() > limit, once out is longer than `limit` (a printer's bound).
  void append_text(std::string& out, std::size_t limit = SIZE_MAX) const;

 private:
  // The shared, immutable storage of a tuple's elements or a basis's path, reference
  // counted (atomically: copies may live in different threads). A tuple's node is followed
  // in the same allocation by its `size` elements (one allocation per tuple); a basis's
  // node is a BasisNode. The algebra creates and drops nodes at a high rate: each thread
  // recycles freed tuple nodes of small sizes through bounded free lists (int_tuple.cpp).
  struct Node {
    std::atomic<std::int32_t> refs{1};
    std::uint32_t size = 0;  // a tuple's element count
  };
  struct BasisNode;

  std::size_t tuple_size() const noexcept { return node_ != nullptr ? node_->size : 0; }
  const IntTuple* tuple_data() const noexcept { return reinterpret_cast<const IntTuple*>(node_ + 1); }
  // Element i's storage, only while this tuple's node is being built (not yet shared).
  IntTuple* mutable_element(std::size_t i) noexcept { return reinterpret_cast<IntTuple*>(node_ + 1) + i; }
  static Node* allocate_tuple_node(std::size_t n);  // refs 1, size n, elements uninitialized

  void retain() const noexcept {
    if (node_ != nullptr) node_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  // Inline for the common leaf (no node); the node's release is out of line.
  void release() noexcept {
    if (node_ != nullptr) release_node();
  }
  void release_node() noexcept;  // drops this reference to node_ (deleting it if last); node_ = nullptr
  void take(Kind kind, bool is_static, std::int64_t value, Node* node) noexcept {
    kind_ = kind;
    is_static_ = is_static;
    value_ = value;
    node_ = node;
  }
  bool same_values_slow(const IntTuple& other) const;
  [[noreturn]] void throw_not_integer() const;
  [[noreturn]] void throw_out_of_range(std::size_t i) const;

  Kind kind_;
  bool is_static_ = false;
  std::int64_t value_ = 0;
  Node* node_ = nullptr;  // tuples with elements and bases; nullptr for () and other leaves

  static const std::vector<int> no_path_;
};

static_assert(sizeof(IntTuple) % alignof(std::int64_t) == 0);

inline const IntTuple* TupleElements::end() const noexcept { return data_ + size_; }
inline const IntTuple& TupleElements::operator[](std::size_t i) const noexcept { return data_[i]; }
inline const IntTuple& TupleElements::back() const noexcept { return data_[size_ - 1]; }

// Congruent: same tree structure (leaves at the same places).
bool congruent(const IntTuple& a, const IntTuple& b);
// Weakly congruent (CuTe): a's leaves may stand for whole subtrees of b.
bool weakly_congruent(const IntTuple& a, const IntTuple& b);

// Product of all integer leaves, checked; static iff every leaf is static.
// Precondition: only integer leaves.
IntTuple product(const IntTuple& t);

// Flatten to a tuple of leaves; a leaf stays a leaf (CuTe's flatten).
IntTuple flatten(const IntTuple& t);
// Flatten into an output vector.
void flatten_into(const IntTuple& t, std::vector<IntTuple>& out);

// Leaf arithmetic with static propagation and overflow checks. Both operands must be
// integer leaves.
inline IntTuple leaf_mul(const IntTuple& a, const IntTuple& b) {
  return IntTuple::integer(checked_mul(a.value(), b.value()), a.is_static() && b.is_static());
}
inline IntTuple leaf_add(const IntTuple& a, const IntTuple& b) {
  return IntTuple::integer(checked_add(a.value(), b.value()), a.is_static() && b.is_static());
}

// Wrap a leaf as a 1-tuple if it is not a tuple (CuTe's wrap).
IntTuple wrap(const IntTuple& t);

}  // namespace cuteref
