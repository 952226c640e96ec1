#include "claim.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <sstream>

#include "claim_goal.hpp"
#include "claim_replay.hpp"
#include "enumeration_budget.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "hypotheses.hpp"
#include "input_limits.hpp"
#include "parser.hpp"
#include "prover.hpp"
#include "symbolic_evaluator.hpp"
#include "variable_ranges.hpp"

namespace cuteref::proofs {

namespace {

// The element index of a layout comparison, in Z3 and in the prover's values. Every Z3
// constant prove makes besides the claim's variables has a character no variable word has
// ('!', or '/' in divisibility_substitution.cpp): a claim's variable `index` is its own (it
// was once this one, so that two layouts were compared at the variable's value only).
constexpr const char* kElementIndex = "index!element";

// A request's claim, --where and --assume texts, parsed: the two sides' trees, the free
// variables (in order of appearance) and their ranges, and the hypotheses.
struct ParsedClaim {
  SyntaxTree parsed;  // the claim's text parsed (`claim` is a view of it)
  Node claim;         // its root, a Compare "==": children {lhs, rhs}
  std::vector<std::string> names;
  std::map<std::string, VariableRange> ranges;
  std::vector<Hypothesis> hypotheses;
  const Node& lhs() const { return claim.children[0]; }
  const Node& rhs() const { return claim.children[1]; }
};

// Throws Error when hypothesis `h` names a variable the claim (`names`) does not have; `what`
// introduces the hypothesis in the diagnostic.
void require_claim_variables(const Hypothesis& h, const std::vector<std::string>& names, const std::string& what) {
  std::vector<std::string> named;
  collect_variable_words(h.tree, named);
  for (const auto& n : named)
    if (std::find(names.begin(), names.end(), n) == names.end())
      throw Error(what + " names '" + n + "', which is not a variable of the claim");
}

// Throws Error for a malformed request.
ParsedClaim parse_claim(const std::string& claim, const std::vector<std::string>& where,
                        const std::vector<std::string>& assume = {}) {
  if (claim.size() > kMaxExpressionBytes)
    throw Error("the claim is " + std::to_string(claim.size()) + " bytes, longer than the limit of " +
                std::to_string(kMaxExpressionBytes) + " bytes");
  ParsedClaim p;
  p.parsed = parse_text(claim, ParseMode::Expression, &standard_functions());
  p.claim = p.parsed.root();
  if (p.claim.kind != Node::Kind::Compare) throw Error("the claim must have the form EXPR == EXPR");
  collect_variable_words(p.claim, p.names);
  std::sort(p.names.begin(), p.names.end());
  p.ranges = parse_where(where);
  for (const auto& text : assume) {
    p.hypotheses.push_back(parse_hypothesis(text));
    require_claim_variables(p.hypotheses.back(), p.names, "--assume '" + text + "'");
  }
  for (const auto& [n, _] : p.ranges)
    if (std::find(p.names.begin(), p.names.end(), n) == p.names.end())
      throw Error("--where names '" + n + "', which is not a variable of the claim");
  return p;
}

// Whether the claim needs the bit-vector encoding: swizzles, F2 layouts, bit operations, bank counts.
bool needs_bits(const Node& n) {
  using K = Node::Kind;
  if (n.kind == K::Swizzle || n.kind == K::Composed || n.kind == K::F2Stride) return true;
  if (n.kind == K::Binary)
    if (n.ops().find_first_of("&|^LR") != std::string::npos) return true;
  if (n.kind == K::Call && (n.name == "smem_wavefronts" || n.name == "gmma_atom")) return true;
  for (const Node& c : n.children)
    if (needs_bits(c)) return true;
  return false;
}

// What a proof quantified over, said after `proved`: each variable's range, the index of
// layout equality, the fixed structure of the claim, and the model's branch cases.
std::string quantification(const std::vector<std::string>& names, const std::map<std::string, VariableRange>& ranges,
                           bool layouts, const ProofOutcome& outcome) {
  std::string q;
  for (const auto& n : names) {
    const auto it = ranges.find(n);
    q += (q.empty() ? "every " : ", ") + n + " in ";
    if (it == ranges.end()) q += "[0, 2^63-1] (every non-negative int64)";
    // std::string first: GCC 12 at -O3 misreads `"[" + std::string&&` as an overlapping copy (-Wrestrict)
    else q += std::string("[") + std::to_string(it->second.lo) + ", " + std::to_string(it->second.hi) + "]";
  }
  if (q.empty()) q = "no variable (a concrete claim)";
  if (layouts) q += "; every index 0 <= i < size";
  q += "; ranks and nesting as written in the claim; " + std::to_string(outcome.reachable_paths) +
       " case(s) of the model's branches, each reachable and proved";
  if (outcome.unreachable_paths)
    q += "; " + std::to_string(outcome.unreachable_paths) + " more unreachable under the ranges and hypotheses";
  if (outcome.undecided_paths)
    q += "; " + std::to_string(outcome.undecided_paths) + " more proved whose reachability Z3 did not decide";
  return q;
}

// Owns the solver's scope; leaves it allocated when asked (ProveRequest::leak_solver_context),
// kept reachable from a static list so that a leak checker does not report what is left on
// purpose (the proof may run on a thread that has ended by the time the process exits).
struct ScopeHolder {
  std::unique_ptr<SymbolicScope> scope;
  bool leak;
  ~ScopeHolder() {
    if (!leak) return;
    static std::mutex kept_mutex;
    static auto* kept = new std::vector<std::unique_ptr<SymbolicScope>>;  // never destroyed
    const std::lock_guard<std::mutex> lock(kept_mutex);
    kept->push_back(std::move(scope));
  }
};

// A point of the box in one line: `a = 1, b = 2`.
std::string point_text(const std::map<std::string, std::int64_t>& point) {
  std::string text;
  for (const auto& [n, v] : point) text += (text.empty() ? "" : ", ") + n + " = " + std::to_string(v);
  return text;
}

// A point of the box where the concrete model contradicts the claim (replay_claim's failure).
void print_replay_refutation(const Replay& replay, const char* note, std::ostream& out) {
  out << "refuted:\n";
  for (const auto& [n, v] : replay.failed_at) out << "  " << n << " = " << v << "\n";
  out << "  " << shortened(replay.failure) << "\n  " << note << "\n";
}

// A refutation found by Z3, checked on the concrete model before it is printed: the
// hypotheses hold at its values and the model's sides differ there (or the model rejects an
// input whose side condition Z3 found violated). Returns the exit status, printing on `out`.
int report_z3_refutation(const ParsedClaim& p, const ProofOutcome& outcome, std::ostream& out) {
  VariableValues concrete;
  std::ostringstream report;
  report << "refuted:\n";
  for (const auto& n : p.names) {
    concrete.emplace(n, outcome.values.at(n));
    report << "  " << n << " = " << outcome.values.at(n) << "\n";
  }
  for (const Hypothesis& h : p.hypotheses) {
    bool holds = false;
    try {
      holds = hypothesis_holds(h, concrete);
    } catch (const Error& e) {
      out << "unknown: Z3's counterexample could not be checked against --assume '" << h.text
          << "': " << shortened(e.what()) << "\n";
      return kProveUnknown;
    }
    if (!holds) {
      out << "unknown: Z3's counterexample violates --assume '" << h.text << "' on the concrete model\n";
      return kProveUnknown;
    }
  }
  try {
    const Value a = evaluate_side(p.lhs(), concrete), b = evaluate_side(p.rhs(), concrete);
    bool differs = false;
    if (function_like(a) && function_like(b)) {
      const std::int64_t na = size_of(a), nb = size_of(b);
      report << "  lhs = " << a.to_string() << " (size " << na << ")\n  rhs = " << b.to_string() << " (size " << nb << ")\n";
      if (na != nb) {
        differs = true;
        report << "  the sizes differ\n";
      } else {
        const std::int64_t i = outcome.values.count(kElementIndex) ? outcome.values.at(kElementIndex) : 0;
        if (i >= 0 && i < na) {
          const std::int64_t va = value_at(a, i), vb = value_at(b, i);
          report << "  index = " << i << ": lhs(" << i << ") = " << va << ", rhs(" << i << ") = " << vb << "\n";
          differs = va != vb;
        }
      }
    } else {
      report << "  lhs = " << a.to_string() << "\n  rhs = " << b.to_string() << "\n";
      differs = first_difference(a, b).has_value();
    }
    if (!differs) {
      out << "unknown: Z3's counterexample did not replay on the concrete model (both sides agree there)\n";
      return kProveUnknown;
    }
  } catch (const Error& e) {
    if (enumeration_budget_spent()) {
      out << "unknown: Z3's counterexample is too large to replay: " << shortened(e.what()) << "\n";
      return kProveUnknown;
    }
    // The model rejects the input: a refutation only if the solver said a side condition failed.
    if (outcome.failed_side_condition.empty()) {
      out << "unknown: Z3's counterexample did not replay: the model says: " << shortened(e.what()) << "\n";
      return kProveUnknown;
    }
    report << "  the model rejects this input: " << shortened(e.what()) << "\n";
  }
  out << report.str();
  return kProveRefuted;
}

// A point of the box where the concrete model refutes the claim (refuses a side or finds the
// sides different, every hypothesis holding there), printed as `refuted` with `why` saying why
// Z3 did not give it; false (nothing printed) where the replayed points show none. Never a proof.
bool refuted_on_model(const ParsedClaim& p, std::chrono::steady_clock::time_point deadline, const std::string& why,
                      std::ostream& out) {
  const Replay replay = replay_claim(p.lhs(), p.rhs(), p.hypotheses, p.names, p.ranges, {}, deadline);
  if (replay.failure.empty()) return false;
  // Not "(found by the concrete replay": that note marks a proof the replay contradicted.
  print_replay_refutation(replay, ("(found on the concrete model at a replayed point of the box: " + why +
                                   "; the model decides)").c_str(), out);
  return true;
}

// Z3's refutation, else, where its counterexample does not replay (it lies outside the model's
// domain, or is too large), a point of the box where the concrete model contradicts the claim,
// else `unknown` with the reason Z3's did not replay.
int report_refutation(const ParsedClaim& p, const ProofOutcome& outcome, std::chrono::steady_clock::time_point deadline,
                      std::ostream& out) {
  std::ostringstream z3_report;
  const int rc = report_z3_refutation(p, outcome, z3_report);
  if (rc == kProveUnknown && refuted_on_model(p, deadline, "Z3's counterexample did not replay", out))
    return kProveRefuted;
  out << z3_report.str();
  return rc;
}

// `proved` from Z3, printed only after the model itself agrees at the replayed points.
int report_proof(const ParsedClaim& p, const ProofOutcome& outcome, bool layouts,
                 std::chrono::steady_clock::time_point deadline, std::ostream& out) {
  const Replay replay = replay_claim(p.lhs(), p.rhs(), p.hypotheses, p.names, p.ranges, outcome.witness, deadline);
  if (replay.out_of_time) {
    out << "unknown: timeout: Z3 proved every case, and the time limit was reached during the concrete replay (after "
        << replay.points << " point(s))\n";
    return kProveUnknown;
  }
  if (!replay.failure.empty()) {
    print_replay_refutation(replay, "(found by the concrete replay: Z3 reported no counterexample; the model decides)", out);
    return kProveRefuted;
  }
  // `proved` promises a domain that is not empty, shown by a point of it on the model. Z3's
  // witness satisfies the hypotheses as stated symbolically, which may be weaker than the
  // model's (injective(L) is stated on unbounded integers; the model's L overflows).
  // A point too large to check confirms nothing and shows nothing empty.
  if (replay.in_domain == 0) {
    if (replay.whole_box && replay.uncheckable == 0 && replay.sides_too_large == 0) {
      out << "vacuous: the hypotheses hold at none of the box's " << replay.points
          << " point(s) on the concrete model (Z3 found them satisfiable as stated symbolically)\n";
      for (const Hypothesis& h : p.hypotheses) out << "  assuming: " << h.text << "\n";
      return kProveVacuous;
    }
    out << "unknown: Z3 proved every case, but the concrete model compared the two sides at no point ("
        << replay.points << " point(s) replayed: " << replay.uncheckable << " whose hypotheses are too large to check, "
        << replay.sides_too_large << " where the hypotheses hold and a side is too large to evaluate, the rest "
        << "outside the hypotheses)\n";
    return kProveUnknown;
  }
  out << "proved (" << static_cast<long long>(outcome.ms + 0.5) << " ms)\n"
      << "  for: " << quantification(p.names, p.ranges, layouts, outcome) << "\n"
      << "  replayed: the model agrees at " << replay.in_domain << " point(s)";
  if (!p.hypotheses.empty()) out << " where the hypotheses hold, of " << replay.points;
  out << (replay.whole_box ? " (the whole box)" : " (corners and deterministic points of the box)");
  if (replay.uncheckable) out << "; " << replay.uncheckable << " point(s) whose hypotheses are too large to check";
  if (replay.sides_too_large)
    out << "; " << replay.sides_too_large << " point(s) where a side is too large to evaluate";
  out << "\n";
  for (const Hypothesis& h : p.hypotheses) out << "  assuming: " << h.text << "\n";
  return kProveProved;
}

// `vacuous` from Z3, printed only where no replayed point satisfies every hypothesis on the
// model (one that does shows the symbolic statement stronger than the model's).
int report_vacuity(const ParsedClaim& p, const ProofOutcome& outcome, std::chrono::steady_clock::time_point deadline,
                   std::ostream& out) {
  const DomainSearch search = find_domain_point(p.hypotheses, p.names, p.ranges, deadline);
  if (search.out_of_time) {
    out << "unknown: timeout: Z3 found the hypotheses unsatisfiable, and the time limit was reached while the "
           "concrete model checked that (after "
        << search.points << " point(s))\n";
    return kProveUnknown;
  }
  if (search.holds_at) {
    out << "unknown: Z3 found the hypotheses unsatisfiable, but the concrete model satisfies every one of them at "
        << point_text(*search.holds_at) << " (their symbolic statement is stronger than the model's: a defect of prove)\n";
    return kProveUnknown;
  }
  out << "vacuous: " << outcome.reason << "\n";
  for (const Hypothesis& h : p.hypotheses) out << "  assuming: " << h.text << "\n";
  return kProveVacuous;
}

int prove_checked(const ProveRequest& req, std::ostream& out, std::ostream& err, ProofOutcome* outcome_out) {
  const auto start = std::chrono::steady_clock::now();
  ParsedClaim p;
  std::vector<Hypothesis> symbolic_only;  // ProveRequest::symbolic_only_assume (tests only)
  try {
    if (!(req.timeout_s >= 0.001) || req.timeout_s > kMaxProveTimeoutSeconds)
      throw Error("the time limit must be in [0.001, " +
                  std::to_string(static_cast<long long>(kMaxProveTimeoutSeconds)) + "] seconds");
    p = parse_claim(req.claim, req.where, req.assume);
    for (const auto& text : req.symbolic_only_assume) {
      symbolic_only.push_back(parse_hypothesis(text));
      require_claim_variables(symbolic_only.back(), p.names, "'" + text + "'");
    }
  } catch (const Error& e) {
    err << "error: " << shortened(e.what()) << "\n";
    return kProveUsage;
  }
  const auto deadline = start + std::chrono::milliseconds(static_cast<long long>(std::ceil(req.timeout_s * 1000)));
  // A hypothesis without variables is decided on the model alone: where it does not hold
  // (false, or the model refuses what it names), no point satisfies the hypotheses. One the
  // model cannot decide (too large, a non-integer compared) is left to the proof.
  for (const Hypothesis& h : p.hypotheses) {
    if (mentions_variable(h.tree)) continue;
    std::optional<std::string> why;
    try {
      why = hypothesis_fails(h, {});
    } catch (const Error&) {
      continue;
    }
    if (why) {
      out << "vacuous: --assume '" << h.text << "' has no variable and does not hold on the concrete model: "
          << shortened(*why) << "\n";
      for (const Hypothesis& g : p.hypotheses) out << "  assuming: " << g.text << "\n";
      return kProveVacuous;
    }
  }
  bool bits = needs_bits(p.claim);
  for (const Hypothesis& h : p.hypotheses) bits = bits || needs_bits(h.tree);  // the hypotheses share the encoding
  for (const Hypothesis& h : symbolic_only) bits = bits || needs_bits(h.tree);
  bool layouts = false;
  // The proof in one encoding, within what is left of the time limit.
  auto prove_in = [&](Encoding encoding) -> ProofOutcome {
    ScopeHolder holder{std::make_unique<SymbolicScope>(encoding), req.leak_solver_context};
    SymbolicScope& scope = *holder.scope;
    std::vector<z3::expr> domain;
    std::map<std::string, SymInt> vars;
    for (const auto& n : p.names) {
      const VariableRange r = p.ranges.count(n) ? p.ranges.at(n) : VariableRange{};
      vars.emplace(n, scope.ranged_variable(n, r.lo, r.hi, domain));
    }
    if (encoding == Encoding::Int64Range) write_dividends_as_multiples(divisibility_facts(p.hypotheses), vars, scope, domain);
    std::vector<ProofVariable> reported;
    for (const auto& n : p.names) reported.push_back({n, vars.at(n).e});
    const SymInt index = scope.ranged_variable(kElementIndex, 0, INT64_MAX, domain);
    reported.push_back({kElementIndex, index.e});
    ProofOptions options;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    options.timeout_ms = static_cast<unsigned>(std::max<long long>(1, left.count()));
    options.keep_smt2 = !req.smt2_file.empty() || outcome_out != nullptr;
    options.domain_points = req.domain_points;
    return prove(scope, domain, reported, [&]() -> z3::expr {
      layouts = false;
      for (const Hypothesis& h : p.hypotheses) state_hypothesis(h, vars, scope);
      for (const Hypothesis& h : symbolic_only) state_hypothesis(h, vars, scope);
      const SymVal a = evaluate_symbolically(p.lhs(), vars), b = evaluate_symbolically(p.rhs(), vars);
      return claim_goal(a, b, index, layouts);
    }, options);
  };
  ProofOutcome outcome;
  try {
    // needs_bits reads the claim's text; a function may build bit operations the text does not
    // show (to_f2's F2 strides): those are stated again with bit-vectors (only the integer
    // encoding throws NeedsBitVectors).
    try {
      outcome = prove_in(bits ? Encoding::BitVector64 : Encoding::Int64Range);
    } catch (const NeedsBitVectors&) {
      outcome = prove_in(Encoding::BitVector64);
    }
  } catch (const Unsupported& e) {
    // Nothing is proved without a symbolic form, but the model may still refute the claim at
    // a point of the box (a refutation needs no proof, only that point).
    if (refuted_on_model(p, deadline, "the claim has no symbolic form, so Z3 was not asked", out))
      return kProveRefuted;
    out << "unknown: " << shortened(e.what()) << "\n";
    return kProveUnknown;
  } catch (const Error& e) {
    if (enumeration_budget_spent()) {  // a limit of the evaluation, not the model rejecting the claim
      out << "unknown: too large to evaluate: " << shortened(e.what()) << "\n";
      return kProveUnknown;
    }
    err << "error: " << shortened(e.what()) << "\n";  // the claim is malformed or the model rejects it
    return kProveUsage;
  }
  if (outcome_out) *outcome_out = outcome;
  if (!req.smt2_file.empty()) {
    std::ofstream f(req.smt2_file);
    f << smt2_script(outcome);
    f.close();
    if (!f) {
      err << "error: could not write the queries to " << req.smt2_file << "\n";
      return kProveIoError;
    }
  }
  switch (outcome.status) {
    case ProofStatus::Vacuous: return report_vacuity(p, outcome, deadline, out);
    case ProofStatus::Proved: return report_proof(p, outcome, layouts, deadline, out);
    case ProofStatus::Unknown: out << "unknown: " << outcome.reason << "\n"; return kProveUnknown;
    default: return report_refutation(p, outcome, deadline, out);
  }
}

}  // namespace

int prove_command(const ProveRequest& req, std::ostream& out, std::ostream& err, ProofOutcome* outcome_out) {
  try {
    return prove_checked(req, out, err, outcome_out);
  } catch (const std::bad_alloc&) {
    err << "error: out of memory while proving the claim\n";
    return kProveFailure;
  } catch (const z3::exception& e) {
    err << "error: Z3 failed: " << shortened(printable(e.msg())) << "\n";
    return kProveFailure;
  }
}

double parse_timeout_seconds(const std::string& text) {
  const std::string range = "[0.001, " + std::to_string(static_cast<long long>(kMaxProveTimeoutSeconds)) + "]";
  auto fail = [&](const std::string& why) -> void {
    throw Error("--timeout '" + text + "': " + why + " (a decimal number of seconds in " + range + ")");
  };
  // digits ['.' digits]: no sign, exponent, hexadecimal, nan or inf (std::stod takes them all,
  // and a prefix such as the 1 of "1abc").
  std::size_t k = 0, digits = 0;
  while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k, ++digits;
  if (k < text.size() && text[k] == '.') {
    ++k;
    while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k, ++digits;
  }
  if (digits == 0 || k != text.size()) fail("not a decimal number");
  if (text.size() > 32) fail("too long");
  const double seconds = std::stod(text);
  if (!(seconds >= 0.001) || seconds > kMaxProveTimeoutSeconds) fail("out of range");
  return seconds;
}

std::pair<Value, Value> concrete_sides(const std::string& claim, const std::map<std::string, std::int64_t>& values) {
  const ParsedClaim p = parse_claim(claim, {});
  for (const auto& n : p.names)
    if (!values.count(n)) throw Error("no value for the claim's variable '" + n + "'");
  return {evaluate_side(p.lhs(), values), evaluate_side(p.rhs(), values)};
}

std::string replay_on_model(const ProveRequest& request) {
  const ParsedClaim p = parse_claim(request.claim, request.where, request.assume);
  const Replay r = replay_claim(p.lhs(), p.rhs(), p.hypotheses, p.names, p.ranges, {},
                                std::chrono::steady_clock::time_point::max());
  if (r.failure.empty()) return "agrees at " + std::to_string(r.in_domain) + " point(s) of " + std::to_string(r.points);
  return "contradicted at " + point_text(r.failed_at) + ": " + r.failure;
}

std::string domain_point_on_model(const ProveRequest& request) {
  const ParsedClaim p = parse_claim(request.claim, request.where, request.assume);
  const DomainSearch s = find_domain_point(p.hypotheses, p.names, p.ranges, std::chrono::steady_clock::time_point::max());
  if (!s.holds_at) return "none of " + std::to_string(s.points) + " point(s)";
  return "holds at " + point_text(*s.holds_at);
}

std::string evaluate_claim_concretely(const std::string& claim, const std::vector<std::string>& where,
                                      bool at_upper_bound) {
  const ParsedClaim p = parse_claim(claim, where);
  VariableValues concrete;
  for (const auto& n : p.names) {
    const VariableRange range = p.ranges.count(n) ? p.ranges.at(n) : VariableRange{};
    concrete.emplace(n, at_upper_bound ? range.hi : range.lo);
  }
  const Value a = evaluate_side(p.lhs(), concrete), b = evaluate_side(p.rhs(), concrete);
  const std::optional<std::string> d = first_difference(a, b);
  return d ? "differ: " + *d : "equal";
}

}  // namespace cuteref::proofs
