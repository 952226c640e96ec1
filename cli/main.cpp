// cuteref: the command-line tool (DESIGN.md, "The command-line contract").
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "atoms/copy_bank_conflicts.hpp"
#include "atoms/register_permutation.hpp"
#include "atoms/swizzle_synthesis.hpp"
#include "atoms/smem_banks.hpp"
#include "atoms/tiled_copy.hpp"
#include "bounded_command.hpp"
#include "command_arguments.hpp"
#include "corpus_runner.hpp"
#include "draw.hpp"
#include "enumeration_budget.hpp"
#include "report_html.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "input_limits.hpp"
#include "line_reader.hpp"
#include "notation.hpp"
#include "claim.hpp"
#include "symbolic_functions.hpp"
#include "swizzle_minimality.hpp"
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
         "  cuteref check [PATH...] [--html FILE]\n"
         "                             run corpus cases (default: the project's corpus/); exit 1 on any failure,\n"
         "                             74 when a PATH cannot be read;\n"
         "                             --html also writes the report as a page with the refuted seed claims pictured\n"
         "  cuteref verify [--html FILE]\n"
         "                             the main job: the corpus (seed claims agreeing and refuted), the property suite\n"
         "                             and the proof suite's named laws with their times, as a report\n"
         "  cuteref prove [--where 'v in [lo,hi]']... [--assume 'PRED']... [--timeout s] [--smt2 FILE] [--draw FILE] [--] 'CLAIM'\n"
         "                             prove CLAIM (EXPR == EXPR, with integer arithmetic + - * / % & | ^ << >> and\n"
         "                             free lower-case variables) for all values with Z3, or refute it with a\n"
         "                             counterexample replayed on the model; a variable without --where ranges over\n"
         "                             [0, 2^63-1] (one --where per variable); --assume PRED: a hypothesis, PRED one of\n"
         "                             EXPR OP EXPR (== != < <= > >=), divides(A, B), admissible(A, B), defined(EXPR),\n"
         "                             injective(L); --timeout bounds the whole proof, s a\n"
         "                             decimal number of seconds in [0.001, 86400], default 60; --smt2 writes the\n"
         "                             queries; exit 0 proved, 1 refuted, 2 unknown (timeout included), 3 vacuous (no\n"
         "                             point of the box satisfies the hypotheses: nothing is proved), 64 a\n"
         "                             malformed request (the claim, --where, --timeout), 70 the prover failed (out of\n"
         "                             memory, Z3), 74 FILE or the output could not be written;\n"
         "                             --draw FILE.tex|.svg|.html pictures a refutation (lhs, rhs, first differing index)\n"
         "  cuteref draw 'EXPR' [-o FILE.tex|.svg|.html] [--tile '(M,N)'] [--banks BITS]\n"
         "                             a picture of a layout or composed layout (cell (m,n) = L(m,n)), of a TV layout\n"
         "                             over a tile (--tile: cells T/V), of A == B (both, differing cells marked), or of\n"
         "                             shared-memory banks of BITS-bit elements (--banks); LaTeX as CuTe's print_latex\n"
         "                             (stdout without -o), SVG, or a self-contained HTML page; exit 1 on error;\n"
         "                             the tile has M, N >= 1; BITS is a multiple of 8 (bank = byte address / 4 % 32)\n"
         "  cuteref banks INSTR 'ADDR' BITS | cuteref banks 'TILED_COPY' 'SMEM' [S|D]\n"
         "                             shared-memory bank conflicts, readable: per phase of the instruction the\n"
         "                             wavefronts and, where threads collide, the bank, its distinct words and the\n"
         "                             threads on each (smem_wavefronts / bank_conflicts in EXPR give the counts)\n"
         "  cuteref synth swizzle 'SMEM' 'TILED_COPY' [S|D] ['TILED_COPY' [S|D]]... [TMA|GMMA] [--timeout s] [--no-proof]\n"
         "                             the swizzle of least total wavefronts for the copies (swizzle_for): each\n"
         "                             access's wavefronts and ideal, the finite family searched (TMA|GMMA: only\n"
         "                             the modes they encode), and the Z3 certificate that no member does better\n"
         "  cuteref synth registers 'FROM' C|A|B 'TO' C|A|B [BITS] [--timeout s] [--no-proof]\n"
         "                             what moves when FROM's registers are used as TO's (register_permutation):\n"
         "                             identity, permute (prmt selectors), relabel, shuffle (rounds); the instance\n"
         "                             proved with Z3 for a symbolic (thread, value) index (cuteref synth --help)\n"
         "  cuteref gpu [tma|tma_tile|wgmma|attention_chain|dsl|mma|ldmatrix|attention|vendor|all|banks [--out DIR] [--dry-run]]\n"
         "                             the GPU differential harness (real TMA, WGMMA, mma.sync, ldmatrix vs the model;\n"
         "                             banks: smem_wavefronts vs Nsight Compute's counters, needs ncu);\n"
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
         "  descriptor literals descriptor(16@0, 1@1) (the stride tree; make_layout((4,8), descriptor(1@0, 1@1)));\n"
         "  F2 layouts (8,8):(F1,F9) (PyCuTe's F2 strides: carry-less products combined by XOR; model/f2/README.md);\n"
         "  integer arithmetic + - * / % & | ^ << >> (C++'s precedence; 64-bit, checked; / and % truncate), (a*b) a\n"
         "  grouping. One parser (lang/parser.hpp) reads EXPR and prove's CLAIM and --assume texts.\n\n"
         "Functions:\n";
  for (const auto& [name, spec] : standard_functions().all())
    if (name.rfind("__", 0) != 0) out << "  " << spec.signature << "\n";
  out << "\nSymbolic in `cuteref prove` (the model's generic code with Z3 scalars, its checks as side conditions;\n"
         "any other function is evaluated by the model where its arguments are concrete, and is `unknown`\n"
         "where they are symbolic):\n";
  for (const auto& [name, f] : cuteref::proofs::symbolic_functions())
    if (f.forms.rfind("none", 0) != 0) out << "  " << f.forms << "\n";
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

// Copies what is written to std::cout into a string as well (for --html), for its lifetime.
class CoutTee : public std::streambuf {
 public:
  CoutTee() : original_(std::cout.rdbuf(this)) {}
  ~CoutTee() override { std::cout.rdbuf(original_); }
  std::string text() const { return copy_.str(); }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    copy_.put(static_cast<char>(c));
    return original_->sputc(static_cast<char>(c));
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    copy_.write(s, n);
    return original_->sputn(s, n);
  }
  int sync() override { return original_->pubsync(); }

 private:
  std::streambuf* original_;
  std::ostringstream copy_;
};

// Writes the --html report; false (with a diagnostic) if the file cannot be written (exit 74).
bool write_report(const std::string& path, const std::string& title, const std::string& text, bool passed,
                  const std::vector<ClaimRefutation>& refutations) {
  std::ofstream f(path);
  f << report_page(title, text, passed, refutations);
  if (!f) std::cerr << "error: cannot write " << path << "\n";
  return static_cast<bool>(f);
}

int check_command(std::vector<std::string> paths, bool verbose, CorpusSummary* summary = nullptr) {
  if (paths.empty()) paths.push_back(default_corpus());
  try {
    CorpusSummary s = run_corpus(paths, std::cout, verbose);
    if (summary) *summary = s;
    std::cout << "corpus: " << s.cases << " cases checked: " << s.passed << " passed, " << s.failed << " failed\n";
    std::cout << "seed claims: " << s.claims_agree << " agree, " << s.claims_refuted << " refuted\n";
    if (!s.refuted_claims.empty()) {
      std::cout << "refuted seed claims (correct value, counterexample, derivation):\n";
      for (const auto& r : s.refuted_claims) std::cout << "  " << r << "\n";  // printable: corpus_runner
    }
    if (s.unreadable > 0) std::cout << "corpus: " << s.unreadable << " path(s) could not be read (see FAIL above)\n";
    // A path that could not be read is an input failure (74), whatever the cases read said.
    if (s.unreadable > 0) return kExitIo;
    if (s.cases == 0) {
      std::cout << "corpus: no cases found: nothing was checked\n";
      return 1;
    }
    return s.failed == 0 ? 0 : 1;
  } catch (const IoError& e) {
    std::cerr << diagnostic(e.what()) << "\n";
    return kExitIo;
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
              << " concrete corner cases)\n"
              << "      for: " << law.statement << "\n";  // what it quantified over
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

int verify_command(const char* self, const std::string& html) {
  std::optional<CoutTee> tee;
  if (!html.empty()) tee.emplace();
  CorpusSummary corpus;
  std::cout << "cuteref verify\n==============\n\n[corpus] " << default_corpus() << "\n";
  int rc = check_command({}, false, &corpus);
  std::cout << "\n[properties]\n";
  const int props = run_property_suite(self);
  if (props < 0) std::cout << "the property suite was not built (RapidCheck missing): not run\n";
  if (props > 0) rc = 1;
  if (verify_proofs() != 0) rc = 1;
  std::cout << "\n" << (rc == 0 ? "verify: PASS" : "verify: FAIL") << "\n";
  if (tee) {
    std::cout.flush();
    const std::string text = tee->text();
    tee.reset();
    if (!write_report(html, "cuteref verify", text, rc == 0, corpus.refutations)) return kExitIo;
  }
  return rc;
}

// `cuteref banks INSTR 'ADDR' BITS` or `cuteref banks 'TILED_COPY' 'SMEM' [S|D]`: the readable
// bank-conflict report of one instruction or of every instruction of a tiled copy. The command
// line was validated (parse_banks_arguments); an EXPR the model refuses exits 1, and so does a
// copy over more than one EXPR's 2^24 elements.
int banks_command(const BanksRequest& r) {
  try {
    // One budget for the whole command, as for one EXPR: its operands and the enumeration.
    const EnumerationBudgetScope budget;
    if (r.instruction) {
      const SmemInstruction in = smem_instruction(r.first);
      const Value addr = parse_and_evaluate(r.second, &standard_functions());
      std::cout << describe(in, smem_wavefronts(in, smem_accesses(in, addr, r.bits)));
      return 0;
    }
    const TiledCopy tc = tiled_copy_arg({parse_and_evaluate(r.first, &standard_functions())}, 0, "cuteref banks");
    // Each instruction's line as it is counted, the totals last: memory stays bounded by one
    // instruction however many the copy executes (2^24 elements: 524,288 lines).
    const CopyBankConflicts b = bank_conflicts_streamed(
        tc, parse_and_evaluate(r.second, &standard_functions()), r.side,
        [&](const SmemInstruction& in, const CopyInstructionBanks& ib) { std::cout << describe_instruction(in, ib); });
    std::cout << describe_totals(b);
    return 0;
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << diagnostic("out of memory") << "\n";
    return 1;
  }
}

// `cuteref synth swizzle 'SMEM' 'TILED_COPY' [S|D]... [TMA|GMMA]` or `cuteref synth registers
// 'FROM' W 'TO' W [BITS]`: the readable reports of swizzle_for and register_permutation, each
// with its Z3 proof (--timeout s bounds the whole command, default 60; --no-proof leaves the
// proof out). Exit 0 when proved (or not asked), 1 refuted, 2 unknown, as `cuteref prove`; 64 for
// an unknown option (`--` ends the options) or operands the model rejects; 70 when the prover
// fails.
const char* const kSynthUsage =
    "usage: cuteref synth swizzle 'SMEM' 'TILED_COPY' [S|D] ['TILED_COPY' [S|D]]... [TMA|GMMA] [--timeout s] [--no-proof]\n"
    "       cuteref synth swizzle 'ADDR' INSTR BITS [TMA|GMMA] [--timeout s] [--no-proof]\n"
    "       cuteref synth registers 'FROM' C|A|B|TV|S|D 'TO' C|A|B|TV|S|D [BITS] [--timeout s] [--no-proof]\n";

// What `cuteref synth` is doing, for the diagnostic of a command that reaches its time limit.
enum class SynthStage { Operands, Enumeration, Proof };

// The work of `cuteref synth` once its command line is read (args: "synth", the form, its
// operands): the report on `out`, diagnostics on `err`, the exit status. The proof gets the time
// left before `deadline`.
int synth_work(const std::vector<std::string>& args, bool proof, std::chrono::steady_clock::time_point deadline,
               std::atomic<SynthStage>& stage, std::ostream& out, std::ostream& err) {
  const bool swizzle = args[1] == "swizzle";
  try {
    // One budget for the whole command, as for one EXPR: its operands, the enumeration.
    const EnumerationBudgetScope budget;
    std::vector<Value> values;
    // A bare word (S, D, A, B, C, TMA, an MMA atom's name, ldmatrix.x4) is an argument as inside a call.
    auto bare_word = [](const std::string& w) {
      if (w.empty() || std::isdigit(static_cast<unsigned char>(w[0]))) return false;
      for (char c : w)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return false;
      return true;
    };
    for (std::size_t i = 2; i < args.size(); ++i)
      values.push_back(bare_word(args[i]) ? Value(Symbol{args[i]}) : parse_and_evaluate(args[i], &standard_functions()));
    // The proof's share of the limit: what the operands and the enumeration left (0: spent).
    auto left_ms = [&] {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      return left.count() > 0 ? static_cast<unsigned>(left.count()) : 0U;
    };
    stage = SynthStage::Enumeration;
    if (swizzle) {
      const SwizzleSynthesis s = swizzle_for_args(values, "cuteref synth swizzle");
      out << describe(s);
      if (!proof) {
        out << "  certificate: not proved (--no-proof): the minimum rests on the enumeration alone\n";
        return 0;
      }
      stage = SynthStage::Proof;
      proofs::ProofOptions options;
      options.timeout_ms = left_ms();
      if (options.timeout_ms == 0) {
        out << "  certificate: unknown: timeout: the time limit was spent before the proof began\n";
        return 2;
      }
      const proofs::SwizzleCertificate c = proofs::certify_swizzle_minimum(s, options);
      out << proofs::describe(c);
      // As `cuteref prove`: 0 proved, 1 refuted (the proof and the enumeration disagree), 2 unknown.
      for (const proofs::SwizzleClaimResult& r : c.claims)
        if (r.status == proofs::ProofStatus::Refuted) return 1;
      return c.proved() ? 0 : 2;
    }
    const RegisterPermutation r = register_permutation_args(values, "cuteref synth registers");
    out << describe(r);
    if (!proof) return 0;
    if (r.claim.empty()) {
      out << "  proof: none (the source map or the relabeling is not a layout, so no claim is written; the enumeration "
             "stands alone)\n";
      return 0;
    }
    stage = SynthStage::Proof;
    const unsigned left = left_ms();
    if (left == 0) {
      out << "  proof of the claim: unknown: timeout: the time limit was spent before the proof began\n";
      return 2;
    }
    proofs::ProveRequest req;
    req.claim = r.claim;
    req.where = {"x in [0," + std::to_string(r.claim_domain - 1) + "]"};
    req.timeout_s = left / 1000.0;
    req.leak_solver_context = true;
    std::ostringstream proof_out, proof_err;
    const int verdict_rc = proofs::prove_command(req, proof_out, proof_err);
    std::string verdict = proof_out.str() + proof_err.str();
    while (!verdict.empty() && verdict.back() == '\n') verdict.pop_back();
    std::string indented = "  proof of the claim: ";
    for (char c : verdict) indented += c == '\n' ? std::string("\n    ") : std::string(1, c);
    out << indented << "\n";
    return verdict_rc == 0 ? 0 : verdict_rc == 1 ? 1 : 2;
  } catch (const Error& e) {
    // Before the proof: the model rejects the operands (64, as a claim `cuteref prove` rejects);
    // exit 1 would read as a refuted certificate. In the proof: the prover failed (70).
    err << "error: " << e.what() << "\n";
    return stage == SynthStage::Proof ? proofs::kProveFailure : kExitUsage;
  } catch (const std::bad_alloc&) {
    err << diagnostic("out of memory") << "\n";
    return proofs::kProveFailure;
  }
}

// How long past its limit a proof may take to stop and report it before the command ends
// without it.

int synth_command(const std::vector<std::string>& all) {
  if (all.size() == 2 && (all[1] == "--help" || all[1] == "-h")) {
    std::cout << kSynthUsage
              << "swizzle: the member of least total wavefronts of the finite family (the unswizzled layout and\n"
                 "  Sw<B,M,S> o smem_ptr o SMEM, 1 <= B <= 5, 0 <= M <= 8, B <= |S| <= 10; with TMA or GMMA the modes\n"
                 "  none, Sw<1,4,3>, Sw<2,4,3>, Sw<3,4,3>), every member enumerated, and the Z3 certificate that no\n"
                 "  member does better (a symbolic member on the model's generic wavefront count); padding as the\n"
                 "  alternative. registers: identity | permute | relabel | shuffle, and the Z3 proof of the instance\n"
                 "  for a symbolic (thread, value) index. --timeout s bounds the whole command (default 60 s).\n";
    return 0;
  }
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::string> args;
  double timeout_s = proofs::kDefaultProveTimeoutSeconds;
  bool proof = true, options_ended = false;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!options_ended && all[i] == "--") {
      options_ended = true;
    } else if (options_ended || is_operand(all[i])) {
      args.push_back(all[i]);
    } else if (all[i] == "--no-proof") {
      proof = false;
    } else if (all[i] == "--timeout") {
      if (i + 1 >= all.size()) {
        std::cerr << "error: --timeout needs a value\nerror: " << kSynthUsage;
        return kExitUsage;
      }
      try {
        timeout_s = proofs::parse_timeout_seconds(all[++i]);
      } catch (const Error& e) {
        std::cerr << "error: " << e.what() << "\nerror: " << kSynthUsage;
        return kExitUsage;
      }
    } else {
      std::cerr << "error: unknown option '" << printable(all[i]) << "' (an operand that starts with '-' follows `--`)\n"
                << "error: " << kSynthUsage;
      return kExitUsage;
    }
  }
  const bool swizzle = args.size() > 1 && args[1] == "swizzle", registers = args.size() > 1 && args[1] == "registers";
  if ((!swizzle && !registers) || (swizzle && args.size() < 4) || (registers && args.size() != 6 && args.size() != 7)) {
    std::cerr << "error: " << kSynthUsage;
    return kExitUsage;
  }
  // --timeout bounds the whole command: the proof has what the operands and the enumeration
  // left, and when the work has not ended by the limit the command ends with `unknown:
  // timeout`, exit 2, as `cuteref prove`.
  const auto limit = std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(timeout_s * 1000)));
  const auto deadline = started + limit;
  const auto stage = std::make_shared<std::atomic<SynthStage>>(SynthStage::Operands);
  return run_within_deadline(
      deadline,
      [args, proof, deadline, stage](std::ostream& out, std::ostream& err) {
        return synth_work(args, proof, deadline, *stage, out, err);
      },
      [limit, stage] {
        const SynthStage at = *stage;
        return "unknown: timeout: the time limit of " + std::to_string(limit.count()) + " ms was reached " +
               (at == SynthStage::Operands      ? "while evaluating the operands"
                : at == SynthStage::Enumeration ? "in the enumeration"
                                                : "in the proof");
      });
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

// Writes a picture in the format of the file's extension (checked when the command line was
// read: picture_format_of). Throws IoError when the file cannot be written.
void write_picture(const Picture& picture, const std::string& path, const std::string& expr) {
  const PictureFormat format = picture_format_of(path, "the output");
  const std::string text = format == PictureFormat::Latex ? to_latex(picture)
                           : format == PictureFormat::Svg ? to_svg(picture)
                                                          : to_html(picture, expr);
  std::ofstream f(path);
  f << text;
  f.close();
  if (!f) throw IoError("cannot write " + path + ": " + std::strerror(errno));
}

// prove --draw: the refutation's counterexample (the `name = value` lines of the report)
// replayed on the claim's two sides, drawn as lhs == rhs when both are layouts. A note on
// stderr when there is nothing to draw; the verdict stands either way. Throws IoError when the
// picture cannot be written.
void draw_refutation(const std::string& claim, const std::string& report, const std::string& path) {
  std::map<std::string, std::int64_t> values;
  std::istringstream lines(report);
  for (std::string line; std::getline(lines, line);) {
    const auto eq = line.find(" = ");
    if (line.rfind("  ", 0) != 0 || eq == std::string::npos) continue;
    const std::string name = line.substr(2, eq - 2), value = line.substr(eq + 3);
    if (name == "lhs" || name == "rhs" || name.find(' ') != std::string::npos) continue;
    try {
      values[name] = std::stoll(value);
    } catch (const std::exception&) {
    }
  }
  try {
    auto [a, b] = cuteref::proofs::concrete_sides(claim, values);
    if (!(a.is_layout() || a.is_composed()) || !(b.is_layout() || b.is_composed())) {
      std::cerr << "prove --draw: the sides are not layouts (" << a.to_string() << ", " << b.to_string()
                << "): nothing drawn\n";
      return;
    }
    std::string instance;
    for (const auto& [n, v] : values) instance += (instance.empty() ? "" : ", ") + n + " = " + std::to_string(v);
    Picture p = draw_comparison(a, b, "lhs = " + a.to_string(), "rhs = " + b.to_string());
    p.comments.insert(p.comments.begin(), "refuted: " + claim + " at " + instance);
    write_picture(p, path, claim + " at " + instance);
  } catch (const IoError&) {
    throw;
  } catch (const Error& e) {
    std::cerr << "prove --draw: " << e.what() << ": nothing drawn\n";
  }
}

int draw_command(const DrawRequest& r) {
  try {
    DrawOptions options;
    options.tile = r.tile;
    options.bank_bits = r.bank_bits;
    const Picture picture = draw_expression(r.expr, options);
    if (r.out_path.empty()) {
      std::cout << to_latex(picture);
      return 0;
    }
    write_picture(picture, r.out_path, r.expr);
    return 0;
  } catch (const IoError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitIo;
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << diagnostic("out of memory") << "\n";
    return 1;
  }
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
  if (cmd == "eval" || cmd == "describe") {
    const char* usage = cmd == "eval" ? "error: usage: cuteref eval [--] 'EXPR'\n"
                                      : "error: usage: cuteref describe [--] 'DESCRIPTOR' ['SHAPE']\n";
    std::vector<std::string> operands;
    try {
      operands = operands_of(std::vector<std::string>(args.begin() + 1, args.end()));
    } catch (const UsageError& e) {
      std::cerr << "error: " << e.what() << "\n" << usage;
      return kExitUsage;
    }
    if (operands.empty() || operands.size() > (cmd == "eval" ? 1U : 2U)) {
      std::cerr << usage;
      return kExitUsage;
    }
    if (cmd == "eval") return eval_command(operands[0]);
    return describe_command(operands[0], operands.size() == 2 ? &operands[1] : nullptr);
  }
  if (cmd == "batch") {
    if (args.size() != 1) {
      std::cerr << "error: usage: cuteref batch (no arguments; it reads stdin)\n";
      return kExitUsage;
    }
    return batch_command();
  }
  if (cmd == "check") {
    CheckRequest req;
    try {
      req = parse_check_arguments(std::vector<std::string>(args.begin() + 1, args.end()));
    } catch (const UsageError& e) {
      std::cerr << "error: " << e.what() << "\nerror: usage: cuteref check [PATH...] [-v] [--html FILE]\n";
      return kExitUsage;
    }
    if (req.html.empty()) return check_command(req.paths, req.verbose);
    CorpusSummary summary;
    int rc;
    std::string text;
    {
      CoutTee tee;
      rc = check_command(req.paths, req.verbose, &summary);
      std::cout.flush();
      text = tee.text();
    }
    return write_report(req.html, "cuteref check", text, rc == 0, summary.refutations) ? rc : kExitIo;
  }
  if (cmd == "verify") {
    std::string html;
    if (args.size() == 3 && args[1] == "--html" && !args[2].empty()) html = args[2];
    else if (args.size() != 1) {
      std::cerr << "error: usage: cuteref verify [--html FILE]\n";
      return kExitUsage;
    }
    return verify_command(argv[0], html);
  }
  if (cmd == "prove") {
    namespace pf = cuteref::proofs;
    const char* usage =
        "error: usage: cuteref prove [--where 'v in [lo,hi]']... [--assume 'PRED']... [--timeout s] [--smt2 FILE] [--draw FILE] [--] 'CLAIM'\n";
    pf::ProveRequest req;
    req.leak_solver_context = true;  // the process ends right after (see ProveRequest)
    std::string draw_path;
    bool have_claim = false;
    // `--` ends the options: a claim that starts with '-' (`--x == x`) follows it.
    bool options_ended = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
      const std::string& a = args[i];
      const bool has_value = i + 1 < args.size();
      if (!options_ended && a == "--") {
        options_ended = true;
        continue;
      }
      if (options_ended) {
        if (have_claim) {
          std::cerr << "error: more than one claim\n" << usage;
          return kExitUsage;
        }
        req.claim = a;
        have_claim = true;
        continue;
      }
      if ((a == "--where" || a == "--assume" || a == "--timeout" || a == "--smt2" || a == "--draw") && !has_value) {
        std::cerr << "error: " << a << " needs a value\n" << usage;
        return kExitUsage;
      }
      if (a == "--where") req.where.push_back(args[++i]);
      else if (a == "--assume") req.assume.push_back(args[++i]);
      else if (a == "--timeout") {
        try {
          req.timeout_s = pf::parse_timeout_seconds(args[++i]);
        } catch (const cuteref::Error& e) {
          std::cerr << "error: " << e.what() << "\n";
          return kExitUsage;
        }
      } else if (a == "--smt2") {
        // An empty FILE names no file (to ProveRequest, an empty smt2_file means none).
        if (args[i + 1].empty()) {
          std::cerr << "error: --smt2 needs a file name, got ''\n" << usage;
          return kExitUsage;
        }
        req.smt2_file = args[++i];
      }
      else if (a == "--draw") {
        if (!draw_path.empty()) {
          std::cerr << "error: --draw given twice\n" << usage;
          return kExitUsage;
        }
        draw_path = args[++i];
        try {
          picture_format_of(draw_path, "--draw");
        } catch (const UsageError& e) {
          std::cerr << "error: " << e.what() << "\n" << usage;
          return kExitUsage;
        }
      }
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
    // --timeout bounds the whole run: the prover checks its deadline in every symbolic
    // operation and interrupts Z3 at it, and where a Z3 call does not stop (some of its
    // preprocessing ignores the interrupt) the command ends without it.
    const auto limit = std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(req.timeout_s * 1000)));
    const auto deadline = std::chrono::steady_clock::now() + limit;
    auto timeout_line = [limit] {
      return "unknown: timeout: the time limit of " + std::to_string(limit.count()) +
             " ms was reached in the solver, which did not stop at its interrupt";
    };
    if (draw_path.empty())
      return run_within_deadline(
          deadline, [req](std::ostream& out, std::ostream& err) { return pf::prove_command(req, out, err); },
          timeout_line);
    std::string text;
    const int rc = run_within_deadline(
        deadline,
        [req, &text](std::ostream& out, std::ostream& err) {
          std::ostringstream held;
          const int r = pf::prove_command(req, held, err);
          text = held.str();
          out << text;
          return r;
        },
        timeout_line);
    if (rc != pf::kProveRefuted) return rc;
    try {
      draw_refutation(req.claim, text, draw_path);
    } catch (const IoError& e) {
      std::cout.flush();
      std::cerr << "prove --draw: " << e.what() << "\n";
      return kExitIo;
    }
    return rc;
  }
  if (cmd == "banks" || cmd == "draw") {
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
      if (cmd == "banks") return banks_command(parse_banks_arguments(rest));
      return draw_command(parse_draw_arguments(rest));
    } catch (const UsageError& e) {
      std::cerr << "error: " << e.what() << "\n"
                << (cmd == "banks" ? "error: usage: cuteref banks INSTR 'ADDR' BITS | cuteref banks 'TILED_COPY' 'SMEM' [S|D]\n"
                                   : "error: usage: cuteref draw 'EXPR' [-o FILE.tex|.svg|.html] [--tile '(M,N)'] [--banks BITS]\n");
      return kExitUsage;
    }
  }
  if (cmd == "synth") {
    if (args.size() < 2) {
      std::cerr << "error: " << kSynthUsage;
      return kExitUsage;
    }
    return synth_command(args);
  }
  if (cmd == "gpu") {
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
      check_gpu_arguments(rest);
    } catch (const UsageError& e) {
      std::cerr << "error: " << e.what() << "\nerror: usage: cuteref gpu [tma|tma_tile|wgmma|attention_chain|dsl|mma|ldmatrix|attention|vendor|all|banks [--out DIR] [--dry-run]]\n";
      return kExitUsage;
    }
    return gpu_command(argv[0], rest);
  }
  std::cerr << "error: unknown command '" << printable(cmd) << "' (see cuteref --help)\n";
  return kExitUsage;
}
}  // namespace
