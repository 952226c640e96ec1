// cuteref: the command-line tool (DESIGN.md, "The command-line contract").
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>
#include <iostream>
#include <string>
#include <vector>

#include "corpus_runner.hpp"
#include "descriptor.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "identity_layout.hpp"
#include "notation.hpp"
#include "claim.hpp"
#include "laws.hpp"

#ifndef CUTEREF_SOURCE_DIR
#define CUTEREF_SOURCE_DIR "."
#endif

namespace {

using namespace cuteref;

void print_help(std::ostream& out) {
  out << "cuteref: reference model of CuTe's layout algebra\n\n"
         "Commands:\n"
         "  cuteref eval 'EXPR'        print the value of EXPR in CuTe notation; exit 1 with a diagnostic on error\n"
         "  cuteref batch              read one EXPR per stdin line, print exactly one line each;\n"
         "                             errors print as `error: ...` (exit 0 unless stdin fails)\n"
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
         "                             [0, 2^63-1]; exit 0 proved, 1 refuted, 2 unknown; --smt2 writes the queries\n"
         "  cuteref gpu [tma|tma_tile|wgmma|mma|ldmatrix|vendor|all]\n"
         "                             the GPU differential harness (real TMA, WGMMA, mma.sync, ldmatrix vs the model);\n"
         "                             exits 77 with a message when no GPU (or no harness) is present\n"
         "  cuteref --help             this text\n\n"
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
  try {
    std::cout << parse_and_evaluate(expr, &standard_functions()).to_string() << "\n";
    return 0;
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

int batch_command() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    try {
      std::cout << parse_and_evaluate(line, &standard_functions()).to_string() << "\n";
    } catch (const Error& e) {
      std::cout << "error: " << e.what() << "\n";
    }
  }
  std::cout.flush();
  return std::cin.bad() ? 1 : 0;
}

// describe: the normalized descriptor, one line per basis saying what a step along its mode
// adds, and with a shape the layout shape:descriptor.
int describe_command(const std::string& text, const std::string* shape_text) {
  try {
    const Descriptor d = normalize(parse_descriptor(text));
    const IntTuple stride = to_stride(d);
    // Everything is computed before anything is printed: on error only the diagnostic shows.
    std::string out = "descriptor: " + d.to_string() + "\nstride: " + stride.to_string() + "\n";
    for (const auto& line : explain(d)) out += line + "\n";
    if (shape_text) {
      const IntTuple shape = parse_int_tuple(*shape_text);
      const Layout l = to_layout(d, shape);
      out += "layout: " + l.to_string() + "\nsize: " + size(l).to_string() + "\n";
      if (stride.same_values(make_basis_like(shape)))
        out += "identity layout of " + shape.to_string() + ": L(i) is the coordinate of i\n";
    }
    std::cout << out;
    return 0;
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
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
      for (const auto& r : s.refuted_claims) std::cout << "  " << r << "\n";
    }
    if (s.cases == 0) {
      std::cout << "corpus: no cases found: nothing was checked\n";
      return 1;
    }
    return s.failed == 0 ? 0 : 1;
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
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
  FILE* pipe = popen(("'" + suite.string() + "' 2>&1").c_str(), "r");
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

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    print_help(std::cerr);
    return 2;
  }
  const std::string& cmd = args[0];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    print_help(std::cout);
    return 0;
  }
  if (cmd == "eval") {
    if (args.size() != 2) {
      std::cerr << "error: usage: cuteref eval 'EXPR'\n";
      return 2;
    }
    return eval_command(args[1]);
  }
  if (cmd == "describe") {
    if (args.size() != 2 && args.size() != 3) {
      std::cerr << "error: usage: cuteref describe 'DESCRIPTOR' ['SHAPE']\n";
      return 2;
    }
    return describe_command(args[1], args.size() == 3 ? &args[2] : nullptr);
  }
  if (cmd == "batch") return batch_command();
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
    cuteref::proofs::ProveRequest req;
    bool have_claim = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
      const std::string& a = args[i];
      const bool has_value = i + 1 < args.size();
      if (a == "--where" && has_value) req.where.push_back(args[++i]);
      else if (a == "--timeout" && has_value) {
        try {
          req.timeout_s = std::stod(args[++i]);
        } catch (const std::exception&) {
          std::cerr << "error: --timeout expects seconds, got '" << args[i] << "'\n";
          return 2;
        }
      } else if (a == "--smt2" && has_value) req.smt2_file = args[++i];
      else if (!have_claim && a.rfind("--", 0) != 0) {
        req.claim = a;
        have_claim = true;
      } else {
        std::cerr << "error: usage: cuteref prove 'CLAIM' [--where 'v in [lo,hi]']... [--timeout s] [--smt2 FILE]\n";
        return 2;
      }
    }
    if (!have_claim) {
      std::cerr << "error: usage: cuteref prove 'CLAIM' [--where 'v in [lo,hi]']... [--timeout s] [--smt2 FILE]\n";
      return 2;
    }
    return cuteref::proofs::prove_command(req, std::cout, std::cerr);
  }
  if (cmd == "gpu") return gpu_command(argv[0], std::vector<std::string>(args.begin() + 1, args.end()));
  std::cerr << "error: unknown command '" << cmd << "' (see cuteref --help)\n";
  return 2;
}
