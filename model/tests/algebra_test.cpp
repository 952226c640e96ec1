// Unit tests of the layout algebra: composition, complement, inverses, max_common,
// upcast/downcast/recast.
//
// Expected values come from (a) hand derivations written next to them, (b) CuTe's layout
// algebra documentation, (c) CuTe C++ 4.2.0 (nvidia-cutlass wheel) output printed with
// cute::print from small host programs (marked "vendor"), and (d) brute-force enumeration
// of the defining properties over many small layouts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "coalesce.hpp"
#include "complement.hpp"
#include "composition.hpp"
#include "coordinates.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "inverse.hpp"
#include "layout_eval.hpp"
#include "leaf_arith.hpp"
#include "make_layout.hpp"
#include "max_common.hpp"
#include "notation.hpp"
#include "recast.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace algebra_test {

using namespace cuteref;

namespace {

Layout L(const char* text) { return parse_layout(text); }

// Functional equality (same size, same value at every index) of two layouts.
::testing::AssertionResult same_function(const Layout& got, const Layout& want) {
  Verdict v = functional_equal(Value(got), Value(want));
  if (v.holds) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << got.to_string() << " is not " << want.to_string() << ": " << v.reason;
}

// A evaluated at any integer index, negative ones included (C++ truncating / and %, as
// CuTe's crd2idx; the last mode takes the whole quotient).
std::int64_t eval(const Layout& a, std::int64_t i) { return crd2idx_index(CheckedInt(i), a.shape(), a.stride()).v; }

// The flattened leaf values of an arithmetic tuple (or an integer), zero-padded to n.
std::vector<std::int64_t> coords(const IntTuple& t, std::size_t n) {
  std::vector<IntTuple> leaves;
  flatten_into(t, leaves);
  std::vector<std::int64_t> v;
  for (const auto& l : leaves) v.push_back(l.value());
  while (v.size() < n) v.push_back(0);
  return v;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Small random layouts: flat rank 1..3 or one nested mode, shapes 1..4, strides from a set.
class Gen {
 public:
  explicit Gen(unsigned seed) : rng_(seed) {}
  Layout layout(const std::vector<std::int64_t>& stride_set, int max_shape = 4) {
    auto shape_leaf = [&] { return IntTuple::integer(pick(1, max_shape)); };
    auto stride_leaf = [&] { return IntTuple::integer(stride_set[pick(0, static_cast<int>(stride_set.size()) - 1)]); };
    const int kind = pick(0, 4);
    if (kind == 0) return Layout(shape_leaf(), stride_leaf());
    if (kind == 4) {  // (a,(b,c))
      return Layout(IntTuple::tuple({shape_leaf(), IntTuple::tuple({shape_leaf(), shape_leaf()})}),
                    IntTuple::tuple({stride_leaf(), IntTuple::tuple({stride_leaf(), stride_leaf()})}));
    }
    std::vector<IntTuple> s, d;
    for (int k = 0; k < kind; ++k) {
      s.push_back(shape_leaf());
      d.push_back(stride_leaf());
    }
    return Layout(IntTuple::tuple(s), IntTuple::tuple(d));
  }
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

 private:
  std::mt19937 rng_;
};

bool injective(const Layout& a) {
  std::set<std::int64_t> seen;
  for (std::int64_t i = 0; i < size_value(a); ++i)
    if (!seen.insert(apply_index(a, i)).second) return false;
  return true;
}

}  // namespace

// ---------------------------------------------------------------- composition

// Must-hold examples of the task, derived by hand.
TEST(Composition, MustHoldExamples) {
  // 20:2 is a single mode: A o B = shape(B) : stride(B)*2 = (4,5):(2,8).
  EXPECT_TRUE(same_function(composition(L("20:2"), L("(4,5):(1,4)")), L("(4,5):(2,8)")));
  EXPECT_EQ(composition(L("_20:_2"), L("(_4,_5):(_1,_4)")).to_string(), "(_4,_5):(_2,_8)");  // vendor prints this
  // 8:2 o 4:1: c -> 2c for c < 4.
  EXPECT_TRUE(same_function(composition(L("8:2"), L("4:1")), L("4:2")));
}

// The worked examples of CuTe's layout algebra tutorial, re-derived by hand.
TEST(Composition, DocExamples) {
  // A = (6,2):(8,2), B = (4,3):(3,1). B's mode 4:3 in A's modes: 3 | 6 gives ceil(6/3) = 2
  // elements at 3*8 = 24, then 4/2 = 2 at stride ceil(3/6)*2 = 2; mode 3:1 stays in A's
  // first mode: 3:8. Result ((2,2),3):((24,2),8).
  EXPECT_TRUE(same_function(composition(L("(6,2):(8,2)"), L("(4,3):(3,1)")), L("((2,2),3):((24,2),8)")));
  // A = (10,2):(16,4), B = (5,4):(1,5): 5:1 -> 5:16; 4:5 -> 10/5 = 2 at 5*16 = 80, then
  // 2 at stride 1*4. Result (5,(2,2)):(16,(80,4)).
  EXPECT_TRUE(same_function(composition(L("(10,2):(16,4)"), L("(5,4):(1,5)")), L("(5,(2,2)):(16,(80,4))")));
  // A = (12,(4,8)):(59,(13,1)), tiler <3:4, 8:2>: 12:59 o 3:4 = 3:236; (4,8):(13,1) o 8:2 =
  // 4/2 = 2 at 26, then 4 at stride 1. Result (3,(2,4)):(236,(26,1)).
  Value tiler = parse_and_evaluate("(3:4, 8:2)", &standard_functions());
  EXPECT_TRUE(same_function(composition(L("(12,(4,8)):(59,(13,1))"), tiler), L("(3,(2,4)):(236,(26,1))")));
  // Shape tiler (3,8) = <3:1, 8:1>: 3:59; (4,8):(13,1) o 8:1 = (4,2):(13,1).
  Value shape_tiler = Value(parse_int_tuple("(3,8)"));
  EXPECT_TRUE(same_function(composition(L("(12,(4,8)):(59,(13,1))"), shape_tiler), L("(3,(4,2)):(59,(13,1))")));
}

// Vendor (CuTe C++ 4.2.0) results, printed forms included.
TEST(Composition, VendorForms) {
  EXPECT_EQ(composition(L("(_4,_1):(_1,_0)"), L("_8:_1")).to_string(), "(_4,_2):(_1,_0)");  // past the domain
  EXPECT_EQ(composition(L("(_4,_8):(_8,_1)"), L("_8:_1")).to_string(), "(_4,_2):(_8,_1)");
  EXPECT_EQ(composition(L("(_4,_8):(_1@0,_1@1)"), L("_8:_2")).to_string(), "(_2,_4):(_2@0,_1@1)");
  EXPECT_EQ(composition(L("((_4,_2),_8):((_1,_4),_16)"), L("(_4,_2):(_1@1,_1@0)")).to_string(), "(_4,_2):(_16,_1)");
  Value tiler = parse_and_evaluate("(_4:_2, _8)", &standard_functions());
  EXPECT_EQ(composition(L("(_12,_32):(_32,_1)"), tiler).to_string(), "(_4,_8):(_64,_1)");
  EXPECT_TRUE(same_function(composition(L("(_2,_2):(_1,_10)"), L("_4:_-1")), L("(_2,_2):(_-1,_-10)")));
}

// Where CuTe's checks are too weak the model refuses instead of returning a wrong layout.
TEST(Composition, PreconditionDiagnostics) {
  // (6,4):(1,100) o 4:4: B(2) = 8 is coordinate (2,1) of A, so A(B(2)) = 102; CuTe 4.2.0
  // returns (_2,_2):(_4,_100), whose value at 2 is 100 (vendor). No layout of B's shape
  // with 4 | 6 splitting exists: the model rejects it.
  std::string e = error_of([] { composition(L("(6,4):(1,100)"), L("4:4")); });
  EXPECT_NE(e.find("exactness"), std::string::npos) << e;
  EXPECT_NE(e.find("(6,4):(1,100)"), std::string::npos) << e;
  // 4 % 6 != 0 and 6 > 4: CuTe's static "Stride Divisibility Condition".
  e = error_of([] { composition(L("(4,8):(1,5)"), L("2:6")); });
  EXPECT_NE(e.find("Stride Divisibility"), std::string::npos) << e;
  // The same with a negative stride: CuTe's signed test passes (-6 < 4) and it returns
  // _2:_-10 (vendor), but A(-6) = -2 + 5*(-1) = -7 (truncating): rejected.
  e = error_of([] { composition(L("(4,8):(1,5)"), L("2:-6")); });
  EXPECT_NE(e.find("Stride Divisibility"), std::string::npos) << e;
  // 3 elements at stride 2 in (4, ...): ceil(4/2) = 2 does not divide 3.
  e = error_of([] { composition(L("(4,8):(1,5)"), L("3:2")); });
  EXPECT_NE(e.find("Shape Divisibility"), std::string::npos) << e;
  // (12,(4,8)):(59,(13,1)) o (3,8):(4,1): B(c) = 4i + j reaches 15 >= 12, carrying into A's
  // second mode: B((2,7)) = 15 and A(15) = 3*59 + 1*13 = 190. CuTe 4.2.0 returns
  // (_3,_8):(_236,_59) (vendor), whose value at (2,7) is 885. The model refuses.
  e = error_of([] { composition(L("(12,(4,8)):(59,(13,1))"), L("(3,8):(4,1)")); });
  EXPECT_NE(e.find("no carry"), std::string::npos) << e;
  // Overlapping B: (2,8):(1,10) o (2,2):(1,1): B(3) = 2, A(2) = 10; the per-mode sum gives 2.
  e = error_of([] { composition(L("(2,8):(1,10)"), L("(2,2):(1,1)")); });
  EXPECT_NE(e.find("no carry"), std::string::npos) << e;
  // Mixed signs: (4,4):(6,0) o (4,4):(-1,2): B((1,2)) = 3, A(3) = 18, per-mode sum -6 + 0.
  e = error_of([] { composition(L("(4,4):(6,0)"), L("(4,4):(-1,2)")); });
  EXPECT_NE(e.find("both signs"), std::string::npos) << e;
  // Tiler of rank 3 on a rank-2 layout.
  e = error_of([] { composition(L("(4,8):(1,4)"), Value(parse_int_tuple("(2,2,2)"))); });
  EXPECT_NE(e.find("rank"), std::string::npos) << e;
  // Mixed integer and basis strides in B.
  e = error_of([] { composition(L("(4,8):(1,4)"), L("(2,2):(1,1@1)")); });
  EXPECT_NE(e.find("all integers or all scaled bases"), std::string::npos) << e;
}

TEST(Composition, ComposedLayout) {
  // S o (8,64):(64,1) composed with the tiler (8,8) keeps S and composes the inner layout:
  // (8,64):(64,1) o <8:1, 8:1> = (8,8):(64,1) (each mode is a single leaf).
  ComposedLayout c{Swizzle(3, 4, 3), std::nullopt, L("(8,64):(64,1)")};
  ComposedLayout r = composition(c, Value(parse_int_tuple("(8,8)")));
  EXPECT_EQ(r.swizzle, Swizzle(3, 4, 3));
  EXPECT_TRUE(same_function(r.layout, L("(8,8):(64,1)")));
  ComposedLayout r2 = composition(c, L("16:1"));
  // 16:1 walks A's first mode (8 elements at 64), then 2 more at stride 1: (8,2):(64,1).
  EXPECT_TRUE(same_function(r2.layout, L("(8,2):(64,1)")));
}

// Brute force: R(i) == A(B(i)) for every index of B, for random small A and B.
TEST(Composition, BruteForceDefinition) {
  Gen gen(12345);
  int checked = 0, rejected = 0, points = 0;
  const std::vector<std::int64_t> a_strides{0, 1, 2, 3, 4, 6, 8, 12, -1, -3};
  const std::vector<std::int64_t> b_strides{0, 1, 2, 3, 4, 6, 8, -1, -2};
  for (int trial = 0; trial < 40000; ++trial) {
    const Layout a = gen.layout(a_strides);
    const Layout b = gen.layout(b_strides);
    Layout r = b;
    try {
      r = composition(a, b);
    } catch (const Error&) {
      ++rejected;
      continue;
    }
    ++checked;
    ASSERT_EQ(size_value(r), size_value(b)) << a.to_string() << " o " << b.to_string();
    ASSERT_TRUE(weakly_congruent(b.shape(), r.shape())) << a.to_string() << " o " << b.to_string() << " = " << r.to_string();
    for (std::int64_t i = 0; i < size_value(b); ++i, ++points)
      ASSERT_EQ(eval(r, i), eval(a, eval(b, i)))
          << "i = " << i << ": " << a.to_string() << " o " << b.to_string() << " = " << r.to_string();
  }
  std::printf("composition brute force: %d pairs checked (%d points), %d rejected\n", checked, points, rejected);
  EXPECT_GT(checked, 10000);
}

// Compact A is the identity on indices >= 0, so every B with non-negative strides composes
// (no spurious rejection) and R == B as a function.
TEST(Composition, CompactLeftOperandNeverRejects) {
  Gen gen(777);
  int checked = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const Layout a = make_layout(gen.layout({1}).shape());
    const Layout b = gen.layout({0, 1, 2, 3, 5, 7, 16});
    Layout r = composition(a, b);
    ASSERT_TRUE(same_function(r, b)) << a.to_string() << " o " << b.to_string();
    ++checked;
  }
  std::printf("composition with compact A: %d pairs checked\n", checked);
}

// Scaled-basis strides in A: the result's values are A's coordinates.
TEST(Composition, BruteForceBasisStrides) {
  Gen gen(99);
  int checked = 0;
  const Layout a = L("(4,(2,3)):(1@0,(1@1,2@1))");
  for (int trial = 0; trial < 3000; ++trial) {
    const Layout b = gen.layout({0, 1, 2, 4, 8});
    Layout r = b;
    try {
      r = composition(a, b);
    } catch (const Error&) {
      continue;
    }
    for (std::int64_t i = 0; i < size_value(b); ++i) {
      const IntTuple want = crd2idx(IntTuple::integer(apply_index(b, i)), a.shape(), a.stride());
      const IntTuple got = apply(r, IntTuple::integer(i));
      ASSERT_EQ(coords(got, 2), coords(want, 2)) << a.to_string() << " o " << b.to_string() << " at " << i;
    }
    ++checked;
  }
  std::printf("composition with basis strides: %d pairs checked\n", checked);
  EXPECT_GT(checked, 1000);
}

// By-mode tilers: R((i,j)) == A((T0(i), T1(j))).
TEST(Composition, BruteForceTilers) {
  Gen gen(4242);
  int checked = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Layout a = Layout(IntTuple::tuple({IntTuple::integer(gen.pick(1, 8)), IntTuple::integer(gen.pick(1, 8))}),
                            IntTuple::tuple({IntTuple::integer(gen.pick(0, 9)), IntTuple::integer(gen.pick(0, 9))}));
    const Layout t0 = gen.layout({1, 2, 4}, 3), t1 = gen.layout({0, 1, 2}, 3);
    Layout r = a;
    try {
      r = composition(a, Value(MixedTuple{{Value(t0), Value(t1)}}));
    } catch (const Error&) {
      continue;
    }
    ASSERT_EQ(rank(r), 2u);
    for (std::int64_t i = 0; i < size_value(t0); ++i)
      for (std::int64_t j = 0; j < size_value(t1); ++j) {
        const std::int64_t got = apply(r, IntTuple::tuple({IntTuple::integer(i), IntTuple::integer(j)})).value();
        const std::int64_t want = apply(a, IntTuple::tuple({IntTuple::integer(apply_index(t0, i)),
                                                            IntTuple::integer(apply_index(t1, j))})).value();
        ASSERT_EQ(got, want) << a.to_string() << " o <" << t0.to_string() << "," << t1.to_string() << "> at " << i << "," << j;
      }
    ++checked;
  }
  std::printf("composition with tilers: %d checked\n", checked);
  EXPECT_GT(checked, 1000);
}

// ---------------------------------------------------------------- complement

TEST(Complement, MustHoldExamples) {
  // (2,4):(1,6): sorted 2:1 (extent 2), 4:6 (gap 6/2 = 3 at stride 2, extent 24);
  // rest ceil(24/24) = 1. Result 3:2.
  EXPECT_TRUE(same_function(complement(L("(2,4):(1,6)"), parse_int_tuple("24")), L("3:2")));
  // 4:32: gap 32 at stride 1, extent 128, rest ceil(256/128) = 2 at stride 128.
  EXPECT_TRUE(same_function(complement(L("4:32"), parse_int_tuple("256")), L("(32,2):(1,128)")));
  EXPECT_EQ(complement(L("_4:_32"), parse_int_tuple("_256")).to_string(), "(_32,_2):(_1,_128)");  // vendor
}

TEST(Complement, DocAndVendorExamples) {
  // The tutorial's examples, by hand: 4:1 -> no gap, extent 4, rest 24/4 = 6 at 4;
  // 6:4 -> gap 4 at 1, extent 24, rest 1; (4,6):(1,4) filters to 24:1 -> nothing left;
  // 4:2 -> gap 2 at 1, extent 8, rest 3 at 8; (2,2):(1,6) -> gap 6/2 = 3 at 2, extent 12,
  // rest 2 at 12.
  EXPECT_TRUE(same_function(complement(L("4:1"), parse_int_tuple("24")), L("6:4")));
  EXPECT_TRUE(same_function(complement(L("6:4"), parse_int_tuple("24")), L("4:1")));
  EXPECT_TRUE(same_function(complement(L("(4,6):(1,4)"), parse_int_tuple("24")), L("1:0")));
  EXPECT_TRUE(same_function(complement(L("4:2"), parse_int_tuple("24")), L("(2,3):(1,8)")));
  EXPECT_TRUE(same_function(complement(L("(2,2):(1,6)"), parse_int_tuple("24")), L("(3,2):(2,12)")));
  // Vendor: non-divisible gap rounds down; tuple cotarget divides left to right.
  EXPECT_EQ(complement(L("(_2,_2):(_1,_3)"), parse_int_tuple("_12")).to_string(), "_2:_6");
  EXPECT_EQ(complement(L("(_2,_2):(_1,_5)"), parse_int_tuple("_24")).to_string(), "(_2,_3):(_2,_10)");
  EXPECT_EQ(complement(L("_4:_2"), parse_int_tuple("(_3,_5)")).to_string(), "(_2,_2):(_1,_8)");
  EXPECT_EQ(complement(L("2:4"), parse_int_tuple("24")).to_string(), "(4,3):(_1,8)");
  EXPECT_TRUE(same_function(complement(L("_4:_0"), parse_int_tuple("(_4,_8)")), L("_32:_1")));
  // Default cotarget: cosize(filter(A)) = 1 + 3*2 = 7 for 4:2; gap 2 then ceil(7/8) = 1.
  EXPECT_TRUE(same_function(complement(L("4:2")), L("2:1")));
  // Dynamic strides at rank > 1 (CuTe C++ refuses): (2,4):(1,6) as above.
  EXPECT_TRUE(same_function(complement(L("(4,2):(6,1)"), parse_int_tuple("24")), L("3:2")));
}

TEST(Complement, PreconditionDiagnostics) {
  std::string e = error_of([] { complement(L("(2,2):(1,1)"), parse_int_tuple("8")); });
  EXPECT_NE(e.find("injective"), std::string::npos) << e;
  EXPECT_NE(e.find("(2,2):(1,1)"), std::string::npos) << e;
  // Injective but interleaved: image {0,2,3,4,5,7}; CuTe's static assertion fires too.
  e = error_of([] { complement(L("(2,3):(3,2)"), parse_int_tuple("8")); });
  EXPECT_NE(e.find("interleaved"), std::string::npos) << e;
  e = error_of([] { complement(L("4:-1"), parse_int_tuple("8")); });
  EXPECT_NE(e.find(">= 0"), std::string::npos) << e;
  e = error_of([] { complement(L("4:1"), parse_int_tuple("0")); });
  EXPECT_NE(e.find("cotarget"), std::string::npos) << e;
  // A cotarget is a shape: a leaf that is not an integer (a scaled basis, `_`) is refused, not
  // skipped (complement(4:1, 8) would be 2:4).
  for (const IntTuple& leaf : {IntTuple::basis(1, {0}), IntTuple::underscore()}) {
    e = error_of([&] { complement(L("4:1"), IntTuple::tuple({IntTuple::integer(8), leaf})); });
    EXPECT_NE(e.find("must be a shape of integers >= 1"), std::string::npos) << e;
  }
}

// complement_modes' selection past 64 modes (its taken modes then spill past one word): A of
// 65 modes that filter keeps apart, 2:2^61 down to 2:2 (each stride half the one before, so no
// two merge; 2:2^62 would not do: filter's 2 * 2^62 overflows), then 2:9, 2:5, 2:3, 2:1. By
// hand: the smallest stride is the last mode's (index 64, past the first word), 2:1: extent
// 2; then 2:2: gap 1, extent 4; then 2:3: gap 3/4 = 0, the interleaving the precondition
// refuses, at mode 2:3 below the extent 4, as in the three-mode (2,2,2):(2,3,1).
TEST(Complement, SelectionPastSixtyFourModes) {
  std::string shape = "(", stride = "(";
  for (int k = 61; k >= 1; --k) {
    shape += "2,";
    stride += std::to_string(std::int64_t{1} << k) + ",";
  }
  const Layout a = L((shape + "2,2,2,2):" + stride + "9,5,3,1)").c_str());
  ASSERT_EQ(rank(a), 65u);
  const std::string want = "mode 2:3 starts below the extent 4";
  const std::string wide = error_of([&] { complement(a, parse_int_tuple("8")); });
  EXPECT_NE(wide.find(want), std::string::npos) << wide;
  const std::string narrow = error_of([] { complement(L("(2,2,2):(2,3,1)"), parse_int_tuple("8")); });
  EXPECT_NE(narrow.find(want), std::string::npos) << narrow;
}

// Brute force: R increasing, (A, R) injective, and, when A's modes tile (each stride a
// multiple of the previous extent), (A, R) covers [0, size) ⊇ [0, M). Rejections happen
// exactly when two modes of filter(A) overlap (checked pairwise, independently of the sort).
TEST(Complement, BruteForce) {
  Gen gen(2024);
  int checked = 0, rejected = 0, tiling = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Layout a = gen.layout({0, 1, 2, 3, 4, 6, 8, 12, 16});
    const std::int64_t m = gen.pick(1, 64);
    // Overlap witness, pairwise and independent of the sort: non-trivial modes i != j
    // with d_i <= d_j < s_i*d_i (mode j starts inside mode i's range).
    FlatModes f = flat_modes(a.shape(), a.stride());
    bool overlap = false;
    for (std::size_t i = 0; i < f.shapes.size(); ++i)
      for (std::size_t j = 0; j < f.shapes.size(); ++j) {
        const std::int64_t si = f.shapes[i].value(), di = f.strides[i].value(), sj = f.shapes[j].value(),
                           dj = f.strides[j].value();
        if (i == j || si == 1 || sj == 1 || di == 0 || dj == 0) continue;
        overlap = overlap || (di <= dj && dj < si * di);
      }
    Layout r = a;
    try {
      r = complement(a, IntTuple::integer(m));
    } catch (const Error&) {
      ++rejected;
      ASSERT_TRUE(overlap) << "spurious rejection of " << a.to_string();
      continue;
    }
    ASSERT_FALSE(overlap) << a.to_string() << " accepted with overlapping modes";
    ASSERT_TRUE(injective(filter(a))) << a.to_string();  // stride-0 modes are ignored
    ++checked;
    for (std::int64_t i = 1; i < size_value(r); ++i) ASSERT_LT(apply_index(r, i - 1), apply_index(r, i)) << r.to_string();
    const Layout fa = filter(a);
    std::set<std::int64_t> image;
    for (std::int64_t i = 0; i < size_value(r); ++i)
      for (std::int64_t j = 0; j < size_value(fa); ++j)
        ASSERT_TRUE(image.insert(apply_index(fa, j) + apply_index(r, i)).second)
            << "(A,R) not injective: A = " << a.to_string() << ", R = " << r.to_string();
    // Tiling case: a compact (A, R) exists; check full coverage of the cotarget.
    const std::int64_t total = size_value(fa) * size_value(r);
    if (*image.rbegin() == total - 1) {
      ++tiling;
      ASSERT_GE(total, m) << a.to_string() << " M=" << m << " R=" << r.to_string();
    }
  }
  std::printf("complement brute force: %d checked (%d tiling), %d rejected\n", checked, tiling, rejected);
  EXPECT_GT(checked, 5000);
  EXPECT_GT(rejected, 100);
}

// ---------------------------------------------------------------- inverses

TEST(Inverse, MustHoldAndVendor) {
  // (4,8):(8,1): stride 1 mode (8, prefix 4) first, then stride 8 = 8*1 (4, prefix 1).
  EXPECT_TRUE(same_function(right_inverse_full(L("(4,8):(8,1)")), L("(8,4):(4,1)")));
  EXPECT_EQ(right_inverse(L("(_4,_8):(_8,_1)")).to_string(), "(_8,_4):(_4,_1)");      // vendor
  EXPECT_EQ(left_inverse(L("(_4,_8):(_8,_1)")).to_string(), "(_8,_4):(_4,_1)");       // vendor
  EXPECT_EQ(right_inverse(L("(_4,_2):(_1,_8)")).to_string(), "_4:_1");                // vendor
  EXPECT_EQ(left_inverse(L("(_4,_2):(_1,_8)")).to_string(), "(_8,_2):(_1,_4)");       // vendor
  EXPECT_EQ(left_inverse(L("(_4,_2):(_2,_0)")).to_string(), "(_2,_4):(_0,_1)");       // vendor
  EXPECT_EQ(right_inverse(L("(_3,_4):(_-1,_3)")).to_string(), "_1:_0");               // vendor
  // Equal strides: CuTe's exchange-sort order decides (vendor).
  EXPECT_EQ(right_inverse(L("(_2,_2):(_1,_1)")).to_string(), "_2:_1");
  EXPECT_EQ(right_inverse(L("(_2,_2,_2):(_2,_1,_1)")).to_string(), "(_2,_2):(_2,_1)");
  EXPECT_EQ(left_inverse(L("(_2,_2):(_1,_1)")).to_string(), "_2:_2");
  // Dynamic layouts invert on their values in right_inverse_full (CuTe C++ drops dynamic modes:
  // right_inverse, InverseTyped below).
  EXPECT_TRUE(same_function(right_inverse_full(L("(2,3):(3,1)")), L("(3,2):(2,1)")));
}

// CuTe's right_inverse follows static strides only; each answer printed by CuTe 4.2 (g++ on the
// headers: oracles/cute_unit_inputs.py, oracles/probes/corpus_vendor_probe.cpp), each derived here.
TEST(InverseTyped, FollowsStaticStridesOnly) {
  // The chain starts at _1 (mode 4:_1) and must go on with the stride 4*1 = 4, a run-time 4 here.
  EXPECT_EQ(right_inverse(L("(4,2):(_1,4)")).to_string(), "4:_1");
  EXPECT_EQ(right_inverse_full(L("(4,2):(_1,4)")).to_string(), "8:_1");
  // No static stride at all: nothing to follow.
  EXPECT_EQ(right_inverse(L("(4,2):(1,4)")).to_string(), "_1:_0");
  // Static strides with a run-time shape 2 after _4:_1: _4 * _1 = _4 is static and matches mode 1;
  // CuTe's coalesce does not merge the run-time 2 into _4, so both modes stay.
  EXPECT_EQ(right_inverse(L("(_4,2):(_1,_4)")).to_string(), "(_4,2):(_1,_4)");
  // (2,_4):(_4,_1): _4:_1 at prefix 2, then 2:_4 at prefix _1; the result (_4,2):(2,_1).
  EXPECT_EQ(right_inverse(L("(2,_4):(_4,_1)")).to_string(), "(_4,2):(2,_1)");
  // A run-time 1 stays a mode in CuTe's coalesce; the chain takes it (stride _1) and the next
  // offset, 1 * _1, is a run-time value: done. 1 at prefix _2.
  EXPECT_EQ(right_inverse(L("(_2,1,_4):(_4,_1,_1)")).to_string(), "1:_2");
  // Fully static: as right_inverse_full.
  EXPECT_EQ(right_inverse(L("(_4,_2):(_1,_4)")).to_string(), "_8:_1");
  // The empty layout has the one index 0, which it maps to 0: _1:_0, as right_inverse_full.
  EXPECT_EQ(right_inverse(L("():()")).to_string(), "_1:_0");
  EXPECT_EQ(right_inverse_full(L("():()")).to_string(), "_1:_0");
}

// CuTe's left_inverse documents L(R(L(i))) == L(i); for the non-injective (3,(3,3)):(2,(2,1))
// CuTe C++ 4.2.0 returns (_2,_3):(_9,_1) (vendor) and the law fails at i = 5: 5 is the
// coordinate (2,(1,0)), L(5) = 2*2 + 1*2 = 6; 6 is (0,3) in (2,3), R(6) = 3; 3 is (0,(1,0)),
// L(3) = 2 != 6.
TEST(Inverse, QuasiInverseCounterexample) {
  const Layout l = L("(_3,(_3,_3)):(_2,(_2,_1))");
  const Layout r = left_inverse(l);
  EXPECT_EQ(r.to_string(), "(_2,_3):(_9,_1)");
  EXPECT_EQ(apply_index(l, 5), 6);
  EXPECT_EQ(apply_index(r, 6), 3);
  EXPECT_EQ(apply_index(l, 3), 2);
}

TEST(Inverse, PreconditionDiagnostics) {
  // (2,3):(3,2): visited 3:2 (covered 1 -> 2), then stride 3 % 2 != 0.
  std::string e = error_of([] { left_inverse(L("(2,3):(3,2)")); });
  EXPECT_NE(e.find("divisibility"), std::string::npos) << e;
  e = error_of([] { left_inverse(L("4:-1")); });
  EXPECT_NE(e.find(">= 0"), std::string::npos) << e;
  e = error_of([] { right_inverse(L("4:1@0")); });
  EXPECT_NE(e.find("integers"), std::string::npos) << e;
  // Scaled-basis strides are refused by both inverses, as their precondition.
  e = error_of([] { right_inverse(L("(4,2):(1@0,1@1)")); });
  EXPECT_NE(e.find("right_inverse: precondition violated: the strides must be integers"), std::string::npos) << e;
  e = error_of([] { left_inverse(L("(4,2):(1@0,1@1)")); });
  EXPECT_NE(e.find("left_inverse: precondition violated: the strides must be integers"), std::string::npos) << e;
}

// Brute force: L(R(i)) == i on R's domain for any L; for permutations (compact layouts with
// permuted mode order) the right inverse is full-size and left_inverse inverts L.
TEST(Inverse, BruteForce) {
  Gen gen(31337);
  int right_checked = 0, left_checked = 0, left_rejected = 0, quasi_checked = 0, quasi_broken = 0,
      perms = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Layout l = gen.layout({0, 1, 2, 3, 4, 6, 8, -1, -2});
    const Layout r = right_inverse_full(l);
    for (std::int64_t i = 0; i < size_value(r); ++i)
      ASSERT_EQ(eval(l, apply_index(r, i)), i) << l.to_string() << " right inverse " << r.to_string();
    ++right_checked;
    bool nonneg = true;
    for (std::int64_t i = 0; i < size_value(l); ++i) nonneg = nonneg && apply_index(l, i) >= 0;
    FlatModes fm = flat_modes(l.shape(), l.stride());
    for (const auto& d : fm.strides) nonneg = nonneg && d.value() >= 0;
    if (!nonneg) continue;
    if (!injective(l)) {
      // CuTe's documented quasi-inverse law L(R(L(i))) == L(i): counted, not required (see
      // Inverse.QuasiInverseCounterexample).
      Layout qi = l;
      try {
        qi = left_inverse(l);
      } catch (const Error&) {
        continue;
      }
      bool holds = true;
      for (std::int64_t i = 0; i < size_value(l) && holds; ++i)
        holds = apply_index(l, apply_index(qi, apply_index(l, i))) == apply_index(l, i);
      ++(holds ? quasi_checked : quasi_broken);
      continue;
    }
    Layout li = l;
    try {
      li = left_inverse(l);
    } catch (const Error&) {
      ++left_rejected;
      continue;
    }
    for (std::int64_t i = 0; i < size_value(l); ++i)
      ASSERT_EQ(apply_index(li, apply_index(l, i)), i) << l.to_string() << " left inverse " << li.to_string();
    ++left_checked;
  }
  for (int trial = 0; trial < 3000; ++trial) {
    // A permutation of a compact layout: shape leaves ordered by a random order.
    const int n = gen.pick(1, 4);
    std::vector<IntTuple> shape, order;
    std::vector<int> perm(n);
    for (int k = 0; k < n; ++k) perm[k] = k;
    for (int k = n - 1; k > 0; --k) std::swap(perm[k], perm[gen.pick(0, k)]);
    for (int k = 0; k < n; ++k) {
      shape.push_back(IntTuple::integer(gen.pick(1, 5)));
      order.push_back(IntTuple::integer(perm[k]));
    }
    const Layout p = make_ordered_layout(IntTuple::tuple(shape), IntTuple::tuple(order));
    const Layout r = right_inverse_full(p), li = left_inverse(p);
    ASSERT_EQ(size_value(r), size_value(p)) << p.to_string() << " -> " << r.to_string();
    for (std::int64_t i = 0; i < size_value(p); ++i) {
      ASSERT_EQ(apply_index(p, apply_index(r, i)), i) << p.to_string();
      ASSERT_EQ(apply_index(li, apply_index(p, i)), i) << p.to_string();
    }
    ++perms;
  }
  std::printf("inverse brute force: %d right inverses, %d left inverses checked (%d rejected), non-injective: %d "
              "quasi-inverse law holds, %d breaks it; %d permutations\n", right_checked, left_checked, left_rejected,
              quasi_checked, quasi_broken, perms);
  EXPECT_GT(left_checked, 1000);
}

// ---------------------------------------------------------------- max_common

TEST(MaxCommon, VendorExamples) {
  EXPECT_EQ(max_common_vector(L("(_4,_8):(_8,_1)"), L("(_4,_8):(_16,_1)")).to_string(), "_8");
  EXPECT_EQ(max_common_layout(L("(_4,_8):(_8,_1)"), L("(_4,_8):(_16,_1)")).to_string(), "_8:_4");
  EXPECT_EQ(max_common_layout(L("(_4,_8):(_1,_4)"), L("(_4,_8):(_1,_4)")).to_string(), "_32:_1");
  // Column-major vs row-major 4x8: right_inverse((4,8):(8,1)) = (8,4):(4,1); A = 32:1
  // after coalescing, so A o (8,4):(4,1) = (8,4):(4,1), whose first mode has stride 4, not
  // 1: the common vector is 1 and the common layout _1:_0 (vendor: _1 and _1:_0).
  EXPECT_EQ(max_common_vector(L("(4,8):(1,4)"), L("(4,8):(8,1)")).value(), 1);
  EXPECT_TRUE(same_function(max_common_layout(L("(4,8):(1,4)"), L("(4,8):(8,1)")), L("1:0")));
}

TEST(MaxCommon, BruteForce) {
  Gen gen(555);
  int checked = 0;
  for (int trial = 0; trial < 10000; ++trial) {
    const Layout a = gen.layout({1, 2, 4, 8, 16}), b = gen.layout({1, 2, 4, 8, 16});
    Layout r = a;
    std::int64_t n = 0;
    try {
      r = max_common_layout(a, b);
      n = max_common_vector(a, b).value();
    } catch (const Error&) {
      continue;
    }
    ASSERT_EQ(size_value(r), n) << a.to_string() << " / " << b.to_string();
    for (std::int64_t i = 0; i < size_value(r); ++i) {
      const std::int64_t c = apply_index(r, i);
      ASSERT_LT(c, size_value(b)) << a.to_string() << " / " << b.to_string();
      ASSERT_EQ(eval(a, c), i) << a.to_string() << " / " << b.to_string() << " R = " << r.to_string();
      ASSERT_EQ(apply_index(b, c), i) << a.to_string() << " / " << b.to_string() << " R = " << r.to_string();
    }
    ++checked;
  }
  std::printf("max_common brute force: %d pairs checked\n", checked);
  EXPECT_GT(checked, 5000);
}

// ---------------------------------------------------------------- upcast / downcast / recast

TEST(Recast, VendorExamples) {
  EXPECT_EQ(upcast(L("(_4,_8):(_8,_1)"), 2).to_string(), "(_4,_4):(_4,_1)");
  EXPECT_EQ(upcast(L("(_6,_8):(_2,_-1)"), 4).to_string(), "(_3,_2):(_1,_-1)");
  EXPECT_EQ(downcast(L("(_4,_8):(_8,_1)"), 2).to_string(), "(_4,_16):(_16,_1)");
  EXPECT_EQ(upcast(L("(4,8):(8,_1)"), 2).to_string(), "(4,4):(4,_1)");
  // recast 16-bit -> 32-bit elements is upcast by 2; 32 -> 16 downcast by 2; 16 -> 24 is
  // upcast by 3 then downcast by 2.
  EXPECT_EQ(recast(L("(_4,_8):(_8,_1)"), 16, 32).to_string(), "(_4,_4):(_4,_1)");
  EXPECT_EQ(recast(L("(_4,_8):(_8,_1)"), 32, 16).to_string(), "(_4,_16):(_16,_1)");
  EXPECT_EQ(recast(L("(_4,_8):(_8,_1)"), 16, 16).to_string(), "(_4,_8):(_8,_1)");
  // (4,6):(6,1) upcast 3: (4, 2):(2, 1); downcast 2: (4, 4):(4, 1).
  EXPECT_EQ(recast(L("(_4,_6):(_6,_1)"), 16, 24).to_string(), "(_4,_4):(_4,_1)");
}

// CuTe's downcast<N> rule, by leaf: a static stride _1 or _-1 multiplies the shape by N,
// every other stride (a run-time 1 included) is multiplied by N; static-ness as in CuTe's
// arithmetic (int * Int<N> is an int). Expected values derived by hand from that rule.
TEST(Recast, DowncastFindsTheContiguousModeByItsStaticStride) {
  // (1,8):(_1,1): mode 0 is the _1 mode, 1*2 = 2 (run-time); mode 1 keeps 8, stride 1*2 = 2.
  // Values 0..15: each of the 8 elements split in 2 (CuTe 4.2 prints the same).
  EXPECT_EQ(downcast(L("(1,8):(_1,1)"), 2).to_string(), "(2,8):(_1,2)");
  // (4,2):(_1,4): (4*2, 2):(_1, 4*2).
  EXPECT_EQ(downcast(L("(4,2):(_1,4)"), 2).to_string(), "(8,2):(_1,8)");
  // A run-time -1 is scaled as a stride too; the static _-1 grows its shape.
  EXPECT_EQ(downcast(L("(2,3,4):(_1,-1,_-1)"), 2).to_string(), "(4,3,8):(_1,-2,_-1)");
  // Two static unit leaves both grow (CuTe's rule; size 8*2*2, not 8*2).
  EXPECT_EQ(downcast(L("(_4,_2):(_1,_1)"), 2).to_string(), "(_8,_4):(_1,_1)");
}

TEST(Recast, PreconditionDiagnostics) {
  std::string e = error_of([] { upcast(L("(4,8):(6,1)"), 4); });
  EXPECT_NE(e.find("Divisibility"), std::string::npos) << e;
  e = error_of([] { downcast(L("(4,8):(8,2)"), 2); });
  EXPECT_NE(e.find("adjacent"), std::string::npos) << e;
  // A run-time 1 is not CuTe's contiguous mode: downcast<N> static-asserts a static _1.
  e = error_of([] { downcast(L("(4,2):(1,4)"), 2); });
  EXPECT_NE(e.find("static _1"), std::string::npos) << e;
  e = error_of([] { upcast(L("4:1"), 0); });
  EXPECT_NE(e.find(">= 1"), std::string::npos) << e;
  e = error_of([] { recast(L("4:1"), 0, 8); });
  EXPECT_NE(e.find(">= 1 bit"), std::string::npos) << e;
}

// Brute force, for layouts whose first leaf mode has stride _1 and no other stride is +-1:
// downcast(L, n)(j) == n*L(j / n) + j % n (each element splits into n adjacent ones),
// upcast(downcast(L, n), n) == L, and upcast(L, n)(k) * n == L(n*k) when n divides the
// first shape and the other strides.
TEST(Recast, BruteForce) {
  Gen gen(8080);
  int checked = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const std::int64_t n = gen.pick(1, 4);
    const Layout rest = gen.layout({0, 2, 4, 8, 12, 16});
    std::vector<IntTuple> s{IntTuple::integer(gen.pick(1, 4) * n)}, d{IntTuple::static_int(1)};
    const IntTuple rest_shape = wrap(rest.shape()), rest_stride = wrap(rest.stride());
    for (const auto& e : rest_shape.elements()) s.push_back(e);
    for (const auto& e : rest_stride.elements()) d.push_back(IntTuple::integer(e.is_tuple() ? 0 : e.value() * n));
    if (!congruent(IntTuple::tuple(s), IntTuple::tuple(d))) continue;  // skip nested rest modes
    const Layout l(IntTuple::tuple(s), IntTuple::tuple(d));
    const Layout down = downcast(l, n);
    ASSERT_EQ(size_value(down), size_value(l) * n);
    for (std::int64_t j = 0; j < size_value(down); ++j)
      ASSERT_EQ(apply_index(down, j), n * apply_index(l, j / n) + j % n) << l.to_string() << " n=" << n;
    ASSERT_TRUE(same_function(upcast(down, n), l)) << l.to_string() << " n=" << n;
    const Layout up = upcast(l, n);
    for (std::int64_t k = 0; k < size_value(up); ++k)
      ASSERT_EQ(apply_index(up, k) * n, apply_index(l, n * k)) << l.to_string() << " n=" << n;
    ++checked;
  }
  std::printf("recast brute force: %d layouts checked\n", checked);
  EXPECT_GT(checked, 1000);
}

// The carry and sign checks are sound: for random A and multi-mode B whose leaves all
// compose alone, whenever the model accepts, CuTe's per-mode result (the leaves' results
// side by side) equals A o B by enumeration; when it differs, the model refuses. They are
// conservative only where strides cancel by coincidence (A(5) == A(-1) + A(6) with
// A = (2,3,3):(-1,3,4)): such refusals are counted and must stay rare. The same holds for
// logical_divide-shaped operands (B, complement(B, size(A))).
namespace {
// 1: the per-mode result equals A o B; 0: it differs; -1: some leaf of B does not compose.
int per_mode_matches(const Layout& a, const Layout& b) {
  const Layout fb = flatten(b);
  std::vector<Layout> leaves;
  for (std::size_t k = 0; k < rank(fb); ++k) {
    try {
      leaves.push_back(composition(a, mode(fb, k)));
    } catch (const Error&) {
      return -1;
    }
  }
  const Layout per_mode = make_layout_from_modes(leaves);
  for (std::int64_t i = 0; i < size_value(fb); ++i)
    if (eval(per_mode, i) != eval(a, eval(fb, i))) return 0;
  return 1;
}
}  // namespace

TEST(Composition, CarryCheckIsSound) {
  Gen gen(6060);
  int accepted_n = 0, refused = 0, conservative = 0, divide_shaped = 0;
  const std::vector<std::int64_t> a_strides{0, 1, 2, 3, 4, 6, 8, 12, -1};
  const std::vector<std::int64_t> b_strides{0, 1, 2, 3, 4, 6, 8, -1};
  auto check = [&](const Layout& a, const Layout& b) {
    const int m = per_mode_matches(a, b);
    if (m < 0) return;
    bool accepted = true;
    try {
      composition(a, b);
    } catch (const Error&) {
      accepted = false;
    }
    if (accepted) {
      ASSERT_EQ(m, 1) << a.to_string() << " o " << b.to_string() << " accepted but not A o B";
    }
    if (accepted) ++accepted_n;
    else if (m == 0) ++refused;
    else ++conservative;
  };
  for (int trial = 0; trial < 30000; ++trial) {
    const Layout a = gen.layout(a_strides);
    const Layout b = gen.layout(b_strides);
    if (!flatten(b).shape().is_tuple()) continue;
    check(a, b);
  }
  for (int trial = 0; trial < 10000; ++trial) {
    const Layout a = gen.layout(a_strides, 6);
    const Layout b = gen.layout({1, 2, 3, 4, 6}, 4);
    Layout tiler = b;
    try {
      tiler = make_layout_from_modes({b, complement(b, size(a))});
    } catch (const Error&) {
      continue;
    }
    check(a, tiler);
    ++divide_shaped;
  }
  std::printf("carry check: %d accepted (all equal to A o B), %d refused (per-mode differs), %d refused "
              "conservatively (per-mode equal by coincidence); %d of the pairs divide-shaped\n",
              accepted_n, refused, conservative, divide_shaped);
  EXPECT_GT(refused, 100);
  EXPECT_LT(conservative * 20, refused);
}

}  // namespace algebra_test
