// `cuteref prove` on hostile requests (issue 17), in-process: each request once crashed (stack
// overflow, an uncaught exception), ran past its time limit, or was silently accepted; each
// now ends with the exit status and the diagnostic's key words asserted here (never a time).
#include <gtest/gtest.h>

#include <z3++.h>

#include <sstream>
#include <string>
#include <vector>

#include "claim.hpp"
#include "error.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace prove_hardening_test {

using namespace cuteref::proofs;

namespace {

struct ProveResult {
  int rc;
  std::string out, err;
};

ProveResult prove(const std::string& claim, std::vector<std::string> where = {}, double timeout_s = kDefaultProveTimeoutSeconds,
          bool leak = false) {
  ProveRequest r;
  r.claim = claim;
  r.where = std::move(where);
  r.timeout_s = timeout_s;
  r.leak_solver_context = leak;
  std::ostringstream out, err;
  const int rc = prove_command(r, out, err);
  return {rc, out.str(), err.str()};
}

std::string repeat(const std::string& s, int n) {
  std::string r;
  for (int i = 0; i < n; ++i) r += s;
  return r;
}

bool has(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }

}  // namespace

// ~800 nested parentheses, 1,000 nested Sw<3,4,3>(...), 10,000 unary minuses overflowed the
// claim evaluator's stack. At most 256 levels, as the expression language.
TEST(ProveHardening, NestingIsBounded) {
  const std::string deep = "expression nested deeper than 256 levels";
  const ProveResult parens = prove(repeat("(", 800) + "x" + repeat(")", 800) + " == x");
  EXPECT_EQ(parens.rc, kProveUsage);
  EXPECT_TRUE(has(parens.err, "error: column 257: " + deep)) << parens.err;
  const ProveResult sw = prove(repeat("Sw<3,4,3>(", 1000) + "x" + repeat(")", 1000) + " == x");
  EXPECT_EQ(sw.rc, kProveUsage);
  EXPECT_TRUE(has(sw.err, deep)) << sw.err;
  const ProveResult minus = prove("x == " + repeat("-", 10000) + "x");
  EXPECT_EQ(minus.rc, kProveUsage);
  EXPECT_TRUE(has(minus.err, deep)) << minus.err;
  // 100 levels are fine: (((x+0))) groups x+0, which is x, and - - x is x (by hand). ((x) is a
  // 1-tuple, as in CuTe, and would compare as a tuple.)
  EXPECT_EQ(prove(repeat("(", 100) + "x+0" + repeat(")", 100) + " == x", {"x in [0,100]"}).rc, kProveProved);
  EXPECT_EQ(prove("x == " + repeat("- ", 100) + "x", {"x in [0,100]"}).rc, kProveProved);
}

// A 30,000-character --where overflowed std::regex's recursion; a repeated --where for one
// variable silently replaced the first.
TEST(ProveHardening, WhereIsScannedAndUnique) {
  const ProveResult big = prove("x == x", {"x in [0," + std::string(30000, '1') + "]"});
  EXPECT_EQ(big.rc, kProveUsage);
  EXPECT_TRUE(has(big.err, "bound does not fit in 64 bits")) << big.err.substr(0, 300);
  // Blanks are allowed around the tokens, however many.
  EXPECT_EQ(prove("x == x", {"x in [0," + std::string(30000, ' ') + "1]"}).rc, kProveProved);
  const ProveResult twice = prove("x == x", {"x in [0,1]", "x in [2,3]"});
  EXPECT_EQ(twice.rc, kProveUsage);
  EXPECT_TRUE(has(twice.err, "--where names 'x' twice ('x in [0,1]' and 'x in [2,3]')")) << twice.err;
  for (const char* bad : {"x in [0,1", "x in[0,1]", "X in [0,1]", "x in [1,0]", "x in [0,1] y", "x in [--1,2]"}) {
    const ProveResult r = prove("x == x", {bad});
    EXPECT_EQ(r.rc, kProveUsage) << bad;
    EXPECT_TRUE(has(r.err, "error: --where '")) << bad << ": " << r.err;
  }
  // The extremes of int64 are bounds like any other: x - x == 0 for every int64 x.
  EXPECT_EQ(prove("x - x == 0", {"x in [-9223372036854775808,9223372036854775807]"}).rc, kProveProved);
}

// --timeout 0, negative, nan, inf, 1e30 disabled the limit, 4294968 wrapped, 1abc was accepted.
TEST(ProveHardening, TimeoutIsAStrictFiniteNumberInRange) {
  for (const char* bad : {"0", "-1", "nan", "inf", "1e30", "1abc", "", " 1", "0x10", "0.0004", "4294968", "86400.5"}) {
    try {
      parse_timeout_seconds(bad);
      ADD_FAILURE() << "accepted --timeout '" << bad << "'";
    } catch (const cuteref::Error& e) {
      EXPECT_TRUE(has(e.what(), "a decimal number of seconds in [0.001, 86400]")) << e.what();
    }
  }
  EXPECT_EQ(parse_timeout_seconds("0.001"), 0.001);
  EXPECT_EQ(parse_timeout_seconds("1.5"), 1.5);
  EXPECT_EQ(parse_timeout_seconds("86400"), 86400.0);
  // An API caller gets the same range.
  const ProveResult zero = prove("x == x", {}, 0);
  EXPECT_EQ(zero.rc, kProveUsage);
  EXPECT_TRUE(has(zero.err, "the time limit must be in [0.001, 86400] seconds")) << zero.err;
  // The default is a limit: 60 s.
  EXPECT_EQ(ProveRequest{}.timeout_s, 60.0);
}

// --timeout bounded only the last solver call: a 3,000-term claim with --timeout 1 ran 9 s.
// The limit now covers building the queries: 30,000 sums (more than 20 s of building on the
// development machine) end as `unknown: timeout ... while building a query` under a 1 ms limit.
// (The context is left allocated: freeing a 30,000-deep term takes Z3 4.8 minutes.)
TEST(ProveHardening, TimeoutCoversBuildingTheQuery) {
  std::string sum = "x";
  for (int i = 1; i < 30000; ++i) sum += "+x";
  const ProveResult r = prove(sum + " == x", {}, 0.001, /*leak=*/true);
  EXPECT_EQ(r.rc, kProveUnknown) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "unknown: timeout: the time limit of 1 ms was reached while building a query")) << r.out;
}

// A claim that exhausted Z3's memory ended in an uncaught z3::exception (abort). Z3's memory
// limit (a global parameter, restored below) makes it happen here with 64 MB.
TEST(ProveHardening, OutOfMemoryIsADiagnostic) {
  std::string sum = "x";
  for (int i = 1; i < 30000; ++i) sum += "+x";
  z3::set_param("memory_max_size", 64);
  const ProveResult r = prove(sum + " == x", {}, 600, /*leak=*/true);
  z3::set_param("memory_max_size", 0);
  EXPECT_EQ(r.rc, kProveFailure) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "error: Z3 failed: out of memory")) << r.err;
}

// A claim longer than 1 MiB is refused before it is read.
TEST(ProveHardening, ClaimTextIsBounded) {
  const ProveResult r = prove("x == x" + std::string(std::size_t{1} << 20, ' '));
  EXPECT_EQ(r.rc, kProveUsage);
  EXPECT_TRUE(has(r.err, "the claim is 1048582 bytes, longer than the limit of 1048576 bytes")) << r.err;
}

// In a claim, `smem_ptr` and its flag `unset` were taken for free variables, so a claim about
// GMMA-style composed layouts was `unknown`. They are the vendor's pointer token.
// Sw<3,4,3> on the bytes of 16-bit elements is Sw<3,3,3> on element offsets: x ^ (bits [6,9)
// of x, moved to [3,6)). (8,64):(64,1) maps i to (i % 8) * 64 + i / 8, (8,64):(1,8) to i.
TEST(ProveHardening, SmemPointerFlagIsNoVariable) {
  const std::string a = "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)";
  EXPECT_EQ(prove(a + " == " + a).rc, kProveProved);
  const ProveResult r = prove(a + " == Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(1,8)");
  ASSERT_EQ(r.rc, kProveRefuted) << r.out << r.err;
  const auto at = r.out.find("index = ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::int64_t i = std::stoll(r.out.substr(at + 8));
  auto sw = [](std::int64_t x) { return x ^ (((x >> 6) & 7) << 3); };
  const std::int64_t lhs = sw((i % 8) * 64 + i / 8), rhs = sw(i);
  EXPECT_NE(lhs, rhs) << i;
  EXPECT_TRUE(has(r.out, "lhs(" + std::to_string(i) + ") = " + std::to_string(lhs) + ", rhs(" + std::to_string(i) +
                             ") = " + std::to_string(rhs)))
      << r.out;
}

// An atom's template arguments (`half_t`, `float`) were taken for free variables, so the claim
// language stumbled at the '<' ("expected ',' between arguments", 64) where EXPR reads the atom.
// They are part of the atom's name, with or without blanks, on a side with variables or without.
// CuTe's SM100 F16BF16 traits: Shape_MNK (M, N, 256 / 16) = (128, 256, 16); the C layout is
// (_1,(M,N)), 128 * 256 = 32,768 elements.
TEST(ProveHardening, AtomTemplateArgumentsAreNoVariables) {
  const std::string atom = "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>";
  const ProveResult shape = prove("mma_shape(" + atom + ") == (128,256,16)");
  EXPECT_EQ(shape.rc, kProveProved) << shape.out << shape.err;
  EXPECT_TRUE(has(shape.out, "for: no variable (a concrete claim)")) << shape.out;
  const std::string spaced = "SM100_MMA_F16BF16_SS <half_t, half_t, float, 128, 256, K, K>";
  const ProveResult size = prove("size(mma_layout(" + spaced + ", C)) * a == 32768 * a", {"a in [1,4]"});
  EXPECT_EQ(size.rc, kProveProved) << size.out << size.err;
  EXPECT_TRUE(has(size.out, "for: every a in [1, 4]")) << size.out;
  const ProveResult wrong = prove("size(mma_layout(" + atom + ", C)) * a == 32767 * a", {"a in [1,4]"});
  EXPECT_EQ(wrong.rc, kProveRefuted) << wrong.out << wrong.err;
  const ProveResult named = prove("mma_shape(" + atom + ") == (128,256,16)", {"half_t in [1,2]"});
  EXPECT_EQ(named.rc, kProveUsage);
  EXPECT_TRUE(has(named.err, "--where names 'half_t', which is not a variable of the claim")) << named.err;
}

}  // namespace prove_hardening_test
