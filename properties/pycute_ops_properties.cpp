// Laws of PyCuTe's operations, as PyCuTe documents their post-conditions (NVlabs/CuTe,
// pycute/algebra.py and shape.py), and of CuTe's right_inverse on static strides.
//
// layout_add:        size(R) == size(A); R(i) == A(i) + B(i) for 0 <= i < size(R);
//                    layout_add(A, B) == layout_add(B, A) (same shape and stride).
// greatest_common_domain (G of shapes A, B): symmetric; depth(G) == 1; size(G) divides
//                    gcd(size(A), size(B)); composition(A, G) and composition(B, G) are
//                    admissible; maximal: the rest modes of
//                    logical_divide(A, G) and of logical_divide(B, G), with each shape taken as a
//                    tiler (make_identity_layout: its modes stay apart), have the greatest common
//                    domain (1):(0).
// common_refinement / common_coarsening: symmetric; reflexive (f(a, a) == a); a and b coarsen
//                    the refinement; the coarsening coarsens a and b.
// coalesce_z:        size and depth <= 1 as coalesce; result(i) == L(i) for every i >= 0, past the
//                    size too (the last flat coordinate takes the whole quotient);
//                    coalesce(coalesce_z(L)) == coalesce(L); by mode (profile (1,...,1)): the rank
//                    is kept, each mode has depth <= 1 and its size, the same function past the size.
// right_inverse (CuTe's, static strides): L(R(i)) == i for i < size(R); on a fully static L the
//                    same function as right_inverse_full(L).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>

#include "coalesce.hpp"
#include "coalesce_z.hpp"
#include "common_shape.hpp"
#include "composition.hpp"
#include "divide.hpp"
#include "generators.hpp"
#include "identity_layout.hpp"
#include "greatest_common_domain.hpp"
#include "inverse.hpp"
#include "law_support.hpp"
#include "layout_add.hpp"
#include "make_layout.hpp"

namespace cuteref::props::pycute_ops_properties {
namespace {

using AddOp = std::function<Layout(const Layout&, const Layout&)>;
using ZOp = std::function<Layout(const Layout&)>;

Violation layout_add_law(const AddOp& op, const Layout& a, const Layout& b) {
  const std::string call = "layout_add(" + a.to_string() + ", " + b.to_string() + ")";
  Layout r = a, s = a;
  try {
    r = op(a, b);
    s = op(b, a);
  } catch (const Error& e) {
    return rejected(call, e);
  }
  if (size_value(r) != size_value(a)) return call + " = " + r.to_string() + ": size differs from " + std::to_string(size_value(a));
  for (std::int64_t i = 0; i < size_value(a); ++i)
    if (apply_index(r, i) != apply_index(a, i) + apply_index(b, i))
      return call + " = " + r.to_string() + " at " + std::to_string(i) + ": " + std::to_string(apply_index(r, i)) +
             " != " + std::to_string(apply_index(a, i)) + " + " + std::to_string(apply_index(b, i));
  if (!(r == s)) return call + " = " + r.to_string() + " but with the operands swapped " + s.to_string();
  return std::nullopt;
}

// A layout over a shape of the same size as `l`'s: l's flat shape regrouped, strides from
// `b_strides` (so a common refinement exists: the flat shape refines both).
rc::Gen<Layout> same_flat_shape_as(const Layout& l) {
  std::vector<IntTuple> leaves;
  flatten_into(l.shape(), leaves);
  return rc::gen::map(rc::gen::container<std::vector<std::int64_t>>(leaves.size(), rc::gen::inRange<std::int64_t>(-4, 9)),
                      [leaves](const std::vector<std::int64_t>& d) {
                        std::vector<IntTuple> strides;
                        for (auto v : d) strides.push_back(IntTuple::integer(v));
                        if (leaves.size() == 1) return Layout(leaves[0], strides[0]);
                        return Layout(IntTuple::tuple(leaves), IntTuple::tuple(strides));
                      });
}

Violation gcd_law(const IntTuple& a, const IntTuple& b) {
  const std::string call = "greatest_common_domain(" + a.to_string() + ", " + b.to_string() + ")";
  Layout g = make_layout(a), h = g;
  try {
    g = greatest_common_domain(a, b);
    h = greatest_common_domain(b, a);
  } catch (const Error& e) {
    return rejected(call, e);
  }
  if (!(g == h)) return call + " = " + g.to_string() + " but swapped " + h.to_string();
  if (depth(g) != 1) return call + " = " + g.to_string() + " has depth " + std::to_string(depth(g));
  const std::int64_t na = product(a).value(), nb = product(b).value();
  if (std::gcd(na, nb) % size_value(g) != 0) return call + " = " + g.to_string() + ": size does not divide gcd";
  // PyCuTe turns a shape into a layout as a tiler (each mode its own coordinate), so the divide's
  // rest keeps the shape's leaves: the identity layout does the same here (a compact layout would
  // let composition merge the rest's modes: (3,2) and (2,3) would both leave 6:1).
  const Layout la = make_identity_layout(a), lb = make_identity_layout(b);
  Layout rest_a = la, rest_b = lb;
  try {
    composition(la, g);
    composition(lb, g);
    rest_a = mode(logical_divide(la, g), 1);
    rest_b = mode(logical_divide(lb, g), 1);
  } catch (const Error& e) {
    return rejected(call + " = " + g.to_string() + " composed with or dividing the shapes", e);
  }
  const Layout more = greatest_common_domain(rest_a.shape(), rest_b.shape());
  if (size_value(more) != 1)
    return call + " = " + g.to_string() + " is not maximal: the rests " + rest_a.to_string() + " and " +
           rest_b.to_string() + " still share " + more.to_string();
  return std::nullopt;
}

// L(i) for any i >= 0, past the size too: the model's evaluation of the flattened layout, whose
// last mode takes the whole quotient (apply_index does not bound the index).
std::int64_t extended_value(const Layout& x, std::int64_t i) { return apply_index(flatten(x), i); }

// z and l agree at every index below 3 * size(l) + 3, past the size too.
Violation same_function_past_size(const Layout& z, const Layout& l, const std::string& call) {
  for (std::int64_t i = 0; i < 3 * size_value(l) + 3; ++i)
    if (extended_value(z, i) != extended_value(l, i))
      return call + " at " + std::to_string(i) + ": " + std::to_string(extended_value(z, i)) +
             " != " + std::to_string(extended_value(l, i));
  return std::nullopt;
}

Violation coalesce_z_law(const ZOp& op, const Layout& l) {
  Layout z = l;
  try {
    z = op(l);
  } catch (const Error& e) {
    return rejected("coalesce_z(" + l.to_string() + ")", e);
  }
  const std::string call = "coalesce_z(" + l.to_string() + ") = " + z.to_string();
  if (size_value(z) != size_value(l)) return call + ": size differs";
  if (depth(z) > 1) return call + ": depth > 1";
  if (auto v = same_function_past_size(z, l, call)) return v;
  if (!(coalesce(z) == coalesce(l))) return call + ": coalesce of it is " + coalesce(z).to_string();
  return std::nullopt;
}

Violation shape_laws(const IntTuple& a, const IntTuple& b) {
  const std::string pair = "(" + a.to_string() + ", " + b.to_string() + ")";
  const IntTuple m = common_coarsening(a, b);
  if (!(m == common_coarsening(b, a))) return "common_coarsening" + pair + " is not symmetric";
  if (!(common_coarsening(a, a) == a)) return "common_coarsening(a, a) != a for a = " + a.to_string();
  if (!shape_coarsens(m, a) || !shape_coarsens(m, b)) return "common_coarsening" + pair + " = " + m.to_string() + " does not coarsen both";
  if (!(common_refinement(a, a) == a)) return "common_refinement(a, a) != a for a = " + a.to_string();
  try {
    const IntTuple j = common_refinement(a, b);
    if (!(j == common_refinement(b, a))) return "common_refinement" + pair + " is not symmetric";
    if (!shape_coarsens(a, j) || !shape_coarsens(b, j)) return "common_refinement" + pair + " = " + j.to_string() + " refines not both";
  } catch (const Error&) {
    // no join: allowed (PyCuTe raises); symmetric refusal
    try {
      common_refinement(b, a);
      return "common_refinement" + pair + " refused one way only";
    } catch (const Error&) {
    }
  }
  return std::nullopt;
}

// A shape of size n: a random ordered factorization of n (factors >= 1), nested at random.
rc::Gen<IntTuple> shape_of_size(std::int64_t n) {
  return rc::gen::map(rc::gen::container<std::vector<int>>(6, rc::gen::inRange(0, 1000)), [n](const std::vector<int>& pick) {
    std::vector<IntTuple> leaves;
    std::int64_t rest = n;
    for (std::size_t k = 0; k + 1 < pick.size() && rest > 1; ++k) {
      std::vector<std::int64_t> divisors;
      for (std::int64_t d = 1; d <= rest; ++d)
        if (rest % d == 0) divisors.push_back(d);
      const std::int64_t f = divisors[static_cast<std::size_t>(pick[k]) % divisors.size()];
      leaves.push_back(IntTuple::integer(f));
      rest /= f;
    }
    leaves.push_back(IntTuple::integer(rest));
    if (leaves.size() >= 3 && pick.back() % 2 == 0)  // nest the first two
      return IntTuple::tuple({IntTuple::tuple({leaves[0], leaves[1]}), IntTuple::tuple(std::vector<IntTuple>(leaves.begin() + 2, leaves.end()))});
    return leaves.size() == 1 ? leaves[0] : IntTuple::tuple(leaves);
  });
}

// A shape of the same size as `t`: its leaves regrouped at random.
rc::Gen<IntTuple> regrouped(const IntTuple& t) {
  std::vector<IntTuple> leaves;
  flatten_into(t, leaves);
  return rc::gen::map(rc::gen::container<std::vector<int>>(leaves.size(), rc::gen::inRange(0, 3)), [leaves](const std::vector<int>& cut) {
    // cut[k] == 0: leaf k starts a new group; groups of one leaf are the leaf itself.
    std::vector<IntTuple> top, group;
    const auto flush = [&] {
      if (group.size() == 1) top.push_back(group[0]);
      else if (!group.empty()) top.push_back(IntTuple::tuple(group));
      group.clear();
    };
    for (std::size_t k = 0; k < leaves.size(); ++k) {
      if (cut[k] == 0) flush();
      group.push_back(leaves[k]);
    }
    flush();
    return top.size() == 1 ? top[0] : IntTuple::tuple(top);
  });
}

const AddOp kAdd = [](const Layout& a, const Layout& b) { return layout_add(a, b); };
const ZOp kCoalesceZ = [](const Layout& l) { return coalesce_z(l); };

}  // namespace

RC_GTEST_PROP(PycuteOps, layout_add, ()) {
  const Layout a = *gen::layout(gen::ShapeLimits{3, 4, 4, 128});
  const Layout b = *same_flat_shape_as(a);
  rc_require(layout_add_law(kAdd, a, b));
  count_random("layout_add");
}

RC_GTEST_PROP(PycuteOps, greatest_common_domain, ()) {
  const IntTuple a = *gen::shape(gen::ShapeLimits{3, 4, 6, 512});
  const IntTuple b = *rc::gen::oneOf(regrouped(a), shape_of_size(product(a).value()), gen::shape(gen::ShapeLimits{3, 4, 6, 512}));
  rc_require(gcd_law(a, b));
  count_random("greatest_common_domain");
}

RC_GTEST_PROP(PycuteOps, common_refinement_and_coarsening, ()) {
  const IntTuple a = *gen::shape(gen::ShapeLimits{3, 4, 4, 256});
  const IntTuple b = *regrouped(a);
  rc_require(shape_laws(a, b));
  count_random("common_refinement_coarsening");
}

RC_GTEST_PROP(PycuteOps, coalesce_z, ()) {
  rc_require(coalesce_z_law(kCoalesceZ, *gen::layout(gen::ShapeLimits{3, 4, 4, 128})));
  count_random("coalesce_z");
}

// By mode (profile (1,...,1)): each top-level mode coalesced on its own keeps the rank, each mode
// has depth <= 1 and its size, and the whole is the same function past the size too.
RC_GTEST_PROP(PycuteOps, coalesce_z_by_mode, ()) {
  const Layout l = *gen::layout(gen::ShapeLimits{3, 4, 4, 128});
  std::vector<IntTuple> ones(rank(l), IntTuple::integer(1));
  const IntTuple profile = IntTuple::tuple(ones);
  Layout z = l;
  try {
    z = coalesce_z(l, profile);
  } catch (const Error& e) {
    RC_FAIL(*rejected("coalesce_z(" + l.to_string() + ", " + profile.to_string() + ")", e));
  }
  RC_ASSERT(rank(z) == rank(l));
  for (std::size_t m = 0; m < rank(l); ++m) {
    RC_ASSERT(depth(mode(z, m)) <= 1);
    RC_ASSERT(size_value(mode(z, m)) == size_value(mode(l, m)));
  }
  rc_require(same_function_past_size(z, l, "coalesce_z(" + l.to_string() + ", " + profile.to_string() + ") = " + z.to_string()));
  count_random("coalesce_z by mode");
}

RC_GTEST_PROP(PycuteOps, right_inverse_static_strides, ()) {
  const Layout l = *gen::layout(gen::ShapeLimits{3, 4, 4, 256});
  Layout r = l;
  try {
    r = right_inverse(l);
  } catch (const Error& e) {
    RC_FAIL(*rejected("right_inverse(" + l.to_string() + ")", e));
  }
  for (std::int64_t i = 0; i < size_value(r); ++i)
    RC_ASSERT(apply_index(l, apply_index(r, i)) == i);
  if (l.shape().all_static() && l.stride().all_static()) {
    const Layout full = right_inverse_full(l);
    rc_require(same_values(r, full, size_value(full), "right_inverse", "right_inverse_full"));
    RC_ASSERT(size_value(r) == size_value(full));
  }
  count_random("right_inverse (static strides)");
}

TEST(PycuteOps, exhaustive) {
  const LeafAlphabet flat{range(1, 4), range(0, 6)};
  {
    Exhaustive ex("coalesce_z", "flat rank<=3, " + flat.to_string());
    for_each_flat_layout(3, flat, [&](const Layout& l) { ex.check(l.to_string(), coalesce_z_law(kCoalesceZ, l)); });
  }
  {
    // Every pair of flat rank<=2 layouts of equal size over extents 1..4, strides 0..3: the ones
    // with a common refinement must satisfy the law; the refused ones are counted as skipped.
    const LeafAlphabet small{range(1, 4), range(0, 3)};
    std::vector<Layout> all;
    for_each_flat_layout(2, small, [&](const Layout& l) { all.push_back(l); });
    Exhaustive ex("layout_add", "pairs of equal size, flat rank<=2, " + small.to_string());
    for (const auto& a : all)
      for (const auto& b : all) {
        if (size_value(a) != size_value(b)) continue;
        try {
          layout_add(a, b);
        } catch (const Error&) {
          ex.skip();
          continue;
        }
        ex.check(a.to_string() + " + " + b.to_string(), layout_add_law(kAdd, a, b));
      }
  }
}

TEST(PycuteOps, mutants_are_caught) {
  expect_mutant_caught("coalesce_z", "coalesce (drops the trailing size-1 mode)", [] {
    rc_require(coalesce_z_law([](const Layout& l) { return coalesce(l); }, *gen::layout(gen::ShapeLimits{3, 4, 4, 128})));
  });
  expect_mutant_caught("layout_add", "the sum on A's coalesced modes only (B's splits ignored)", [] {
    const Layout a = *gen::layout(gen::ShapeLimits{3, 4, 4, 128});
    const AddOp on_a = [](const Layout& x, const Layout& y) {
      const Layout c = coalesce(x);
      std::vector<IntTuple> s, d;
      flatten_into(c.shape(), s);
      std::int64_t p = 1;
      for (const auto& e : s) {
        d.push_back(IntTuple::integer(apply_index(c, p) + apply_index(y, p)));
        p *= e.value();
      }
      return Layout(IntTuple::tuple(s), IntTuple::tuple(d));
    };
    rc_require(layout_add_law(on_a, a, *same_flat_shape_as(a)));
  });
}

}  // namespace cuteref::props::pycute_ops_properties
