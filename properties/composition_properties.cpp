// Laws of composition, R = composition(A, B) = A o B, over admissible pairs (the model computes R):
//   pointwise:     R(i) == A(B(i)) for every 0 <= i < size(B) (A read as CuTe reads it: its last
//                  mode takes the whole remaining quotient, so B(i) may lie past size(A));
//   congruence:    size(R) == size(B) and shape(B) is weakly congruent to shape(R) (R has B's
//                  profile; a leaf of B that spans several modes of A becomes a tuple);
//   basis:         the same pointwise law when A's strides are scaled bases (A maps to
//                  coordinates, as identity and TMA layouts do): R(i) == A(B(i)) as coordinates,
//                  compared as CuTe's arithmetic tuples (missing trailing entries are 0, and
//                  an integer 0 is the zero coordinate (a stride-0 mode of B stays the
//                  integer stride 0 in R, as in CuTe, whose composition returns B's _0 stride));
//   associativity: (A o B) o C == A o (B o C) as functions on C's domain, whenever both sides are
//                  admissible and C maps into B's domain (0 <= C(j) < size(B)). The last condition
//                  is needed: A o B agrees with A(B(.)) on B's domain only, and its extension past
//                  size(B) (CuTe's last-mode rule) is not A(B(.))'s: A = (2,1):(1,0), B = 1:1,
//                  C = 2:1 give (A o B) o C = 2:0 but A o (B o C) = 2:1 (pycute agrees).
#include <gtest/gtest.h>

#include <algorithm>
#include <rapidcheck/gtest.h>

#include "coalesce.hpp"
#include "composition.hpp"
#include "generators.hpp"
#include "law_support.hpp"
#include "identity_layout.hpp"
#include "layout_eval.hpp"
#include "make_layout.hpp"

namespace cuteref::props::composition_properties {
namespace {

using ComposeOp = std::function<Layout(const Layout&, const Layout&)>;
const ComposeOp kModel = [](const Layout& a, const Layout& b) { return composition(a, b); };

Violation composition_law(const ComposeOp& op, const Layout& a, const Layout& b) {
  const std::string call = "composition(" + a.to_string() + ", " + b.to_string() + ")";
  Layout r = a;
  try {
    r = op(a, b);
  } catch (const Error& e) {
    return rejected(call, e);
  }
  if (size_value(r) != size_value(b)) return call + " = " + r.to_string() + ": size differs from size(B)";
  if (!weakly_congruent(b.shape(), r.shape())) return call + " = " + r.to_string() + ": not congruent to B";
  for (std::int64_t i = 0; i < size_value(b); ++i) {
    const std::int64_t bi = apply_index(b, i);
    // A read past its domain and at negative indices, as CuTe's crd2idx does.
    const std::int64_t expected = crd2idx_index(CheckedInt(bi), a.shape(), a.stride()).v;
    const std::int64_t got = apply_index(r, i);
    if (expected != got)
      return call + " = " + r.to_string() + ": at " + std::to_string(i) + " A(B(i)) = A(" + std::to_string(bi) +
             ") = " + std::to_string(expected) + " but R(i) = " + std::to_string(got);
  }
  return std::nullopt;
}

// nullopt when one side is not admissible (outside the law), else the law's verdict.
std::optional<Violation> associativity_law(const Layout& a, const Layout& b, const Layout& c) {
  for (std::int64_t v : values(c))
    if (v < 0 || v >= size_value(b)) return std::nullopt;
  Layout left = a, right = a;
  try {
    left = composition(composition(a, b), c);
    right = composition(a, composition(b, c));
  } catch (const Error&) {
    return std::nullopt;
  }
  if (size_value(left) != size_value(right))
    return Violation("(A o B) o C = " + left.to_string() + " and A o (B o C) = " + right.to_string() + " differ in size");
  return same_values(left, right, size_value(left), "(A o B) o C", "A o (B o C)");
}

bool is_zero(const IntTuple& t) {
  for (std::int64_t v : gen::leaf_values(t))
    if (v != 0) return false;
  return true;
}
// Coordinates compare as CuTe's arithmetic tuples do: missing trailing entries are 0, so (0) and
// (0,0), or 0 and (0,0), are the same coordinate.
bool same_coordinate(const IntTuple& x, const IntTuple& y) {
  if (x.is_integer() && x.value() == 0) return is_zero(y);
  if (y.is_integer() && y.value() == 0) return is_zero(x);
  if (x.is_tuple() && y.is_tuple()) {
    for (std::size_t i = 0; i < std::max(x.rank(), y.rank()); ++i) {
      if (i >= x.rank()) {
        if (!is_zero(y[i])) return false;
      } else if (i >= y.rank()) {
        if (!is_zero(x[i])) return false;
      } else if (!same_coordinate(x[i], y[i])) {
        return false;
      }
    }
    return true;
  }
  return x.same_values(y);
}

Violation basis_composition_law(const Layout& a, const Layout& b) {
  const std::string call = "composition(" + a.to_string() + ", " + b.to_string() + ")";
  try {
    const Layout r = composition(a, b);
    if (size_value(r) != size_value(b)) return call + " = " + r.to_string() + ": size differs from size(B)";
    for (std::int64_t i = 0; i < size_value(b); ++i) {
      const IntTuple expected = apply(a, IntTuple::integer(apply_index(b, i)));
      const IntTuple got = apply(r, IntTuple::integer(i));
      if (!same_coordinate(expected, got))
        return call + " = " + r.to_string() + ": at " + std::to_string(i) + " A(B(i)) = " + expected.to_string() +
               " but R(i) = " + got.to_string();
    }
  } catch (const Error& e) {
    return rejected(call, e);
  }
  return std::nullopt;
}

// (A, B) with A's strides scaled bases and B stepping evenly through A's shape.
rc::Gen<std::pair<Layout, Layout>> basis_composition_pair() {
  return rc::gen::mapcat(gen::basis_layout(gen::ShapeLimits{2, 3, 4, 64}), [](const Layout& a) {
    const Layout compact(a.shape(), compact_col_major(a.shape(), IntTuple::integer(1)));
    return rc::gen::map(rc::gen::suchThat(gen::composable_with(compact),
                                          [a](const Layout& b) {
                                            for (std::int64_t v : values(b))
                                              if (v < 0) return false;
                                            try {
                                              (void)composition(a, b);
                                              return true;
                                            } catch (const Error&) {
                                              return false;
                                            }
                                          }),
                        [a](const Layout& b) { return std::make_pair(a, b); });
  });
}

// --- broken variants (test code only) ---
// Seed 000's convention "C(i) = B(A(i))": the operands swapped.
Layout composition_swapped(const Layout& a, const Layout& b) { return composition(b, a); }
// Treats A as linear: scales B's strides by A's first (coalesced) stride.
Layout composition_linear(const Layout& a, const Layout& b) {
  const auto d = gen::leaf_values(flatten(coalesce(a)).stride());
  auto strides = gen::leaf_values(b.stride());
  for (auto& s : strides) s *= d[0];
  return Layout(b.shape(), gen::with_leaves(b.stride(), strides));
}

}  // namespace

RC_GTEST_PROP(Composition, pointwise_and_congruent_to_B, ()) {
  const auto [a, b] = *gen::composition_pair();
  RC_TAG("rank(B) " + std::to_string(rank(b)));
  rc_require(composition_law(kModel, a, b));
  count_random("composition");
}

RC_GTEST_PROP(Composition, pointwise_with_scaled_basis_strides, ()) {
  const auto [a, b] = *basis_composition_pair();
  rc_require(basis_composition_law(a, b));
  count_random("composition, basis strides");
}

RC_GTEST_PROP(Composition, associative_where_admissible, ()) {
  const auto [a, b] = *gen::composition_pair();
  const Layout c = *gen::composable_with(b);
  const auto verdict = associativity_law(a, b, c);
  RC_PRE(verdict.has_value());
  rc_require(*verdict);
  count_random("composition associativity");
}

TEST(Composition, exhaustive) {
  const LeafAlphabet small{range(1, 4), range(0, 4)};
  // Pairs the model refuses are outside the law's precondition: counted as skipped, not checked.
  const auto check_pair = [](Exhaustive& ex, const Layout& a, const Layout& b) {
    try {
      (void)composition(a, b);
    } catch (const Error&) {
      ex.skip();
      return;
    }
    ex.check("A = " + a.to_string() + ", B = " + b.to_string(), composition_law(kModel, a, b));
  };
  {
    Exhaustive ex("composition", "pairs of flat rank<=2 layouts, " + small.to_string());
    for_each_flat_layout(2, small, [&](const Layout& a) {
      for_each_flat_layout(2, small, [&](const Layout& b) {
        check_pair(ex, a, b);
      });
    });
  }
  {
    const LeafAlphabet nested{range(1, 3), {0, 1, 2, 4}};
    Exhaustive ex("composition", "A depth-2 nestings of <=3 leaves (" + nested.to_string() + ") x B leaf layouts (" +
                                     small.to_string() + ")");
    for_each_nested_layout(3, nested, [&](const Layout& a) {
      for_each_flat_layout(1, small, [&](const Layout& b) {
        check_pair(ex, a, b);
      });
    });
  }
  {
    // Identity layouts (scaled-basis strides) of every flat shape of rank <= 2 with extents 1..4,
    // composed with every flat rank <= 2 B (extents 1..4, strides 0..4) the model accepts.
    Exhaustive ex("composition, basis strides", "identity layouts of flat shapes rank<=2, extents 1..4 x B flat rank<=2, " +
                                                    small.to_string());
    for_each_flat_layout(2, LeafAlphabet{range(1, 4), {1}}, [&](const Layout& shape_only) {
      const Layout a = make_identity_layout(shape_only.shape());
      for_each_flat_layout(2, small, [&](const Layout& b) {
        try {
          (void)composition(a, b);
        } catch (const Error&) {
          ex.skip();
          return;
        }
        ex.check("A = " + a.to_string() + ", B = " + b.to_string(), basis_composition_law(a, b));
      });
    });
  }
  {
    const LeafAlphabet leaf{range(1, 4), range(0, 4)};
    Exhaustive ex("composition associativity", "A flat rank<=2 x B leaf x C leaf, " + leaf.to_string());
    for_each_flat_layout(2, leaf, [&](const Layout& a) {
      for_each_flat_layout(1, leaf, [&](const Layout& b) {
        for_each_flat_layout(1, leaf, [&](const Layout& c) {
          const auto v = associativity_law(a, b, c);
          if (!v) ex.skip();
          else ex.check("A = " + a.to_string() + ", B = " + b.to_string() + ", C = " + c.to_string(), *v);
        });
      });
    });
  }
}

TEST(Composition, mutants_are_caught) {
  expect_mutant_caught("composition, basis strides", "basis strides read as integers (the mode index dropped)", [] {
    const auto [a, b] = *basis_composition_pair();
    const Layout r = composition(a, b);
    // The broken variant's result: each basis stride N@d... taken as the integer N.
    std::function<IntTuple(const IntTuple&)> drop = [&](const IntTuple& t) {
      if (t.is_basis()) return IntTuple::integer(t.value());
      if (t.is_leaf()) return t;
      std::vector<IntTuple> e;
      for (const auto& x : t.elements()) e.push_back(drop(x));
      return IntTuple::tuple(std::move(e));
    };
    const Layout broken(r.shape(), drop(r.stride()));
    for (std::int64_t i = 0; i < size_value(b); ++i) {
      const IntTuple expected = apply(a, IntTuple::integer(apply_index(b, i)));
      const IntTuple got = apply(broken, IntTuple::integer(i));
      if (!same_coordinate(expected, got))
        RC_FAIL("at " + std::to_string(i) + ": A(B(i)) = " + expected.to_string() + " but " + got.to_string());
    }
  });
  expect_mutant_caught("composition", "seed 000's convention C(i) = B(A(i)) (operands swapped)", [] {
    const auto [a, b] = *gen::composition_pair();
    rc_require(composition_law(composition_swapped, a, b));
  });
  expect_mutant_caught("composition", "A treated as linear (B's strides times A's first stride)", [] {
    const auto [a, b] = *gen::composition_pair();
    rc_require(composition_law(composition_linear, a, b));
  });
  expect_mutant_caught("composition associativity", "right side composed with the swapped convention", [] {
    const auto [a, b] = *gen::composition_pair();
    const Layout c = *gen::composable_with(b);
    Layout left = a, right = a;
    try {
      left = composition(composition(a, b), c);
      right = composition(a, composition_swapped(b, c));
    } catch (const Error&) {
      RC_DISCARD("one side not admissible");
    }
    if (size_value(left) != size_value(right)) RC_FAIL("sizes differ: " + left.to_string() + " vs " + right.to_string());
    rc_require(same_values(left, right, size_value(left), "(A o B) o C", "A o' (B o' C)"));
  });
}

}  // namespace cuteref::props::composition_properties
