#include "divisibility_substitution.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <set>

namespace cuteref::proofs {

namespace {

std::string trimmed(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const std::size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// A positive decimal literal of at most 18 digits (no overflow), else nothing.
std::optional<std::int64_t> positive_literal(const std::string& s) {
  if (s.empty() || s.size() > 18 || !std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return std::nullopt;
  const std::int64_t v = std::stoll(s);
  if (v < 1) return std::nullopt;
  return v;
}

}  // namespace

void write_dividends_as_multiples(const std::vector<DivisibilityFact>& facts,
                                   std::map<std::string, SymInt>& vars, SymbolicScope& scope,
                                   std::vector<z3::expr>& domain) {
  // The eligible facts (the fresh variable's name, "v/X", cannot be a claim variable's), one per dividend (the first).
  std::vector<DivisibilityFact> pending;
  std::set<std::string> dividends;
  for (const auto& f : facts) {
    const std::string d = trimmed(f.divisor), v = trimmed(f.dividend);
    if (!vars.count(v) || dividends.count(v) || d == v) continue;
    if (!vars.count(d) && !positive_literal(d)) continue;
    if (vars.at(v).lo < 0) continue;
    if (vars.count(d) && vars.at(d).lo < 0) continue;
    pending.push_back({d, v});
    dividends.insert(v);
  }
  // Take a fact whose divisor is no longer waiting to be rewritten; stop when none is (a cycle).
  for (bool progress = true; progress && !pending.empty();) {
    progress = false;
    for (auto it = pending.begin(); it != pending.end(); ++it) {
      const bool divisor_waits = std::any_of(pending.begin(), pending.end(),
                                             [&](const DivisibilityFact& g) { return g.dividend == it->divisor; });
      if (divisor_waits) continue;
      const std::optional<std::int64_t> literal = positive_literal(it->divisor);
      const SymInt divisor = literal ? SymInt(scope.ctx().int_val(*literal), *literal, *literal) : vars.at(it->divisor);
      const SymInt old = vars.at(it->dividend);
      const SymInt::Bound least_divisor = divisor.lo < 1 ? 1 : divisor.lo;
      const std::int64_t k_hi = static_cast<std::int64_t>(old.hi / least_divisor);
      const SymInt k = scope.ranged_variable(it->dividend + "/" + it->divisor, 0, k_hi, domain);
      const z3::expr product = divisor.e * k.e;
      domain.push_back(product >= scope.ctx().int_val(static_cast<std::int64_t>(old.lo)) &&
                       product <= scope.ctx().int_val(static_cast<std::int64_t>(old.hi)));
      vars.insert_or_assign(it->dividend, SymInt(product, old.lo, old.hi));
      pending.erase(it);
      progress = true;
      break;
    }
  }
}

}  // namespace cuteref::proofs
