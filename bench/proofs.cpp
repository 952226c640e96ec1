// bench_proofs: the time of each named law's proof (proofs/laws.hpp), as a Markdown table
// for the README. Run by hand: build/bench/bench_proofs [--repeats R] (the median of R runs).
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "laws.hpp"

using namespace cuteref::proofs;

int main(int argc, char** argv) {
  int repeats = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeats" && i + 1 < argc) repeats = std::max(1, std::stoi(argv[++i]));
    else {
      std::cerr << "usage: bench_proofs [--repeats R]\n";
      return 2;
    }
  }
  std::cout << "| law | verdict | solver time (ms, median of " << repeats << ") | Z3 proofs | branch cases |\n"
            << "|---|---|---:|---:|---:|\n";
  bool all_ok = true;
  for (const Law& law : named_laws()) {
    std::vector<double> ms;
    LawResult r;
    for (int k = 0; k < repeats; ++k) {
      r = law.run(ProofOptions{});
      ms.push_back(r.ms);
    }
    std::sort(ms.begin(), ms.end());
    all_ok = all_ok && law_passed(law, r);
    std::cout << "| " << law.name << " | " << status_name(r.status) << (law_passed(law, r) ? "" : " (FAIL)") << " | "
              << static_cast<long long>(ms[ms.size() / 2] + 0.5) << " | " << r.proofs << " | " << r.paths << " |\n";
  }
  return all_ok ? 0 : 1;
}
