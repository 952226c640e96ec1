// A layout's form (bracketed_leaves.hpp) as the flat modes the generic walks read and write:
// FormShapes / FormStrides read an operand's leaves in place (no copy into working vectors),
// FormModesOut writes a result's leaves straight into its form (no second pass), and
// InlineModesOut into working vectors. With them coalesce_generic.hpp's walk reads an operand
// and writes the result in one pass.
#pragma once

#include <cstddef>
#include <string>

#include "bracketed_leaves.hpp"
#include "error.hpp"
#include "flat_int.hpp"
#include "inline_flat_ints.hpp"

namespace cuteref {

// The shapes (FormShapes) or strides (FormStrides) of a form's leaves, as a read-only vector.
struct FormShapes {
  const BracketedLeaves& form;
  std::size_t size() const noexcept { return form.n; }
  FlatInt operator[](std::size_t i) const noexcept { return form.shape(i); }
};
struct FormStrides {
  const BracketedLeaves& form;
  std::size_t size() const noexcept { return form.n; }
  FlatInt operator[](std::size_t i) const noexcept { return form.stride(i); }
};

// The kept modes of a walk (coalesce_generic.hpp's Out) written into storage the model holds
// inline. The last mode is held here until the next one comes (a merge changes only it; held
// in registers, not read back from memory after each store), and written by finish().
// Target: void write(std::size_t i, FlatInt shape, FlatInt stride); void finish(std::size_t n)
// (n >= 1 modes written).
template <class Target>
class LastModeHeldOut {
 public:
  explicit LastModeHeldOut(Target target) noexcept : target_(target) {}
  LastModeHeldOut(const LastModeHeldOut&) = delete;
  LastModeHeldOut& operator=(const LastModeHeldOut&) = delete;

  std::size_t size() const noexcept { return n_; }
  FlatInt& last_shape() noexcept { return last_shape_; }
  const FlatInt& last_stride() const noexcept { return last_stride_; }
  // Keeps a mode. @pre shape >= 1, stride an integer (the walk's decisions keep the leaves
  // of valid layouts valid). Past kInlineLeaves modes throws Error (a caller's broken
  // precondition: it gives the storage room for every mode it can push).
  void push(FlatInt shape, FlatInt stride) {
    if (n_ > 0) target_.write(n_ - 1, last_shape_, last_stride_);
    if (n_ == kInlineLeaves) throw_full();
    last_shape_ = shape;
    last_stride_ = stride;
    ++n_;
  }
  // Writes the last mode and ends the target. @pre size() >= 1.
  void finish() noexcept {
    target_.write(n_ - 1, last_shape_, last_stride_);
    target_.finish(n_);
  }

 private:
  [[noreturn, gnu::cold, gnu::noinline]] static void throw_full() {
    throw Error("internal: more than " + std::to_string(kInlineLeaves) + " modes held inline");
  }

  Target target_;
  FlatInt last_shape_, last_stride_;
  std::size_t n_ = 0;
};

// An empty form (n = 0, no opens or closes) as the flat layout of the modes: a leaf for one
// mode, a flat tuple for several.
struct FormTarget {
  BracketedLeaves& form;
  void write(std::size_t i, FlatInt shape, FlatInt stride) noexcept { form.set_leaf(i, shape, stride); }
  void finish(std::size_t n) noexcept {
    form.n = static_cast<std::uint8_t>(n);
    if (n > 1) {
      form.opens[0] = 1;
      form.closes[n - 1] = 1;
    }
  }
};
using FormModesOut = LastModeHeldOut<FormTarget>;

// Two InlineFlatInts (emptied first) as the modes' shapes and strides.
struct InlineModesTarget {
  InlineFlatInts& shapes;
  InlineFlatInts& strides;
  void write(std::size_t i, FlatInt shape, FlatInt stride) noexcept {
    shapes.set_slot(i, shape);
    strides.set_slot(i, stride);
  }
  void finish(std::size_t n) noexcept {
    shapes.set_size(n);
    strides.set_size(n);
  }
};
using InlineModesOut = LastModeHeldOut<InlineModesTarget>;

}  // namespace cuteref
