#include "int_tuple.hpp"

#include <algorithm>
#include <new>

#include "checked_math.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

// Each thread's freed tuple nodes of 1..kMaxPooledSize elements, for reuse, one bounded
// list per size. Plain thread-local data (no destructor of its own), so that it stays
// usable while other objects are destroyed at thread or program exit; the NodeListOwner
// releases the lists when the thread ends and, from then on, nodes go straight back to
// the heap. One thread-local object, not several: in a shared library (the Python
// extension) each thread-local variable's address costs a call to the TLS resolver, once
// per variable used in a function.
constexpr std::size_t kMaxPooledSize = 8;
constexpr std::size_t kMaxFreeNodes = 256;  // per size
struct FreeNodeLists {
  void* nodes[kMaxPooledSize + 1][kMaxFreeNodes];
  std::size_t count[kMaxPooledSize + 1];
  bool closed;
  bool owner_registered;
};
thread_local FreeNodeLists free_lists = {};

struct NodeListOwner {
  ~NodeListOwner() {
    FreeNodeLists& lists = free_lists;
    lists.closed = true;
    for (std::size_t n = 0; n <= kMaxPooledSize; ++n)
      while (lists.count[n] > 0) ::operator delete(lists.nodes[n][--lists.count[n]]);
  }
};
thread_local NodeListOwner node_list_owner;

// Registers the owner's destructor for this thread, on its first node (for the main thread
// that is before any static object's destructor can free nodes).
inline void register_owner(FreeNodeLists& lists) {
  if (lists.owner_registered) return;
  lists.owner_registered = true;
  (void)&node_list_owner;  // the first use of a thread_local with a destructor registers it
}

// The memory of a tuple node of n elements (`bytes` long) from the heap, past the pool
// (allocate_tuple_node's slow path). Throws Error beyond kMaxTupleElements.
[[gnu::noinline]] void* tuple_node_from_heap(std::size_t n, std::size_t bytes) {
  if (n > kMaxTupleElements)
    throw Error("a tuple of " + std::to_string(n) + " elements, more than the limit of " +
                std::to_string(kMaxTupleElements) + " (the rank of a tuple, shape, stride or tiler)");
  register_owner(free_lists);
  return ::operator new(bytes);
}

}  // namespace

struct IntTuple::BasisNode : IntTuple::Node {
  std::vector<int> path;
};

// The pool's fast path (a pooled size with a free node) makes no call, so it needs no stack
// frame; the heap is out of line.
IntTuple::Node* IntTuple::allocate_tuple_node(std::size_t n) {
  FreeNodeLists& lists = free_lists;
  if (n <= kMaxPooledSize && lists.count[n] > 0) {  // n <= kMaxPooledSize < kMaxTupleElements
    Node* node = new (lists.nodes[n][--lists.count[n]]) Node;
    node->size = static_cast<std::uint32_t>(n);
    return node;
  }
  Node* node = new (tuple_node_from_heap(n, sizeof(Node) + n * sizeof(IntTuple))) Node;
  node->size = static_cast<std::uint32_t>(n);
  return node;
}

void IntTuple::release_node() noexcept {
  Node* const node = node_;
  node_ = nullptr;
  // The last reference when the count reads 1: no other holder can add one concurrently,
  // so the atomic read-modify-write is needed only when the node is shared.
  if (node->refs.load(std::memory_order_acquire) != 1 && node->refs.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  if (kind_ == Kind::Basis) {
    delete static_cast<BasisNode*>(node);
    return;
  }
  const std::size_t n = node->size;
  IntTuple* elems = reinterpret_cast<IntTuple*>(node + 1);
  for (std::size_t i = 0; i < n; ++i) elems[i].~IntTuple();
  node->~Node();
  FreeNodeLists& lists = free_lists;
  if (n <= kMaxPooledSize && !lists.closed && lists.count[n] < kMaxFreeNodes) {
    lists.nodes[n][lists.count[n]++] = node;
    return;
  }
  ::operator delete(node);
}

const std::vector<int> IntTuple::no_path_;

const std::vector<int>& IntTuple::basis_path() const {
  return is_basis() ? static_cast<const BasisNode*>(node_)->path : no_path_;
}

IntTuple IntTuple::basis(std::int64_t value, std::vector<int> printed_path, bool is_static) {
  if (printed_path.empty()) return integer(value, is_static);
  if (printed_path.size() > kMaxBasisIndices)
    throw Error("scaled basis: " + std::to_string(printed_path.size()) + " indices, more than the limit of " +
                std::to_string(kMaxBasisIndices) + " (one per level of the coordinate it names)");
  for (int d : printed_path)
    if (d < 0) throw Error("scaled basis: dimension index must be non-negative, got " + std::to_string(d));
  IntTuple t;
  t.kind_ = Kind::Basis;
  t.value_ = value;
  t.is_static_ = is_static;
  auto* node = new BasisNode;
  node->path = std::move(printed_path);
  t.node_ = node;
  return t;
}

IntTuple IntTuple::tuple_copied(const IntTuple* first, std::size_t n) {
  IntTuple t;
  if (n == 0) return t;
  Node* node = allocate_tuple_node(n);
  IntTuple* elems = reinterpret_cast<IntTuple*>(node + 1);
  for (std::size_t i = 0; i < n; ++i) new (elems + i) IntTuple(first[i]);
  t.node_ = node;
  return t;
}

IntTuple IntTuple::tuple_moved(IntTuple* first, std::size_t n) {
  IntTuple t;
  if (n == 0) return t;
  Node* node = allocate_tuple_node(n);
  IntTuple* elems = reinterpret_cast<IntTuple*>(node + 1);
  for (std::size_t i = 0; i < n; ++i) new (elems + i) IntTuple(std::move(first[i]));
  t.node_ = node;
  return t;
}

bool TupleElements::operator==(const TupleElements& o) const {
  if (size_ != o.size_) return false;
  for (std::size_t i = 0; i < size_; ++i)
    if (!(data_[i] == o.data_[i])) return false;
  return true;
}

std::vector<IntTuple> TupleElements::to_vector() const { return std::vector<IntTuple>(begin(), end()); }

IntTuple IntTuple::underscore() {
  IntTuple t;
  t.kind_ = Kind::Underscore;
  t.is_static_ = true;
  return t;
}

void IntTuple::throw_not_integer() const { throw Error("expected an integer, got " + to_string()); }

void IntTuple::throw_out_of_range(std::size_t i) const {
  if (!is_tuple()) throw Error("mode " + std::to_string(i) + " out of range for rank-1 " + to_string());
  throw Error("mode " + std::to_string(i) + " out of range for rank-" + std::to_string(rank()) + " " + to_string());
}

int IntTuple::depth() const {
  if (!is_tuple()) return 0;
  int d = 0;
  for (const auto& e : elements()) d = std::max(d, e.depth());
  return d + 1;
}

bool IntTuple::all_static() const {
  if (is_tuple()) return std::all_of(elements().begin(), elements().end(), [](const IntTuple& e) { return e.all_static(); });
  return is_static_;
}

bool IntTuple::has_underscore() const {
  if (is_tuple()) return std::any_of(elements().begin(), elements().end(), [](const IntTuple& e) { return e.has_underscore(); });
  return is_underscore();
}

bool IntTuple::has_basis() const {
  if (!is_tuple()) return is_basis();
  // A leaf element is answered here, without the call (strides are mostly flat tuples).
  for (const IntTuple& e : elements())
    if (e.is_tuple() ? e.has_basis() : e.is_basis()) return true;
  return false;
}

bool IntTuple::operator==(const IntTuple& o) const {
  if (kind_ != o.kind_) return false;
  if (is_tuple()) return node_ == o.node_ || elements() == o.elements();
  return value_ == o.value_ && is_static_ == o.is_static_ && basis_path() == o.basis_path();
}

bool IntTuple::same_values_slow(const IntTuple& o) const {
  if (kind_ != o.kind_) return false;
  if (is_tuple()) {
    if (node_ == o.node_) return true;
    const auto &mine = elements(), &theirs = o.elements();
    if (mine.size() != theirs.size()) return false;
    for (std::size_t i = 0; i < mine.size(); ++i)
      if (!mine[i].same_values(theirs[i])) return false;
    return true;
  }
  return value_ == o.value_ && basis_path() == o.basis_path();
}

std::string IntTuple::to_string() const {
  std::string s;
  append_text(s);
  return s;
}

void IntTuple::append_text(std::string& out, std::size_t limit) const {
  if (out.size() > limit) return;
  switch (kind_) {
    case Kind::Underscore:
      out += '_';
      return;
    case Kind::Integer:
    case Kind::Basis:
      if (is_static_) out += '_';
      out += std::to_string(value_);
      for (int d : basis_path()) {
        out += '@';
        out += std::to_string(d);
      }
      return;
    case Kind::Tuple:
      out += '(';
      for (std::size_t i = 0; i < elements().size() && out.size() <= limit; ++i) {
        if (i) out += ',';
        elements()[i].append_text(out, limit);
      }
      out += ')';
      return;
  }
}

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple() != b.is_tuple()) return false;
  if (!a.is_tuple()) return true;
  if (a.rank() != b.rank()) return false;
  for (std::size_t i = 0; i < a.rank(); ++i)
    if (!congruent(a[i], b[i])) return false;
  return true;
}

bool weakly_congruent(const IntTuple& a, const IntTuple& b) {
  if (!a.is_tuple()) return true;
  if (!b.is_tuple()) return false;
  if (a.rank() != b.rank()) return false;
  for (std::size_t i = 0; i < a.rank(); ++i)
    if (!weakly_congruent(a[i], b[i])) return false;
  return true;
}


namespace {
// product of a tuple on plain values, with the same order of multiplications (each
// sub-tuple's product first), so the same overflow diagnostics.
void tuple_product_value(const IntTuple& t, std::int64_t& value, bool& is_static) {
  value = 1;
  is_static = true;
  for (const auto& e : t.elements()) {
    std::int64_t v;
    bool st;
    if (e.is_integer()) {
      v = e.value();
      st = e.is_static();
    } else if (e.is_tuple()) {
      tuple_product_value(e, v, st);
    } else {
      throw Error("product: expected integers, got " + e.to_string());
    }
    value = checked_mul(value, v);
    is_static = is_static && st;
  }
}
}  // namespace

IntTuple product(const IntTuple& t) {
  if (t.is_integer()) return t;
  if (!t.is_tuple()) throw Error("product: expected integers, got " + t.to_string());
  std::int64_t value;
  bool is_static;
  tuple_product_value(t, value, is_static);
  return IntTuple::integer(value, is_static);
}

namespace {
std::size_t leaf_count(const IntTuple& t) {
  if (!t.is_tuple()) return 1;
  std::size_t n = 0;
  for (const auto& e : t.elements()) n += leaf_count(e);
  return n;
}

void append_leaves(const IntTuple& t, std::vector<IntTuple>& out) {
  if (!t.is_tuple()) {
    out.push_back(t);
    return;
  }
  for (const auto& e : t.elements()) append_leaves(e, out);
}
}  // namespace

void flatten_into(const IntTuple& t, std::vector<IntTuple>& out) {
  if (!t.is_tuple()) {
    out.push_back(t);
    return;
  }
  const auto& elements = t.elements();
  if (std::none_of(elements.begin(), elements.end(), [](const IntTuple& e) { return e.is_tuple(); })) {
    out.insert(out.end(), elements.begin(), elements.end());  // already flat: one copy
    return;
  }
  out.reserve(out.size() + leaf_count(t));  // one allocation instead of one per doubling
  append_leaves(t, out);
}

IntTuple flatten(const IntTuple& t) {
  if (!t.is_tuple()) return t;
  std::vector<IntTuple> leaves;
  flatten_into(t, leaves);
  return IntTuple::tuple(std::move(leaves));
}

IntTuple wrap(const IntTuple& t) { return t.is_tuple() ? t : IntTuple::tuple({t}); }

}  // namespace cuteref
