// A claim on the concrete model: its two sides evaluated by the model's own evaluator
// (lang/evaluator.hpp) at given values of the variables, and compared. What every `proved` is
// replayed on before it is printed, and what a refutation is checked on.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "evaluator.hpp"
#include "hypotheses.hpp"
#include "syntax.hpp"
#include "value.hpp"
#include "variable_ranges.hpp"

namespace cuteref::proofs {

// Layouts (integer strides), composed layouts and F2 layouts: compared as functions on [0, size).
bool function_like(const Value& v);
std::int64_t size_of(const Value& v);
std::int64_t value_at(const Value& v, std::int64_t index);

// Where two values differ, in words, or nothing where they agree. Function-like values: equal
// sizes, then equal values at every index of a layout of at most 1,024 elements, otherwise at
// the first and last 128 and 256 spread between (a bounded check; Z3's proof is about every
// index). Other values compare by value, not by static flags.
std::optional<std::string> first_difference(const Value& a, const Value& b);

// The value of one side at `values` (a fresh enumeration budget).
Value evaluate_side(const Node& side, const VariableValues& values);

// The replay of a proved claim (replay_points.hpp): at each point, the hypotheses are checked on
// the concrete model (a point where one fails is not in the claim's domain), then both sides
// are evaluated and compared. A point where the model refuses a side or the sides differ
// contradicts the proof. A point too large to check (injective(L) past its bound, or an
// evaluation past its enumeration budget) neither confirms nor contradicts it.
struct Replay {
  std::size_t points = 0;           // points replayed
  std::size_t in_domain = 0;        // ... where every hypothesis holds and both sides were compared
  std::size_t uncheckable = 0;      // ... where a hypothesis was too large to check
  std::size_t sides_too_large = 0;  // ... where every hypothesis holds and a side was too large to evaluate
  bool whole_box = false;
  bool out_of_time = false;
  std::map<std::string, std::int64_t> failed_at;  // the first contradicting point
  std::string failure;                            // what the model says there
};

Replay replay_claim(const Node& lhs, const Node& rhs, const std::vector<Hypothesis>& hypotheses,
                    const std::vector<std::string>& names, const std::map<std::string, VariableRange>& ranges,
                    const std::map<std::string, std::int64_t>& witness, std::chrono::steady_clock::time_point deadline);

// The check of a `vacuous` from Z3 on the concrete model: the first of the same points where
// every hypothesis holds (it contradicts the verdict), else nothing. Points too large to check
// are skipped. `out_of_time` where the deadline passed first.
struct DomainSearch {
  std::optional<std::map<std::string, std::int64_t>> holds_at;
  std::size_t points = 0;  // points checked
  bool out_of_time = false;
};
DomainSearch find_domain_point(const std::vector<Hypothesis>& hypotheses, const std::vector<std::string>& names,
                               const std::map<std::string, VariableRange>& ranges,
                               std::chrono::steady_clock::time_point deadline);

}  // namespace cuteref::proofs
