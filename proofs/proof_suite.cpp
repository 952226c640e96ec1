// proof_suite: runs the named laws (all, or those given with --law), printing each law's
// verdict, time, number of proofs and model branches, and the concrete corner check.
// Exit 0 when every law ends as expected. --smt2-dir DIR writes each law's queries to
// DIR/NAME.smt2 for a second solver (proofs/recheck_smt2.sh): written whole under another name
// and renamed, so that a reader never sees a partial file. --list prints the laws' names.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "error.hpp"
#include "laws.hpp"

using namespace cuteref::proofs;

int main(int argc, char** argv) {
  std::vector<std::string> only;
  std::string smt2_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--law" && i + 1 < argc) only.push_back(argv[++i]);
    else if (a == "--smt2-dir" && i + 1 < argc) smt2_dir = argv[++i];
    else if (a == "--list") {
      for (const Law& law : named_laws()) std::cout << law.name << "\n";
      return 0;
    } else {
      std::cerr << "usage: proof_suite [--law NAME]... [--smt2-dir DIR] | --list\n";
      return 2;
    }
  }
  if (!smt2_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(smt2_dir, ec);
    if (ec) {
      std::cerr << "proof_suite: cannot create --smt2-dir " << smt2_dir << ": " << ec.message() << "\n";
      return 2;
    }
  }
  std::size_t run = 0, passed = 0;
  for (const Law& law : named_laws()) {
    bool wanted = only.empty();
    for (const auto& n : only) wanted = wanted || n == law.name;
    if (!wanted) continue;
    ++run;
    LawResult r;
    try {
      ProofOptions options;
      options.keep_all_smt2 = !smt2_dir.empty();  // the second solver re-checks every query
      r = law.run(options);
    } catch (const cuteref::Error& e) {
      r.detail = std::string("error: ") + e.what();
    }
    const bool ok = law_passed(law, r);
    passed += ok;
    std::cout << "law " << law.name << ": " << status_name(r.status) << " (" << static_cast<long long>(r.ms)
              << " ms; " << r.proofs << " proofs, " << r.paths << " branch cases"
              << (r.unreachable ? " (" + std::to_string(r.unreachable) + " unreachable)" : std::string())
              << "; corner: " << r.corner_cases
              << " concrete cases enumerated" << (r.corner_failure.empty() ? "" : ", FAILED at " + r.corner_failure)
              << ") " << (ok ? "PASS" : "FAIL (expected " + status_name(law.expected) + ")") << "\n"
              << "    " << law.statement << "\n";
    if (!r.detail.empty()) std::cout << "    " << r.detail << "\n";
    if (!smt2_dir.empty() && !r.smt2.empty()) {
      ProofOutcome o;
      o.smt2 = r.smt2;
      const std::string path = smt2_dir + "/" + law.name + ".smt2";
      {
        std::ofstream out(path + ".partial");
        out << smt2_script(o);
        if (!out.flush()) {
          std::cerr << "proof_suite: cannot write " << path << ".partial\n";
          return 2;
        }
      }
      std::error_code ec;
      std::filesystem::rename(path + ".partial", path, ec);
      if (ec) {
        std::cerr << "proof_suite: cannot rename " << path << ".partial: " << ec.message() << "\n";
        return 2;
      }
    }
  }
  std::cout << "proof suite: " << passed << " of " << run << " laws as expected\n";
  if (run == 0) {
    std::cout << "proof suite: no law selected: nothing was checked\n";
    return 1;
  }
  return passed == run ? 0 : 1;
}
