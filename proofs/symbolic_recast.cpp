#include "symbolic_recast.hpp"

namespace cuteref::proofs {

namespace {

void upcast_tree(const SymTuple& s, const SymTuple& d, const SymRecastOps& ops, SymTuple& out_s, SymTuple& out_d) {
  if (!s.is_tuple()) {
    const auto [shape, stride] = upcast_leaf(*s.leaf, *d.leaf, *ops.n, ops);
    out_s = SymTuple::of(shape);
    out_d = SymTuple::of(stride);
    return;
  }
  out_s = SymTuple{};
  out_d = SymTuple{};
  for (std::size_t i = 0; i < s.rank(); ++i) {
    SymTuple a, b;
    upcast_tree(s[i], d[i], ops, a, b);
    out_s.elements.push_back(std::move(a));
    out_d.elements.push_back(std::move(b));
  }
}

}  // namespace

SymLayout sym_upcast(const SymLayout& l, const SymInt& n) {
  using Ops = ScalarOps<SymInt>;
  Ops::require(n >= Ops::constant(1), [] { return std::string("upcast: the factor must be >= 1"); });
  SymRecastOps ops;
  ops.n = n;
  SymLayout out;
  upcast_tree(l.shape, l.stride, ops, out.shape, out.stride);
  return out;
}

}  // namespace cuteref::proofs
