// Tests of the command-line contract (DESIGN.md "The command-line contract"): runs the built
// `cuteref` binary (path in $CUTEREF_BIN, set by meson) through the shell and checks its
// output lines and exit codes. Expected values are derived by hand (comments per case).
#include <unistd.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "function_table.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace cli_test {

using namespace cuteref;
using namespace cuteref::test;

namespace {

RunResult eval(const std::string& expr) { return run_cli("eval " + quote(expr)); }

}  // namespace

TEST(Cli, EvalPrintsCuTeNotation) {
  struct Case {
    const char* expr;
    const char* want;
  } cases[] = {
      // size((2,2),3) = 12 (dynamic leaves print without '_').
      {"size(((2,2),3):((1,4),8))", "12\n"},
      // (4,3):(1,4) at (2,1) = 2 + 4 = 6.
      {"(4,3):(1,4)((2,1))", "6\n"},
      // make_layout((4,3)) = (4,3):(_1,4) (CuTe's printing: first stride static _1).
      {"make_layout((4,3))", "(4,3):(_1,4)\n"},
      {"make_layout((4,3), LayoutRight)", "(4,3):(3,_1)\n"},
      // Static leaves keep their '_': coalesce((_2,_4):(_1,_2)) = _8:_1.
      {"coalesce((_2,_4):(_1,_2))", "_8:_1\n"},
      // Slicing drops the offset, slice_and_offset keeps it: (4,3,2):(1,4,12) at (_,_,1).
      {"(4,3,2):(1,4,12)(_,_,1)", "(4,3):(1,4)\n"},
      {"slice_and_offset((_,_,1), (4,3,2):(1,4,12))", "((4,3):(1,4),12)\n"},
      // idx2crd(7, (2,(2,2))): 7 = 1 + 2*(1 + 2*1).
      {"idx2crd(7, (2,(2,2)))", "(1,(1,1))\n"},
      // Functional equality: (4,3):(1,4) and 12:1 are the same function.
      {"(4,3):(1,4) == 12:1", "true\n"},
      // Swizzle application: Sw<3,4,3> moves bits [7,10) onto [4,7): 896 = 0b1110000000 ->
      // 896 ^ (0b111 << 4) = 896 ^ 112 = 1008.
      {"Sw<3,4,3>(896)", "1008\n"},
  };
  for (const auto& c : cases) {
    RunResult r = eval(c.expr);
    EXPECT_EQ(r.exit_code, 0) << c.expr << ": " << r.err;
    EXPECT_EQ(r.out, c.want) << c.expr;
    EXPECT_EQ(r.err, "") << c.expr;
  }
}

TEST(Cli, EvalFalseComparisonNamesTheIndex) {
  // (2,4):(4,1) maps 1 -> 4; 8:1 maps 1 -> 1. The first difference is at index 1.
  RunResult r = eval("(2,4):(4,1) == 8:1");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "false")) << r.out;
  EXPECT_TRUE(contains(r.out, "index 1")) << r.out;
}

TEST(Cli, EvalErrorsExitOneWithADiagnostic) {
  struct Case {
    const char* expr;
    const char* needle;
  } cases[] = {
      {"(4,3", "column 1"},                     // unbalanced '(' at column 1
      {"foo(8:1)", "unknown function 'foo'"},   // unknown function
      {"size(8:1, 8:1)", "wrong number of arguments"},
      {"cosize((4,3))", "argument 1 must be a layout"},  // a tuple where a layout is needed
      {"coalesce(8:1, 2:1)", "argument 2 must be an integer or integer tuple"},
      {"mode((4,3):(1,4), 2)", "out of range"},
      {"size((4294967296,4294967296,4294967296):(1,1,1))", "overflow"},
      {"(4,3):(1)", "not congruent"},
      {"", "empty input"},
  };
  for (const auto& c : cases) {
    RunResult r = eval(c.expr);
    EXPECT_EQ(r.exit_code, 1) << c.expr;
    EXPECT_EQ(r.out, "") << c.expr;
    EXPECT_TRUE(contains(r.err, "error: ")) << c.expr << ": " << r.err;
    EXPECT_TRUE(contains(r.err, c.needle)) << c.expr << ": " << r.err;
  }
}

TEST(Cli, BatchPrintsOneLinePerInput) {
  // The DESIGN's example: `printf 'size(8:1)\n(\n' | cuteref batch` -> `8`, then an error line
  // with the column of the unbalanced '(' (column 1).
  RunResult r = run_cli("batch", "size(8:1)\n(\n");
  EXPECT_EQ(r.exit_code, 0);
  auto out = lines(r.out);
  ASSERT_EQ(out.size(), 2u) << r.out;
  EXPECT_EQ(out[0], "8");
  EXPECT_EQ(out[1].rfind("error: ", 0), 0u) << out[1];
  EXPECT_TRUE(contains(out[1], "column 1")) << out[1];
}

TEST(Cli, BatchKeepsGoingAfterErrorsAndHandlesBlankAndCrLfLines) {
  // 5 inputs -> 5 lines: an empty line is an error (empty input), CR is stripped.
  RunResult r = run_cli("batch", "rank((4,3,2):(1,4,12))\n\nfoo(1)\r\ncosize(8:2)\r\n(2,4):(4,1) == 8:1\n");
  EXPECT_EQ(r.exit_code, 0);
  auto out = lines(r.out);
  ASSERT_EQ(out.size(), 5u) << r.out;
  EXPECT_EQ(out[0], "_3");  // rank is a static count, as CuTe's rank
  EXPECT_EQ(out[1].rfind("error: ", 0), 0u);
  EXPECT_TRUE(contains(out[1], "empty input")) << out[1];
  EXPECT_TRUE(contains(out[2], "unknown function 'foo'")) << out[2];
  EXPECT_EQ(out[3], "15");  // 1 + 7*2
  EXPECT_EQ(out[4].rfind("false", 0), 0u) << out[4];
}

TEST(Cli, BatchSurvivesHostileInput) {
  // 200000 nested '(' and a 200000-long composition chain: one error line each, no crash.
  std::string chain;
  for (int i = 0; i < 200000; ++i) chain += "Sw<0,4,3> o ";
  RunResult r = run_cli("batch", std::string(200000, '(') + "\n" + chain + "8:1\nsize(8:1)\n");
  EXPECT_EQ(r.exit_code, 0);
  auto out = lines(r.out);
  ASSERT_EQ(out.size(), 3u) << r.out.substr(0, 500);
  EXPECT_TRUE(contains(out[0], "error: column 257: expression nested deeper")) << out[0];
  EXPECT_EQ(out[1].rfind("error: ", 0), 0u) << out[1];
  EXPECT_EQ(out[2], "8");
}

TEST(Cli, BatchWithNoInputPrintsNothing) {
  RunResult r = run_cli("batch", "");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
}

TEST(Cli, UsageErrors) {
  // A malformed command line exits 64 (sysexits' EX_USAGE), every command.
  RunResult none = run_cli("");
  EXPECT_EQ(none.exit_code, 64);
  EXPECT_TRUE(contains(none.err, "Commands:")) << none.err;
  RunResult unknown = run_cli("frobnicate");
  EXPECT_EQ(unknown.exit_code, 64);
  EXPECT_TRUE(contains(unknown.err, "unknown command 'frobnicate'")) << unknown.err;
  RunResult eval_noarg = run_cli("eval");
  EXPECT_EQ(eval_noarg.exit_code, 64);
  EXPECT_TRUE(contains(eval_noarg.err, "usage")) << eval_noarg.err;
  RunResult missing = run_cli("check /nonexistent/corpus");
  EXPECT_EQ(missing.exit_code, 74);  // an unreadable input: EX_IOERR
  EXPECT_TRUE(contains(missing.err, "does not exist")) << missing.err;
}

TEST(Cli, HelpListsEveryCommandAndFunction) {
  RunResult r = run_cli("--help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* cmd : {"cuteref eval", "cuteref batch", "cuteref check", "cuteref verify", "cuteref --help"})
    EXPECT_TRUE(contains(r.out, cmd)) << cmd;
  int functions = 0;
  for (const auto& [name, spec] : standard_functions().all()) {
    if (name.rfind("__", 0) == 0) continue;
    EXPECT_TRUE(contains(r.out, "  " + name + "(")) << name;
    ++functions;
  }
  // The foundation's functions, named in DESIGN.md, are all there.
  for (const char* name : {"size", "cosize", "rank", "depth", "shape", "stride", "mode", "select", "flatten",
                           "coalesce", "filter_zeros", "filter", "make_layout", "make_ordered_layout", "crd2idx",
                           "idx2crd", "slice_and_offset"})
    EXPECT_TRUE(contains(r.out, std::string("  ") + name + "(")) << name;
  std::printf("[cli] help lists %d functions\n", functions);
}

TEST(Cli, CheckRunsACorpusFile) {
  const std::string dir = ::testing::TempDir();
  const std::string good = dir + "cli_good.txt", bad = dir + "cli_bad.txt";
  // 12:1 and (4,3):(1,4) are the same function; the claim 8:1 for (2,4):(4,1) is refuted.
  std::ofstream(good) << "# comment\n(4,3):(1,4) => 12:1\ncoalesce((2,4):(4,1)) => (2,4):(4,1) | claimed: 8:1\n"
                         "size((4294967296,4294967296,4294967296):(1,1,1)) => error: overflow\n";
  std::ofstream(bad) << "size(8:1) => 9\n";
  RunResult g = run_cli("check " + quote(good));
  EXPECT_EQ(g.exit_code, 0) << g.out;
  EXPECT_TRUE(contains(g.out, "3 cases checked: 3 passed, 0 failed")) << g.out;
  EXPECT_TRUE(contains(g.out, "seed claims: 0 agree, 1 refuted")) << g.out;
  RunResult b = run_cli("check " + quote(bad));
  EXPECT_EQ(b.exit_code, 1) << b.out;
  EXPECT_TRUE(contains(b.out, "FAIL")) << b.out;
}

// `cuteref banks`: the readable report names the colliding threads of each phase (a row-major
// 64-half-wide tile read by ldmatrix.x4: each matrix's 8 rows are 128 bytes apart, all in bank 0..3),
// the instruction in smem_wavefronts agrees, and a bad instruction is a diagnostic.
TEST(Cli, BanksReportsCollisions) {
  const RunResult r = run_cli("banks ldmatrix.x4 " + quote("(32,8):(64,1)") + " 16");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ldmatrix.x4: 32 wavefronts (ideal 4, 28 extra from bank conflicts)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("phase 1 (t8-t15): 8 wavefronts; bank 0 holds 8 distinct words: [byte 1024: t8]"), std::string::npos) << r.out;
  EXPECT_EQ(eval("smem_wavefronts(ldmatrix.x4, (32,8):(64,1), 16)").out, "32\n");
  const RunResult bad = run_cli("banks ldmatrix.x3 " + quote("(32,8):(64,1)") + " 16");
  EXPECT_EQ(bad.exit_code, 64);  // INSTR is an argument of the command line: EX_USAGE
  EXPECT_NE(bad.err.find("not a known shared-memory instruction"), std::string::npos) << bad.err;
}

// `cuteref synth`: the register report's first word is the answer (an f32 WGMMA accumulator is
// the RS atom's 16-bit A operand: identity); the swizzle report names the chosen member, the
// family's size (721 = 1 + 2 * 9 * (10 + 9 + 8 + 7 + 6)) and that the ideal is reached (ldmatrix.x4
// at rows of a 64-half row-major tile: Sw<3,4,3>, 4 wavefronts); both are proved with Z3 (the
// register claim, and the certificate that no member of the family does better); with TMA the
// family is the 4 modes; a malformed command line exits 64, a bad operand 1 with the diagnostic.
TEST(Cli, SynthReports) {
  const RunResult r = run_cli("synth registers SM90_64x64x16_F32F16F16_SS C SM90_64x64x16_F32F16F16_RS A");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("identity: ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("proof of the claim: proved ("), std::string::npos) << r.out;
  const RunResult s = run_cli("synth swizzle " + quote("(32,8):(64,1)") + " ldmatrix.x4 16");
  EXPECT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find(": Sw<3,4,3> o smem_ptr[16b](unset) o (32,8):(64,1)\n"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("total wavefronts 4 (ideal 4, unswizzled 32)"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("721 members"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("no layout at all does better"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("certificate (Z3, the model's generic wavefront count on a symbolic member, 256 (lane, value) byte addresses): proved\n"),
            std::string::npos) << s.out;
  EXPECT_NE(s.out.find("    proved: every member (B,M,S) of the family, symbolic, that keeps every element and access whole has total >= 4 ("),
            std::string::npos) << s.out;
  const RunResult t = run_cli("synth swizzle " + quote("(32,8):(64,1)") + " ldmatrix.x4 16 TMA --no-proof");
  EXPECT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find(": 4 members, "), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("certificate: not proved (--no-proof)"), std::string::npos) << t.out;
  const RunResult help = run_cli("synth --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.out.rfind("usage: cuteref synth swizzle", 0), 0u) << help.out;
  EXPECT_EQ(run_cli("synth swizzle " + quote("(32,8):(64,1)") + " ldmatrix.x4 16 --timeout").exit_code, 64);
  EXPECT_EQ(run_cli("synth swizzle " + quote("(32,8):(64,1)") + " ldmatrix.x4 16 --timeout -1").exit_code, 64);
  EXPECT_EQ(run_cli("synth").exit_code, 64);
  EXPECT_EQ(run_cli("synth registers SM90_64x64x16_F32F16F16_SS C").exit_code, 64);
  EXPECT_EQ(run_cli("synth other x y").exit_code, 64);
  const RunResult bad = run_cli("synth registers SM90_64x64x16_F32F16F16_SS A SM90_64x64x16_F32F16F16_RS A");
  EXPECT_EQ(bad.exit_code, 64);  // operands the model rejects; 1 is a refuted proof
  EXPECT_NE(bad.err.find("read from shared memory through a descriptor"), std::string::npos) << bad.err;
}

}  // namespace cli_test
