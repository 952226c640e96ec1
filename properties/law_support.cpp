#include "law_support.hpp"

#include <algorithm>
#include <iostream>

#include "generators.hpp"

namespace cuteref::props {

std::vector<std::int64_t> values(const Layout& l) {
  const std::int64_t n = size_value(l);
  std::vector<std::int64_t> v;
  v.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v.push_back(apply_index(l, i));
  return v;
}

std::set<std::int64_t> image(const Layout& l) {
  const auto v = values(l);
  return {v.begin(), v.end()};
}

bool is_injective(const Layout& l) { return static_cast<std::int64_t>(image(l).size()) == size_value(l); }

Violation same_values(const Layout& f, const Layout& g, std::int64_t n, const std::string& f_name, const std::string& g_name) {
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t a = apply_index(f, i), b = apply_index(g, i);
    if (a != b)
      return f_name + " = " + f.to_string() + " and " + g_name + " = " + g.to_string() + " differ at index " +
             std::to_string(i) + ": " + std::to_string(a) + " vs " + std::to_string(b);
  }
  return std::nullopt;
}

Domain complement_domain(const Layout& a) {
  const auto ext = gen::leaf_values(a.shape()), str = gen::leaf_values(a.stride());
  std::vector<std::pair<std::int64_t, std::int64_t>> modes;  // (stride, extent)
  for (std::size_t i = 0; i < ext.size(); ++i) {
    if (str[i] < 0) return {};
    if (str[i] != 0 && ext[i] != 1) modes.emplace_back(str[i], ext[i]);
  }
  std::stable_sort(modes.begin(), modes.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  Domain d{true, true, 1};
  for (const auto& [stride, extent] : modes) {
    if (stride < d.extent) return {};
    if (stride % d.extent != 0) d.divisible = false;
    d.extent = stride * extent;
  }
  return d;
}

Violation rejected(const std::string& what, const Error& e) { return what + " was rejected: " + e.what(); }

void Exhaustive::check(const std::string& input, const Violation& v) {
  ++checked_;
  if (!v) return;
  if (++failures_ <= 5) ADD_FAILURE() << "[" << law_ << "] exhaustive " << universe_ << ": " << input << ": " << *v;
}

Exhaustive::~Exhaustive() {
  count_exhaustive(law_, universe_ + (skipped_ ? " (" + std::to_string(skipped_) + " outside the precondition, not counted)" : ""),
                   checked_);
  if (failures_) std::cout << "[" << law_ << "] " << failures_ << " violations\n";
}

}  // namespace cuteref::props
