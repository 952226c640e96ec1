#include "greatest_common_domain.hpp"

#include <numeric>
#include <string>
#include <vector>

#include "checked_math.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

std::vector<std::int64_t> leaf_values(const IntTuple& shape) {
  std::vector<IntTuple> leaves;
  flatten_into(shape, leaves);
  std::vector<std::int64_t> out;
  for (const auto& l : leaves) {
    if (!l.is_integer() || l.value() < 1)
      throw Error("greatest_common_domain: a shape has integer leaves >= 1, got `" + shape.to_string() + "`");
    out.push_back(l.value());
  }
  return out;
}

}  // namespace

Layout greatest_common_domain(const IntTuple& shape_a, const IntTuple& shape_b) {
  std::vector<std::int64_t> a = leaf_values(shape_a), b = leaf_values(shape_b);
  const bool st = shape_a.all_static() && shape_b.all_static();
  std::vector<IntTuple> shapes, strides;
  std::int64_t pa = 1, pb = 1;  // where the current leaf of each walk starts
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == 1) { ++i; continue; }
    if (b[j] == 1) { ++j; continue; }
    const std::int64_t q = lcm64(pa, pb);
    const std::int64_t ra = q / pa, rb = q / pb;
    if (a[i] % ra == 0 && b[j] % rb == 0) {
      const std::int64_t g = gcd64(a[i] / ra, b[j] / rb);
      if (g != 1) {
        shapes.push_back(IntTuple::integer(g, st));
        strides.push_back(IntTuple::integer(q, st));
        a[i] /= checked_mul(ra, g);
        b[j] /= checked_mul(rb, g);
        pa = pb = checked_mul(q, g);
        continue;
      }
    }
    // No common factor here: advance the leaf that ends first (both when neither end divides
    // the other, so that neither walk waits on a boundary the other never reaches).
    const std::int64_t ea = checked_mul(pa, a[i]), eb = checked_mul(pb, b[j]);
    const bool a_ends_first = eb % ea == 0, b_ends_first = ea % eb == 0;
    if (a_ends_first || !b_ends_first) { pa = ea; ++i; }
    if (b_ends_first || !a_ends_first) { pb = eb; ++j; }
  }
  if (shapes.empty()) return Layout(IntTuple::tuple({IntTuple::integer(1, st)}), IntTuple::tuple({IntTuple::integer(0, st)}));
  return Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

}  // namespace cuteref
