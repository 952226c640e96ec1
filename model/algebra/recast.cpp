#include "recast.hpp"

#include <string>
#include <tuple>
#include <vector>

#include "checked_math.hpp"
#include "error.hpp"
#include "leaf_arith.hpp"
#include "recast_generic.hpp"

namespace cuteref {

namespace {

void check_integer_strides(const Layout& l, const char* fn) {
  if (l.has_basis_strides())
    throw Error(std::string(fn) + ": precondition violated: the strides must be integers; L = " + l.to_string());
}

void check_factor(std::int64_t n, const char* fn, const Layout& l) {
  if (n < 1)
    throw Error(std::string(fn) + ": precondition violated: the factor " + std::to_string(n) +
                " must be >= 1; L = " + l.to_string());
}

// Rebuild (shape, stride) leaf by leaf.
template <class F>
void map_leaves(const IntTuple& s, const IntTuple& d, F&& f, IntTuple& out_s, IntTuple& out_d) {
  if (!s.is_tuple()) {
    f(s, d, out_s, out_d);
    return;
  }
  std::vector<IntTuple> ss, dd;
  for (std::size_t i = 0; i < s.rank(); ++i) {
    IntTuple a, b;
    map_leaves(s[i], d[i], f, a, b);
    ss.push_back(a);
    dd.push_back(b);
  }
  out_s = IntTuple::tuple(std::move(ss));
  out_d = IntTuple::tuple(std::move(dd));
}

// Whether some leaf of d is the static integer _1 (CuTe's has_int1: a compile-time 1; a
// run-time 1 or a _-1 does not count).
bool has_static_unit_stride(const IntTuple& d) {
  if (d.is_tuple()) {
    for (const auto& e : d.elements())
      if (has_static_unit_stride(e)) return true;
    return false;
  }
  return d.is_static() && d.value() == 1;
}

// recast_generic.hpp's decisions on the model's leaves: the run-time values, static flags
// propagated as in leaf_arith, upcast's divisibility an Error naming it.
struct RecastOps {
  const Layout& l;
  std::int64_t n;
  bool is_zero(const IntTuple& x) const { return x.value() == 0; }
  bool is_negative(const IntTuple& x) const { return x.value() < 0; }
  bool is_one(const IntTuple& x) const { return x.value() == 1; }
  bool is_static_unit(const IntTuple& d) const { return d.is_static() && (d.value() == 1 || d.value() == -1); }
  IntTuple abs(const IntTuple& x) const { return leaf_abs(x); }
  IntTuple neg(const IntTuple& x) const { return IntTuple::integer(checked_neg(x.value()), x.is_static()); }
  IntTuple ceil_div(const IntTuple& a, const IntTuple& b) const { return leaf_ceil_div(a, b); }
  IntTuple mul(const IntTuple& a, const IntTuple& b) const { return leaf_mul(a, b); }
  void check_divisible(const IntTuple& d, const IntTuple& abs_d) const {
    if (abs_d.value() % n != 0 && n % abs_d.value() != 0)
      throw Error("upcast: precondition violated: stride " + d.to_string() + " and factor " + std::to_string(n) +
                  " must divide one another (CuTe's \"Divisibility condition\"); L = " + l.to_string());
  }
};

}  // namespace

Layout upcast(const Layout& l, std::int64_t n) {
  check_factor(n, "upcast", l);
  check_integer_strides(l, "upcast");
  const IntTuple factor = IntTuple::static_int(n);  // CuTe's N is a compile-time Int<N>
  IntTuple shape, stride;
  const RecastOps ops{l, n};
  map_leaves(l.shape(), l.stride(), [&](const IntTuple& s, const IntTuple& d, IntTuple& os, IntTuple& od) {
    std::tie(os, od) = upcast_leaf(s, d, factor, ops);
  }, shape, stride);
  return Layout(shape, stride);
}

Layout downcast(const Layout& l, std::int64_t n) {
  check_factor(n, "downcast", l);
  check_integer_strides(l, "downcast");
  if (!has_static_unit_stride(l.stride()))
    throw Error("downcast: precondition violated: some stride must be the static _1 (CuTe: \"Downcast requires "
                "adjacent elements\"; a run-time 1 is not known to be the contiguous mode); L = " + l.to_string());
  const IntTuple factor = IntTuple::static_int(n);
  IntTuple shape, stride;
  const RecastOps ops{l, n};
  map_leaves(l.shape(), l.stride(), [&](const IntTuple& s, const IntTuple& d, IntTuple& os, IntTuple& od) {
    std::tie(os, od) = downcast_leaf(s, d, factor, ops);
  }, shape, stride);
  return Layout(shape, stride);
}

Layout recast(const Layout& l, std::int64_t old_bits, std::int64_t new_bits) {
  if (old_bits < 1 || new_bits < 1)
    throw Error("recast: precondition violated: element widths must be >= 1 bit, got old = " +
                std::to_string(old_bits) + ", new = " + std::to_string(new_bits) + "; L = " + l.to_string());
  const std::int64_t g = gcd64(old_bits, new_bits);
  const std::int64_t num = new_bits / g, den = old_bits / g;
  if (num == 1 && den == 1) return l;
  if (num == 1) return downcast(l, den);
  if (den == 1) return upcast(l, num);
  return downcast(upcast(l, num), den);
}

}  // namespace cuteref
