#include "corpus_runner.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "equality.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"

namespace cuteref {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Compares a computed value with an expected text: `true`, `false`, or a value.
Verdict matches(const Value& got, const std::string& expected) {
  if (expected == "true" || expected == "false") {
    if (!std::holds_alternative<Verdict>(got.data)) return {false, "expected a comparison, got " + got.to_string()};
    bool holds = std::get<Verdict>(got.data).holds;
    if (holds == (expected == "true")) return {true, ""};
    return {false, "got " + got.to_string()};
  }
  Value want = parse_and_evaluate(expected, &standard_functions());
  Verdict v = functional_equal(got, want);
  if (!v.holds) v.reason = "got " + got.to_string() + ", expected " + expected + " (" + v.reason + ")";
  return v;
}

}  // namespace

void run_corpus_stream(std::istream& in, const std::string& name, std::ostream& out, bool verbose, CorpusSummary& sum) {
  std::string line;
  int line_no = 0;
  std::string comment;  // the comment block above the current case: its derivation
  bool comment_open = false;
  while (std::getline(in, line)) {
    ++line_no;
    const std::string t = trim(line);
    if (t.empty()) {
      comment_open = false;
      continue;
    }
    if (t[0] == '#') {
      if (!comment_open) comment.clear();
      comment_open = true;
      if (!comment.empty()) comment += ' ';
      comment += trim(t.substr(1));
      continue;
    }
    comment_open = false;
    const std::string where = name + ":" + std::to_string(line_no);
    const auto arrow = t.find("=>");
    ++sum.cases;
    if (arrow == std::string::npos) {
      ++sum.failed;
      out << where << ": FAIL malformed case (no '=>'): " << t << "\n";
      continue;
    }
    const std::string expr = trim(t.substr(0, arrow));
    std::string rhs = trim(t.substr(arrow + 2));
    std::string claimed;
    if (auto bar = rhs.find("| claimed:"); bar != std::string::npos) {
      claimed = trim(rhs.substr(bar + 10));
      rhs = trim(rhs.substr(0, bar));
    }
    try {
      if (rhs.rfind("error", 0) == 0) {
        const std::string needle = rhs.size() > 6 && rhs[5] == ':' ? trim(rhs.substr(6)) : "";
        try {
          Value got = parse_and_evaluate(expr, &standard_functions());
          ++sum.failed;
          out << where << ": FAIL " << expr << " gave " << got.to_string() << ", expected a diagnostic\n";
        } catch (const Error& e) {
          if (std::string(e.what()).find(needle) == std::string::npos) {
            ++sum.failed;
            out << where << ": FAIL " << expr << " gave diagnostic '" << e.what() << "', expected one containing '"
                << needle << "'\n";
          } else {
            ++sum.passed;
            if (verbose) out << where << ": ok " << expr << " -> error: " << e.what() << "\n";
          }
        }
        continue;
      }
      Value got = parse_and_evaluate(expr, &standard_functions());
      Verdict v = matches(got, rhs);
      if (v.holds) {
        ++sum.passed;
        if (verbose) out << where << ": ok " << expr << " -> " << got.to_string() << "\n";
      } else {
        ++sum.failed;
        out << where << ": FAIL " << expr << ": " << v.reason << "\n";
      }
      if (!claimed.empty()) {
        Verdict c = matches(got, claimed);
        if (c.holds) {
          ++sum.claims_agree;
          out << where << ": claim agrees: " << expr << " = " << claimed << "\n";
        } else {
          ++sum.claims_refuted;
          const bool boolean = claimed == "true" || claimed == "false";
          const std::string diff =
              boolean ? "" : functional_equal(got, parse_and_evaluate(claimed, &standard_functions())).reason;
          const std::string verdict = expr + ": claimed " + claimed + ", correct " + got.to_string() +
                                      (diff.empty() ? "" : " (" + diff + ")");
          out << where << ": claim refuted: " << verdict << "\n";
          sum.refuted_claims.push_back(where + ": " + verdict + (comment.empty() ? "" : "\n      why: " + comment));
        }
      }
    } catch (const Error& e) {
      ++sum.failed;
      out << where << ": FAIL " << expr << ": error: " << e.what() << "\n";
    }
  }
}

namespace {

void run_file(const std::filesystem::path& file, std::ostream& out, bool verbose, CorpusSummary& sum) {
  std::ifstream in(file);
  if (!in) throw Error("cannot read corpus file " + file.string());
  run_corpus_stream(in, file.string(), out, verbose, sum);
}

}  // namespace

CorpusSummary run_corpus(const std::vector<std::string>& paths, std::ostream& out, bool verbose) {
  CorpusSummary sum;
  std::vector<std::filesystem::path> files;
  for (const auto& p : paths) {
    std::filesystem::path path(p);
    if (std::filesystem::is_directory(path)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(path))
        if (e.is_regular_file() && e.path().extension() == ".txt") files.push_back(e.path());
    } else if (std::filesystem::is_regular_file(path)) {
      files.push_back(path);
    } else {
      throw Error("corpus path " + p + " does not exist");
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) run_file(f, out, verbose, sum);
  return sum;
}

}  // namespace cuteref
