#include "symbolic_recast.hpp"

#include <vector>

namespace cuteref::proofs {

namespace {

using Ops = ScalarOps<SymInt>;

// Rebuilds (shape, stride) leaf by leaf with f(s, d) -> {s', d'} (recast.cpp's map_leaves on
// the proofs' trees).
template <class F>
void map_leaves(const SymFlaggedTuple& s, const SymFlaggedTuple& d, F&& f, SymFlaggedTuple& out_s,
                SymFlaggedTuple& out_d) {
  if (!s.is_tuple()) {
    auto [shape, stride] = f(*s.leaf, *d.leaf);
    out_s = SymFlaggedTuple::of(std::move(shape));
    out_d = SymFlaggedTuple::of(std::move(stride));
    return;
  }
  out_s = SymFlaggedTuple{};
  out_d = SymFlaggedTuple{};
  for (std::size_t i = 0; i < s.rank(); ++i) {
    SymFlaggedTuple a, b;
    map_leaves(s[i], d[i], f, a, b);
    out_s.elements.push_back(std::move(a));
    out_d.elements.push_back(std::move(b));
  }
}

void require_factor(const SymInt& n, const char* fn) {
  Ops::require(n >= Ops::constant(1), [fn] { return std::string(fn) + ": the factor must be >= 1"; });
}

}  // namespace

SymFlaggedTuple with_flags(const SymTuple& values, const ScalarTuple<bool>& flags) {
  if (!values.is_tuple()) return SymFlaggedTuple::of(SymFlagged{*values.leaf, Ops::truth(*flags.leaf)});
  std::vector<SymFlaggedTuple> e;
  for (std::size_t i = 0; i < values.rank(); ++i) e.push_back(with_flags(values[i], flags[i]));
  return SymFlaggedTuple::tuple(std::move(e));
}

SymTuple values_of(const SymFlaggedTuple& t) {
  if (!t.is_tuple()) return SymTuple::of(t.leaf->v);
  std::vector<SymTuple> e;
  for (const auto& x : t.elements) e.push_back(values_of(x));
  return SymTuple::tuple(std::move(e));
}

ScalarTuple<bool> flags_of(const SymFlaggedTuple& t) {
  if (!t.is_tuple()) return ScalarTuple<bool>::of(t.leaf->st.simplify().is_true());
  std::vector<ScalarTuple<bool>> e;
  for (const auto& x : t.elements) e.push_back(flags_of(x));
  return ScalarTuple<bool>::tuple(std::move(e));
}

SymFlaggedLayout sym_upcast(const SymFlaggedLayout& l, const SymInt& n) {
  require_factor(n, "upcast");
  const SymFlagged factor{n, Ops::truth(true)};  // CuTe's N is a compile-time Int<N>
  const SymRecastOps ops;
  SymFlaggedLayout out;
  map_leaves(l.shape, l.stride, [&](const SymFlagged& s, const SymFlagged& d) { return upcast_leaf(s, d, factor, ops); },
             out.shape, out.stride);
  return out;
}

SymFlaggedLayout sym_downcast(const SymFlaggedLayout& l, const SymInt& n) {
  require_factor(n, "downcast");  // the model's order: the factor, then the contiguous stride
  std::vector<SymFlaggedTuple> leaves;
  flatten_leaves(l.stride, leaves);
  std::vector<SymFlagged> strides;
  for (const auto& d : leaves) strides.push_back(*d.leaf);
  if (!has_static_unit_stride<FlaggedLeaf<SymInt>>(strides))
    throw Error(downcast_needs_static_unit() + "; a stride written without `_` (a variable included) is a run-time value");
  const SymFlagged factor{n, Ops::truth(true)};
  const SymRecastOps ops;
  SymFlaggedLayout out;
  map_leaves(l.shape, l.stride, [&](const SymFlagged& s, const SymFlagged& d) { return downcast_leaf(s, d, factor, ops); },
             out.shape, out.stride);
  return out;
}

SymFlaggedLayout sym_recast(const SymFlaggedLayout& l, std::int64_t old_bits, std::int64_t new_bits) {
  auto factor = [](std::int64_t n) { return Ops::constant(n); };
  return recast_by_widths(
      l, old_bits, new_bits, [&](const SymFlaggedLayout& x, std::int64_t n) { return sym_upcast(x, factor(n)); },
      [&](const SymFlaggedLayout& x, std::int64_t n) { return sym_downcast(x, factor(n)); },
      [&]() -> void {
        throw Error("recast: precondition violated: element widths must be >= 1 bit, got old = " +
                    std::to_string(old_bits) + ", new = " + std::to_string(new_bits));
      });
}

}  // namespace cuteref::proofs
