// cuteref: the command-line tool (DESIGN.md, "The command-line contract").
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <unistd.h>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "corpus_runner.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "input_limits.hpp"
#include "line_reader.hpp"
#include "notation.hpp"
#include "claim.hpp"
#include "laws.hpp"
#include "line_commands.hpp"

#ifndef CUTEREF_SOURCE_DIR
#define CUTEREF_SOURCE_DIR "."
#endif

namespace {

using namespace cuteref;

// Exit status of a malformed command line, every command (sysexits' EX_USAGE): distinct from
// each command's answers (prove's 2 is `unknown`).
constexpr int kExitUsage = 64;
// Exit status when the input cannot be read or the output cannot be written (EX_IOERR).
constexpr int kExitIo = 74;
// kMaxResultBytes, diagnostic() and answer(): line_commands.hpp (the fuzz target runs them too).

// stdout is flushed and checked: a failed write (a full disk, /dev/full) is an error, exit 74.
int finish_output(int rc) {
  std::cout.flush();
  if (std::cout) return rc;
  std::cerr << "error: cannot write the output: " << std::strerror(errno) << "\n";
  return kExitIo;
}

void print_help(std::ostream& out) {
  out << "cuteref: reference model of CuTe's layout algebra\n\n"
         "Commands:\n"
         "  cuteref eval 'EXPR'        print the value of EXPR in CuTe notation; exit 1 with a diagnostic on error\n"
         "  cuteref batch              read one EXPR per stdin line, print exactly one line each;\n"
         "                             errors print as `error: ...` (exit 0 unless stdin or stdout fails: 74)\n"
         "  cuteref describe 'DESCRIPTOR' ['SHAPE']\n"
         "                             parse a layout descriptor such as '((1@0, 8@1), 1@2)' (basis notation:\n"
         "                             groups of N@dim entries, N may be a fraction that reduces to an integer),\n"
         "                             print it normalized with what each mode adds; with SHAPE also the layout\n"
         "                             SHAPE:DESCRIPTOR; exit 1 with a diagnostic on error. In EXPR the same text\n"
         "                             is the literal descriptor(...), whose value is the stride tree\n"
         "  cuteref check [PATH...]    run corpus cases (default: the project's corpus/); exit 1 on any failure\n"
         "  cuteref verify             the main job: the corpus (seed claims agreeing and refuted), the property suite\n"
         "                             and the proof suite's named laws with their times, as a report\n"
         "  cuteref prove 'CLAIM' [--where 'v in [lo,hi]']... [--timeout s] [--smt2 FILE]\n"
         "                             prove CLAIM (EXPR == EXPR, with integer arithmetic + - * / % & | ^ << >> and\n"
         "                             free lower-case variables) for all values with Z3, or refute it with a\n"
         "                             counterexample replayed on the model; a variable without --where ranges over\n"
         "                             [0, 2^63-1] (one --where per variable); --timeout bounds the whole proof, s a\n"
         "                             decimal number of seconds in [0.001, 86400], default 60; --smt2 writes the\n"
         "                             queries; exit 0 proved, 1 refuted, 2 unknown (timeout included), 64 a\n"
         "                             malformed request (the claim, --where, --timeout), 70 the prover failed (out of\n"
         "                             memory, Z3), 74 FILE or the output could not be written\n"
         "  cuteref gpu [tma|wgmma|mma|ldmatrix|all]\n"
         "                             the GPU differential harness (real TMA, WGMMA, mma.sync, ldmatrix vs the model);\n"
         "                             exits 77 with a message when no GPU (or no harness) is present\n"
         "  cuteref --help             this text\n\n"
         "Exit status: a malformed command line exits 64 (every command); an unreadable input or an\n"
         "unwritable output 74. Bounds: an EXPR (or batch line, claim, descriptor) at most 1 MiB and\n"
         "256 levels of nesting; a scaled basis at most 256 indices; a printed value at most 1 MiB;\n"
         "diagnostics escape control bytes (\\x00) and leave out the middle beyond 8 KiB.\n\n"
         "EXPR is CuTe's printed notation plus CuTe's function names:\n"
         "  integers 8 (dynamic), _8 (static), negative allowed; tuples (a,b,(c,d)), () empty, (4) a 1-tuple;\n"
         "  layouts SHAPE:STRIDE, e.g. ((2,2),3):((1,4),8), _8:_1; strides may be scaled bases 16@0, 1@0@1;\n"
         "  swizzles Sw<3,4,3>, composed layouts Sw<3,4,3> o (8,64):(64,1), Sw<3,4,3> o smem_ptr[16b](unset) o L;\n"
         "  application L(5), L((1,2)); slicing L(_,2) (drops the offset, as CuTe; slice_and_offset keeps it);\n"
         "  swizzle application Sw<3,4,3>(896); A == B compares functions (true, or false naming the first index);\n"
         "  descriptor literals descriptor(16@0, 1@1) (the stride tree; make_layout((4,8), descriptor(1@0, 1@1))).\n\n"
         "Functions:\n";
  for (const auto& [name, spec] : standard_functions().all())
    if (name.rfind("__", 0) != 0) out << "  " << spec.signature << "\n";
}

int eval_command(const std::string& expr) {
  bool failed = false;
  const std::string text = answer(expr, failed);
  (failed ? std::cerr : std::cout) << text << "\n";
  return failed ? 1 : 0;
}

// One line out per line in, whatever the line does (a diagnostic, a line over the length
// bound, a NUL, memory exhaustion); the answers so far are flushed before waiting for input.
// A read error of stdin or a write error of stdout ends it with exit 74.
int batch_command() {
  LineReader reader(STDIN_FILENO, kMaxExpressionBytes, [] { std::cout.flush(); });
  for (;;) {
    LineReader::Result r = reader.next();
    if (r.status == LineReader::Status::End) break;
    if (r.status == LineReader::Status::Error) {
      std::cout.flush();
      std::cerr << "error: cannot read the input: " << std::strerror(r.error) << "\n";
      return kExitIo;
    }
    bool failed = false;
    if (r.status == LineReader::Status::TooLong)
      std::cout << diagnostic("the line is " + std::to_string(r.length) + " bytes, longer than the limit of " +
                              std::to_string(kMaxExpressionBytes) + " bytes")
                << "\n";
    else
      std::cout << answer(r.line, failed) << "\n";
    if (!std::cout) break;  // finish_output reports it
  }
  return 0;
}

// describe: the normalized descriptor, one line per basis saying what a step along its mode
// adds, and with a shape the layout shape:descriptor (line_commands.hpp).
int describe_command(const std::string& text, const std::string* shape_text) {
  try {
    std::cout << describe_report(text, shape_text);
    return 0;
  } catch (const Error& e) {
    std::cerr << diagnostic(e.what()) << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << diagnostic("out of memory") << "\n";
    return 1;
  }
}

std::string default_corpus() { return std::string(CUTEREF_SOURCE_DIR) + "/corpus"; }

int check_command(std::vector<std::string> paths, bool verbose) {
  if (paths.empty()) paths.push_back(default_corpus());
  try {
    CorpusSummary s = run_corpus(paths, std::cout, verbose);
    std::cout << "corpus: " << s.cases << " cases checked: " << s.passed << " passed, " << s.failed << " failed\n";
    std::cout << "seed claims: " << s.claims_agree << " agree, " << s.claims_refuted << " refuted\n";
    if (!s.refuted_claims.empty()) {
      std::cout << "refuted seed claims (correct value, counterexample, derivation):\n";
      for (const auto& r : s.refuted_claims) std::cout << "  " << r << "\n";  // printable: corpus_runner
    }
    if (s.unreadable > 0) std::cout << "corpus: " << s.unreadable << " path(s) could not be read (see FAIL above)\n";
    if (s.cases == 0) {
      std::cout << "corpus: no cases found: nothing was checked\n";
      return 1;
    }
    return s.failed == 0 && s.unreadable == 0 ? 0 : 1;
  } catch (const Error& e) {
    std::cerr << diagnostic(e.what()) << "\n";
    return 1;
  }
}

// The proof suite's named laws, each with its verdict and time.
int verify_proofs() {
  using namespace cuteref::proofs;
  std::cout << "\n[proofs] named laws (Z3)\n";
  int rc = 0;
  for (const Law& law : named_laws()) {
    LawResult r;
    try {
      r = law.run(ProofOptions{});
    } catch (const Error& e) {
      r.detail = std::string("error: ") + e.what();
    }
    const bool ok = law_passed(law, r);
    if (!ok) rc = 1;
    std::cout << "  " << (ok ? "PASS " : "FAIL ") << law.name << ": " << status_name(r.status) << " ("
              << static_cast<long long>(r.ms + 0.5) << " ms, " << r.proofs << " proofs, " << r.corner_cases
              << " concrete corner cases)\n";
  }
  return rc;
}

// The property suite (built next to this binary as ../properties/property_tests when RapidCheck
// is present): runs it and prints its per-law table. 0 when it passed, 1 when it failed, -1 when
// it was not built.
int run_property_suite(const char* self) {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) exe = std::filesystem::absolute(self);
  const std::filesystem::path suite = exe.parent_path().parent_path() / "properties" / "property_tests";
  if (!std::filesystem::exists(suite)) return -1;
  std::cout.flush();
  std::string command = "'";  // appended: "'" + string&& trips GCC 12's bogus -Wrestrict (GCC bug 105651)
  command += suite.string();
  command += "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return 1;
  std::string output;
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  const auto table = output.find("=== property suite");
  // On failure everything is printed: the failing laws and their counterexamples come first.
  std::cout << (table == std::string::npos || status != 0 ? output : output.substr(table));
  return status == 0 ? 0 : 1;
}

int verify_command(const char* self) {
  std::cout << "cuteref verify\n==============\n\n[corpus] " << default_corpus() << "\n";
  int rc = check_command({}, false);
  std::cout << "\n[properties]\n";
  const int props = run_property_suite(self);
  if (props < 0) std::cout << "the property suite was not built (RapidCheck missing): not run\n";
  if (props > 0) rc = 1;
  if (verify_proofs() != 0) rc = 1;
  std::cout << "\n" << (rc == 0 ? "verify: PASS" : "verify: FAIL") << "\n";
  return rc;
}

// `cuteref gpu ...` hands over to the GPU harness, built next to this binary as
// ../gpu/cuteref-gpu (it links only the model and CUDA, so it also runs where Z3 is absent).
int gpu_command(const char* self, const std::vector<std::string>& args) {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) exe = std::filesystem::absolute(self);
  const std::filesystem::path harness = exe.parent_path().parent_path() / "gpu" / "cuteref-gpu";
  if (!std::filesystem::exists(harness)) {
    std::cout << "cuteref gpu: the GPU harness was not built (nvcc was not found when the build was configured): skipping\n";
    return 77;
  }
  std::vector<std::string> owned{harness.string()};
  owned.insert(owned.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : owned) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  execv(argv[0], argv.data());
  std::cerr << "error: cannot run " << harness << "\n";
  return 1;
}

}  // namespace

namespace {
int run_command(int argc, char** argv);
}  // namespace

int main(int argc, char** argv) { return finish_output(run_command(argc, argv)); }

namespace {
int run_command(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    print_help(std::cerr);
    return kExitUsage;
  }
  const std::string& cmd = args[0];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    print_help(std::cout);
    return 0;
  }
  if (cmd == "eval") {
    if (args.size() != 2) {
      std::cerr << "error: usage: cuteref eval 'EXPR'\n";
      return kExitUsage;
    }
    return eval_command(args[1]);
  }
  if (cmd == "describe") {
    if (args.size() != 2 && args.size() != 3) {
      std::cerr << "error: usage: cuteref describe 'DESCRIPTOR' ['SHAPE']\n";
      return kExitUsage;
    }
    return describe_command(args[1], args.size() == 3 ? &args[2] : nullptr);
  }
  if (cmd == "batch" || cmd == "verify") {
    if (args.size() != 1) {
      std::cerr << "error: usage: cuteref " << cmd << " (no arguments; batch reads stdin)\n";
      return kExitUsage;
    }
    if (cmd == "batch") return batch_command();
  }
  if (cmd == "check") {
    bool verbose = false;
    std::vector<std::string> paths;
    for (std::size_t i = 1; i < args.size(); ++i) {
      if (args[i] == "-v" || args[i] == "--verbose") verbose = true;
      else paths.push_back(args[i]);
    }
    return check_command(paths, verbose);
  }
  if (cmd == "verify") return verify_command(argv[0]);
  if (cmd == "prove") {
    namespace pf = cuteref::proofs;
    const char* usage = "error: usage: cuteref prove 'CLAIM' [--where 'v in [lo,hi]']... [--timeout s] [--smt2 FILE]\n";
    pf::ProveRequest req;
    req.leak_solver_context = true;  // the process ends right after (see ProveRequest)
    bool have_claim = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
      const std::string& a = args[i];
      const bool has_value = i + 1 < args.size();
      if ((a == "--where" || a == "--timeout" || a == "--smt2") && !has_value) {
        std::cerr << "error: " << a << " needs a value\n" << usage;
        return kExitUsage;
      }
      if (a == "--where") req.where.push_back(args[++i]);
      else if (a == "--timeout") {
        try {
          req.timeout_s = pf::parse_timeout_seconds(args[++i]);
        } catch (const cuteref::Error& e) {
          std::cerr << "error: " << e.what() << "\n";
          return kExitUsage;
        }
      } else if (a == "--smt2") req.smt2_file = args[++i];
      else if (!have_claim && a.rfind("--", 0) != 0) {
        req.claim = a;
        have_claim = true;
      } else {
        std::cerr << (have_claim && a.rfind("--", 0) != 0 ? "error: more than one claim\n"
                                                          : "error: unknown option '" + printable(a) + "'\n")
                  << usage;
        return kExitUsage;
      }
    }
    if (!have_claim) {
      std::cerr << usage;
      return kExitUsage;
    }
    return pf::prove_command(req, std::cout, std::cerr);
  }
  if (cmd == "gpu") return gpu_command(argv[0], std::vector<std::string>(args.begin() + 1, args.end()));
  std::cerr << "error: unknown command '" << printable(cmd) << "' (see cuteref --help)\n";
  return kExitUsage;
}
}  // namespace
