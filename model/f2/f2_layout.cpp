#include "f2_layout.hpp"

#include <bit>

#include "checked_math.hpp"
#include "error.hpp"
#include "f2_eval.hpp"

namespace cuteref {

namespace {

void check_leaves(const IntTuple& shape, const IntTuple& stride) {
  if (shape.is_tuple()) {
    for (std::size_t i = 0; i < shape.rank(); ++i) check_leaves(shape[i], stride[i]);
    return;
  }
  if (!shape.is_integer() || shape.value() < 1)
    throw Error("F2 layout: shape leaf " + shape.to_string() + " must be a positive integer");
  if (!stride.is_integer())
    throw Error("F2 layout: stride leaf " + stride.to_string() + " must be an F2 value (F0, F1, ...)");
  if (stride.value() < 0)
    throw Error("F2 layout: stride F" + std::to_string(stride.value()) +
                " is negative; an F2 value is a finite bit pattern (a non-negative integer)");
}

void append_f2_tree(const IntTuple& t, std::string& out, std::size_t limit) {
  if (out.size() > limit) return;
  if (!t.is_tuple()) {
    out += 'F';
    out += std::to_string(t.value());
    return;
  }
  out += '(';
  for (std::size_t i = 0; i < t.rank() && out.size() <= limit; ++i) {
    if (i) out += ',';
    append_f2_tree(t[i], out, limit);
  }
  out += ')';
}


}  // namespace

F2Layout::F2Layout(IntTuple shape, IntTuple stride) : shape_(std::move(shape)), stride_(std::move(stride)) {
  if (!congruent(shape_, stride_))
    throw Error("F2 layout: stride " + stride_.to_string() + " is not congruent with shape " + shape_.to_string());
  check_leaves(shape_, stride_);
  (void)size_value(*this);  // the size fits in 64 bits (checked product)
}

std::string F2Layout::to_string() const {
  std::string s;
  append_text(s);
  return s;
}

void F2Layout::append_text(std::string& out, std::size_t limit) const {
  shape_.append_text(out, limit);
  if (out.size() > limit) return;
  out += ':';
  append_f2_tree(stride_, out, limit);
}

std::int64_t carryless_multiply(std::int64_t a, std::int64_t b) {
  if (a < 0 || b < 0)
    throw Error("carry-less product of " + std::to_string(a) + " and " + std::to_string(b) +
                ": both must be non-negative");
  if (a == 0 || b == 0) return 0;
  if (bit_width64(a) + bit_width64(b) - 1 > 63)
    throw Error("carry-less product of " + std::to_string(a) + " and F" + std::to_string(b) +
                " overflows 63 bits");
  std::uint64_t r = 0, x = static_cast<std::uint64_t>(b);
  for (std::uint64_t c = static_cast<std::uint64_t>(a); c != 0; c >>= 1, x <<= 1)
    if (c & 1) r ^= x;
  return static_cast<std::int64_t>(r);
}

std::vector<F2Mode> flat_modes(const F2Layout& l) {
  std::vector<IntTuple> shapes, strides;
  flatten_into(l.shape(), shapes);
  flatten_into(l.stride(), strides);
  std::vector<F2Mode> modes;
  modes.reserve(shapes.size());
  for (std::size_t k = 0; k < shapes.size(); ++k) modes.push_back({shapes[k].value(), strides[k].value(), shapes[k].is_static()});
  return modes;
}

std::int64_t size_value(const F2Layout& l) {
  std::int64_t n = 1;
  for (const F2Mode& m : flat_modes(l)) n = checked_mul(n, m.shape);
  return n;
}

std::int64_t apply_index(const F2Layout& l, std::int64_t index) {
  // f2_eval.hpp's application, which the proofs run on symbolic indices too.
  std::vector<CheckedInt> shapes, strides;
  for (const F2Mode& m : flat_modes(l)) {
    shapes.emplace_back(m.shape);
    strides.emplace_back(m.stride);
  }
  return f2_value_at<CheckedInt>(
             shapes, strides, index,
             [&] { return "F2 layout application: index " + std::to_string(index) + " is negative"; },
             [](CheckedInt c, CheckedInt d) {
               return "carry-less product of " + std::to_string(c.v) + " and F" + std::to_string(d.v) +
                      " overflows 63 bits";
             })
      .v;
}

bool has_power_of_two_shape(const F2Layout& l) {
  for (const F2Mode& m : flat_modes(l))
    if (!std::has_single_bit(static_cast<std::uint64_t>(m.shape))) return false;
  return true;
}

std::vector<std::int64_t> f2_index_bases(const F2Layout& l, const char* operation) {
  std::vector<std::int64_t> bases;
  for (const F2Mode& m : flat_modes(l)) {
    if (!std::has_single_bit(static_cast<std::uint64_t>(m.shape)))
      throw Error(std::string(operation) + ": " + l.to_string() + " has the shape leaf " + std::to_string(m.shape) +
                  ", not a power of two; an F2 layout is linear over GF(2) only on whole bits of its index");
    // Mode of 2^n: its coordinate bit j contributes 2^j (x) d = d << j.
    for (int j = 0; (std::int64_t{1} << j) < m.shape; ++j) bases.push_back(carryless_multiply(std::int64_t{1} << j, m.stride));
  }
  return bases;
}

}  // namespace cuteref
