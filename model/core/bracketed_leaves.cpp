#include "bracketed_leaves.hpp"

#include "bracket_parser.hpp"

namespace cuteref {

bool BracketedLeaves::operator==(const BracketedLeaves& o) const {
  if (n != o.n) return false;
  const std::uint8_t used = static_cast<std::uint8_t>((1u << n) - 1);
  if (((shape_static ^ o.shape_static) & used) != 0 || ((stride_static ^ o.stride_static) & used) != 0) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (shapes[i] != o.shapes[i] || strides[i] != o.strides[i] || opens[i] != o.opens[i] || closes[i] != o.closes[i])
      return false;
  return true;
}

namespace {

// The walk of bracketed_leaves_of: `pending` tuples opened since the last leaf. Returns false
// when the trees have no form.
bool append_bracketed(const IntTuple& shape, const IntTuple& stride, int depth, unsigned& pending,
                      BracketedLeaves& out) {
  if (!shape.is_tuple()) {
    if (!shape.is_integer() || !stride.is_integer() || out.n == kInlineLeaves) return false;
    const std::size_t i = out.n++;
    out.opens[i] = static_cast<std::uint8_t>(pending);
    out.closes[i] = 0;
    pending = 0;
    out.shapes[i] = shape.value();
    out.strides[i] = stride.value();
    if (shape.is_static()) out.shape_static |= static_cast<std::uint8_t>(1u << i);
    if (stride.is_static()) out.stride_static |= static_cast<std::uint8_t>(1u << i);
    return true;
  }
  const TupleElements s = shape.elements(), d = stride.elements();
  if (s.empty() || depth == kInlineDepth) return false;  // () has no leaf to hold its brackets
  ++pending;
  for (std::size_t k = 0; k < s.size(); ++k)
    if (!append_bracketed(s[k], d[k], depth + 1, pending, out)) return false;
  ++out.closes[out.n - 1];  // the tuple holds a leaf: n >= 1
  return true;
}

// The form as a parser's source.
struct LeavesSource {
  const BracketedLeaves& b;
  std::size_t size() const { return b.n; }
  unsigned opens(std::size_t i) const { return b.opens[i]; }
  unsigned closes(std::size_t i) const { return b.closes[i]; }
  FlatInt shape(std::size_t i) const { return b.shape(i); }
  FlatInt stride(std::size_t i) const { return b.stride(i); }
};

}  // namespace

bool bracketed_leaves_of(const IntTuple& shape, const IntTuple& stride, BracketedLeaves& out) {
  out.n = 0;
  out.shape_static = 0;
  out.stride_static = 0;
  unsigned pending = 0;
  // depth <= kInlineDepth leaves opens and closes (each at most the depth) within a byte.
  return append_bracketed(shape, stride, 0, pending, out) && out.n >= 1;
}

void trees_of(const BracketedLeaves& b, IntTuple& shape, IntTuple& stride) {
  parse_bracketed(LeavesSource{b}, shape, stride);
}

}  // namespace cuteref
