// The fuzz target: one input (bytes, read as text lines) runs through every entry point
// that reads user text, the same code the CLI runs:
//   batch     every line, as `cuteref batch` and `eval` answer it (cli/line_commands.hpp answer)
//   describe  line 1 as the descriptor, line 2 (if any) as the shape
//   corpus    the whole input as a corpus file (cli/corpus_runner.hpp)
//   prove     line 1 as the claim, the other non-empty lines as prove's options: `--timeout S`
//             (parse_timeout_seconds), `--where TEXT` or a bare TEXT (a --where range); the
//             claim is parsed and evaluated on the concrete model at the lower and at the upper
//             bounds of the variables (never the solver: too slow for a fuzz loop; the
//             differential fuzzer fuzz/prove_fuzz runs it)
//   arguments every line one command-line argument of `draw`, `banks` and `check`
//             (cli/command_arguments.hpp): accepted, or refused with a UsageError (exit 64),
//             never another exception
// A finding is a crash, a hang, a sanitizer report, an exception other than cuteref::Error
// escaping, or a broken contract checked below (abort with a message):
//   - a batch output line (value or diagnostic) holds no line break: one line per input line;
//   - no answer is an `internal error` (an exception other than cuteref::Error that the CLI
//     turns into a line rather than crash) or `out of memory`;
//   - a printed value parses back to a value that prints the same (CuTe notation round trip);
//   - a normalized descriptor's text normalizes to itself (descriptor.hpp's round trip);
//   - the corpus runner counts every case once: cases == passed + failed;
//   - an accepted --timeout is a number of seconds in [0.001, kMaxProveTimeoutSeconds];
//   - a concrete evaluation of a claim answers one line: `equal`, `differ: ...` or
//     `unsupported: ...`.
// Built two ways (fuzz/meson.build): with libFuzzer (clang, -Dfuzz=true) and, in every build,
// with replay_main.cpp, which runs saved inputs (fuzz/regressions/) as a unit test.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "claim.hpp"
#include "command_arguments.hpp"
#include "corpus_runner.hpp"
#include "descriptor.hpp"
#include "enumeration_budget.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "line_commands.hpp"
#include "notation.hpp"

namespace {

using namespace cuteref;

[[noreturn]] void contract_broken(const std::string& what, const std::string& text) {
  std::fprintf(stderr, "fuzz: contract broken: %s\n  input line: %s\n", what.c_str(), text.c_str());
  std::abort();
}

// Lines as `batch` reads them: split at '\n', one trailing '\r' dropped.
std::vector<std::string> lines_of(const std::string& input) {
  std::vector<std::string> lines;
  std::istringstream in(input);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

// Values whose printed form is notation the parser reads back. Not: a Verdict (`true` /
// `false: why` is a report), nor a tuple with scaled-basis leaves such as descriptor(1@0)'s
// `(1@0)` (the notation allows a basis only as a layout's stride).
bool prints_notation(const Value& v) {
  if (std::holds_alternative<Verdict>(v.data)) return false;
  if (const auto* t = std::get_if<IntTuple>(&v.data)) return !t->has_basis();
  if (const auto* m = std::get_if<MixedTuple>(&v.data)) {
    for (const Value& e : m->elements)
      if (!prints_notation(e)) return false;
  }
  return true;
}

void run_batch_line(const std::string& line) {
  bool failed = false;
  const std::string out = answer(line, failed);
  if (out.find('\n') != std::string::npos) contract_broken("a batch output line holds a line break: " + out, line);
  if (out.rfind("error: internal error", 0) == 0 || out.rfind("error: out of memory", 0) == 0)
    contract_broken("the answer is " + out, line);
  if (failed) return;
  std::optional<Value> v;
  try {
    v = parse_and_evaluate(line, &standard_functions());
  } catch (const Error&) {
    return;  // the input's enumeration budget ran out (LLVMFuzzerTestOneInput)
  }
  if (!prints_notation(*v)) return;
  std::string again;
  try {
    again = parse_and_evaluate(out, &standard_functions()).to_string();
  } catch (const Error& e) {
    contract_broken("the printed value `" + out + "` does not parse back: " + e.what(), line);
  }
  if (again != out) contract_broken("the printed value `" + out + "` parses back to `" + again + "`", line);
}

void run_describe(const std::vector<std::string>& lines) {
  if (lines.empty()) return;
  const std::string* shape = lines.size() > 1 ? &lines[1] : nullptr;
  try {
    describe_report(lines[0], shape);
  } catch (const Error&) {
    return;
  }
  const std::string normalized = normalize(parse_descriptor(lines[0])).to_string();
  std::string again;
  try {
    again = normalize(parse_descriptor(normalized)).to_string();
  } catch (const Error& e) {
    contract_broken("the normalized descriptor `" + normalized + "` does not parse back: " + e.what(), lines[0]);
  }
  if (again != normalized) contract_broken("the normalized descriptor `" + normalized + "` normalizes to `" + again + "`", lines[0]);
}

void run_corpus_text(const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out;
  CorpusSummary sum;
  try {
    run_corpus_stream(in, "fuzz", out, false, sum);
  } catch (const Error&) {
    return;
  }
  if (sum.cases != sum.passed + sum.failed)
    contract_broken("corpus counts: " + std::to_string(sum.cases) + " cases, " + std::to_string(sum.passed) +
                        " passed, " + std::to_string(sum.failed) + " failed",
                    input);
}

// `--timeout TEXT` as prove's command line reads it: refused with cuteref::Error, or a time
// limit the prover accepts.
void run_timeout_option(const std::string& text) {
  double seconds = 0;
  try {
    seconds = proofs::parse_timeout_seconds(text);
  } catch (const Error&) {
    return;
  }
  if (!(seconds >= 0.001) || seconds > proofs::kMaxProveTimeoutSeconds)
    contract_broken("--timeout accepted " + std::to_string(seconds) + " s, outside [0.001, 86400]", text);
}

void run_claim(const std::vector<std::string>& lines) {
  if (lines.empty()) return;
  std::vector<std::string> where;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string& option = lines[i];
    if (option.rfind("--timeout ", 0) == 0) run_timeout_option(option.substr(10));
    else if (option.rfind("--where ", 0) == 0) where.push_back(option.substr(8));
    else if (!option.empty()) where.push_back(option);
  }
  for (bool upper : {false, true}) {
    std::string answer;
    try {
      answer = proofs::evaluate_claim_concretely(lines[0], where, upper);
    } catch (const Error&) {
      continue;
    }
    const bool one_line = answer.find('\n') == std::string::npos;
    if (!one_line || !(answer == "equal" || answer.rfind("differ: ", 0) == 0 || answer.rfind("unsupported: ", 0) == 0))
      contract_broken("the concrete evaluation of a claim answers `" + answer + "`", lines[0]);
  }
}

// A malformed command line is a UsageError; any other exception escapes and is a finding.
void run_arguments(const std::vector<std::string>& lines) {
  const auto accepted_or_usage_error = [](auto parse) {
    try {
      parse();
    } catch (const UsageError&) {
    }
  };
  accepted_or_usage_error([&] { parse_draw_arguments(lines); });
  accepted_or_usage_error([&] { parse_banks_arguments(lines); });
  accepted_or_usage_error([&] { parse_check_arguments(lines); });
  accepted_or_usage_error([&] { check_gpu_arguments(lines); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  // One enumeration budget for the whole input (every evaluation below shares it), so that an
  // input's time is bounded whatever number of lines repeats the costliest operations: each
  // line alone may enumerate 2^24 elements, about 6-9 s in this sanitized build.
  const EnumerationBudgetScope budget;
  const std::vector<std::string> lines = lines_of(input);
  for (const auto& line : lines) run_batch_line(line);
  run_describe(lines);
  run_corpus_text(input);
  run_claim(lines);
  run_arguments(lines);
  return 0;
}
