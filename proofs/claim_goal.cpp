#include "claim_goal.hpp"

#include "symbolic_layout.hpp"

namespace cuteref::proofs {

namespace {

// Two layouts with the same flat modes once the modes of size 1 are dropped (each is a
// case split) are the same function: a mode of size 1 contributes only its coordinate 0, and
// a nested layout is the function of its flattened modes (colexicographic digits; proved for
// depth 2 by the nested coalesce laws).
// A sufficient condition for `==` (SymbolicScope::set_sufficient_goal), false when the
// numbers of modes differ.
z3::expr same_modes(const Val<SymInt>& a, const Val<SymInt>& b) {
  auto modes = [](const Val<SymInt>& v) {
    std::vector<ScalarTuple<SymInt>> shapes, strides;
    flatten_leaves(v.t, shapes);
    flatten_leaves(v.stride, strides);
    std::vector<std::pair<SymInt, SymInt>> kept;
    for (std::size_t k = 0; k < shapes.size(); ++k)
      if (!ScalarOps<SymInt>::decide(*shapes[k].leaf == ScalarOps<SymInt>::constant(1)))
        kept.emplace_back(*shapes[k].leaf, *strides[k].leaf);
    return kept;
  };
  const auto ma = modes(a), mb = modes(b);
  z3::context& ctx = current_scope().ctx();
  if (ma.size() != mb.size()) return ctx.bool_val(false);
  z3::expr all = ctx.bool_val(true);
  for (std::size_t k = 0; k < ma.size(); ++k)
    all = all && ma[k].first == mb[k].first && ma[k].second == mb[k].second;
  return all;
}

// Two composed layouts with the same swizzle and offset slot are the same function where
// their layouts are (S(O + L(i)) depends on i through L(i) only): the condition on the outer
// parts, false where they differ in structure.
z3::expr same_swizzle_and_offset(const Val<SymInt>& a, const Val<SymInt>& b) {
  z3::context& ctx = current_scope().ctx();
  if (a.b != b.b || a.m != b.m || a.s != b.s || a.pointer != b.pointer || a.offset.has_value() != b.offset.has_value())
    return ctx.bool_val(false);
  return a.offset ? (*a.offset == *b.offset) : ctx.bool_val(true);
}

}  // namespace

z3::expr claim_goal(const SymVal& a, const SymVal& b, const SymInt& index, bool& compares_functions) {
  using K = SymVal::Kind;
  SymbolicScope& scope = current_scope();
  if (function_like(a) && function_like(b)) {
    compares_functions = true;
    if (a.kind == K::Layout && b.kind == K::Layout) scope.set_sufficient_goal(same_modes(a, b));
    if (a.kind == K::Composed && b.kind == K::Composed) {
      const z3::expr same_outer = same_swizzle_and_offset(a, b);
      if (!same_outer.is_false()) scope.set_sufficient_goal(same_outer && same_modes(a, b));
    }
    const SymInt na = size_of(a), nb = size_of(b);
    const z3::expr in_domain = index < na;
    scope.push_guard(in_domain);
    SymInt i = index;
    if (i.hi > na.hi - 1) {
      i.hi = na.hi - 1;
      i.hi_certain = false;  // under the guard only (SymInt)
    }
    const SymInt va = value_at(a, i), vb = value_at(b, i);
    scope.pop_guard();
    return na == nb && z3::implies(in_domain, va == vb);
  }
  if (a.kind == K::Int && b.kind == K::Int) return *a.i == *b.i;
  if (a.kind == K::Tuple && b.kind == K::Tuple) return structurally_equal(a.t, b.t);
  throw Unsupported("cannot compare these two kinds of values symbolically");
}

}  // namespace cuteref::proofs
