#include "corpus_runner.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <new>
#include <ostream>
#include <system_error>

#include "command_errors.hpp"
#include "diagnostic_text.hpp"
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

// One case line, split: EXPR => EXPECTED [| claimed: CLAIMED], or EXPR => error: SUBSTRING
// [| claimed: CLAIMED]. `malformed` says why the line is none of these.
struct CaseLine {
  std::string expr, expected, claimed, malformed;
  bool expects_error = false;  // expected is then the SUBSTRING
};

CaseLine split_case(const std::string& t) {
  CaseLine c;
  const auto arrow = t.find("=>");
  if (arrow == std::string::npos) {
    c.malformed = "no '=>'";
    return c;
  }
  if (t.find("=>", arrow + 2) != std::string::npos) {
    c.malformed = "more than one '=>'";
    return c;
  }
  c.expr = trim(t.substr(0, arrow));
  std::string rhs = trim(t.substr(arrow + 2));
  static const std::string claim_mark = "| claimed:";
  if (const auto bar = rhs.find(claim_mark); bar != std::string::npos) {
    if (rhs.find(claim_mark, bar + claim_mark.size()) != std::string::npos) {
      c.malformed = "more than one '| claimed:'";
      return c;
    }
    c.claimed = trim(rhs.substr(bar + claim_mark.size()));
    rhs = trim(rhs.substr(0, bar));
    if (c.claimed.empty()) {
      c.malformed = "'| claimed:' with nothing after it";
      return c;
    }
  }
  if (c.expr.empty()) {
    c.malformed = "no expression before '=>'";
    return c;
  }
  if (rhs.empty()) {
    c.malformed = "nothing after '=>'";
    return c;
  }
  // No value of the language starts with "error": such a right-hand side is the error form,
  // exactly `error: SUBSTRING` with a non-empty SUBSTRING (an empty one matches anything).
  if (rhs.rfind("error", 0) == 0) {
    if (rhs.rfind("error:", 0) != 0 || trim(rhs.substr(6)).empty()) {
      c.malformed = "expected 'error: SUBSTRING' (a non-empty part of the diagnostic), got '" + rhs + "'";
      return c;
    }
    c.expects_error = true;
    c.expected = trim(rhs.substr(6));
    return c;
  }
  c.expected = rhs;
  return c;
}

}  // namespace

void run_corpus_stream(std::istream& in, const std::string& name, std::ostream& out, bool verbose, CorpusSummary& sum) {
  std::string line;
  int line_no = 0;
  std::string comment;  // the comment block above the current case: its derivation
  bool comment_open = false;
  // Every line of the report is one printable line (control bytes of the file escaped).
  auto report = [&](const std::string& text) { out << shortened(printable(text)) << "\n"; };
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
    ++sum.cases;
    const CaseLine c = split_case(t);
    if (!c.malformed.empty()) {
      ++sum.failed;
      report(where + ": FAIL malformed case (" + c.malformed + "): " + t);
      continue;
    }
    const std::string& expr = c.expr;
    // The claim's verdict: it agrees with the (independently derived) expected answer or is
    // refuted, with the correct answer and the difference.
    auto judge_claim = [&](const std::string& verdict, bool agrees) {
      if (agrees) {
        ++sum.claims_agree;
        report(where + ": claim agrees: " + expr + " = " + c.claimed);
        return;
      }
      ++sum.claims_refuted;
      report(where + ": claim refuted: " + verdict);
      sum.refuted_claims.push_back(shortened(printable(where + ": " + verdict)) +
                                   (comment.empty() ? "" : "\n      why: " + printable(comment)));
    };
    try {
      if (c.expects_error) {
        try {
          Value got = parse_and_evaluate(expr, &standard_functions());
          ++sum.failed;
          report(where + ": FAIL " + expr + " gave " + got.to_string() + ", expected a diagnostic");
        } catch (const Error& e) {
          if (std::string(e.what()).find(c.expected) == std::string::npos) {
            ++sum.failed;
            report(where + ": FAIL " + expr + " gave diagnostic '" + e.what() + "', expected one containing '" +
                   c.expected + "'");
          } else {
            ++sum.passed;
            if (verbose) report(where + ": ok " + expr + " -> error: " + e.what());
            // A claimed value where the model (rightly, as the case says) rejects the input.
            if (!c.claimed.empty())
              judge_claim(expr + ": claimed " + c.claimed + ", correct: a diagnostic (" + e.what() + ")", false);
          }
        }
        continue;
      }
      Value got = parse_and_evaluate(expr, &standard_functions());
      Verdict v = matches(got, c.expected);
      // The claim is judged before the case is counted: a claimed text the model rejects
      // makes the case fail once (it was counted passed and failed, found by fuzz/).
      std::optional<Verdict> claim;
      if (!c.claimed.empty()) {
        try {
          claim = matches(got, c.claimed);
        } catch (const Error& e) {
          throw Error(std::string("the claimed value: ") + e.what());
        }
      }
      if (v.holds) {
        ++sum.passed;
        if (verbose) report(where + ": ok " + expr + " -> " + got.to_string());
      } else {
        ++sum.failed;
        report(where + ": FAIL " + expr + ": " + v.reason);
      }
      if (claim) {
        const bool boolean = c.claimed == "true" || c.claimed == "false";
        const std::string diff =
            claim->holds || boolean
                ? ""
                : functional_equal(got, parse_and_evaluate(c.claimed, &standard_functions())).reason;
        judge_claim(expr + ": claimed " + c.claimed + ", correct " + got.to_string() + (diff.empty() ? "" : " (" + diff + ")"),
                    claim->holds);
        if (!claim->holds) sum.refutations.push_back({where, expr, c.claimed, got.to_string(), diff, comment});
      }
    } catch (const Error& e) {
      ++sum.failed;
      report(where + ": FAIL " + expr + ": error: " + e.what());
    } catch (const std::bad_alloc&) {
      ++sum.failed;
      report(where + ": FAIL " + expr + ": error: out of memory");
    }
  }
  if (in.bad()) {
    ++sum.unreadable;
    report(name + ": FAIL cannot read the file to its end");
  }
}

// What a path that is neither a regular file nor a directory is, for the report.
std::string kind_of(const std::filesystem::path& p) {
  std::error_code ec;
  const auto link = std::filesystem::symlink_status(p, ec);
  const auto target = std::filesystem::status(p, ec);
  if (std::filesystem::is_symlink(link) && !std::filesystem::exists(target)) return "a dangling symbolic link";
  if (std::filesystem::is_symlink(link) && std::filesystem::is_directory(target))
    return "a symbolic link to a directory (not followed: name the directory itself)";
  if (std::filesystem::is_fifo(target)) return "a FIFO";
  if (std::filesystem::is_socket(target)) return "a socket";
  if (std::filesystem::is_block_file(target) || std::filesystem::is_character_file(target)) return "a device";
  return "not a regular file";
}

namespace {

void run_file(const std::filesystem::path& file, std::ostream& out, bool verbose, CorpusSummary& sum) {
  std::ifstream in(file);
  if (!in) throw IoError("cannot read corpus file " + file.string());
  run_corpus_stream(in, file.string(), out, verbose, sum);
}

}  // namespace

CorpusSummary run_corpus(const std::vector<std::string>& paths, std::ostream& out, bool verbose) {
  CorpusSummary sum;
  std::vector<std::filesystem::path> files;
  // An entry the walk can neither read as a file nor enter is reported, not skipped.
  auto unreadable = [&](const std::filesystem::path& p, const std::string& why) {
    ++sum.unreadable;
    out << printable(p.string() + ": FAIL " + why) << "\n";
  };
  for (const auto& p : paths) {
    std::filesystem::path path(p);
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      namespace fs = std::filesystem;
      fs::recursive_directory_iterator it(path, fs::directory_options::none, ec), end;
      if (ec) unreadable(path, "cannot read the directory: " + ec.message());
      for (; !ec && it != end; it.increment(ec)) {
        const fs::path& e = it->path();
        std::error_code type_error;
        if (it->is_symlink(type_error) && !it->is_directory(type_error) && !it->is_regular_file(type_error)) {
          unreadable(e, kind_of(e));  // dangling
          continue;
        }
        if (it->is_symlink(type_error) && it->is_directory(type_error)) {
          unreadable(e, kind_of(e));
          continue;
        }
        if (it->is_directory(type_error)) continue;  // entered by the walk
        if (it->is_regular_file(type_error)) {
          if (e.extension() == ".txt") files.push_back(e);
          continue;
        }
        unreadable(e, kind_of(e));
      }
      if (ec) unreadable(path, "the walk stopped: " + ec.message());
    } else if (std::filesystem::is_regular_file(path, ec)) {
      files.push_back(path);
    } else if (std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
      throw IoError("corpus path " + p + " is " + kind_of(path) + ", not a corpus file or directory");
    } else {
      throw IoError("corpus path " + p + " does not exist");
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) run_file(f, out, verbose, sum);
  return sum;
}

}  // namespace cuteref
