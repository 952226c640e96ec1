// Laws of Swizzle<B,M,S> (bits [M+max(0,S), +B) XOR-ed into bits [M-min(0,S), +B)) and of
// composed layouts Sw o L.
//   involution: for |S| >= B, sw(sw(x)) == x for every 0 <= x < 2^K, K = M + |S| + B + 1
//               (every bit the swizzle reads or writes, and one more);
//   bijection:  hence sw permutes [0, 2^K): {sw(x) : x < 2^K} == [0, 2^K);
//   necessity:  for 1 <= |S| < B the same bit formula is not an involution (a counterexample x
//               exists in [0, 2^K)), and the model refuses such a Swizzle with a diagnostic;
//   composed:   size(Sw o L) == size(L) and cosize(Sw o L) == cosize(L) (CuTe's definitions), and
//               for a compact L whose size is a multiple of 2^K, Sw o L permutes L's image
//               [0, size(L)).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "error.hpp"
#include "evaluate.hpp"
#include "generators.hpp"
#include "law_support.hpp"
#include "make_layout.hpp"
#include "swizzle.hpp"

namespace cuteref::props::swizzle_properties {
namespace {

using SwizzleFn = std::function<std::int64_t(std::int64_t)>;

int span_bits(const gen::SwizzleParams& p) { return p.m + (p.s < 0 ? -p.s : p.s) + p.b + 1; }

Violation involution_law(const SwizzleFn& sw, const gen::SwizzleParams& p) {
  const std::int64_t n = std::int64_t{1} << span_bits(p);
  std::vector<bool> hit(static_cast<std::size_t>(n), false);
  std::ostringstream name;
  gen::showValue(p, name);
  for (std::int64_t x = 0; x < n; ++x) {
    const std::int64_t y = sw(x);
    if (y < 0 || y >= n) return name.str() + "(" + std::to_string(x) + ") = " + std::to_string(y) + " leaves [0, 2^K)";
    if (sw(y) != x)
      return name.str() + " is not an involution: sw(" + std::to_string(x) + ") = " + std::to_string(y) + ", sw(" +
             std::to_string(y) + ") = " + std::to_string(sw(y));
    if (hit[static_cast<std::size_t>(y)]) return name.str() + " is not injective: " + std::to_string(y) + " hit twice";
    hit[static_cast<std::size_t>(y)] = true;
  }
  return std::nullopt;
}

// The bit formula of Swizzle<B,M,S> without CuTe's |S| >= B requirement (test code only): what a
// swizzle with overlapping source and destination bits would compute.
std::int64_t unchecked_swizzle(const gen::SwizzleParams& p, std::int64_t x) {
  const std::int64_t bits = (std::int64_t{1} << p.b) - 1;
  const int src = p.m + std::max(0, p.s), dst = p.m - std::min(0, p.s);
  return x ^ (((x >> src) & bits) << dst);
}

Violation composed_law(const Swizzle& sw, const Layout& l) {
  const ComposedLayout c{sw, std::nullopt, l};
  const std::string what = c.to_string();
  if (size(c).value() != size_value(l)) return what + ": size differs from size(L)";
  if (cosize(c).value() != cosize(l).value()) return what + ": cosize differs from cosize(L)";
  return std::nullopt;
}

Violation composed_permutes_law(const Swizzle& sw, const Layout& l) {
  const ComposedLayout c{sw, std::nullopt, l};
  std::set<std::int64_t> img;
  for (std::int64_t i = 0; i < size_value(l); ++i) img.insert(apply_composed(c, i));
  if (img != image(l)) return c.to_string() + " does not permute the image of " + l.to_string();
  return std::nullopt;
}

}  // namespace

RC_GTEST_PROP(Swizzle, involution_and_bijection, ()) {
  const auto p = *gen::swizzle_params(true);
  const Swizzle sw(p.b, p.m, p.s);
  rc_require(involution_law([&](std::int64_t x) { return sw(x); }, p));
  count_random("swizzle involution");
}

using SwizzleMaker = std::function<Swizzle(int, int, int)>;
const SwizzleMaker kMake = [](int b, int m, int s) { return Swizzle(b, m, s); };

// For |S| < B: the bit formula has a counterexample to involution, and `make` refuses the
// parameters with a diagnostic.
Violation illegal_law(const SwizzleMaker& make, const gen::SwizzleParams& p) {
  std::ostringstream name;
  gen::showValue(p, name);
  if (!involution_law([&](std::int64_t x) { return unchecked_swizzle(p, x); }, p))
    return name.str() + " with |S| < B is an involution: no counterexample";
  try {
    const Swizzle sw = make(p.b, p.m, p.s);
    return name.str() + " was accepted as " + sw.to_string();
  } catch (const Error&) {
  }
  return std::nullopt;
}
// A constructor that clamps |S| up to B instead of refusing.
Swizzle clamping_swizzle(int b, int m, int s) { return Swizzle(b, m, s < 0 ? std::min(s, -b) : std::max(s, b)); }

RC_GTEST_PROP(Swizzle, illegal_parameters_are_not_involutions_and_are_refused, ()) {
  rc_require(illegal_law(kMake, *gen::swizzle_params(false)));
  count_random("swizzle |S| < B");
}

RC_GTEST_PROP(Swizzle, composed_layouts_keep_size_and_cosize, ()) {
  const Swizzle sw = *gen::swizzle();
  const Layout l = *gen::layout(gen::StrideKind::Gapped, gen::ShapeLimits{2, 3, 4, 256});
  rc_require(composed_law(sw, l));
  // A compact layout spanning whole 2^K blocks: the swizzle permutes its image.
  const int k = sw.base() + std::abs(sw.shift()) + sw.bits();
  const std::int64_t blocks = *rc::gen::inRange<std::int64_t>(1, 3);
  const Layout compact = make_layout(IntTuple::tuple({IntTuple::integer(std::int64_t{1} << k), IntTuple::integer(blocks)}));
  rc_require(composed_permutes_law(sw, compact));
  count_random("swizzled layout");
}

TEST(Swizzle, exhaustive) {
  {
    Exhaustive ex("swizzle involution", "every legal Sw<B,M,S>, B 0..4, M 0..5, |S| B..6 (both signs), every x < 2^(M+|S|+B+1)");
    for (int b = 0; b <= 4; ++b)
      for (int m = 0; m <= 5; ++m)
        for (int s = -6; s <= 6; ++s) {
          if (std::abs(s) < b || (s == 0 && b > 0)) continue;
          const gen::SwizzleParams p{b, m, s};
          const Swizzle sw(b, m, s);
          ex.check("Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + ">",
                   involution_law([&](std::int64_t x) { return sw(x); }, p));
        }
  }
  {
    Exhaustive ex("swizzle |S| < B", "every Sw<B,M,S> with B 2..4, M 0..5, 1 <= |S| < B: a counterexample exists and the model refuses it");
    for (int b = 2; b <= 4; ++b)
      for (int m = 0; m <= 5; ++m)
        for (int s = -(b - 1); s <= b - 1; ++s) {
          if (s == 0) continue;
          const gen::SwizzleParams p{b, m, s};
          const Violation v = illegal_law(kMake, p);
          ex.check("Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + ">", v);
        }
  }
  {
    const LeafAlphabet flat{range(1, 4), range(0, 8)};
    Exhaustive ex("swizzled layout", "Sw<3,4,3>, Sw<2,0,-2>, Sw<1,1,1> o every flat rank<=3 layout, " + flat.to_string());
    for (const Swizzle& sw : {Swizzle(3, 4, 3), Swizzle(2, 0, -2), Swizzle(1, 1, 1)})
      for_each_flat_layout(3, flat, [&](const Layout& l) { ex.check(sw.to_string() + " o " + l.to_string(), composed_law(sw, l)); });
  }
}

TEST(Swizzle, mutants_are_caught) {
  expect_mutant_caught("swizzle |S| < B", "constructor clamps |S| up to B instead of refusing", [] {
    rc_require(illegal_law(clamping_swizzle, *gen::swizzle_params(false)));
  });
  expect_mutant_caught("swizzle involution", "|S| >= B not enforced (overlapping bits)", [] {
    const auto p = *gen::swizzle_params(false);
    rc_require(involution_law([&](std::int64_t x) { return unchecked_swizzle(p, x); }, p));
  });
  expect_mutant_caught("swizzle involution", "destination one bit too high", [] {
    const auto p = *gen::swizzle_params(true);
    const gen::SwizzleParams shifted{p.b, p.m + 1, p.s - 1};
    rc_require(involution_law([&](std::int64_t x) { return unchecked_swizzle(shifted, x); }, p));
  });
  expect_mutant_caught("swizzled layout", "cosize taken as the largest swizzled offset + 1", [] {
    const Swizzle sw = *gen::swizzle();
    const Layout l = *gen::layout(gen::StrideKind::Gapped, gen::ShapeLimits{2, 3, 4, 256});
    const ComposedLayout c{sw, std::nullopt, l};
    std::int64_t hi = 0;
    for (std::int64_t i = 0; i < size_value(l); ++i) hi = std::max(hi, apply_composed(c, i));
    if (hi + 1 != cosize(l).value())
      RC_FAIL(c.to_string() + ": max offset + 1 = " + std::to_string(hi + 1) + " but cosize(L) = " + cosize(l).to_string());
  });
}

}  // namespace cuteref::props::swizzle_properties
