#include "law_report.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <vector>

namespace cuteref::props {
namespace {

struct LawCounts {
  std::int64_t random = 0;
  std::vector<std::pair<std::string, std::int64_t>> exhaustive;
  std::vector<std::pair<std::string, bool>> mutants;
};

std::map<std::string, LawCounts>& registry() {
  static std::map<std::string, LawCounts> r;
  return r;
}

// Prints the per-law table at the end of the run and fails the run where a law was
// exercised but some part of it checked nothing, or a mutant escaped.
class ReportEnvironment : public ::testing::Environment {
 public:
  void TearDown() override {
    std::cout << "\n=== property suite: per-law summary ===\n";
    std::int64_t total_random = 0, total_exhaustive = 0;
    int caught = 0, mutants = 0;
    for (const auto& [law, c] : registry()) {
      std::int64_t ex = 0;
      for (const auto& e : c.exhaustive) ex += e.second;
      int law_caught = 0;
      for (const auto& m : c.mutants) law_caught += m.second ? 1 : 0;
      std::cout << std::left << std::setw(28) << law << " random " << std::setw(6) << c.random << " exhaustive "
                << std::setw(9) << ex << " mutants caught " << law_caught << "/" << c.mutants.size() << "\n";
      for (const auto& e : c.exhaustive) std::cout << "    universe: " << e.first << ": " << e.second << "\n";
      for (const auto& m : c.mutants) std::cout << "    mutant: " << m.first << (m.second ? ": caught" : ": ESCAPED") << "\n";
      total_random += c.random;
      total_exhaustive += ex;
      caught += law_caught;
      mutants += static_cast<int>(c.mutants.size());
      if (c.random == 0 && ex == 0 && !c.mutants.empty()) ADD_FAILURE() << law << ": mutants run, but the law itself checked no case";
      for (const auto& e : c.exhaustive)
        if (e.second == 0) ADD_FAILURE() << law << ": exhaustive universe '" << e.first << "' checked no case";
    }
    std::cout << "total: " << registry().size() << " laws, " << total_random << " random cases, " << total_exhaustive
              << " exhaustive cases, " << caught << "/" << mutants << " mutants caught\n";
    if (registry().empty()) ADD_FAILURE() << "the property suite checked nothing";
  }
};

// Mutant runs are expected to fail: keep RapidCheck's end-of-run "to reproduce" banner for
// real failures only.
class QuietListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

const bool registered = [] {
  ::testing::AddGlobalTestEnvironment(new ReportEnvironment);
  return true;
}();

}  // namespace

void count_random(const std::string& law) { ++registry()[law].random; }

void count_exhaustive(const std::string& law, const std::string& universe, std::int64_t cases) {
  registry()[law].exhaustive.emplace_back(universe, cases);
  std::cout << "[" << law << "] exhaustive: " << universe << ": " << cases << " cases\n";
}

void record_mutant(const std::string& law, const std::string& mutant, bool caught, const std::string& counterexample) {
  registry()[law].mutants.emplace_back(mutant, caught);
  std::cout << "[" << law << "] mutant '" << mutant << "': " << (caught ? "caught" : "ESCAPED") << "\n"
            << counterexample << "\n";
}

void expect_mutant_caught(const std::string& law, const std::string& mutant, const std::function<void()>& property) {
  rc::detail::TestMetadata metadata;
  metadata.id = law + "/mutant/" + mutant;
  metadata.description = metadata.id;
  QuietListener listener;
  const auto result = rc::detail::checkProperty(rc::detail::toProperty(property), metadata,
                                                rc::detail::configuration().testParams, listener);
  rc::detail::FailureResult failure;
  if (!result.match(failure)) {
    std::ostringstream os;
    rc::detail::printResultMessage(result, os);
    record_mutant(law, mutant, false, os.str());
    ADD_FAILURE() << "the law '" << law << "' did not catch the broken variant '" << mutant << "': " << os.str();
    return;
  }
  std::ostringstream os;
  os << "  shrunk counterexample after " << failure.numSuccess << " passing cases:\n";
  for (const auto& [type, value] : failure.counterExample) os << "    " << type << ": " << value << "\n";
  os << "  violation: " << failure.description;
  record_mutant(law, mutant, true, os.str());
}

}  // namespace cuteref::props
