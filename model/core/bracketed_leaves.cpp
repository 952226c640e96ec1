#include "bracketed_leaves.hpp"

#include "bracket_parser.hpp"

namespace cuteref {

bool BracketedLeaves::operator==(const BracketedLeaves& o) const {
  if (n != o.n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const FlatInt s = shape(i), os = o.shape(i), d = stride(i), od = o.stride(i);
    if (s.v != os.v || s.st != os.st || d.v != od.v || d.st != od.st || opens[i] != o.opens[i] ||
        closes[i] != o.closes[i])
      return false;
  }
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
    out.set_leaf(i, FlatInt::of(shape), FlatInt::of(stride));
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
  unsigned pending = 0;
  // depth <= kInlineDepth leaves opens and closes (each at most the depth) within a byte.
  return append_bracketed(shape, stride, 0, pending, out) && out.n >= 1;
}

void trees_of(const BracketedLeaves& b, IntTuple& shape, IntTuple& stride) {
  parse_bracketed(LeavesSource{b}, shape, stride);
}

}  // namespace cuteref
