// `cuteref prove` (proofs/claim.cpp), run in-process: verdicts, exit codes, and that a printed
// counterexample really fails. Expected values are derived by hand in the comments.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "claim.hpp"
#include "function_table.hpp"
#include "symbolic_functions.hpp"
#include "error.hpp"
#include "prove_run.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace prove_command_test {

using cuteref::proofs::ProveRequest;
using cuteref::proofs::prove_command;
using cuteref::proofs::testing::ProveRun;
using cuteref::proofs::testing::prove;
using cuteref::proofs::testing::value_of;

namespace {

// CuTe's Swizzle<B,M,S> for S >= 0, bit by bit: destination bit i in [M, M+B) XOR= bit i+S.
std::int64_t swizzle_by_bits(int b, int m, int s, std::int64_t x) {
  std::int64_t out = x;
  for (int i = m; i < m + b; ++i) out ^= ((x >> (i + s)) & 1) << i;
  return out;
}

std::size_t g_cases = 0;

}  // namespace

TEST(Prove, SwizzleInvolution) {
  const ProveRun r = prove("Sw<3,4,3>(Sw<3,4,3>(x)) == x");
  ++g_cases;
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("proved (", 0), 0u) << r.out;
}

// |S| = 1 < B = 2: the model's Swizzle refuses it (CuTe's precondition), so the claim does
// too, with or without variables (the law swizzle_illegal_refuted refutes the involution of
// the generic swizzle function). Sw<3,4,3> moves bit 7 into bit 4: not the identity, and
// the printed x must show it.
TEST(Prove, IllegalSwizzleRejectedAsByTheModel) {
  for (const char* claim : {"Sw<2,4,1>(Sw<2,4,1>(x)) == x", "Sw<1,62,0>(x) == 5", "Sw<1,62,0>(5) == 5"}) {
    const ProveRun r = prove(claim, {std::string(claim).find('x') != std::string::npos ? "x in [5,5]" : ""});
    ++g_cases;
    EXPECT_EQ(r.rc, 64) << claim << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("|S| must be >= B"), std::string::npos) << r.err;
  }
  const ProveRun r = prove("Sw<3,4,3>(x) == x");
  ++g_cases;
  ASSERT_EQ(r.rc, 1) << r.out << r.err;
  const std::int64_t x = value_of(r.out, "x");
  EXPECT_NE(swizzle_by_bits(3, 4, 3, x), x) << x;
}

// Row-major (2^20,2^20) composed with itself: B(i,j) = 2^20 i + j, whose coordinate in A is
// (j, i), so A(B(i,j)) = 2^20 j + i: the identity on 2^40 indices.
TEST(Prove, HugeComposition) {
  const ProveRun r = prove(
      "composition((1048576,1048576):(1048576,1), (1048576,1048576):(1048576,1)) == 1099511627776:1");
  ++g_cases;
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("proved (", 0), 0u) << r.out;
}

// (a,b):(1,a) is column-major: L(i) = i, so it coalesces to (a*b):1 for every a, b.
TEST(Prove, SymbolicCoalesce) {
  const ProveRun r = prove("coalesce((a,b):(1,a)) == (a*b):1", {"a in [1,4096]", "b in [1,4096]"});
  ++g_cases;
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("proved (", 0), 0u) << r.out;
}

// (a,b):(1,b) is (a*b):1 only if b == a or b == 1: otherwise index a has offset b != a.
TEST(Prove, FalseCoalesceRefutedAndReplayed) {
  const ProveRun r = prove("coalesce((a,b):(1,b)) == (a*b):1", {"a in [1,4096]", "b in [1,4096]"});
  ++g_cases;
  ASSERT_EQ(r.rc, 1) << r.out << r.err;
  const std::int64_t a = value_of(r.out, "a"), b = value_of(r.out, "b");
  EXPECT_TRUE(b != 1 && a != b) << r.out;
  // The printed index really differs: L(i) = i % a + (i / a) * b, while (a*b):1 gives i.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("index = ([0-9]+)"))) << r.out;
  const std::int64_t i = std::stoll(m[1]);
  EXPECT_LT(i, a * b);
  EXPECT_NE(i % a + (i / a) * b, i) << r.out;
}

// Without --where, a variable ranges over [0, 2^63-1]; x + 1 overflows at 2^63 - 1.
TEST(Prove, DefaultRangeAndOverflow) {
  const ProveRun r = prove("x + 1 == 1 + x");
  ++g_cases;
  ASSERT_EQ(r.rc, 1) << r.out;
  EXPECT_EQ(value_of(r.out, "x"), INT64_MAX);
  EXPECT_NE(r.out.find("overflow"), std::string::npos) << r.out;
  const ProveRun bounded = prove("x + 1 == 1 + x", {"x in [-5,100]"});
  ++g_cases;
  EXPECT_EQ(bounded.rc, 0) << bounded.out;
}

TEST(Prove, UnknownAndErrors) {
  // A leaf A = a:1 composes B's mode n:d to n:(d*1) whatever a is (CuTe reads A past its
  // size: composition.hpp's composition(8:2, 16:1) = 16:2): proved. complement of an A that
  // filters to _1:_0 is the cotarget's compact layout, 4:1: proved. A tuple of layouts as
  // the tiler of a symbolic layout is not covered: unknown where the model agrees at every
  // replayed point, refuted where it does not. By hand: zipped_divide((a,8):(1,a), (2:1,4:1))
  // tiles mode 0 (a leaf, so no check) into 2 and ceil(a/2) and mode 1 into 4 and 2, so its
  // size is 16 * ceil(a/2): 16 * ((a + 1) / 2) holds at every a, and 16 * a at none of [2,8].
  ++g_cases;
  EXPECT_EQ(prove("composition(a:1, 4:1) == 4:1", {"a in [1,8]"}).rc, 0);
  ++g_cases;
  EXPECT_EQ(prove("complement(a:0, 4) == 4:1", {"a in [1,8]"}).rc, 0);
  const ProveRun u = prove("size(zipped_divide((a,8):(1,a), (2:1,4:1))) == 16 * ((a + 1) / 2)", {"a in [2,8]"});
  ++g_cases;
  EXPECT_EQ(u.rc, 2);
  EXPECT_EQ(u.out.rfind("unknown: ", 0), 0u) << u.out;
  const ProveRun r = prove("zipped_divide((a,8):(1,a), (2:1,4:1)) == ((2,4),(a,2)):((1,a),(2,4))", {"a in [2,8]"});
  ++g_cases;
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_NE(r.out.find("the sizes differ"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the claim has no symbolic form"), std::string::npos) << r.out;
  // A malformed claim or --where is a usage error (64, EX_USAGE), not `unknown` (2).
  const ProveRun e = prove("x + 1");
  ++g_cases;
  EXPECT_EQ(e.rc, 64);
  EXPECT_NE(e.err.find("EXPR == EXPR"), std::string::npos) << e.err;
  const ProveRun w = prove("x == x", {"y in [0,1]"});
  ++g_cases;
  EXPECT_EQ(w.rc, 64);
  EXPECT_NE(w.err.find("'y'"), std::string::npos) << w.err;
}

// A function may build bit operations that the claim's text does not show: to_f2's F2 strides
// are applied by XOR. Such a claim is stated again with bit-vectors (it once exited 64: "the
// integer encoding has no bit operation"). By hand: (2,2):(2,1) maps 0, 1, 2, 3 to 0, 2, 1, 3,
// and its F2 layout (2,2):(F2,F1) maps x to (x&1)*2 ^ (x>>1) = the same; not x itself at 1 and 2.
TEST(Prove, BitOperationsAFunctionBuilds) {
  const ProveRun p = prove("to_f2((2,2):(2,1))(x) == (2,2):(2,1)(x)", {"x in [0,3]"});
  ++g_cases;
  EXPECT_EQ(p.rc, 0) << p.out << p.err;
  const ProveRun r = prove("to_f2((2,2):(2,1))(x) == x", {"x in [0,3]"});
  ++g_cases;
  EXPECT_EQ(r.rc, 1) << r.out << r.err;
  if (r.rc == 1) {
    const std::int64_t x = value_of(r.out, "x");
    EXPECT_TRUE(x == 1 || x == 2) << r.out;
  }
  // The same restated claim where the model refuses some points of the box: a negative index.
  const ProveRun n = prove("to_f2((2,2):(2,1))(x) == (2,2):(2,1)(x)", {"x in [-2,3]"});
  ++g_cases;
  EXPECT_EQ(n.rc, 1) << n.out << n.err;
  if (n.rc == 1) {
    EXPECT_LT(value_of(n.out, "x"), 0) << n.out;
    EXPECT_NE(n.out.find("the model rejects this input"), std::string::npos) << n.out;
  }
}

// (4,8):(1,4) is the identity on [0,32); (4,8):(8,1) maps 1 to 8.
TEST(Prove, LayoutApplication) {
  ++g_cases;
  EXPECT_EQ(prove("(4,8):(1,4)(x) == x", {"x in [0,31]"}).rc, 0);
  ++g_cases;
  const ProveRun r = prove("(4,8):(8,1)(x) == x", {"x in [0,31]"});
  ASSERT_EQ(r.rc, 1) << r.out;
  const std::int64_t x = value_of(r.out, "x");
  EXPECT_NE((x % 4) * 8 + x / 4, x);
}

// Parametric algebra, by the model's generic complement / composition / divide.
// complement((a,b):(1,a), a*b*e): A covers [0, a*b) contiguously, so the rest mode repeats it
// e times with stride a*b (hand-derived from the definition: gap 1/1 = 1 is dropped).
// logical_divide((128k):1, 128:1): 128:1 followed by its complement k:128 in [0, 128k).
TEST(Prove, ParametricAlgebra) {
  ++g_cases;
  const ProveRun c = prove("complement((a,b):(1,a), (a*b*e)) == e:(a*b)", {"a in [2,4096]", "b in [1,4096]", "e in [2,4096]"});
  EXPECT_EQ(c.rc, 0) << c.out << c.err;
  ++g_cases;
  const ProveRun d = prove("logical_divide((128*k):1, 128:1) == (128,k):(1,128)", {"k in [1,8192]"});
  EXPECT_EQ(d.rc, 0) << d.out << d.err;
  // A wrong stride: refuted at the first index of the second tile (128 -> 128, not 129).
  ++g_cases;
  const ProveRun w = prove("logical_divide((128*k):1, 128:1) == (128,k):(1,129)", {"k in [1,8192]"});
  ASSERT_EQ(w.rc, 1) << w.out << w.err;
  EXPECT_GE(value_of(w.out, "k"), 2);
  // A (4,2) tile of an (m,n) matrix with row pitch p: B = (4,2):(1,m) picks rows 0..3 of
  // columns 0..1 in A's index space, A maps column j to offset p*j: (4,2):(1,p) for every
  // p (A's modes merge when p == m, a case split of coalesce_x).
  ++g_cases;
  const ProveRun t = prove("composition((m,n):(1,p), (4,2):(1,m)) == (4,2):(1,p)",
                           {"m in [4,4096]", "n in [2,4096]", "p in [1,16777216]"});
  EXPECT_EQ(t.rc, 0) << t.out << t.err;
}

// concrete_sides: a claim's two sides at given values (cuteref prove --draw pictures them).
TEST(Prove, ConcreteSides) {
  ++g_cases;
  // a = 2, b = 3: (2,3):(1,3) does not merge (2*1 != 3); (a*b):1 is 6:1.
  const auto [lhs, rhs] = cuteref::proofs::concrete_sides("coalesce((a,b):(1,b)) == (a*b):1", {{"a", 2}, {"b", 3}});
  EXPECT_EQ(lhs.to_string(), "(2,3):(1,3)");
  EXPECT_EQ(rhs.to_string(), "6:1");
  ++g_cases;
  EXPECT_THROW(cuteref::proofs::concrete_sides("coalesce((a,b):(1,b)) == (a*b):1", {{"a", 2}}), cuteref::Error);
}

TEST(Prove, CountsCases) {
  std::cout << "[ prove ] " << g_cases << " claims checked\n";
  EXPECT_GT(g_cases, 0u);
}

// Each symbolic form is registered under the name of a function of the model's table (one
// registration per function: lang/function_table.hpp holds its concrete implementation).
TEST(ProveCommand, SymbolicFormsNameTheModelsFunctions) {
  std::size_t checked = 0;
  for (const auto& [name, f] : cuteref::proofs::symbolic_functions()) {
    EXPECT_NE(cuteref::standard_functions().find(name), nullptr) << name;
    EXPECT_FALSE(f.forms.empty()) << name;
    ++checked;
  }
  EXPECT_GE(checked, 20u);
  std::printf("symbolic forms checked: %zu\n", checked);
}

}  // namespace prove_command_test
