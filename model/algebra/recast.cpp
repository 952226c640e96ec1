#include "recast.hpp"

#include <string>
#include <tuple>
#include <vector>

#include "checked_math.hpp"
#include "error.hpp"
#include "leaf_arith.hpp"
#include "leaf_policies.hpp"
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

// upcast's failed precondition, worded with the stride, the factor and L (recast_generic.hpp's
// RecastOps runs the model's decisions on its IntTuple leaves: the run-time values, static
// flags propagated as in leaf_arith).
struct RecastDiagnostics {
  const Layout* l = nullptr;
  std::string not_divisible(const IntTuple& d, const IntTuple& n) const {
    return "upcast: precondition violated: stride " + d.to_string() + " and factor " + std::to_string(n.value()) +
           " must divide one another (CuTe's \"Divisibility condition\"); L = " + l->to_string();
  }
};
using ModelRecastOps = RecastOps<IntTupleLeaf, RecastDiagnostics>;

}  // namespace

Layout upcast(const Layout& l, std::int64_t n) {
  check_factor(n, "upcast", l);
  check_integer_strides(l, "upcast");
  const IntTuple factor = IntTuple::static_int(n);  // CuTe's N is a compile-time Int<N>
  IntTuple shape, stride;
  const ModelRecastOps ops{RecastDiagnostics{&l}};
  map_leaves(l.shape(), l.stride(), [&](const IntTuple& s, const IntTuple& d, IntTuple& os, IntTuple& od) {
    std::tie(os, od) = upcast_leaf(s, d, factor, ops);
  }, shape, stride);
  return Layout(shape, stride);
}

Layout downcast(const Layout& l, std::int64_t n) {
  check_factor(n, "downcast", l);
  check_integer_strides(l, "downcast");
  Leaves strides;
  append_leaves_to(l.stride(), strides);
  if (!has_static_unit_stride<IntTupleLeaf>(strides))
    throw Error(downcast_needs_static_unit() + "; L = " + l.to_string());
  const IntTuple factor = IntTuple::static_int(n);
  IntTuple shape, stride;
  const ModelRecastOps ops{RecastDiagnostics{&l}};
  map_leaves(l.shape(), l.stride(), [&](const IntTuple& s, const IntTuple& d, IntTuple& os, IntTuple& od) {
    std::tie(os, od) = downcast_leaf(s, d, factor, ops);
  }, shape, stride);
  return Layout(shape, stride);
}

Layout recast(const Layout& l, std::int64_t old_bits, std::int64_t new_bits) {
  // recast_generic.hpp's plan, which the proofs run too.
  return recast_by_widths(
      l, old_bits, new_bits, [](const Layout& x, std::int64_t n) { return upcast(x, n); },
      [](const Layout& x, std::int64_t n) { return downcast(x, n); },
      [&]() -> void {
        throw Error("recast: precondition violated: element widths must be >= 1 bit, got old = " +
                    std::to_string(old_bits) + ", new = " + std::to_string(new_bits) + "; L = " + l.to_string());
      });
}

}  // namespace cuteref
