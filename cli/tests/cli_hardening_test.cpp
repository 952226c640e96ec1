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
