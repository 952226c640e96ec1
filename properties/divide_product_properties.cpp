// Laws of the divide and product families, for layout tilers.
// Divides, (A, T) with T dividing A evenly (generators.hpp's divisible_pair):
//   size:       size(logical_divide(A, T)) == size(A);
//   defining:   logical_divide(A, T) == composition(A, make_layout(T, complement(T, size(A)))) as
//               functions, and its mode 0 is A o T;
//   forms:      zipped_divide(A, T) == logical_divide(A, T) (same shape, stride) for a layout
//               tiler; tiled_divide and flat_divide are the same function of the 1-D index.
// By-mode divides, (A, (T0, T1)) with Ti dividing mode i of A:
//   by mode:    mode i of logical_divide(A, (T0,T1)) == logical_divide(mode(A,i), Ti) (same shape
//               and stride), size preserved;
//   forms:      tiled_divide and flat_divide are the same function of the 1-D index as
//               zipped_divide, whose modes are logical_divide's regrouped: zipped((i0,i1),(j0,j1))
//               == logical(((i0,j0),(i1,j1))).
// Products, (A, B) with A injective and in complement's domain with divisible strides:
//   size:       size(logical_product(A, B)) == size(A) * size(B), mode 0 of it is A;
//   defining:   logical_product(A, B) == make_layout(A, composition(complement(A, size(A) *
//               cosize(B)), B)) as functions;
//   injective:  logical_product(A, B) is injective when B is;
//   forms:      zipped/tiled/flat_product are the same function as logical_product;
//               blocked_product and raked_product have size size(A) * size(B) and the image of
//               logical_product(A', B') (A, B padded to a common rank), and mode i of raked is
//               mode i of blocked with its two sub-modes swapped.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "coalesce.hpp"
#include "complement.hpp"
#include "composition.hpp"
#include "divide.hpp"
#include "generators.hpp"
#include "law_support.hpp"
#include "make_layout.hpp"
#include "product.hpp"
#include "value.hpp"

namespace cuteref::props::divide_product_properties {
namespace {

using LayoutOp = std::function<Layout(const Layout&, const Layout&)>;

Layout pair_layout(const Layout& a, const Layout& b) { return make_layout_from_modes({a, b}); }

Violation divide_law(const LayoutOp& divide, const Layout& a, const Layout& t) {
  const std::string call = "logical_divide(" + a.to_string() + ", " + t.to_string() + ")";
  try {
    const Layout d = divide(a, t);
    const std::string what = call + " = " + d.to_string();
    if (size_value(d) != size_value(a)) return what + ": size differs from size(A) = " + std::to_string(size_value(a));
    const Layout defining = composition(a, pair_layout(t, complement(t, IntTuple::integer(size_value(a)))));
    if (auto v = same_values(defining, d, size_value(a), "A o (T, complement(T, size(A)))", "logical_divide(A, T)")) return v;
    if (auto v = same_values(composition(a, t), mode(d, 0), size_value(t), "A o T", "mode 0 of logical_divide(A, T)")) return v;
    const Layout z = zipped_divide(a, Value(t));
    if (!z.shape().same_values(d.shape()) || !z.stride().same_values(d.stride()))
      return "zipped_divide(A, T) = " + z.to_string() + " differs from " + what;
    if (auto v = same_values(z, tiled_divide(a, Value(t)), size_value(a), "zipped_divide", "tiled_divide")) return v;
    if (auto v = same_values(z, flat_divide(a, Value(t)), size_value(a), "zipped_divide", "flat_divide")) return v;
  } catch (const Error& e) {
    return rejected(call + " or its defining composition", e);
  }
  return std::nullopt;
}

Violation product_law(const LayoutOp& product, const Layout& a, const Layout& b) {
  const std::string call = "logical_product(" + a.to_string() + ", " + b.to_string() + ")";
  try {
    const Layout p = product(a, b);
    const std::string what = call + " = " + p.to_string();
    const std::int64_t n = size_value(a) * size_value(b);
    if (size_value(p) != n) return what + ": size is not size(A) * size(B) = " + std::to_string(n);
    const Layout m0 = mode(p, 0);
    if (!m0.shape().same_values(a.shape()) || !m0.stride().same_values(a.stride())) return what + ": mode 0 is not A";
    const Layout defining =
        pair_layout(a, composition(complement(a, IntTuple::integer(size_value(a) * cosize(b).value())), b));
    if (auto v = same_values(defining, p, n, "(A, complement(A, size(A)*cosize(B)) o B)", "logical_product(A, B)")) return v;
    if (is_injective(b) && !is_injective(p)) return what + ": not injective although A and B are";
    if (auto v = same_values(p, zipped_product(a, Value(b)), n, "logical_product", "zipped_product")) return v;
    if (auto v = same_values(p, tiled_product(a, Value(b)), n, "logical_product", "tiled_product")) return v;
    if (auto v = same_values(p, flat_product(a, Value(b)), n, "logical_product", "flat_product")) return v;
  } catch (const Error& e) {
    return rejected(call + " or its defining composition", e);
  }
  return std::nullopt;
}

Violation blocked_raked_law(const Layout& a, const Layout& b) {
  const std::string call = "blocked/raked_product(" + a.to_string() + ", " + b.to_string() + ")";
  try {
    const Layout blocked = blocked_product(a, b), raked = raked_product(a, b);
    const std::int64_t n = size_value(a) * size_value(b);
    if (size_value(blocked) != n || size_value(raked) != n) return call + ": size is not size(A) * size(B)";
    const std::size_t r = std::max(rank(a), rank(b));
    const Layout p = logical_product(append_to_rank(a, r), append_to_rank(b, r));
    if (image(blocked) != image(p)) return call + ": blocked_product " + blocked.to_string() + " has another image than " + p.to_string();
    if (image(raked) != image(p)) return call + ": raked_product " + raked.to_string() + " has another image than " + p.to_string();
    if (rank(blocked) != rank(raked)) return call + ": ranks differ";
    for (std::size_t i = 0; i < rank(blocked); ++i) {
      const Layout bm = mode(blocked, i), rm = mode(raked, i);
      if (rank(bm) != 2 || rank(rm) != 2) continue;  // a single-mode block has nothing to swap
      const Layout swapped = make_layout_from_modes({mode(bm, 1), mode(bm, 0)});
      if (!swapped.shape().same_values(rm.shape()) || !swapped.stride().same_values(rm.stride()))
        return call + ": mode " + std::to_string(i) + " of raked " + raked.to_string() + " is not blocked's " +
               blocked.to_string() + " swapped";
    }
  } catch (const Error& e) {
    return rejected(call, e);
  }
  return std::nullopt;
}

Violation by_mode_divide_law(const Layout& a, const std::vector<Layout>& tilers) {
  const Value tiler = make_tuple_value({Value(tilers[0]), Value(tilers[1])});
  const std::string call = "logical_divide(" + a.to_string() + ", " + tiler.to_string() + ")";
  try {
    const Layout d = logical_divide(a, tiler);
    const std::string what = call + " = " + d.to_string();
    if (size_value(d) != size_value(a)) return what + ": size differs from size(A)";
    for (std::size_t i = 0; i < 2; ++i) {
      const Layout expected = logical_divide(mode(a, i), tilers[i]);
      const Layout got = mode(d, i);
      if (!expected.shape().same_values(got.shape()) || !expected.stride().same_values(got.stride()))
        return what + ": mode " + std::to_string(i) + " is not logical_divide(mode(A," + std::to_string(i) + "), T" +
               std::to_string(i) + ") = " + expected.to_string();
    }
    const Layout z = zipped_divide(a, tiler);
    if (auto v = same_values(z, tiled_divide(a, tiler), size_value(a), "zipped_divide", "tiled_divide")) return v;
    if (auto v = same_values(z, flat_divide(a, tiler), size_value(a), "zipped_divide", "flat_divide")) return v;
    // zipped((i0,i1),(j0,j1)) == logical(((i0,j0),(i1,j1))), checked on every coordinate.
    const std::int64_t t0 = size_value(mode(mode(d, 0), 0)), t1 = size_value(mode(mode(d, 1), 0));
    const std::int64_t r0 = size_value(mode(d, 0)) / t0, r1 = size_value(mode(d, 1)) / t1;
    for (std::int64_t j1 = 0; j1 < r1; ++j1)
      for (std::int64_t j0 = 0; j0 < r0; ++j0)
        for (std::int64_t i1 = 0; i1 < t1; ++i1)
          for (std::int64_t i0 = 0; i0 < t0; ++i0) {
            const std::int64_t zi = (i0 + t0 * i1) + t0 * t1 * (j0 + r0 * j1);
            const std::int64_t li = (i0 + t0 * j0) + t0 * r0 * (i1 + t1 * j1);
            if (apply_index(z, zi) != apply_index(d, li))
              return "zipped_divide = " + z.to_string() + " is not " + what + " regrouped at tile (" + std::to_string(i0) +
                     "," + std::to_string(i1) + "), rest (" + std::to_string(j0) + "," + std::to_string(j1) + ")";
          }
  } catch (const Error& e) {
    return rejected(call, e);
  }
  return std::nullopt;
}

const LayoutOp kDivide = [](const Layout& a, const Layout& t) { return logical_divide(a, t); };
const LayoutOp kProduct = [](const Layout& a, const Layout& b) { return logical_product(a, b); };

// --- broken variants (test code only) ---
// complement(T) without the cotarget: only T's holes, no repetitions across A.
Layout divide_without_cotarget(const Layout& a, const Layout& t) { return composition(a, pair_layout(t, complement(t))); }
// Seed 000's logical product: (A, complement(A, size(A) * size(B))), B itself never composed in
// (its logical_product(<128:1>, <4:32>) = ((128:1),(4:128))).
Layout product_without_b(const Layout& a, const Layout& b) {
  return pair_layout(a, complement(a, IntTuple::integer(size_value(a) * size_value(b))));
}

}  // namespace

RC_GTEST_PROP(DivideProduct, logical_divide_and_its_forms, ()) {
  const auto [a, t] = *gen::divisible_pair();
  RC_TAG("rank(T) " + std::to_string(rank(t)));
  rc_require(divide_law(kDivide, a, t));
  count_random("divide");
}

RC_GTEST_PROP(DivideProduct, by_mode_divide_and_its_forms, ()) {
  const auto [a, tilers] = *gen::divisible_tuple_tiler_pair();
  rc_require(by_mode_divide_law(a, tilers));
  count_random("by-mode divide");
}

RC_GTEST_PROP(DivideProduct, logical_product_and_its_forms, ()) {
  const auto [a, b] = *gen::product_pair();
  rc_require(product_law(kProduct, a, b));
  count_random("product");
}

RC_GTEST_PROP(DivideProduct, blocked_and_raked_products, ()) {
  const auto [a, b] = *gen::product_pair();
  rc_require(blocked_raked_law(a, b));
  count_random("blocked/raked product");
}

TEST(DivideProduct, exhaustive) {
  const LeafAlphabet a_alpha{range(1, 4), range(0, 8)};
  const LeafAlphabet t_alpha{range(1, 4), range(0, 8)};
  {
    // Every compact A (column-major, so coalesce(A) = N:1) of rank <= 3 with extents 1..4, and
    // every tiler T of rank <= 2 that divides it evenly, decided from the definition: T in
    // complement's domain with divisible strides and extent s_last * d_last dividing N.
    Exhaustive ex("divide", "compact A rank<=3 extents 1..4 x tilers T flat rank<=2 (" + t_alpha.to_string() + ") dividing A");
    for_each_flat_layout(3, LeafAlphabet{range(1, 4), {1}}, [&](const Layout& shape_only) {
      const Layout a(shape_only.shape(), compact_col_major(shape_only.shape(), IntTuple::integer(1)));
      for_each_flat_layout(2, t_alpha, [&](const Layout& t) {
        const Domain d = complement_domain(t);
        if (!d.inside || !d.divisible || size_value(a) % d.extent != 0 || !is_injective(t)) return ex.skip();
        ex.check("A = " + a.to_string() + ", T = " + t.to_string(), divide_law(kDivide, a, t));
      });
    });
  }
  {
    // A = (e0,e1):(1,e0), every pair of leaf tilers Ti = s:d (s, d in 1..6) dividing mode i
    // (decided from the definition, as above).
    Exhaustive ex("by-mode divide", "A = (e0,e1):(1,e0), e in 1..8, x leaf tilers (T0,T1), extents 1..6, strides 1..6, dividing the modes");
    for (std::int64_t e0 = 1; e0 <= 8; ++e0)
      for (std::int64_t e1 = 1; e1 <= 8; ++e1) {
        const Layout a(IntTuple::tuple({IntTuple::integer(e0), IntTuple::integer(e1)}),
                       IntTuple::tuple({IntTuple::integer(1), IntTuple::integer(e0)}));
        for_each_flat_layout(1, LeafAlphabet{range(1, 6), range(1, 6)}, [&](const Layout& t0) {
          for_each_flat_layout(1, LeafAlphabet{range(1, 6), range(1, 6)}, [&](const Layout& t1) {
            const Domain d0 = complement_domain(t0), d1 = complement_domain(t1);
            if (!d0.divisible || !d1.divisible || e0 % d0.extent != 0 || e1 % d1.extent != 0) return ex.skip();
            ex.check("A = " + a.to_string() + ", T = (" + t0.to_string() + ", " + t1.to_string() + ")",
                     by_mode_divide_law(a, {t0, t1}));
          });
        });
      }
  }
  {
    // A in complement's domain with divisible strides, injective (the product's copies of A
    // tile without overlap only then: for A = (2,2):(6,2), complement(A, 12) = 2:1 is too small
    // for B = 3:1, and CuTe, pycute and the model all give the non-injective ((2,2),3):((6,2),1)).
    Exhaustive ex("product", "A flat rank<=2 injective, divisible (" + a_alpha.to_string() + ") x B flat rank<=2 (extents 1..3, strides 0..3)");
    Exhaustive blocked("blocked/raked product", "the same pairs");
    for_each_flat_layout(2, a_alpha, [&](const Layout& a) {
      const Domain d = complement_domain(a);
      if (!d.inside || !d.divisible || !is_injective(a)) return;
      for_each_flat_layout(2, LeafAlphabet{range(1, 3), range(0, 3)}, [&](const Layout& b) {
        try {
          (void)logical_product(a, b);
        } catch (const Error&) {
          ex.skip();
          blocked.skip();
          return;
        }
        const std::string input = "A = " + a.to_string() + ", B = " + b.to_string();
        ex.check(input, product_law(kProduct, a, b));
        blocked.check(input, blocked_raked_law(a, b));
      });
    });
  }
}

TEST(DivideProduct, mutants_are_caught) {
  expect_mutant_caught("by-mode divide", "tuple tiler applied to the whole layout (T0 only)", [] {
    const auto [a, tilers] = *gen::divisible_tuple_tiler_pair();
    try {
      const Layout d = logical_divide(a, tilers[0]);
      const Layout expected = logical_divide(mode(a, 0), tilers[0]);
      const Layout got = mode(d, 0);
      if (!expected.shape().same_values(got.shape()) || !expected.stride().same_values(got.stride()))
        RC_FAIL("mode 0 of logical_divide(A, T0) = " + d.to_string() + " is not logical_divide(mode(A,0), T0) = " +
                expected.to_string());
      if (size_value(d) != size_value(a)) RC_FAIL("size of " + d.to_string() + " differs from size(A)");
    } catch (const Error& e) {
      RC_FAIL(std::string("rejected: ") + e.what());
    }
  });
  expect_mutant_caught("divide", "complement(T) without the cotarget size(A)", [] {
    const auto [a, t] = *gen::divisible_pair();
    rc_require(divide_law(divide_without_cotarget, a, t));
  });
  expect_mutant_caught("product", "seed 000: (A, complement(A, size(A)*size(B))), B not composed in", [] {
    const auto [a, b] = *gen::product_pair();
    rc_require(product_law(product_without_b, a, b));
  });
  expect_mutant_caught("blocked/raked product", "raked_product = blocked_product", [] {
    const auto [a, b] = *gen::product_pair();
    const Layout blocked = blocked_product(a, b), raked = blocked;
    for (std::size_t i = 0; i < rank(blocked); ++i) {
      const Layout bm = mode(blocked, i), rm = mode(raked, i);
      if (rank(bm) != 2) continue;
      const Layout swapped = make_layout_from_modes({mode(bm, 1), mode(bm, 0)});
      if (!swapped.shape().same_values(rm.shape()) || !swapped.stride().same_values(rm.stride()))
        RC_FAIL("mode " + std::to_string(i) + " of " + raked.to_string() + " is not blocked's swapped");
    }
  });
}

}  // namespace cuteref::props::divide_product_properties
