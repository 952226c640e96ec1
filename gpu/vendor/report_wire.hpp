// A KernelReport crosses the process boundary of run_isolated (a probe's child) as one line:
// checks separated by \x1e, a check's fields (kind, what, ok, detail) by \x1f; newlines in the
// text become spaces. decode(encode(r)) gives r's checks back.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "vendor_case.hpp"

namespace cuteref_gpu::vendor {

inline std::string encode_report(const KernelReport& r) {
  std::string s;
  for (const auto& c : r.checks) {
    if (!s.empty()) s += '\x1e';
    s += c.kind + '\x1f' + c.what + '\x1f' + (c.ok ? "1" : "0") + '\x1f' + c.detail;
  }
  for (char& ch : s)
    if (ch == '\n') ch = ' ';
  return s;
}

inline std::vector<Check> decode_report(const std::string& s) {
  std::vector<Check> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t end = std::min(s.find('\x1e', start), s.size());
    const std::string item = s.substr(start, end - start);
    std::vector<std::string> f;
    std::size_t a = 0;
    for (std::size_t b; (b = item.find('\x1f', a)) != std::string::npos; a = b + 1) f.push_back(item.substr(a, b - a));
    f.push_back(item.substr(a));
    if (f.size() == 4) out.push_back({f[0], f[1], f[2] == "1", f[3]});
    start = end + 1;
  }
  return out;
}

}  // namespace cuteref_gpu::vendor
