#include "vendor_probe.hpp"

#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "cute_device_probe.hpp"
#include "isolated_runner.hpp"
#include "report_wire.hpp"
#include "vendor_case.hpp"

namespace cuteref_gpu {

ProbeTally run_vendor_probe(std::ostream& out) {
  ProbeTally tally;
  const auto& kernels = vendor::registered_kernels();
  const std::vector<CaseOutcome> results = run_isolated(kernels.size(), [&](std::size_t i) {
    const vendor::KernelReport r = kernels[i].run(kernels[i].spec);
    bool ok = true;
    for (const auto& c : r.checks) ok = ok && c.ok;
    return CaseOutcome{true, ok, false, "\x1d" + vendor::encode_report(r)};
  });
  std::map<std::string, std::pair<int, int>> totals;  // kind -> (ok, all)
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const vendor::GemmSpec& s = kernels[i].spec;
    const CaseOutcome& o = results[i];
    if (o.message.empty() || o.message[0] != '\x1d') {  // the kernel's process died or threw
      ++tally.failed;
      out << "FAIL vendor " << s.name << ": " << (o.message.empty() ? "no result" : o.message) << "\n";
      continue;
    }
    std::map<std::string, std::pair<int, int>> counts;
    for (const vendor::Check& c : vendor::decode_report(o.message.substr(1))) {
      auto& k = counts[c.kind];
      ++k.second;
      ++totals[c.kind].second;
      if (c.ok) {
        ++k.first;
        ++totals[c.kind].first;
        ++tally.passed;
      } else {
        ++tally.failed;
      }
      if (c.kind == "control")
        out << (c.ok ? "negative control " : "FAIL negative control ") << s.name << ": " << c.what << ": " << c.detail << "\n";
      else if (!c.ok)
        out << "FAIL vendor " << s.name << " " << c.kind << " " << c.what << ": " << c.detail << "\n";
    }
    auto cell = [&](const char* kind) {
      const auto& k = counts[kind];
      return std::to_string(k.first) + "/" + std::to_string(k.second);
    };
    out << "vendor " << s.name << " (" << s.atom << " x " << s.atoms_m << "x1x1, " << (s.stages ? std::to_string(s.stages) : std::string("CUTLASS's")) << " stages): host " << cell("host")
        << ", placement " << cell("placement") << ", result " << cell("result") << ", controls " << cell("control")
        << " caught\n";
    // A kernel with no check of some kind counts as a failure: nothing was compared.
    for (const char* kind : {"host", "placement", "result", "control"})
      if (counts[kind].second == 0) {
        ++tally.failed;
        out << "FAIL vendor " << s.name << ": no " << kind << " comparison ran\n";
      }
  }
  out << "vendor kernels: " << kernels.size() << " CUTLASS SM90 GEMMs";
  for (const auto& [kind, pt] : totals) out << ", " << kind << " " << pt.first << "/" << pt.second;
  out << "\n";
  const ProbeTally device = run_cute_device_probe(out);
  tally.passed += device.passed;
  tally.failed += device.failed;
  return tally;
}

}  // namespace cuteref_gpu
