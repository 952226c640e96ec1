#include "mode_comparison.hpp"

#include <vector>

#include "checked_math.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

// The flattened modes of a layout with extent > 1 (unit modes add no digit).
struct Modes {
  std::vector<IntTuple> shapes, strides;
  std::size_t next = 0;
  std::int64_t extent = 1, stride = 0;  // the current (remaining) mode; extent 1: none left

  explicit Modes(const Layout& l) {
    flatten_into(l.shape(), shapes);
    flatten_into(l.stride(), strides);
    advance();
  }
  // Loads the next mode with extent > 1 (extent stays 1 when there is none).
  void advance() {
    extent = 1;
    while (next < shapes.size() && extent == 1) {
      extent = shapes[next].value();
      stride = strides[next].value();
      ++next;
    }
  }
  // Consumes the lowest digit of extent p (p divides extent).
  void consume(std::int64_t p) {
    extent /= p;
    if (extent == 1) advance();
    else stride = checked_mul(stride, p);
  }
};

// Whether every value of the layout is an int64 (the largest and the smallest value, the sums
// of the positive and of the negative (s - 1) * d, are): otherwise evaluating it overflows
// somewhere, which enumeration reports and the comparison of modes would not.
bool values_fit(const Modes& m) {
  __extension__ typedef __int128 Wide;  // (s - 1) * d of two int64 fits; sums stop past int64
  const Wide max = INT64_MAX;
  Wide hi = 0, lo = 0;
  for (std::size_t k = 0; k < m.shapes.size(); ++k) {
    const Wide term = Wide{m.shapes[k].value() - 1} * m.strides[k].value();
    (term > 0 ? hi : lo) += term;
    if (hi > max || lo < -max - 1) return false;
  }
  return true;
}

}  // namespace

ModeComparison compare_by_modes(const Layout& a, const Layout& b) {
  if (a.has_basis_strides() || b.has_basis_strides())
    throw Error("compare_by_modes: scaled-basis strides (precondition: integer strides)");
  Modes x(a), y(b);
  if (!values_fit(x) || !values_fit(y)) return {ModeComparison::Result::Undecided, 0};
  std::int64_t weight = 1;  // the index of digit 1 of the current piece
  while (x.extent > 1 && y.extent > 1) {
    std::int64_t piece;
    if (x.extent % y.extent == 0) piece = y.extent;
    else if (y.extent % x.extent == 0) piece = x.extent;
    else return {ModeComparison::Result::Undecided, 0};
    if (x.stride != y.stride) return {ModeComparison::Result::Differ, weight};
    weight = checked_mul(weight, piece);
    x.consume(piece);
    y.consume(piece);
  }
  if (x.extent > 1 || y.extent > 1)  // unequal sizes: outside the precondition
    throw Error("compare_by_modes: " + a.to_string() + " and " + b.to_string() + " differ in size");
  return {ModeComparison::Result::Equal, 0};
}

}  // namespace cuteref
