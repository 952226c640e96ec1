// The symbolic forms of the operations `cuteref prove` runs on symbolic values, each called
// directly (not through the claim language): truncating division of negative dividends,
// composition by a tuple tiler, coalesce by a profile, recast, CuTe's right_inverse on static
// strides, max_common_vector / max_common_layout, F2 application, and composition with a
// swizzled layout. For each, Z3 proves the operation's result equal to a value derived by hand
// (in the comment above it) over a box of the variables, and refutes a mutant of that value;
// each counterexample is replayed on the concrete model (or C++'s own arithmetic), where the
// mutant must differ. Where the model's concrete code was made generic for the proofs, the
// hand-derived value is also checked on the concrete model over a grid.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "coalesce.hpp"
#include "composition.hpp"
#include "composition_swizzle.hpp"
#include "coordinates.hpp"
#include "f2_layout.hpp"
#include "inverse.hpp"
#include "max_common.hpp"
#include "notation.hpp"
#include "prover.hpp"
#include "recast.hpp"
#include "swizzle.hpp"
#include "swizzle_eval.hpp"
#include "symbolic_algebra.hpp"
#include "symbolic_f2.hpp"
#include "symbolic_recast.hpp"
#include "symbolic_swizzle_composition.hpp"
#include "symbolic_typed_inverse.hpp"

using namespace cuteref;
using namespace cuteref::proofs;

namespace {

std::size_t g_cases = 0;  // proofs, refutations and concrete comparisons
using T = SymTuple;
using Ops = ScalarOps<SymInt>;
using Vars = std::map<std::string, SymInt>;

struct Range {
  const char* name;
  std::int64_t lo, hi;
};

// Proves claim(vars) over the box `ranges` (each variable reported in a counterexample).
ProofOutcome run(Encoding encoding, const std::vector<Range>& ranges, const std::function<z3::expr(const Vars&)>& claim) {
  SymbolicScope s(encoding);
  std::vector<z3::expr> domain;
  Vars vars;
  std::vector<ProofVariable> reported;
  for (const Range& r : ranges) {
    const SymInt v = s.ranged_variable(r.name, r.lo, r.hi, domain);
    vars.emplace(r.name, v);
    reported.push_back({r.name, v.e});
  }
  ProofOptions o;
  o.timeout_ms = 120000;
  const ProofOutcome out = prove(s, domain, reported, [&] { return claim(vars); }, o);
  ++g_cases;
  return out;
}

std::string describe(const ProofOutcome& out) {
  std::string d = out.reason + " " + out.failed_side_condition;
  for (const auto& [k, v] : out.values) d += " " + k + "=" + std::to_string(v);
  return d;
}

SymInt k(std::int64_t v) { return Ops::constant(v); }
T leaf(const SymInt& v) { return T::of(v); }
T tup(std::vector<T> e) { return T::tuple(std::move(e)); }
SymLayout layout(T shape, T stride) { return {std::move(shape), std::move(stride)}; }

// The layout's value at every index equals `expected(i)` (a hand formula) on the model.
void expect_function(const Layout& l, std::int64_t size, const std::function<std::int64_t(std::int64_t)>& expected,
                     const std::string& what) {
  ++g_cases;
  ASSERT_EQ(size_value(l), size) << what << ": " << l.to_string();
  for (std::int64_t i = 0; i < size; ++i) ASSERT_EQ(apply_index(l, i), expected(i)) << what << " at " << i;
}

// The text of its arguments, concatenated (numbers in decimal).
template <class... A>
std::string cat(const A&... parts) {
  std::ostringstream o;
  (o << ... << parts);
  return o.str();
}

Layout model_layout(const std::string& text) { return std::get<Layout>(parse_and_evaluate(text, nullptr).data); }

// ---- 8. truncating division of negative dividends ------------------------------------

// (x % (b*c)) / c == (x / c) % b for every x: C++'s truncation is odd in the dividend, and for
// x >= 0 both sides are x's digit in radix c then b.
TEST(SymbolicCoverage, RemainderDigitsOfNegativeDividends) {
  std::size_t enumerated = 0;
  for (std::int64_t x = -512; x <= 512; ++x)  // the identity itself, on C++'s own / and %
    for (std::int64_t b = 1; b <= 16; ++b)
      for (std::int64_t c = 1; c <= 16; ++c, ++enumerated) ASSERT_EQ((x % (b * c)) / c, (x / c) % b);
  g_cases += enumerated;
  const std::vector<Range> box{{"x", -512, 512}, {"b", 1, 16}, {"c", 1, 16}};
  const ProofOutcome proved = run(Encoding::Int64Range, box, [](const Vars& v) {
    const SymInt &x = v.at("x"), &b = v.at("b"), &c = v.at("c");
    return (x % (b * c)) / c == (x / c) % b;
  });
  EXPECT_EQ(proved.status, ProofStatus::Proved) << describe(proved);
  // Mutant: the floored remainder, which differs for negative quotients.
  const ProofOutcome refuted = run(Encoding::Int64Range, box, [](const Vars& v) {
    const SymInt &x = v.at("x"), &b = v.at("b"), &c = v.at("c");
    return (x % (b * c)) / c == ((x / c) % b + b) % b;
  });
  ASSERT_EQ(refuted.status, ProofStatus::Refuted) << describe(refuted);
  const std::int64_t x = refuted.values.at("x"), b = refuted.values.at("b"), c = refuted.values.at("c");
  EXPECT_LT(x, 0);
  EXPECT_NE((x % (b * c)) / c, ((x / c) % b + b) % b) << "x=" << x << " b=" << b << " c=" << c;
}

// ---- 1. composition by a tuple tiler -------------------------------------------------

// composition((a,b):(1,a), (t:1,u:1)) == (t,u):(1,a): a:1 o t:1 = t:1 (a layout of one mode
// runs on past its size), b:a o u:1 = u:a.
TEST(SymbolicCoverage, CompositionByTupleTiler) {
  for (std::int64_t a = 1; a <= 5; ++a)
    for (std::int64_t b = 1; b <= 5; ++b)
      for (std::int64_t t = 1; t <= 5; ++t)
        for (std::int64_t u = 1; u <= 5; ++u) {
          const Layout l = composition(model_layout(cat("(", a, ",", b, "):(1,", a, ")")),
                                       parse_and_evaluate(cat("(", t, ":1,", u, ":1)"), nullptr));
          expect_function(l, t * u, [&](std::int64_t i) { return i % t + a * (i / t); }, "composition by (t:1,u:1)");
        }
  const std::vector<Range> box{{"a", 1, 64}, {"b", 1, 64}, {"t", 1, 64}, {"u", 1, 64}, {"index", 0, INT64_MAX}};
  auto claim = [](bool mutant) {
    return [mutant](const Vars& v) {
      const SymInt &a = v.at("a"), &b = v.at("b"), &t = v.at("t"), &u = v.at("u");
      const SymTiler tiler = SymTiler::of_tuple({SymTiler::of_layout(layout(leaf(t), leaf(k(1)))),
                                                 SymTiler::of_layout(layout(leaf(u), leaf(k(1))))});
      const SymLayout r = sym_composition_by_tiler(layout(tup({leaf(a), leaf(b)}), tup({leaf(k(1)), leaf(a)})), tiler);
      const SymLayout want = layout(tup({leaf(t), leaf(u)}), tup({leaf(k(1)), leaf(mutant ? b : a)}));
      return functions_equal(r, want, v.at("index"));
    };
  };
  const ProofOutcome proved = run(Encoding::Int64Range, box, claim(false));
  EXPECT_EQ(proved.status, ProofStatus::Proved) << describe(proved);
  const ProofOutcome refuted = run(Encoding::Int64Range, box, claim(true));
  ASSERT_EQ(refuted.status, ProofStatus::Refuted) << describe(refuted);
  EXPECT_NE(refuted.values.at("a"), refuted.values.at("b"));  // the mutant is right where a == b
  EXPECT_GE(refuted.values.at("u"), 2);
}

// ---- 2. coalesce by a profile --------------------------------------------------------

// coalesce(((a,b),c):((1,a),a*b), (1,1)) for a, b, c >= 2: mode 0 (a,b):(1,a) coalesces to
// (a*b):1, mode 1 c:(a*b) stays: the result's modes are (a*b):1 and c:(a*b).
TEST(SymbolicCoverage, CoalesceByProfile) {
  for (std::int64_t a = 2; a <= 6; ++a)
    for (std::int64_t b = 2; b <= 6; ++b)
      for (std::int64_t c = 2; c <= 6; ++c) {
        ++g_cases;
        const Layout l = coalesce(model_layout(cat("((", a, ",", b, "),", c, "):((1,", a, "),", a * b, ")")),
                                  IntTuple::tuple({IntTuple::integer(1), IntTuple::integer(1)}));
        ASSERT_EQ(l.to_string(), cat("(", a * b, ",", c, "):(1,", a * b, ")"));
      }
  const std::vector<Range> box{{"a", 2, 4096}, {"b", 2, 4096}, {"c", 2, 4096}};
  auto claim = [](bool mutant) {
    return [mutant](const Vars& v) {
      const SymInt &a = v.at("a"), &b = v.at("b"), &c = v.at("c");
      const SymLayout l = layout(tup({tup({leaf(a), leaf(b)}), leaf(c)}), tup({tup({leaf(k(1)), leaf(a)}), leaf(a * b)}));
      const SymLayout r = sym_coalesce_by_profile(l, tup({leaf(k(1)), leaf(k(1))}));
      const SymLayout want = layout(tup({leaf(a * b), leaf(c)}), tup({leaf(k(1)), leaf(mutant ? a : a * b)}));
      return structurally_equal(r.shape, want.shape) && structurally_equal(r.stride, want.stride);
    };
  };
  const ProofOutcome proved = run(Encoding::Int64Range, box, claim(false));
  EXPECT_EQ(proved.status, ProofStatus::Proved) << describe(proved);
  const ProofOutcome refuted = run(Encoding::Int64Range, box, claim(true));
  ASSERT_EQ(refuted.status, ProofStatus::Refuted) << describe(refuted);
  EXPECT_NE(refuted.values.at("a") * refuted.values.at("b"), refuted.values.at("a"));
}

// ---- 3. recast -----------------------------------------------------------------------

// recast((6k,b):(_1,6k), 16, 24): 24/16 = 3/2, upcast by 3 then downcast by 2: (2k,b):(_1,2k),
// then (4k,b):(_1,4k) (the static _1 mode grows).
TEST(SymbolicCoverage, Recast) {
  for (std::int64_t kk = 1; kk <= 8; ++kk)
    for (std::int64_t b = 1; b <= 8; ++b) {
      ++g_cases;
      const Layout l = recast(model_layout(cat("(", 6 * kk, ",", b, "):(_1,", 6 * kk, ")")), 16, 24);
      ASSERT_EQ(l.to_string(), cat("(", 4 * kk, ",", b, "):(_1,", 4 * kk, ")"));
    }
  const std::vector<Range> box{{"k", 1, 1 << 20}, {"b", 1, 1 << 20}};
  auto claim = [](bool mutant) {
    return [mutant](const Vars& v) {
      const SymInt &kk = v.at("k"), &b = v.at("b");
      const SymInt six_k = k(6) * kk;
      const SymFlaggedLayout l{with_flags(tup({leaf(six_k), leaf(b)}), ScalarTuple<bool>::tuple({ScalarTuple<bool>::of(false), ScalarTuple<bool>::of(false)})),
                               with_flags(tup({leaf(k(1)), leaf(six_k)}), ScalarTuple<bool>::tuple({ScalarTuple<bool>::of(true), ScalarTuple<bool>::of(false)}))};
      const SymFlaggedLayout r = sym_recast(l, 16, 24);
      // the static flags as the model's: the contiguous stride stays _1
      EXPECT_TRUE(*flags_of(r.stride)[0].leaf);
      EXPECT_FALSE(*flags_of(r.stride)[1].leaf);
      const SymInt four_k = k(4) * kk;
      return structurally_equal(values_of(r.shape), tup({leaf(four_k), leaf(b)})) &&
             structurally_equal(values_of(r.stride), tup({leaf(k(1)), leaf(mutant ? k(2) * kk : four_k)}));
    };
  };
  const ProofOutcome proved = run(Encoding::Int64Range, box, claim(false));
  EXPECT_EQ(proved.status, ProofStatus::Proved) << describe(proved);
  const ProofOutcome refuted = run(Encoding::Int64Range, box, claim(true));
  EXPECT_EQ(refuted.status, ProofStatus::Refuted) << describe(refuted);
}

// ---- 5. right_inverse (CuTe's: static strides only) ----------------------------------

// right_inverse((_2,a,_4):(_1,_8,_2)) == (_2,_4,a):(_1,2a,_2): CuTe's coalesce keeps the modes
// (a is dynamic); the chain takes _2:_1 (prefix 1), _4:_2 (prefix 2a), a:_8 (prefix 2).
TEST(SymbolicCoverage, RightInverseOnStaticStrides) {
  for (std::int64_t a = 1; a <= 64; ++a) {
    ++g_cases;
    const Layout r = right_inverse(model_layout(cat("(_2,", a, ",_4):(_1,_8,_2)")));
    ASSERT_EQ(r.to_string(), cat("(_2,_4,", a, "):(_1,", 2 * a, ",_2)"));
  }
  using F = ScalarTuple<bool>;
  const std::vector<Range> box{{"a", 1, 1 << 20}};
  auto claim = [](bool mutant) {
    return [mutant](const Vars& v) {
      const SymInt& a = v.at("a");
      const SymFlaggedLayout l{with_flags(tup({leaf(k(2)), leaf(a), leaf(k(4))}), F::tuple({F::of(true), F::of(false), F::of(true)})),
                               with_flags(tup({leaf(k(1)), leaf(k(8)), leaf(k(2))}), F::tuple({F::of(true), F::of(true), F::of(true)}))};
      const SymFlaggedLayout r = sym_right_inverse_typed(l);
      EXPECT_TRUE(*flags_of(r.shape)[1].leaf);   // _4
      EXPECT_FALSE(*flags_of(r.shape)[2].leaf);  // a
      EXPECT_FALSE(*flags_of(r.stride)[1].leaf); // 2a
      return structurally_equal(values_of(r.shape), tup({leaf(k(2)), leaf(k(4)), leaf(a)})) &&
             structurally_equal(values_of(r.stride), tup({leaf(k(1)), leaf(k(2) * a), leaf(k(mutant ? 4 : 2))}));
    };
  };
  const ProofOutcome proved = run(Encoding::Int64Range, box, claim(false));
  EXPECT_EQ(proved.status, ProofStatus::Proved) << describe(proved);
  const ProofOutcome refuted = run(Encoding::Int64Range, box, claim(true));
  EXPECT_EQ(refuted.status, ProofStatus::Refuted) << describe(refuted);
}

// ---- 4. max_common_vector / max_common_layout ----------------------------------------

// max_common_vector((a,b):(1,a), (a,b):(1,a)) == a*b: right_inverse_full(B) is (a*b):1, A o it is
// A, coalesced (a*b):1 (or _1:_0 when a*b = 1: the vector 1 = a*b); max_common_layout is (a*b):1.
TEST(SymbolicCoverage, MaxCommon) {
  for (std::int64_t a = 1; a <= 8; ++a)
    for (std::int64_t b = 1; b <= 8; ++b) {
      const Layout l = model_layout(cat("(", a, ",", b, "):(1,", a, ")"));
      ++g_cases;
      ASSERT_EQ(max_common_vector(l, l).value(), a * b);
      expect_function(max_common_layout(l, l), a * b, [](std::int64_t i) { return i; }, "max_common_layout");
    }
  const std::vector<Range> box{{"a", 1, 4096}, {"b", 1, 4096}, {"index", 0, INT64_MAX}};
  auto a_layout = [](const Vars& v) {
    return layout(tup({leaf(v.at("a")), leaf(v.at("b"))}), tup({leaf(k(1)), leaf(v.at("a"))}));
  };
  const ProofOutcome vector = run(Encoding::Int64Range, box, [&](const Vars& v) {
    return sym_max_common_vector(a_layout(v), a_layout(v)) == v.at("a") * v.at("b");
  });
  EXPECT_EQ(vector.status, ProofStatus::Proved) << describe(vector);
  const ProofOutcome common = run(Encoding::Int64Range, box, [&](const Vars& v) {
    return functions_equal(sym_max_common_layout(a_layout(v), a_layout(v)), layout(leaf(v.at("a") * v.at("b")), leaf(k(1))),
                           v.at("index"));
  });
  EXPECT_EQ(common.status, ProofStatus::Proved) << describe(common);
  const ProofOutcome refuted = run(Encoding::Int64Range, box, [&](const Vars& v) {
    return sym_max_common_vector(a_layout(v), a_layout(v)) == v.at("a");
  });
  ASSERT_EQ(refuted.status, ProofStatus::Refuted) << describe(refuted);
  EXPECT_GE(refuted.values.at("b"), 2);
}

// ---- 6. F2 layouts -------------------------------------------------------------------

// (8,8):(F1,F9)(x) = c0 ^ (c1 (x) 9) with c0 = x % 8 and c1 = x / 8 (the last mode takes what is
// left) = x ^ (x >> 3) for every x >= 0; below 64 that is Sw<3,0,3>(x) = x ^ ((x >> 3) & 7).
TEST(SymbolicCoverage, F2Application) {
  const F2Layout f(IntTuple::tuple({IntTuple::integer(8), IntTuple::integer(8)}),
                   IntTuple::tuple({IntTuple::integer(1), IntTuple::integer(9)}));
  const Swizzle sw(3, 0, 3);
  for (std::int64_t x = 0; x < (1 << 16); ++x) {
    ++g_cases;
    ASSERT_EQ(apply_index(f, x), x ^ (x >> 3)) << x;
    if (x < 64) {
      ASSERT_EQ(apply_index(f, x), sw(x)) << x;
    }
  }
  const ProofOutcome every = run(Encoding::BitVector64, {{"x", 0, INT64_MAX}}, [&](const Vars& v) {
    const SymInt& x = v.at("x");
    return sym_f2_apply(f, x) == (x ^ Ops::lshr(x, k(3)));
  });
  EXPECT_EQ(every.status, ProofStatus::Proved) << describe(every);
  auto as_swizzle = [&](const Vars& v) -> z3::expr {
    const SymInt& x = v.at("x");
    return sym_f2_apply(f, x) == swizzle_value(x, k(3), k(0), k(3));
  };
  const ProofOutcome below_64 = run(Encoding::BitVector64, {{"x", 0, 63}}, as_swizzle);
  EXPECT_EQ(below_64.status, ProofStatus::Proved) << describe(below_64);
  const ProofOutcome refuted = run(Encoding::BitVector64, {{"x", 0, 127}}, as_swizzle);
  ASSERT_EQ(refuted.status, ProofStatus::Refuted) << describe(refuted);
  const std::int64_t x = refuted.values.at("x");
  EXPECT_NE(apply_index(f, x), sw(x)) << x;
  // An index past 63 bits of carry-less product: (1):(F2^62) at x = 2 is the model's error.
  const F2Layout wide(IntTuple::integer(1), IntTuple::integer(std::int64_t{1} << 62));
  EXPECT_THROW(apply_index(wide, 2), Error);
  const ProofOutcome overflow = run(Encoding::BitVector64, {{"x", 0, 3}}, [&](const Vars& v) {
    return sym_f2_apply(wide, v.at("x")) == sym_f2_apply(wide, v.at("x"));
  });
  ASSERT_EQ(overflow.status, ProofStatus::Refuted) << describe(overflow);
  EXPECT_GE(overflow.values.at("x"), 2);
  EXPECT_FALSE(overflow.failed_side_condition.empty());
}

// ---- 7. composition(L, Sw o B) -------------------------------------------------------

// composition(8:1, Sw<1,0,1> o a:1): A = 8:1 maps the masks (2, 1) to themselves, so the moved
// swizzle is Sw<1,0,1> and A o a:1 = a:1. composition((3,2):(2,1), Sw<1,0,1> o a:1): A(2) = 4 and
// A(1) = 2 give Sw<1,1,1>, A o a:1 = a:2; the check fails at a = 3, x = 2 (A(Sw(2)) = A(3) = 1,
// Sw<1,1,1>(A(2)) = 6), so the model refuses a = 3.
TEST(SymbolicCoverage, CompositionWithSwizzledLayout) {
  for (std::int64_t a = 1; a <= 8; ++a) {
    ++g_cases;
    const ComposedLayout c =
        composition(model_layout("8:1"), std::get<ComposedLayout>(parse_and_evaluate(cat("Sw<1,0,1> o ", a, ":1"), nullptr).data));
    ASSERT_EQ(c.swizzle, Swizzle(1, 0, 1));
    expect_function(c.layout, a, [](std::int64_t i) { return i; }, "8:1 o a:1");
  }
  EXPECT_THROW(composition(model_layout("(3,2):(2,1)"),
                           std::get<ComposedLayout>(parse_and_evaluate("Sw<1,0,1> o 3:1", nullptr).data)),
               Error);
  ++g_cases;
  auto claim = [](const char* a_text, const Swizzle& want_swizzle, std::int64_t want_stride) {
    return [=](const Vars& v) {
      const Layout a = model_layout(a_text);
      const SymLayout sa = lift(a);
      const SymLayout b = layout(leaf(v.at("a")), leaf(k(1)));
      const SymSwizzledLayout r = sym_composition_through_swizzle(sa, Swizzle(1, 0, 1), std::nullopt, b);
      EXPECT_EQ(r.swizzle, want_swizzle);
      return functions_equal(r.layout, layout(leaf(v.at("a")), leaf(k(want_stride))), v.at("index"));
    };
  };
  const ProofOutcome identity =
      run(Encoding::BitVector64, {{"a", 1, 8}, {"index", 0, INT64_MAX}}, claim("8:1", Swizzle(1, 0, 1), 1));
  EXPECT_EQ(identity.status, ProofStatus::Proved) << describe(identity);
  const ProofOutcome moved =
      run(Encoding::BitVector64, {{"a", 1, 2}, {"index", 0, INT64_MAX}}, claim("(3,2):(2,1)", Swizzle(1, 1, 1), 2));
  EXPECT_EQ(moved.status, ProofStatus::Proved) << describe(moved);
  // a = 3 is in the box: the model's element-wise check fails there, an obligation not met.
  const ProofOutcome rejected =
      run(Encoding::BitVector64, {{"a", 1, 3}, {"index", 0, INT64_MAX}}, claim("(3,2):(2,1)", Swizzle(1, 1, 1), 2));
  ASSERT_EQ(rejected.status, ProofStatus::Refuted) << describe(rejected);
  EXPECT_EQ(rejected.values.at("a"), 3);
  EXPECT_NE(rejected.failed_side_condition.find("CuTe's construction"), std::string::npos) << describe(rejected);
}

TEST(SymbolicCoverage, CountsCases) {
  std::cout << "[ symbolic coverage ] " << g_cases << " cases checked (Z3 proofs and refutations, concrete comparisons)\n";
  EXPECT_GT(g_cases, 0u);
}

}  // namespace
