#include "symbolic_layout.hpp"

namespace cuteref::proofs {

std::vector<SymInt> leaves_of(const SymTuple& t) {
  std::vector<SymTuple> flat;
  flatten_leaves(t, flat);
  std::vector<SymInt> out;
  for (const auto& l : flat) out.push_back(*l.leaf);
  return out;
}

SymLayout lift(const Layout& l) { return {to_scalar_tuple<SymInt>(l.shape()), to_scalar_tuple<SymInt>(l.stride())}; }

SymInt sym_size(const SymLayout& l) { return tuple_product<SymInt>(l.shape); }

SymInt apply_at(const SymLayout& l, const SymInt& index) { return layout_apply_index(index, l.shape, l.stride); }

// Up to this many elements a layout with concrete extents is stated pair by pair.
constexpr std::int64_t kInjectiveExpansionSize = 64;

z3::expr injective(const SymLayout& l) {
  SymbolicScope& s = current_scope();
  std::vector<SymTuple> shapes, strides;
  flatten_leaves(l.shape, shapes);
  flatten_leaves(l.stride, strides);
  z3::context& ctx = s.ctx();
  z3::expr_vector bound(ctx);
  z3::expr in_box = ctx.bool_val(true), same_coordinates = ctx.bool_val(true);
  z3::expr offset_a = ctx.int_val(0), offset_b = ctx.int_val(0);
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    const z3::expr a = ctx.int_const(("injective!a" + std::to_string(k)).c_str());
    const z3::expr b = ctx.int_const(("injective!b" + std::to_string(k)).c_str());
    bound.push_back(a);
    bound.push_back(b);
    const z3::expr& extent = shapes[k].leaf->e;
    in_box = in_box && a >= 0 && a < extent && b >= 0 && b < extent;
    same_coordinates = same_coordinates && a == b;
    offset_a = offset_a + a * strides[k].leaf->e;
    offset_b = offset_b + b * strides[k].leaf->e;
  }
  if (shapes.empty()) return ctx.bool_val(true);
  // Concrete extents of a small size: the same statement without a quantifier, every pair
  // of distinct coordinates (Z3 does not find the instances a quantifier needs there).
  std::int64_t size = 1;
  bool small = true;
  for (const SymTuple& e : shapes) {
    const SymInt& v = *e.leaf;  // concrete: its interval is one value
    small = small && v.lo == v.hi && v.lo >= 0 && v.lo <= kInjectiveExpansionSize &&
            (size *= static_cast<std::int64_t>(v.lo)) <= kInjectiveExpansionSize;
  }
  if (!small) return z3::forall(bound, z3::implies(in_box && offset_a == offset_b, same_coordinates));
  std::vector<z3::expr> offsets;
  for (std::int64_t i = 0; i < size; ++i) {
    z3::expr offset = ctx.int_val(0);
    std::int64_t rest = i;
    for (std::size_t k = 0; k < shapes.size(); ++k) {
      const auto extent = static_cast<std::int64_t>(shapes[k].leaf->lo);
      offset = offset + ctx.int_val(rest % extent) * strides[k].leaf->e;
      rest /= extent;
    }
    offsets.push_back(offset);
  }
  z3::expr all = ctx.bool_val(true);
  for (std::size_t i = 0; i < offsets.size(); ++i)
    for (std::size_t j = i + 1; j < offsets.size(); ++j) all = all && offsets[i] != offsets[j];
  return all;
}

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
  // Bounds that hold under the guard only are not certain (SymInt).
  SymInt i = index;
  if (i.lo < 0) {
    i.lo = 0;
    i.lo_certain = false;
  }
  if (i.hi > size_a.hi - 1) {
    i.hi = size_a.hi - 1;
    i.hi_certain = false;
  }
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
