#include "variable_ranges.hpp"

#include <cctype>
#include <limits>

#include "error.hpp"

namespace cuteref::proofs {

namespace {

// One `--where` text: "v in [lo,hi]", blanks allowed around the tokens (at least one after v
// and after `in`), v a lower-case name, lo and hi 64-bit decimal integers with lo <= hi. A
// scanner, not a regular expression: std::regex recursed once per character (a 30,000-byte
// --where overflowed the stack).
std::pair<std::string, VariableRange> parse_one_where(const std::string& w) {
  std::size_t k = 0;
  auto fail = [&](const std::string& what) -> void {
    throw Error("--where '" + w + "': column " + std::to_string(k + 1) + ": " + what + " (expected 'v in [lo,hi]')");
  };
  auto blanks = [&] {
    const std::size_t start = k;
    while (k < w.size() && std::isspace(static_cast<unsigned char>(w[k]))) ++k;
    return k > start;
  };
  auto literal = [&](char c) {
    blanks();
    if (k >= w.size() || w[k] != c) fail(std::string("expected '") + c + "'");
    ++k;
  };
  auto integer = [&]() -> std::int64_t {
    blanks();
    const std::size_t start = k;
    const bool negative = k < w.size() && w[k] == '-';
    if (negative) ++k;
    if (k >= w.size() || !std::isdigit(static_cast<unsigned char>(w[k]))) fail("expected an integer");
    std::int64_t v = 0;  // accumulated as a negative number to reach INT64_MIN
    for (; k < w.size() && std::isdigit(static_cast<unsigned char>(w[k])); ++k) {
      const int d = w[k] - '0';
      if (v < (std::numeric_limits<std::int64_t>::min() + d) / 10) {
        k = start;
        fail("bound does not fit in 64 bits");
      }
      v = v * 10 - d;
    }
    if (!negative) {
      if (v == std::numeric_limits<std::int64_t>::min()) {
        k = start;
        fail("bound does not fit in 64 bits");
      }
      v = -v;
    }
    return v;
  };
  blanks();
  const std::size_t name_start = k;
  if (k >= w.size() || !std::islower(static_cast<unsigned char>(w[k]))) fail("expected a lower-case variable name");
  while (k < w.size() && (std::isalnum(static_cast<unsigned char>(w[k])) || w[k] == '_')) ++k;
  const std::string name = w.substr(name_start, k - name_start);
  if (!blanks() || w.compare(k, 2, "in") != 0) fail("expected 'in' after the variable");
  k += 2;
  if (!blanks()) fail("expected a blank after 'in'");
  literal('[');
  VariableRange r;
  r.lo = integer();
  literal(',');
  r.hi = integer();
  literal(']');
  blanks();
  if (k != w.size()) fail("unexpected text after ']'");
  if (r.lo > r.hi) throw Error("--where '" + w + "': empty range");
  return {name, r};
}

}  // namespace

std::map<std::string, VariableRange> parse_where(const std::vector<std::string>& where) {
  std::map<std::string, VariableRange> out;
  std::map<std::string, std::string> text_of;
  for (const auto& w : where) {
    auto [name, range] = parse_one_where(w);
    if (auto seen = text_of.find(name); seen != text_of.end())
      throw Error("--where names '" + name + "' twice ('" + seen->second + "' and '" + w +
                  "'): give one range per variable");
    text_of.emplace(name, w);
    out.emplace(name, range);
  }
  return out;
}

}  // namespace cuteref::proofs
