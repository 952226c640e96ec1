// A vector of at most kInlineLeaves FlatInts in place: the working vectors of an operation
// on layouts held as their forms (bracketed_leaves.hpp) whose working vectors fit (coalesce;
// complement, composition, logical_divide and logical_product where the operands' leaves
// leave room, which each caller checks). Unlike SmallVector there is no heap block to look
// for: constructing one stores its count, destroying it does nothing, and the compiler sees
// where the elements are and that a store to an element's int64_t is not a store to a count
// (32-bit here; a std::size_t may alias it), so it need not load a count again after each
// store to an element (bench/README.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>

#include "bracketed_leaves.hpp"
#include "error.hpp"
#include "flat_int.hpp"

namespace cuteref {

class Layout;

class InlineFlatInts {
 public:
  using value_type = FlatInt;

  InlineFlatInts() noexcept {}  // (not `= default`: the slots are left unwritten)
  // Copies the n leaves, field by field (as load below). For returns by value; an
  // assignment is not needed.
  InlineFlatInts(const InlineFlatInts& o) noexcept : n_(o.n_) {
    for (std::size_t i = 0; i < n_; ++i) new (data() + i) FlatInt{o[i].v, o[i].st};
  }
  InlineFlatInts& operator=(const InlineFlatInts&) = delete;

  std::size_t size() const noexcept { return n_; }
  bool empty() const noexcept { return n_ == 0; }
  FlatInt* data() noexcept { return reinterpret_cast<FlatInt*>(slots_); }
  const FlatInt* data() const noexcept { return reinterpret_cast<const FlatInt*>(slots_); }
  FlatInt& operator[](std::size_t i) noexcept { return data()[i]; }
  const FlatInt& operator[](std::size_t i) const noexcept { return data()[i]; }
  FlatInt* begin() noexcept { return data(); }
  FlatInt* end() noexcept { return data() + n_; }
  const FlatInt* begin() const noexcept { return data(); }
  const FlatInt* end() const noexcept { return data() + n_; }
  // Room for n leaves is fixed: n > kInlineLeaves is a caller's broken precondition, which
  // throws (as push_back past the room would).
  void reserve(std::size_t n) const {
    if (n > kInlineLeaves) throw_full();
  }
  void clear() noexcept { n_ = 0; }
  // Removes [first, last), moving the later leaves down one by one (field by field).
  FlatInt* erase(FlatInt* first, FlatInt* last) noexcept {
    if (first == last) return first;
    FlatInt* out = first;
    for (FlatInt* in = last; in != end(); ++in, ++out) *out = FlatInt{in->v, in->st};
    n_ = static_cast<std::uint32_t>(out - data());
    return first;
  }
  // Appends v. Throws Error past kInlineLeaves (a caller's broken precondition, never a
  // silent overrun).
  void push_back(FlatInt v) {
    if (n_ == kInlineLeaves) throw_full();
    new (data() + n_++) FlatInt(v);
  }
  void pop_back() noexcept { --n_; }
  // Writes slot i (i < kInlineLeaves), leaving the size as it is: with set_size, for a
  // writer that fills the slots first and says how many at the end.
  void set_slot(std::size_t i, FlatInt v) noexcept { new (data() + i) FlatInt(v); }
  // @pre n <= kInlineLeaves and the slots below n are written.
  void set_size(std::size_t n) noexcept { n_ = static_cast<std::uint32_t>(n); }

  // The n leaves of `form` into two of these, replacing their contents.
  // Leaf by leaf and field by field: copied whole or as one block, the copy would be vector
  // loads over the scalar stores of the decisions (store forwarding fails), or `rep movs`,
  // either slower than the few fields of a small layout (bench/README.md).
  static void load(const BracketedLeaves& form, InlineFlatInts& shapes, InlineFlatInts& strides) noexcept {
    const std::size_t n = form.n;
    for (std::size_t i = 0; i < n; ++i) {
      const FlatInt s = form.shape(i), d = form.stride(i);
      new (shapes.data() + i) FlatInt{s.v, s.st};
      new (strides.data() + i) FlatInt{d.v, d.st};
    }
    shapes.n_ = strides.n_ = static_cast<std::uint32_t>(n);
  }

 private:
  [[noreturn, gnu::cold, gnu::noinline]] static void throw_full() {
    throw Error("internal: more than " + std::to_string(kInlineLeaves) + " inline leaves");
  }

  alignas(FlatInt) unsigned char slots_[kInlineLeaves * sizeof(FlatInt)];
  std::uint32_t n_ = 0;  // at most kInlineLeaves; not std::size_t (see above)
};

// The flat modes shapes[i]:strides[i] of an operand or a result, in place (as
// FlatModesOfInts, flat_coalesce.hpp, holds them in SmallVectors).
struct InlineFlatModes {
  InlineFlatInts shapes, strides;
  // The layout these modes stand for (out of line: diagnostics and the vector paths' hand-offs;
  // a hot path writes its result with flat_layout directly).
  // @pre as FlatModesOfInts::layout(): shapes.size() == strides.size() >= 1, shapes >= 1.
  Layout layout() const;
};

}  // namespace cuteref
