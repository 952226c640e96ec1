// Regression tests of issue 17 (hostile input) at the command line: each reproducer once
// crashed (a signal), hung, or was silently accepted; each now ends with the exit status and
// the diagnostic's key words asserted here (never a timing).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "cli_run.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace cli_hardening_test {

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
// the limit; `--smt2 ''` was ignored. Usage errors exit 64; the verdicts keep 0, 1, 2.
TEST(CliHardening, ProveUsageErrorsExit64) {
  struct Case {
    const char* args;
    const char* needle;
  } cases[] = {
      {"prove", "usage: cuteref prove"},
      {"prove 'x == x' --frob", "unknown option '--frob'"},
      {"prove 'x == x' 'y == y'", "more than one claim"},
      {"prove -- 'x == x' 'y == y'", "more than one claim"},
      {"prove --", "usage: cuteref prove"},
      {"prove 'x == x' --timeout", "--timeout needs a value"},
      {"prove 'x == x' --where", "--where needs a value"},
      // An empty FILE was taken for no --smt2 at all, silently.
      {"prove --smt2 '' 'x == x'", "--smt2 needs a file name, got ''"},
      {"prove 'x == x' --timeout 0", "--timeout '0': out of range"},
      {"prove 'x == x' --timeout -1", "--timeout '-1': not a decimal number"},
      {"prove 'x == x' --timeout nan", "--timeout 'nan': not a decimal number"},
      {"prove 'x == x' --timeout inf", "--timeout 'inf': not a decimal number"},
      {"prove 'x == x' --timeout 1e30", "--timeout '1e30': not a decimal number"},
      {"prove 'x == x' --timeout 4294968", "--timeout '4294968': out of range"},
      {"prove 'x == x' --timeout 1abc", "--timeout '1abc': not a decimal number"},
      {"prove 'x == x' --where 'x in [0,1]' --where 'x in [0,2]'", "--where names 'x' twice"},
      {"prove 'x +'", "column 3: expected an operand after '+'"},
      {"prove 'x + 1'", "the claim must have the form EXPR == EXPR"},
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
  // `--` ends the options, so a claim may start with '-': --x is x (two unary minuses).
  EXPECT_EQ(run_cli("prove --where 'x in [0,4]' -- '--x == x'").exit_code, 0);
  EXPECT_EQ(run_cli("prove -- '-x == x'").exit_code, 1);  // x = 1: -1 != 1
  EXPECT_EQ(run_cli("prove 'x + 1 == 1 + x'").exit_code, 1);
  std::string sum = "x";
  for (int i = 1; i < 30000; ++i) sum += "+x";
  const RunResult t = run_cli("prove " + quote(sum + " == x") + " --timeout 0.001");
  EXPECT_EQ(t.exit_code, 2);
  EXPECT_TRUE(contains(t.out, "unknown: timeout: the time limit of 1 ms was reached")) << t.out;
}

// Write failures (stdout is /dev/full) exited 0; read failures (`batch < /`) exited 0 with no
// diagnostic. Both exit 74 (EX_IOERR) with one.
TEST(CliHardening, ReadAndWriteFailuresExit74) {
  const RunResult dir = run_cli("batch", "", "/");
  EXPECT_EQ(dir.exit_code, 74);
  EXPECT_TRUE(contains(dir.err, "error: cannot read the input: Is a directory")) << dir.err;
  const std::string write_error = "error: cannot write the output: No space left on device";
  for (const char* args : {"eval 'size(8:1)'", "batch", "--help", "describe '(1@0, 1@1)'", "prove 'x == x'"}) {
    const RunResult r = run_cli(args, "size(8:1)\n", "", "/dev/full");
    EXPECT_EQ(r.exit_code, 74) << args << ": " << r.err;
    EXPECT_TRUE(contains(r.err, write_error)) << args << ": " << r.err;
  }
  const std::string file = temp_path("full.txt");
  std::ofstream(file) << "size(8:1) => 8\n";
  const RunResult c = run_cli("check " + quote(file), "", "", "/dev/full");
  EXPECT_EQ(c.exit_code, 74);
  EXPECT_TRUE(contains(c.err, write_error)) << c.err;
}

// A 50 MB batch line ended in std::bad_alloc and the lines after it were lost. A line is read
// to its end but at most 1 MiB of it is kept: it gets one diagnostic line, the next is answered.
TEST(CliHardening, BatchLineLengthIsBounded) {
  const std::size_t n = 50u << 20;
  const RunResult r = run_cli("batch", "(" + std::string(n, '1') + ")\nsize(8:1)\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto out = lines(r.out);
  ASSERT_EQ(out.size(), 2u) << r.out.substr(0, 300);
  EXPECT_EQ(out[0], "error: the line is 52428802 bytes, longer than the limit of 1048576 bytes");
  EXPECT_EQ(out[1], "8");
  // 1 MiB is accepted (a CR before the newline does not count): 1,048,575 blanks and 1.
  const RunResult ok = run_cli("batch", std::string((1u << 20) - 1, ' ') + "1\r\n");
  EXPECT_EQ(ok.out, "1\n");
}

// NUL and raw control bytes went into diagnostics as they were (a NUL cut the message short).
// They are written \xNN; no answer line holds a control byte.
TEST(CliHardening, ControlBytesAreEscapedInDiagnostics) {
  static const char input[] = "size(8:1)\n\0abc\n(\x01\n\x1b[31m\nsize(4:1)";
  const RunResult r = run_cli("batch", std::string(input, sizeof input - 1));
  EXPECT_EQ(r.exit_code, 0);
  const auto out = lines(r.out);
  ASSERT_EQ(out.size(), 5u) << r.out;
  EXPECT_EQ(out[0], "8");
  EXPECT_TRUE(contains(out[1], "error: column 1: expected an integer, '_', '(' or a name, found '\\x00'")) << out[1];
  EXPECT_TRUE(contains(out[2], "error: column 2: expected an integer, '_', '(' or a name, found '\\x01'")) << out[2];
  EXPECT_TRUE(contains(out[3], "found '\\x1b'")) << out[3];
  EXPECT_EQ(out[4], "4");  // the last line has no newline: still a line
  for (const char c : r.out) EXPECT_TRUE(c == '\n' || (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f));
  // The command line too: eval, an unknown command, an unknown prove option.
  const RunResult e = run_cli("eval " + quote("(\x02"));
  EXPECT_TRUE(contains(e.err, "found '\\x02'")) << e.err;
  EXPECT_TRUE(contains(run_cli(quote("\x07")).err, "unknown command '\\x07'"));
  EXPECT_TRUE(contains(run_cli("prove 'x == x' " + quote("--\x1b")).err, "unknown option '--\\x1b'"));
  // A lone byte of a UTF-8 character (the first of U+FF18's three) is escaped too; the whole
  // character, quoted in a message, stays.
  const RunResult wide = run_cli("eval " + quote("\xef\xbc\x98:1"));
  EXPECT_EQ(wide.exit_code, 1);
  EXPECT_TRUE(contains(wide.err, "found '\\xef'")) << wide.err;
  for (const char c : wide.err)  // ASCII only: the message quotes nothing else
    EXPECT_TRUE(c == '\n' || (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f)) << wide.err;
  const RunResult named = run_cli("prove " + quote("x == x") + " " + quote("--\xc3\xa9"));
  EXPECT_TRUE(contains(named.err, "unknown option '--\xc3\xa9'")) << named.err;
}

// `batch` keeps exactly one output line per input line, whatever a line does.
TEST(CliHardening, BatchAnswersEveryLineOnce) {
  std::string in;
  in += "\n";                                    // empty: a diagnostic
  in += "\r\n";                                  // only CR: empty, a diagnostic
  in += std::string(300, '(') + "\n";            // nested too deep
  in += "idx2crd(5, (0,4))\n";                   // once SIGFPE
  in += std::string("a\0b", 3) + "\n";           // NUL
  in += "(" + std::string(2u << 20, '1') + ")\n";  // too long
  in += "size(8:1)\r\n";                         // CRLF
  in += "4:1";                                   // no final newline
  const RunResult r = run_cli("batch", in);
  EXPECT_EQ(r.exit_code, 0);
  const auto out = lines(r.out);
  ASSERT_EQ(out.size(), 8u) << r.out.substr(0, 2000);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(out[i].rfind("error: ", 0), 0u) << i << ": " << out[i];
  EXPECT_EQ(out[6], "8");
  EXPECT_EQ(out[7], "4:1");
}

// 25 KB of input printed 15 MB. A printed value is at most 1 MiB of text: make_basis_like of a
// shape 250 levels deep with 4,000 leaves has 4,000 bases of 250 indices each (2 MB of text).
TEST(CliHardening, ResultTextIsBounded) {
  std::string shape = std::string(250, '(');
  for (int i = 0; i < 4000; ++i) shape += i ? ",2" : "2";
  shape += std::string(250, ')');
  const RunResult r = run_cli("eval " + quote("make_basis_like(" + shape + ")"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "error: the result's text is longer than the limit of 1048576 bytes")) << r.err.substr(0, 300);
  // A part of it prints: its rank, 1 (the outermost tuple has one element).
  EXPECT_EQ(run_cli("eval " + quote("rank(make_basis_like(" + shape + "))")).out, "_1\n");
}

// Diagnostics echo their operands; beyond 8 KiB the middle is left out, with a count.
TEST(CliHardening, DiagnosticsAreShortened) {
  std::string modes;
  for (int i = 0; i < 3000; ++i) modes += i ? ",4" : "4";
  const RunResult r = run_cli("eval " + quote("complement((" + modes + "):(" + modes + "))"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_LT(r.err.size(), 8300u);
  EXPECT_TRUE(contains(r.err, " bytes left out] ... ")) << r.err.substr(0, 300);
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u);
}

// Out of memory in one batch line (here under a 400 MB address-space limit) is that line's
// diagnostic; the next line is answered. The line: make_basis_like of a shape 251 levels deep
// with 120 x 4096 leaves (under 1 MiB of text), a basis of 251 indices per leaf (~500 MB).
// Skipped where the binary cannot start under such a limit at all (AddressSanitizer reserves
// terabytes of address space), which a probe run tells.
TEST(CliHardening, BatchOutOfMemoryIsOneLine) {
  const char* bin = std::getenv("CUTEREF_BIN");
  ASSERT_NE(bin, nullptr);
  const std::string limit = "ulimit -v 400000; ";
  const std::string probe = "(" + limit + quote(bin) + " eval 1 > /dev/null 2>&1)";
  if (std::system(probe.c_str()) != 0) GTEST_SKIP() << "cuteref does not start under `" << limit << "` (a sanitizer?)";
  std::string group = "(";
  for (int i = 0; i < 4096; ++i) group += i ? ",2" : "2";
  group += ")";
  std::string shape = std::string(250, '(') + "(";
  for (int i = 0; i < 120; ++i) shape += (i ? "," : "") + group;
  shape += ")" + std::string(250, ')');
  const std::string file = temp_path("oom.txt");
  std::ofstream(file) << "make_basis_like(" << shape << ")\nsize(8:1)\n";
  const std::string out = temp_path("oom_out.txt");
  const std::string cmd = "(" + limit + quote(bin) + " batch < " + quote(file) + " > " + quote(out) + ")";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const auto got = lines(read_file(out));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], "error: out of memory evaluating this expression");
  EXPECT_EQ(got[1], "8");
}

// `check` read `=> error...` loosely (`=> errors`, `=> error` and `=> error:` with nothing
// after it matched any diagnostic) and a line with two `| claimed:` kept the second in the
// first's text; a claim after `error:` was dropped. Each is now a malformed case or a verdict.
TEST(CliHardening, CheckParsesCasesStrictly) {
  const std::string file = temp_path("strict.txt");
  std::ofstream(file) << "size((0,4)) => error\n"                          // 1: no ':'
                         "size((0,4)) => errors: not positive\n"           // 2: not 'error:'
                         "size((0,4)) => error:\n"                         // 3: empty substring
                         "size((0,4)) => error:   \n"                      // 4: blank substring
                         "size(8:1) => 8 | claimed: 8 | claimed: 9\n"      // 5: two claims
                         "size(8:1) => 8 => 8\n"                           // 6: two '=>'
                         "size(8:1) => 8 | claimed:\n"                     // 7: empty claim
                         " => 8\n"                                         // 8: no expression
                         "size(8:1) =>\n"                                  // 9: nothing after '=>'
                         "size((0,4)) => error: not positive | claimed: 0\n"  // 10: claim refuted
                         "size(8:1) => 8 | claimed: 8\n";                  // 11: claim agrees
  const RunResult r = run_cli("check " + quote(file));
  EXPECT_EQ(r.exit_code, 1);
  const std::string malformed = ": FAIL malformed case (";
  EXPECT_TRUE(contains(r.out, ":1" + malformed + "expected 'error: SUBSTRING'")) << r.out;
  EXPECT_TRUE(contains(r.out, ":2" + malformed + "expected 'error: SUBSTRING' (a non-empty part of the diagnostic), got 'errors: not positive'")) << r.out;
  EXPECT_TRUE(contains(r.out, ":3" + malformed + "expected 'error: SUBSTRING'")) << r.out;
  EXPECT_TRUE(contains(r.out, ":4" + malformed + "expected 'error: SUBSTRING'")) << r.out;
  EXPECT_TRUE(contains(r.out, ":5" + malformed + "more than one '| claimed:'")) << r.out;
  EXPECT_TRUE(contains(r.out, ":6" + malformed + "more than one '=>'")) << r.out;
  EXPECT_TRUE(contains(r.out, ":7" + malformed + "'| claimed:' with nothing after it")) << r.out;
  EXPECT_TRUE(contains(r.out, ":8" + malformed + "no expression before '=>'")) << r.out;
  EXPECT_TRUE(contains(r.out, ":9" + malformed + "nothing after '=>'")) << r.out;
  EXPECT_TRUE(contains(r.out, ":10: claim refuted: size((0,4)): claimed 0, correct: a diagnostic (")) << r.out;
  EXPECT_TRUE(contains(r.out, ":11: claim agrees: size(8:1) = 8")) << r.out;
  EXPECT_TRUE(contains(r.out, "11 cases checked: 2 passed, 9 failed")) << r.out;
  EXPECT_TRUE(contains(r.out, "seed claims: 1 agree, 1 refuted")) << r.out;
}

// Directory walks skipped FIFOs and dangling links silently (and a FIFO named on the command
// line was said not to exist). They are reported, and the run fails as an unreadable input (74).
TEST(CliHardening, CheckReportsWhatItCannotRead) {
  const std::string dir = temp_path("walk");
  std::system(("rm -rf " + quote(dir) + " && mkdir -p " + quote(dir + "/sub")).c_str());
  std::ofstream(dir + "/good.txt") << "size(8:1) => 8\n";
  std::ofstream(dir + "/notes.md") << "not a corpus file: skipped by design\n";
  ASSERT_EQ(std::system(("mkfifo " + quote(dir + "/pipe.txt")).c_str()), 0);
  ASSERT_EQ(std::system(("ln -s " + quote(dir + "/missing.txt") + " " + quote(dir + "/dangling.txt")).c_str()), 0);
  ASSERT_EQ(std::system(("ln -s " + quote(dir + "/sub") + " " + quote(dir + "/linked")).c_str()), 0);
  const RunResult r = run_cli("check " + quote(dir));
  EXPECT_EQ(r.exit_code, 74);  // a path that cannot be read: EX_IOERR
  EXPECT_TRUE(contains(r.out, "pipe.txt: FAIL a FIFO")) << r.out;
  EXPECT_TRUE(contains(r.out, "dangling.txt: FAIL a dangling symbolic link")) << r.out;
  EXPECT_TRUE(contains(r.out, "linked: FAIL a symbolic link to a directory (not followed")) << r.out;
  EXPECT_TRUE(contains(r.out, "1 cases checked: 1 passed, 0 failed")) << r.out;
  EXPECT_TRUE(contains(r.out, "corpus: 3 path(s) could not be read")) << r.out;
  EXPECT_FALSE(contains(r.out, "notes.md")) << r.out;
  const RunResult fifo = run_cli("check " + quote(dir + "/pipe.txt"));
  EXPECT_EQ(fifo.exit_code, 74);
  EXPECT_TRUE(contains(fifo.err, "is a FIFO, not a corpus file or directory")) << fifo.err;
  std::system(("rm -rf " + quote(dir)).c_str());
}

// NUL and control bytes of a corpus file reach the report escaped.
TEST(CliHardening, CheckEscapesControlBytes) {
  const std::string file = temp_path("control.txt");
  std::ofstream(file, std::ios::binary) << std::string("size(8:1)\x1b[2J => 9\nsize(\0) => 1\n", 32);
  const RunResult r = run_cli("check " + quote(file));
  EXPECT_EQ(r.exit_code, 1);
  for (const char c : r.out) EXPECT_TRUE(c == '\n' || (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f));
  EXPECT_TRUE(contains(r.out, "\\x1b[2J")) << r.out;
  EXPECT_TRUE(contains(r.out, "size(\\x00)")) << r.out;
}

}  // namespace cli_hardening_test
