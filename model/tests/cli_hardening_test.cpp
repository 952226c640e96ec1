// Regression tests of issue 17 (hostile input) at the command line: each reproducer once
// crashed (a signal), hung, or was silently accepted; each now ends with the exit status and
// the diagnostic's key words asserted here (never a timing).
#include <gtest/gtest.h>

#include <string>

#include "cli_run.hpp"

using namespace cuteref::test;

namespace {

// Every exit below is a normal exit (run_cli throws on a signal); these are its statuses.
constexpr int kUsage = 64;  // EX_USAGE: the command line is malformed

}  // namespace

// SIGFPE in idx2crd / crd2idx on a zero or negative extent, through every command.
TEST(CliHardening, ZeroExtentThroughEveryCommand) {
  const RunResult e = run_cli("eval " + quote("idx2crd(5, (0,4))"));
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_TRUE(contains(e.err, "error: column 1: idx2crd: shape (0,4) has the leaf 0, which is not positive")) << e.err;

  // batch: one line per input line, and the lines after it are answered.
  const RunResult b = run_cli("batch", "idx2crd(5, (0,4))\ncrd2idx(5, (0,4), (1,1))\nidx2crd(-9223372036854775808, (-1,4))\nsize(8:1)\n");
  EXPECT_EQ(b.exit_code, 0);
  const auto out = lines(b.out);
  ASSERT_EQ(out.size(), 4u) << b.out;
  EXPECT_TRUE(contains(out[0], "error: column 1: idx2crd: shape (0,4)")) << out[0];
  EXPECT_TRUE(contains(out[1], "error: column 1: crd2idx: shape (0,4)")) << out[1];
  EXPECT_TRUE(contains(out[2], "error: column 1: idx2crd: shape (-1,4) has the leaf -1")) << out[2];
  EXPECT_EQ(out[3], "8");

  // check: the case fails with the diagnostic; a case expecting it passes.
  const std::string file = temp_path("zero_extent.txt");
  std::ofstream(file) << "idx2crd(5, (0,4)) => 1\nidx2crd(5, (0,4)) => error: which is not positive\n";
  const RunResult c = run_cli("check " + quote(file));
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_TRUE(contains(c.out, "FAIL idx2crd(5, (0,4)): error: column 1: idx2crd: shape (0,4)")) << c.out;
  EXPECT_TRUE(contains(c.out, "2 cases checked: 1 passed, 1 failed")) << c.out;

}

// `prove` exited 2 for usage errors as for `unknown`; a bad --timeout was accepted or disabled
// the limit. Usage errors exit 64; the verdicts keep 0, 1, 2.
TEST(CliHardening, ProveUsageErrorsExit64) {
  struct Case {
    const char* args;
    const char* needle;
  } cases[] = {
      {"prove", "usage: cuteref prove"},
      {"prove 'x == x' --frob", "unknown option '--frob'"},
      {"prove 'x == x' 'y == y'", "more than one claim"},
      {"prove 'x == x' --timeout", "--timeout needs a value"},
      {"prove 'x == x' --where", "--where needs a value"},
      {"prove 'x == x' --timeout 0", "--timeout '0': out of range"},
      {"prove 'x == x' --timeout -1", "--timeout '-1': not a decimal number"},
      {"prove 'x == x' --timeout nan", "--timeout 'nan': not a decimal number"},
      {"prove 'x == x' --timeout inf", "--timeout 'inf': not a decimal number"},
      {"prove 'x == x' --timeout 1e30", "--timeout '1e30': not a decimal number"},
      {"prove 'x == x' --timeout 4294968", "--timeout '4294968': out of range"},
      {"prove 'x == x' --timeout 1abc", "--timeout '1abc': not a decimal number"},
      {"prove 'x == x' --where 'x in [0,1]' --where 'x in [0,2]'", "--where names 'x' twice"},
      {"prove 'x +'", "the claim must have the form EXPR == EXPR"},
      // A concrete side the model rejects (this one divided by zero: SIGFPE).
      {"prove 'idx2crd(5, (0,4)) == 1'", "idx2crd: shape (0,4) has the leaf 0, which is not positive"},
  };
  for (const auto& c : cases) {
    const RunResult r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, kUsage) << c.args << ": " << r.out << r.err;
    EXPECT_TRUE(contains(r.err, c.needle)) << c.args << ": " << r.err;
    EXPECT_EQ(r.out, "") << c.args;
  }
  // The verdicts: proved 0 (x == x), refuted 1 (x + 1 overflows at 2^63 - 1), unknown 2
  // (a timeout is unknown: 30,000 sums are not built in 1 ms).
  EXPECT_EQ(run_cli("prove 'x == x' --timeout 0.5").exit_code, 0);
  EXPECT_EQ(run_cli("prove 'x + 1 == 1 + x'").exit_code, 1);
  std::string sum = "x";
  for (int i = 1; i < 30000; ++i) sum += "+x";
  const RunResult t = run_cli("prove " + quote(sum + " == x") + " --timeout 0.001");
  EXPECT_EQ(t.exit_code, 2);
  EXPECT_TRUE(contains(t.out, "unknown: timeout: the time limit of 1 ms was reached")) << t.out;
}
