#include "symbolic_layout.hpp"

namespace cuteref::proofs {

SymLayout lift(const Layout& l) { return {to_scalar_tuple<SymInt>(l.shape()), to_scalar_tuple<SymInt>(l.stride())}; }

SymInt sym_size(const SymLayout& l) { return tuple_product<SymInt>(l.shape); }

SymInt apply_at(const SymLayout& l, const SymInt& index) { return crd2idx_index(index, l.shape, l.stride); }

SymLayout sym_coalesce(const SymLayout& l) {
  auto [shape, stride] = coalesce_tree(l.shape, l.stride, ScalarCoalesceOps<SymInt>{});
  return {std::move(shape), std::move(stride)};
}

z3::expr functions_equal(const SymLayout& a, const SymLayout& b, const SymInt& index) {
  SymbolicScope& s = current_scope();
  const SymInt size_a = sym_size(a), size_b = sym_size(b);
  const z3::expr in_domain = index >= s.constant(0) && index < size_a;
  s.push_guard(in_domain);
  // Under the guard, index lies in [0, size_a): its interval narrows accordingly.
  SymInt i = index;
  if (i.lo < 0) i.lo = 0;
  if (i.hi > size_a.hi - 1) i.hi = size_a.hi - 1;
  const SymInt va = apply_at(a, i), vb = apply_at(b, i);
  s.pop_guard();
  return size_a == size_b && z3::implies(in_domain, va == vb);
}

z3::expr structurally_equal(const SymTuple& a, const SymTuple& b) {
  z3::context& ctx = current_scope().ctx();
  if (a.is_tuple() != b.is_tuple() || a.rank() != b.rank()) return ctx.bool_val(false);
  if (!a.is_tuple()) return *a.leaf == *b.leaf;
  z3::expr all = ctx.bool_val(true);
  for (std::size_t i = 0; i < a.rank(); ++i) all = all && structurally_equal(a[i], b[i]);
  return all;
}

namespace {
SymTuple variable_tree(SymbolicScope& s, const IntTuple& profile, const std::string& prefix, Range range,
                       std::vector<z3::expr>& domain, std::vector<SymInt>& out) {
  if (!profile.is_tuple()) {
    out.push_back(s.ranged_variable(prefix + std::to_string(out.size()), range.first, range.second, domain));
    return SymTuple::of(out.back());
  }
  std::vector<SymTuple> e;
  for (const auto& p : profile.elements()) e.push_back(variable_tree(s, p, prefix, range, domain, out));
  return SymTuple::tuple(std::move(e));
}
}  // namespace

SymLayout variable_layout(SymbolicScope& s, const IntTuple& profile, Range shape_range, Range stride_range,
                          std::vector<z3::expr>& domain, std::vector<SymInt>& shapes, std::vector<SymInt>& strides) {
  SymTuple shape = variable_tree(s, profile, "s", shape_range, domain, shapes);
  SymTuple stride = variable_tree(s, profile, "d", stride_range, domain, strides);
  return {std::move(shape), std::move(stride)};
}

}  // namespace cuteref::proofs
