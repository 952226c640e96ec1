// A vector of at most kInlineLeaves FlatInts in place: the working vectors of an operation
// on a layout held as its form (bracketed_leaves.hpp) whose result never has more leaves
// than its operand (coalesce). Unlike SmallVector there is no heap block to look
// for: constructing one stores its count, destroying it does nothing.
#pragma once

#include <cstddef>
#include <new>

#include "bracketed_leaves.hpp"
#include "error.hpp"
#include "flat_int.hpp"

namespace cuteref {

class InlineFlatInts {
 public:
  using value_type = FlatInt;

  InlineFlatInts() noexcept {}  // (not `= default`: the slots are left unwritten)
  InlineFlatInts(const InlineFlatInts&) = delete;
  InlineFlatInts& operator=(const InlineFlatInts&) = delete;

  std::size_t size() const noexcept { return n_; }
  bool empty() const noexcept { return n_ == 0; }
  FlatInt* data() noexcept { return reinterpret_cast<FlatInt*>(slots_); }
  FlatInt& operator[](std::size_t i) noexcept { return data()[i]; }
  // Appends v. Throws Error past kInlineLeaves (a caller's broken precondition, never a
  // silent overrun).
  void push_back(FlatInt v) {
    if (n_ == kInlineLeaves) throw Error("internal: more than " + std::to_string(kInlineLeaves) + " inline leaves");
    new (data() + n_++) FlatInt(v);
  }
  void pop_back() noexcept { --n_; }

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
    shapes.n_ = strides.n_ = n;
  }

 private:
  alignas(FlatInt) unsigned char slots_[kInlineLeaves * sizeof(FlatInt)];
  std::size_t n_ = 0;
};

}  // namespace cuteref
