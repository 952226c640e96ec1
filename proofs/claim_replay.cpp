#include "claim_replay.hpp"

#include "composed_eval.hpp"
#include "coordinates.hpp"
#include "enumeration_budget.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "replay_points.hpp"

namespace cuteref::proofs {

namespace {

// The tree with every integer leaf dynamic (values compare without CuTe's static flags).
IntTuple dynamic_copy(const IntTuple& t) {
  if (t.is_integer()) return IntTuple::integer(t.value());
  if (!t.is_tuple()) return t;
  std::vector<IntTuple> e;
  for (const auto& x : t.elements()) e.push_back(dynamic_copy(x));
  return IntTuple::tuple(std::move(e));
}
std::string value_text(const Value& v) {
  if (v.is_int_tuple()) return dynamic_copy(std::get<IntTuple>(v.data)).to_string();
  if (v.is_layout()) {
    const Layout& l = std::get<Layout>(v.data);
    return Layout(dynamic_copy(l.shape()), dynamic_copy(l.stride())).to_string();
  }
  if (v.is_mixed_tuple()) {
    std::string s = "(";
    const auto& e = std::get<MixedTuple>(v.data).elements;
    for (std::size_t k = 0; k < e.size(); ++k) {
      if (k) s += ',';
      s += value_text(e[k]);
    }
    return s + ")";
  }
  return v.to_string();
}

}  // namespace

bool function_like(const Value& v) {
  return (v.is_layout() && !std::get<Layout>(v.data).has_basis_strides()) || v.is_composed() || v.is_f2_layout();
}

std::int64_t size_of(const Value& v) {
  if (v.is_f2_layout()) return size_value(std::get<F2Layout>(v.data));
  return size_value(v.is_layout() ? std::get<Layout>(v.data) : std::get<ComposedLayout>(v.data).layout);
}

std::int64_t value_at(const Value& v, std::int64_t index) {
  if (v.is_layout()) return apply_index(std::get<Layout>(v.data), index);
  if (v.is_f2_layout()) return apply_index(std::get<F2Layout>(v.data), index);
  return composed_value(std::get<ComposedLayout>(v.data), CheckedInt(index)).v;
}

std::optional<std::string> first_difference(const Value& a, const Value& b) {
  if (function_like(a) && function_like(b)) {
    const std::int64_t na = size_of(a), nb = size_of(b);
    if (na != nb) return "the sizes differ: " + std::to_string(na) + " and " + std::to_string(nb);
    constexpr std::int64_t kWholeIndices = 1024, kEndIndices = 128, kSpreadIndices = 256;
    auto differs_at = [&](std::int64_t i) -> std::optional<std::string> {
      const std::int64_t va = value_at(a, i), vb = value_at(b, i);
      if (va == vb) return std::nullopt;
      return "at index " + std::to_string(i) + ": lhs(" + std::to_string(i) + ") = " + std::to_string(va) + ", rhs(" +
             std::to_string(i) + ") = " + std::to_string(vb);
    };
    if (na <= kWholeIndices) {
      for (std::int64_t i = 0; i < na; ++i)
        if (auto d = differs_at(i)) return d;
      return std::nullopt;
    }
    for (std::int64_t i = 0; i < kEndIndices; ++i)
      if (auto d = differs_at(i)) return d;
    for (std::int64_t i = na - kEndIndices; i < na; ++i)
      if (auto d = differs_at(i)) return d;
    for (std::int64_t k = 0; k < kSpreadIndices; ++k)
      if (auto d = differs_at(kEndIndices + (na - 2 * kEndIndices) / kSpreadIndices * k)) return d;
    return std::nullopt;
  }
  if (value_text(a) == value_text(b)) return std::nullopt;
  return "lhs = " + a.to_string() + ", rhs = " + b.to_string();
}

Value evaluate_side(const Node& side, const VariableValues& values) {
  const EnumerationBudgetScope budget;
  return evaluate(side, &standard_functions(), &values);
}

namespace {

// The points of the variables' box that the replay visits (replay_points.hpp).
ReplayPoints box_points(const std::vector<std::string>& names, const std::map<std::string, VariableRange>& ranges) {
  std::vector<std::pair<std::string, std::pair<std::int64_t, std::int64_t>>> box;
  for (const auto& n : names) {
    const VariableRange r = ranges.count(n) ? ranges.at(n) : VariableRange{};
    box.push_back({n, {r.lo, r.hi}});
  }
  return replay_points(box);
}

enum class Hypotheses { Hold, Fail, TooLarge };

// How much checking a hypothesis may take: comparisons and divides evaluate integers,
// defined and admissible an expression, injective(L) enumerates L (up to 2^22 elements).
int checking_cost(const Hypothesis& h) {
  if (h.tree.kind == Node::Kind::Compare || h.tree.name == "divides") return 0;
  return h.tree.name == "injective" ? 2 : 1;
}

// The hypotheses at one point on the concrete model (hypothesis_holds; its Error is a
// hypothesis too large to check). The cheaper kinds first, so that a point outside the domain
// is usually left before an enumeration; a failing hypothesis decides the point even where
// another is too large to check (the point is outside the domain either way).
Hypotheses hypotheses_at(const std::vector<Hypothesis>& hypotheses, const VariableValues& values) {
  bool too_large = false;
  for (int cost = 0; cost <= 2; ++cost)
    for (const Hypothesis& h : hypotheses) {
      if (checking_cost(h) != cost) continue;
      try {
        if (!hypothesis_holds(h, values)) return Hypotheses::Fail;
      } catch (const Error&) {
        too_large = true;
      }
    }
  return too_large ? Hypotheses::TooLarge : Hypotheses::Hold;
}

}  // namespace

DomainSearch find_domain_point(const std::vector<Hypothesis>& hypotheses, const std::vector<std::string>& names,
                               const std::map<std::string, VariableRange>& ranges,
                               std::chrono::steady_clock::time_point deadline) {
  DomainSearch out;
  for (const auto& point : box_points(names, ranges).points) {
    if (std::chrono::steady_clock::now() > deadline) {
      out.out_of_time = true;
      return out;
    }
    ++out.points;
    if (hypotheses_at(hypotheses, VariableValues(point.begin(), point.end())) == Hypotheses::Hold) {
      out.holds_at = point;
      return out;
    }
  }
  return out;
}

Replay replay_claim(const Node& lhs, const Node& rhs, const std::vector<Hypothesis>& hypotheses,
                    const std::vector<std::string>& names, const std::map<std::string, VariableRange>& ranges,
                    const std::map<std::string, std::int64_t>& witness, std::chrono::steady_clock::time_point deadline) {
  ReplayPoints chosen = box_points(names, ranges);
  Replay out;
  out.whole_box = chosen.whole_box;
  if (!chosen.whole_box && !witness.empty()) {  // Z3's point where the hypotheses hold
    std::map<std::string, std::int64_t> w;
    for (const auto& n : names) w[n] = witness.count(n) ? witness.at(n) : 0;
    chosen.points.push_back(std::move(w));
  }
  for (const auto& point : chosen.points) {
    if (std::chrono::steady_clock::now() > deadline) {
      out.out_of_time = true;
      return out;
    }
    ++out.points;
    const VariableValues values(point.begin(), point.end());
    const Hypotheses at = hypotheses_at(hypotheses, values);
    if (at == Hypotheses::TooLarge) ++out.uncheckable;
    if (at != Hypotheses::Hold) continue;
    try {
      const Value a = evaluate_side(lhs, values), b = evaluate_side(rhs, values);
      if (const std::optional<std::string> d = first_difference(a, b)) out.failure = "the model's two sides differ: " + *d;
    } catch (const Error& e) {
      if (enumeration_budget_spent()) {
        ++out.sides_too_large;  // the evaluation's limit, not the model refusing the input
        continue;
      }
      out.failure = std::string("the model rejects this input: ") + e.what();
    }
    if (!out.failure.empty()) {
      out.failed_at = point;
      return out;
    }
    ++out.in_domain;
  }
  return out;
}

}  // namespace cuteref::proofs
