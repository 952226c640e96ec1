// Regression tests of issue 27 at the command line: each command line below once crashed
// (SIGFPE), exited 2 or 1 where the README's contract names 64 (a malformed command line) or 74
// (an unreadable input, an unwritable output), or was accepted though meaningless. The expected
// statuses are the contract's; the diagnostics' key words name the precondition.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "cli_run.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace cli_exit_status_test {

using namespace cuteref::test;

namespace {

constexpr int kUsage = 64;  // EX_USAGE: the command line is malformed
constexpr int kIo = 74;     // EX_IOERR: an input cannot be read or an output written

struct Case {
  const char* args;
  int exit_code;
  const char* needle;  // in stderr
};

// Runs every case; each must exit normally (run_cli throws on a signal) with its status and
// diagnostic, and print nothing on stdout. Returns the number checked.
int check_cases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    const RunResult r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args << ": " << r.out << r.err;
    EXPECT_TRUE(contains(r.err, c.needle)) << c.args << ": " << r.err;
    EXPECT_EQ(r.out, "") << c.args;
  }
  return static_cast<int>(cases.size());
}

bool exists(const std::string& path) { return static_cast<bool>(std::ifstream(path)); }

}  // namespace

// --tile with an empty mode divided by zero (SIGFPE, exit 136), for a layout and a TV layout;
// a negative extent sized a vector from a negative count. The tile is an argument: 64.
TEST(CliExitStatus, DrawTileWithoutCells) {
  const std::string svg = temp_path("tile.svg");
  std::remove(svg.c_str());
  const std::string needs = "--tile (M,N) needs M >= 1 and N >= 1";
  const int n = check_cases({
      {("draw '(4,8):(8,1)' --tile '(0,5)' -o " + quote(svg)).c_str(), kUsage, needs.c_str()},
      {"draw '(4,8):(8,1)' --tile '(0,0)'", kUsage, needs.c_str()},
      {"draw '(4,8):(8,1)' --tile '(4,0)'", kUsage, needs.c_str()},
      {"draw '(4,8):(8,1)' --tile '(-1,5)'", kUsage, needs.c_str()},
      {"draw '(4,8):(8,1)' --tile '((2,0),5)'", kUsage, needs.c_str()},
      // a TV layout: (thread, value) -> tile index
      {"draw '(32,4):(1,32)' --tile '(0,0)'", kUsage, needs.c_str()},
      {"draw '(4,8):(8,1)' --tile '(4294967296,4294967296)'", kUsage, "has more than 65536 cells"},
      {"draw '(4,8):(8,1)' --tile '(4,8,2)'", kUsage, "--tile must be a rank-2 tile (M,N)"},
      {"draw '(4,8):(8,1)' --tile '(4,'", kUsage, "--tile '(4,': column"},
  });
  EXPECT_FALSE(exists(svg)) << "nothing is drawn";
  // The same TV layout over a tile with cells is drawn.
  EXPECT_EQ(run_cli("draw '(32,4):(1,32)' --tile '(32,4)'").exit_code, 0);
  std::printf("[cli] draw --tile: %d bad tiles checked\n", n);
}

// Malformed command lines of draw, banks, check, verify and prove --draw exited 2 or 1.
TEST(CliExitStatus, MalformedCommandLinesExit64) {
  const int n = check_cases({
      {"draw", kUsage, "no EXPR to draw"},
      {"draw 8:1 -o", kUsage, "-o needs a value"},
      {"draw 8:1 --tile", kUsage, "--tile needs a value"},
      {"draw 8:1 --banks", kUsage, "--banks needs a value"},
      {"draw 8:1 --bogus", kUsage, "unknown option '--bogus'"},
      {"draw 8:1 4:1", kUsage, "more than one EXPR"},
      {"draw 8:1 -o a.svg -o b.svg", kUsage, "-o given twice"},
      {"draw 8:1 -o picture.png", kUsage, "the file name must end in .tex, .svg or .html"},
      {"banks", kUsage, "usage: cuteref banks"},
      {"banks ldmatrix.x4", kUsage, "too few arguments"},
      {"banks ldmatrix.x4 '(32,8):(64,1)' 16 extra", kUsage, "an instruction takes INSTR 'ADDR' BITS, got 4"},
      {"banks ldmatrix.x4 '(32,8):(64,1)'", kUsage, "an instruction takes INSTR 'ADDR' BITS, got 2"},
      {"banks ldmatrix.x3 '(32,8):(64,1)' 16", kUsage, "not a known shared-memory instruction"},
      {"banks 'make_tiled_copy(UniversalCopy<uint32_t>, 32, (32,1):(1,0), (1,1))' '(32,1):(1,0)' S D", kUsage,
       "a tiled copy takes 'TILED_COPY' 'SMEM' [S|D], got 4"},
      {"banks 'make_tiled_copy(UniversalCopy<uint32_t>, 32, (32,1):(1,0), (1,1))' '(32,1):(1,0)' X", kUsage,
       "the side must be S or D, got 'X'"},
      {"check --html", kUsage, "--html needs a value"},
      {"check --frob", kUsage, "unknown option '--frob'"},
      {"verify extra", kUsage, "usage: cuteref verify [--html FILE]"},
      {"verify --html", kUsage, "usage: cuteref verify [--html FILE]"},
      {"batch extra", kUsage, "usage: cuteref batch"},
      {"prove --draw d.txt 'x == x'", kUsage, "--draw 'd.txt': the file name must end in .tex, .svg or .html"},
      {"prove --draw a.svg --draw b.svg 'x == x'", kUsage, "--draw given twice"},
      // gpu: checked whether or not the harness was built (without it, a valid one exits 77)
      {"gpu --bogus", kUsage, "unknown GPU probe '--bogus'"},
      {"gpu tma extra", kUsage, "gpu tma takes no further argument"},
      {"gpu banks --out", kUsage, "--out needs a value"},
      {"gpu banks --frob", kUsage, "gpu banks takes [--out DIR] [--dry-run]"},
  });
  std::printf("[cli] %d malformed command lines checked\n", n);
}

// Element widths: a bank is byte address / 4 % 32, so an element is a positive multiple of 8
// bits (smem_wavefronts' own precondition); 7-bit elements and negative offsets were drawn.
TEST(CliExitStatus, BankElementWidths) {
  const char* width = "the element width must be a positive multiple of 8 bits";
  const int n = check_cases({
      {"draw '(8,8):(8,1)' --banks 7", kUsage, width},
      {"draw '(8,8):(8,1)' --banks 0", kUsage, width},
      {"draw '(8,8):(8,1)' --banks -8", kUsage, width},
      {"draw '(8,8):(8,1)' --banks 2048", kUsage, "at most 1024"},
      {"draw '(8,8):(8,1)' --banks x", kUsage, "--banks 'x': column 1"},
      {"banks ldmatrix.x4 '(32,8):(64,1)' 7", kUsage, width},
      {"banks ldmatrix.x4 '(32,8):(64,1)' 0", kUsage, width},
      // A negative element offset has no byte address (the layout, not the command line, is wrong).
      {"draw '(2,4):(-1,2)' --banks 16", 1, "the value at (1,0) is -1, not an element offset >= 0"},
      {"draw '8:1@0' --banks 16", 1, "not an element offset >= 0"},
  });
  // A valid width is drawn.
  EXPECT_EQ(run_cli("draw '(8,8):(8,1)' --banks 16").exit_code, 0);
  std::printf("[cli] %d element widths checked\n", n);
}

// Inputs that cannot be read and outputs that cannot be written exit 74: `check` of a missing
// path exited 1, `prove --draw` into a missing folder exited 1 (the verdict) and drew nothing
// silently.
TEST(CliExitStatus, UnreadableInputOrUnwritableOutputExit74) {
  const std::string corpus = temp_path("exit_status_corpus.txt");
  std::ofstream(corpus) << "size(8:1) => 8\n";
  const int n = check_cases({
      {"check /nonexistent.txt", kIo, "corpus path /nonexistent.txt does not exist"},
      {"check -- /nonexistent.txt", kIo, "does not exist"},
      {"draw 8:1 -o /nonexistent/d.svg", kIo, "cannot write /nonexistent/d.svg"},
  });
  // The report goes to stdout, then the page cannot be written.
  const RunResult html = run_cli("check " + quote(corpus) + " --html /nonexistent/r.html");
  EXPECT_EQ(html.exit_code, kIo) << html.err;
  EXPECT_TRUE(contains(html.out, "1 cases checked: 1 passed, 0 failed")) << html.out;
  EXPECT_TRUE(contains(html.err, "cannot write /nonexistent/r.html")) << html.err;
  // 8:1 and 8:2 differ at index 1: the claim is refuted, then the picture cannot be written.
  const RunResult p = run_cli("prove --draw /nonexistent/d.svg '8:1 == 8:2'");
  EXPECT_EQ(p.exit_code, kIo) << p.out << p.err;
  EXPECT_TRUE(contains(p.out, "refuted")) << p.out;
  EXPECT_TRUE(contains(p.err, "cannot write /nonexistent/d.svg")) << p.err;
  // Into a writable place the same picture is drawn and the verdict (refuted: 1) stands.
  const std::string svg = temp_path("refuted.svg");
  std::remove(svg.c_str());
  EXPECT_EQ(run_cli("prove --draw " + quote(svg) + " '8:1 == 8:2'").exit_code, 1);
  EXPECT_TRUE(exists(svg));
  std::printf("[cli] %d unreadable inputs and unwritable outputs checked\n", n + 2);
}

// bank_conflicts at the enumeration bound (2^24 elements) kept every instruction (2.3 GB resident).
// It streams them now: the largest child process's peak resident memory stays under 1 GiB (a
// bound on memory, not a timing; under the sanitizers too, whose shadow memory is far smaller).
// Hand count: 32 threads of one byte each, thread t on row t of the row-major (65536,256) tile,
// 256 bytes apart: all 32 in bank 0, 32 wavefronts for each of the 2^24 / 32 = 524288 loads, ideal
// 1 each.
TEST(CliExitStatus, BankConflictsAtTheBoundInBoundedMemory) {
  const RunResult r = run_cli(
      "eval " + quote("bank_conflicts(make_tiled_copy(UniversalCopy<uint8_t>, 8, (32,1):(1,0), (1,1)), (65536,256):(256,1))"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "(524288,16777216,524288)\n");
  rusage usage{};
  ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &usage), 0);
  EXPECT_LT(usage.ru_maxrss, 1024L * 1024L) << "peak resident set of a child, KiB";
  std::printf("[cli] bank_conflicts over 2^24 elements: 1 case checked, peak child RSS %ld KiB\n", usage.ru_maxrss);
}

// An unknown option was read as an operand by eval, describe, banks and synth (an EXPR that
// does not parse: exit 1). Every command now names it and exits 64; `--` ends the options where
// an operand may start with '-'.
TEST(CliExitStatus, UnknownOptionsExit64InEveryCommand) {
  const char* unknown = "unknown option '--bogus'";
  const std::string copy = quote("make_tiled_copy(UniversalCopy<uint32_t>, 32, (32,1):(1,0), (1,1))");
  const int n = check_cases({
      {"eval --bogus", kUsage, unknown},
      {"eval 8:1 --bogus", kUsage, unknown},
      {"eval -x", kUsage, "unknown option '-x'"},
      {"batch --bogus", kUsage, "usage: cuteref batch"},
      {"describe --bogus", kUsage, unknown},
      {"describe '(1@0, 8@1)' --bogus", kUsage, unknown},
      {"check --bogus", kUsage, unknown},
      {"prove --bogus 'x == x'", kUsage, unknown},
      {"prove 'x == x' --bogus", kUsage, unknown},
      {"verify --bogus", kUsage, "usage: cuteref verify"},
      {"draw 8:1 --bogus", kUsage, unknown},
      {"banks --bogus ldmatrix.x4 '(32,8):(64,1)' 16", kUsage, unknown},
      {"banks ldmatrix.x4 '(32,8):(64,1)' 16 --bogus", kUsage, unknown},
      {("banks " + copy + " '(32,1):(1,0)' --bogus").c_str(), kUsage, unknown},
      {"synth swizzle '(32,8):(64,1)' ldmatrix.x4 16 --bogus", kUsage, unknown},
      {("synth swizzle '(32,1):(1,0)' " + copy + " D --bogus --no-proof").c_str(), kUsage, unknown},
      {"synth registers SM90_64x64x16_F32F16F16_SS C SM90_64x64x16_F32F16F16_RS A --bogus", kUsage, unknown},
      {"gpu --bogus", kUsage, "unknown GPU probe '--bogus'"},
      {"gpu all --bogus", kUsage, "gpu all takes no further argument, got '--bogus'"},
  });
  // After `--` an operand may start with '-': a negative integer, and a descriptor-looking
  // operand that is then the descriptor's own error (exit 1), not an option.
  const RunResult negative = run_cli("eval -- -3");
  EXPECT_EQ(negative.exit_code, 0) << negative.err;
  EXPECT_EQ(negative.out, "-3\n");
  const RunResult not_option = run_cli("describe -- --bogus");
  EXPECT_EQ(not_option.exit_code, 1) << not_option.err;
  EXPECT_TRUE(contains(not_option.err, "a descriptor is a group")) << not_option.err;
  std::printf("[cli] %d unknown options checked\n", n + 2);
}

// `synth swizzle` enumerated 2^17 elements of SMEM for each of the family's 721 members and
// 128 pads (52-106 s) where `eval swizzle_for(...)` refuses at once: the command now has the
// evaluation's budget of 2^24 elements. Hand count: the destination of the copy writes every
// element of the (512,256) layout once, 131,072 offsets, times 721 + 128 = 111,280,128.
// --timeout bounded only the proof: it now bounds the whole command. The (128,128) layout is
// within the budget (16,384 x 849 = 13,910,016 elements, seconds of enumeration), so a limit of
// 1 ms ends it in the enumeration, as `unknown` (2), with nothing else on stdout.
TEST(CliExitStatus, SynthHasTheEnumerationBudgetAndTimeoutBoundsTheCommand) {
  const std::string copy = quote("make_tiled_copy(UniversalCopy<uint16_t>, 16, (32,4):(1,32), (1,1))");
  // The budget refuses before any time limit matters (a generous one: a sanitized build on a
  // loaded machine reads the operands slowly, and the verdict must not depend on that).
  const RunResult big = run_cli("synth swizzle '(512,256):(256,1)' " + copy + " D --timeout 60");
  EXPECT_EQ(big.exit_code, 64) << big.out << big.err;  // rejected operands, not a refuted certificate (1)
  EXPECT_TRUE(contains(big.err, "swizzle_for: enumerating 111280128 more elements would pass the 16777216 elements one "
                                "expression may enumerate in all"))
      << big.err;
  EXPECT_EQ(big.out, "");
  const RunResult slow = run_cli("synth swizzle '(128,128):(128,1)' " + copy + " D --timeout 0.001");
  EXPECT_EQ(slow.exit_code, 2) << slow.out << slow.err;
  EXPECT_EQ(slow.out.rfind("unknown: timeout: the time limit of 1 ms was reached ", 0), 0u) << slow.out;
  EXPECT_EQ(lines(slow.out).size(), 1u) << slow.out;
  // Operands the model rejects (ldmatrix.x4.trans reads rows of 16 contiguous bytes; thread 0's
  // values here are 64 elements apart) are exit 64 with the model's diagnostic, as a claim
  // `cuteref prove` rejects: exit 1 would read as a refuted certificate.
  const RunResult rejected = run_cli("synth swizzle '(32,8):(1,64)' ldmatrix.x4.trans 16");
  EXPECT_EQ(rejected.exit_code, 64) << rejected.out << rejected.err;
  EXPECT_TRUE(contains(rejected.err, "not one row of 16 contiguous bytes")) << rejected.err;
  EXPECT_EQ(rejected.out, "");
  std::printf("[cli] synth: 2 bounds and 1 rejected input checked\n");
}

// `banks 'TILED_COPY' 'SMEM'` had no budget at all: over (65536,1024) of bytes it printed
// 2,097,152 instructions (more than 30 s). It has one EXPR's 2^24 elements: 32 one-byte lanes
// of one warp over 2^26 elements are 2^21 each, so the ninth lane passes the bound with 8 x 2^21
// = 2^24 used, before any line is printed.
TEST(CliExitStatus, BanksHasTheEnumerationBudget) {
  const RunResult r = run_cli("banks " + quote("make_tiled_copy(UniversalCopy<uint8_t>, 8, (32,1):(1,0), (1,1))") +
                              " '(65536,1024):(1024,1)'");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "bank_conflicts: enumerating 2097152 more elements would pass the 16777216 elements one "
                              "expression may enumerate in all (16777216 used by its earlier operations)"))
      << r.err;
  EXPECT_EQ(r.out, "");
  std::printf("[cli] banks: 1 bound checked\n");
}

}  // namespace cli_exit_status_test
