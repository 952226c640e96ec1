// Laws of complement, R = complement(A, M), for A in complement's domain: non-negative strides
// and, with F = filter(A) and its modes s_k:d_k sorted by stride, d_{k+1} >= s_k * d_k (A is
// injective up to its broadcast modes and its modes do not interleave). M >= 1.
//   disjoint:   image(R) and image(A) meet only at 0;
//   injective:  (F, R) is injective: F(i) + R(j) are pairwise distinct;
//   ordered:    R is strictly increasing (CuTe's post-condition);
//   covers M:   when every d_{k+1} is a multiple of s_k * d_k (divisible), (F, R) is a bijection
//               onto [0, size(F) * size(R)) and size(F) * size(R) >= M, so cosize((A, R)) >= M and
//               size(R) >= M / size(F) (CuTe's documented post-condition). CuTe documents the
//               last one for every A, but neither CuTe's construction nor pycute's meets it when
//               the strides are not divisible: complement((2,2):(3,1), 16) == 3:6 (pycute 4.2
//               prints 3:6), size 3 < 16 / 4. The exhaustive check covers both cases.
//   domain:     complement accepts every A in the domain and rejects (with a diagnostic) every
//               A with non-negative strides outside it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "coalesce.hpp"
#include "complement.hpp"
#include "generators.hpp"
#include "law_support.hpp"

namespace cuteref::props::complement_properties {
namespace {

using ComplementOp = std::function<Layout(const Layout&, std::int64_t)>;
const ComplementOp kModel = [](const Layout& a, std::int64_t m) { return complement(a, IntTuple::integer(m)); };

Violation complement_law(const ComplementOp& op, const Layout& a, std::int64_t m) {
  const std::string call = "complement(" + a.to_string() + ", " + std::to_string(m) + ")";
  Layout r = a;
  try {
    r = op(a, m);
  } catch (const Error& e) {
    return rejected(call, e);
  }
  const std::string what = call + " = " + r.to_string();
  const Layout f = filter(a);
  const auto ra = values(r);
  const auto ia = image(a);
  for (std::size_t j = 0; j < ra.size(); ++j) {
    if (j > 0 && ra[j] <= ra[j - 1]) return what + ": not strictly increasing at " + std::to_string(j);
    if (ra[j] != 0 && ia.count(ra[j])) return what + ": R(" + std::to_string(j) + ") = " + std::to_string(ra[j]) + " is also a value of A";
  }
  std::set<std::int64_t> sums;
  const auto fa = values(f);
  for (std::int64_t x : fa)
    for (std::int64_t y : ra)
      if (!sums.insert(x + y).second) return what + ": (filter(A), R) is not injective: offset " + std::to_string(x + y) + " twice";
  const std::int64_t sf = size_value(f), sr = size_value(r);
  if (complement_domain(a).divisible) {
    if (sr < m / sf) return what + ": size(R) = " + std::to_string(sr) + " < M / size(filter(A)) = " + std::to_string(m / sf);
    if (*sums.rbegin() != sf * sr - 1) return what + ": (filter(A), R) is not onto [0, " + std::to_string(sf * sr) + ")";
    if (sf * sr < m) return what + ": size(F) * size(R) = " + std::to_string(sf * sr) + " does not cover M";
  }
  return std::nullopt;
}

// complement accepts A iff A is in the domain (A with non-negative strides).
Violation domain_law(const ComplementOp& op, const Layout& a) {
  bool accepted = true;
  std::string diagnostic;
  try {
    (void)op(a, 1);
  } catch (const Error& e) {
    accepted = false;
    diagnostic = e.what();
  }
  const bool inside = complement_domain(a).inside;
  if (accepted == inside) return std::nullopt;
  return "complement(" + a.to_string() + ", 1) was " + (accepted ? "accepted" : "rejected (" + diagnostic + ")") +
         " although A is " + (inside ? "inside" : "outside") + " the domain";
}

rc::Gen<Layout> non_negative_layouts() {
  return rc::gen::mapcat(rc::gen::element(gen::StrideKind::Compact, gen::StrideKind::PermutedCompact, gen::StrideKind::Gapped,
                                          gen::StrideKind::WithZeros, gen::StrideKind::Arbitrary),
                         [](gen::StrideKind k) {
                           return rc::gen::map(gen::layout(k, gen::ShapeLimits{2, 3, 4, 256}), [](const Layout& l) {
                             auto s = gen::leaf_values(l.stride());
                             for (auto& x : s) x = x < 0 ? -x : x;
                             return Layout(l.shape(), gen::with_leaves(l.stride(), s));
                           });
                         });
}

// --- broken variants (test code only) ---
// Refuses every layout with a broadcast (stride-0) mode instead of ignoring those modes.
Layout complement_refusing_broadcast(const Layout& a, std::int64_t m) {
  for (std::int64_t d : gen::leaf_values(a.stride()))
    if (d == 0) throw Error("complement: stride-0 mode");
  return complement(a, IntTuple::integer(m));
}
// Seed 000's complement(<4:32>, 256) = <32:1>: only the holes inside A, M ignored.
Layout complement_ignoring_m(const Layout& a, std::int64_t) { return complement(a); }
// Forgets to scale the complement's strides by the extents reached (all strides 1).
Layout complement_unscaled(const Layout& a, std::int64_t m) {
  const Layout r = complement(a, IntTuple::integer(m));
  auto strides = gen::leaf_values(r.stride());
  for (auto& s : strides) s = 1;
  return Layout(r.shape(), gen::with_leaves(r.stride(), strides));
}

}  // namespace

RC_GTEST_PROP(Complement, disjoint_injective_ordered_covering, ()) {
  const bool divisible = *rc::gen::arbitrary<bool>();
  const auto [a, m] = *gen::complement_pair(divisible);
  RC_TAG(divisible ? "divisible" : "non-divisible strides allowed");
  rc_require(complement_law(kModel, a, m));
  count_random("complement");
}

RC_GTEST_PROP(Complement, accepts_exactly_its_domain, ()) {
  const Layout a = *non_negative_layouts();
  RC_TAG(complement_domain(a).inside ? "inside" : "outside");
  rc_require(domain_law(kModel, a));
  count_random("complement domain");
}

TEST(Complement, exhaustive) {
  const LeafAlphabet flat{range(1, 4), range(0, 8)};
  Exhaustive ex("complement", "flat rank<=3 in the domain, " + flat.to_string() +
                                  ", M in {1, cosize-1, cosize, cosize+1, 2*cosize, 3*cosize+1}");
  Exhaustive domain("complement domain", "flat rank<=3, " + flat.to_string() + ": accepted iff in the domain");
  for_each_flat_layout(3, flat, [&](const Layout& a) {
    const Domain d = complement_domain(a);
    domain.check(a.to_string(), domain_law(kModel, a));
    if (!d.inside) return;
    const std::int64_t c = cosize(filter(a)).value();
    for (std::int64_t m : {std::int64_t{1}, std::max<std::int64_t>(1, c - 1), c, c + 1, 2 * c, 3 * c + 1})
      ex.check("A = " + a.to_string() + ", M = " + std::to_string(m), complement_law(kModel, a, m));
  });
}

TEST(Complement, mutants_are_caught) {
  expect_mutant_caught("complement domain", "refuses broadcast (stride-0) modes", [] {
    rc_require(domain_law(complement_refusing_broadcast, *non_negative_layouts()));
  });
  expect_mutant_caught("complement", "seed 000: M ignored (only the holes inside A)", [] {
    const auto [a, m] = *gen::complement_pair(true);
    rc_require(complement_law(complement_ignoring_m, a, m));
  });
  expect_mutant_caught("complement", "strides not scaled by the extents reached", [] {
    const auto [a, m] = *gen::complement_pair(true);
    rc_require(complement_law(complement_unscaled, a, m));
  });
}

}  // namespace cuteref::props::complement_properties
