#include "prover.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

namespace cuteref::proofs {

std::string domain_point_text(const std::map<std::string, std::int64_t>& point) {
  std::string text;
  for (const auto& [name, value] : point) text += (text.empty() ? "" : ", ") + name + " = " + std::to_string(value);
  return text;
}

z3::expr in_range(const z3::expr& v, std::int64_t lo, std::int64_t hi) {
  if (v.is_int()) return v >= v.ctx().int_val(lo) && v <= v.ctx().int_val(hi);
  return z3::sge(v, v.ctx().bv_val(lo, 64)) && z3::sle(v, v.ctx().bv_val(hi, 64));
}

namespace {
std::string answer_name(z3::check_result r) {
  return r == z3::unsat ? "unsat" : r == z3::sat ? "sat" : "unknown";
}

// The time limit of one proof, as a whole: a thread that, unless released first, marks the
// scope expired at the deadline and interrupts the Z3 call in progress (Z3_interrupt is
// the one Z3 entry point meant to be called from another thread). The scope's symbolic
// operations then throw ProofTimeout, so that building the queries stops as well.
class Watchdog {
 public:
  Watchdog(SymbolicScope& scope, unsigned timeout_ms) {
    if (timeout_ms == 0) return;
    thread_ = std::thread([this, &scope, timeout_ms] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!released_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return done_; })) {
        scope.expire();
        scope.ctx().interrupt();
      }
    });
  }
  ~Watchdog() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    released_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable released_;
  bool done_ = false;
  std::thread thread_;
};

// How much of Z3's resource count a path's sufficient goal may use before the claim's own
// goal is tried (measured: the polynomial identities of the algebra claims take under 10^5;
// 2 * 10^6 is about a second on the development machine).
constexpr unsigned kSufficientGoalResources = 20000000;

// How much of Z3's resource count the reachability query of a proved case may use (a count:
// the verdict does not depend on the machine's load).
constexpr unsigned kReachabilityResources = 20000000;

// What the proof was doing, for the timeout's diagnostic.
enum class Phase { Building, Solving };

ProofOutcome prove_within_limit(SymbolicScope& scope, const std::vector<z3::expr>& domain,
                                const std::vector<ProofVariable>& variables, const std::function<z3::expr()>& claim,
                                const ProofOptions& options, ProofOutcome& out, Phase& phase);

// The variables' values in a model of Z3 (a counterexample, a witness).
std::map<std::string, std::int64_t> values_in(const z3::model& m, const std::vector<ProofVariable>& variables) {
  std::map<std::string, std::int64_t> out;
  for (const auto& v : variables) {
    std::int64_t x = 0;
    const z3::expr val = m.eval(v.value, true);
    if (val.is_bv()) x = static_cast<std::int64_t>(val.get_numeral_uint64());
    else val.is_numeral_i64(x);
    out[v.name] = x;
  }
  return out;
}

// After a case is proved: is it reachable, i.e. does some value of the domain on its path
// (the solver holds the domain, the path condition and the definitions) satisfy the
// hypotheses? A case that is not is proved only vacuously. Counts the answer in `out` and
// keeps the first reachable case's values as the witness.
void count_reachability(z3::solver solver, const z3::expr& hypotheses, const std::vector<ProofVariable>& variables,
                        ProofOutcome& out) {
  solver.add(hypotheses);
  const z3::check_result r = solver.check();
  current_scope().check_deadline();
  if (r == z3::unsat) {
    ++out.unreachable_paths;
    return;
  }
  if (r == z3::unknown) {
    ++out.undecided_paths;
    return;
  }
  ++out.reachable_paths;
  if (!out.witness.empty() || variables.empty()) return;
  out.witness = values_in(solver.get_model(), variables);
}

// ProofOptions::domain_points: each point whose variables this proof has must satisfy the
// whole domain. Returns false (out Unknown, its reason naming the point) when one does not or
// Z3 cannot tell; counts the points checked in out.domain_points_checked.
bool check_domain_points(SymbolicScope& scope, const std::vector<z3::expr>& full_domain,
                         const std::vector<ProofVariable>& variables, const ProofOptions& options, ProofOutcome& out) {
  out.domain_points_checked.assign(options.domain_points.size(), 0);
  for (std::size_t k = 0; k < options.domain_points.size(); ++k) {
    const auto& point = options.domain_points[k];
    std::vector<z3::expr> equal;
    for (const auto& [name, value] : point) {
      // A loop, not find_if with a lambda: clang 14 (the sanitizer lane's) cannot capture a
      // structured binding.
      auto v = variables.begin();
      while (v != variables.end() && v->name != name) ++v;
      if (v == variables.end()) break;
      // The variable's sort: a 64-bit bit-vector, or an integer (Encoding::Int64Range).
      equal.push_back(v->value == (v->value.is_bv() ? scope.ctx().bv_val(static_cast<std::uint64_t>(value), 64)
                                                     : scope.ctx().int_val(static_cast<int64_t>(value))));
    }
    if (equal.size() != point.size()) continue;  // not this proof's variables
    z3::solver solver = scope.make_solver();
    z3::params p(scope.ctx());
    p.set("rlimit", kReachabilityResources);
    solver.set(p);
    for (const auto& d : full_domain) solver.add(d);
    for (const auto& e : equal) solver.add(e);
    const z3::check_result r = solver.check();
    current_scope().check_deadline();
    if (r != z3::sat) {
      out.status = ProofStatus::Unknown;
      out.reason = "the domain " + std::string(r == z3::unsat ? "excludes" : "could not be shown to include") +
                   " the point (" + domain_point_text(point) + ") that the law states it covers";
      return false;
    }
    out.domain_points_checked[k] = 1;
  }
  return true;
}
}  // namespace

ProofOutcome prove(SymbolicScope& scope, const std::vector<z3::expr>& domain,
                   const std::vector<ProofVariable>& variables, const std::function<z3::expr()>& claim,
                   const ProofOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ProofOutcome out;
  Phase phase = Phase::Building;
  auto timed_out = [&] {
    out.status = ProofStatus::Unknown;
    out.reason = "timeout: the time limit of " + std::to_string(options.timeout_ms) + " ms was reached " +
                 (phase == Phase::Building ? "while building a query" : "in the solver") + ", after " +
                 std::to_string(out.paths) + " case(s) of the model's branches";
    out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return out;
  };
  Watchdog watchdog(scope, options.timeout_ms);
  try {
    return prove_within_limit(scope, domain, variables, claim, options, out, phase);
  } catch (const ProofTimeout&) {
    return timed_out();
  } catch (const z3::exception&) {
    if (scope.expired()) return timed_out();  // an interrupted Z3 call may throw ("canceled")
    throw;
  }
}

namespace {
ProofOutcome prove_within_limit(SymbolicScope& scope, const std::vector<z3::expr>& domain,
                                const std::vector<ProofVariable>& variables, const std::function<z3::expr()>& claim,
                                const ProofOptions& options, ProofOutcome& out, Phase& phase) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto elapsed_ms = [&] { return std::chrono::duration<double, std::milli>(clock::now() - start).count(); };
  z3::context& ctx = scope.ctx();
  PathExplorer& explorer = scope.explorer();
  std::vector<z3::expr> full_domain = domain;
  for (const auto& r : scope.variable_ranges()) full_domain.push_back(r);
  if (!check_domain_points(scope, full_domain, variables, options, out)) return out;
  explorer.set_domain(full_domain);
  do {
    phase = Phase::Building;  // the claim's evaluation includes the branch decisions' checks
    explorer.begin_run();
    scope.clear_obligations();
    scope.clear_definitions();
    scope.clear_sufficient_goal();
    scope.clear_hypotheses();
    z3::expr goal = claim();
    z3::expr side_conditions = ctx.bool_val(true);
    for (const auto& o : scope.obligations()) side_conditions = side_conditions && z3::implies(o.guard, o.condition);
    // The claim's hypotheses (prove --assume) and, when asked, the side conditions.
    z3::expr hypotheses = ctx.bool_val(true);
    for (const auto& h : scope.hypotheses()) hypotheses = hypotheses && h;
    if (options.side_conditions_as_hypotheses) {
      hypotheses = hypotheses && side_conditions;
      side_conditions = ctx.bool_val(true);
    }
    goal = z3::implies(hypotheses, goal && side_conditions);
    // A solver for this path's assumptions, limited to `resources` of Z3's resource count
    // (0: none; a count, not a time, so that the verdict does not depend on the machine's
    // load) and to the proof's deadline.
    auto path_solver = [&](unsigned resources) {
      z3::solver solver = scope.make_solver();
      z3::params p(ctx);
      if (options.timeout_ms) {
        const double left = options.timeout_ms - elapsed_ms();
        if (left < 1) throw ProofTimeout();
        p.set("timeout", static_cast<unsigned>(left));
      }
      if (resources) p.set("rlimit", resources);
      solver.set(p);
      for (const auto& d : full_domain) solver.add(d);
      for (const auto& c : explorer.path_condition()) solver.add(c);
      for (const auto& d : scope.definitions()) solver.add(d);
      return solver;
    };
    if (scope.sufficient_goal()) {
      // unsat here proves the path; any other answer leaves it to the claim's own goal.
      z3::solver quick = path_solver(kSufficientGoalResources);
      quick.add((!z3::implies(hypotheses, *scope.sufficient_goal() && side_conditions)).simplify());
      if (const char* dump = std::getenv("CUTEREF_PROOF_DUMP"))
        std::ofstream(std::string(dump) + "/query" + std::to_string(out.paths) + "-sufficient.smt2") << quick.to_smt2();
      phase = Phase::Solving;
      const auto t0 = clock::now();
      const z3::check_result r = quick.check();
      if (std::getenv("CUTEREF_PROOF_TRACE"))
        std::cerr << "    path " << out.paths << ": sufficient goal " << answer_name(r) << " in "
                  << std::chrono::duration<double, std::milli>(clock::now() - t0).count() << " ms, "
                  << quick.statistics() << "\n";
      if (r == z3::unsat) {
        ++out.paths;
        if (options.keep_smt2) out.smt2.emplace_back(quick.to_smt2(), "unsat");
        count_reachability(path_solver(kReachabilityResources), hypotheses, variables, out);
        continue;
      }
      scope.check_deadline();
    }
    z3::solver solver = path_solver(0);
    solver.add((!goal).simplify());  // constant parameters fold away before bit-blasting
    if (const char* dump = std::getenv("CUTEREF_PROOF_DUMP"))
      std::ofstream(std::string(dump) + "/query" + std::to_string(out.paths) + ".smt2") << solver.to_smt2();
    const auto t0 = clock::now();
    phase = Phase::Solving;
    const z3::check_result r = solver.check();
    if (std::getenv("CUTEREF_PROOF_TRACE"))
      std::cerr << "    path " << out.paths << ": final check "
                << std::chrono::duration<double, std::milli>(clock::now() - t0).count() << " ms, "
                << explorer.path_condition().size() << " decisions, " << scope.obligations().size()
                << " side conditions\n";
    if (r == z3::unknown && (scope.expired() || solver.reason_unknown() == "timeout")) throw ProofTimeout();
    ++out.paths;
    if (options.keep_smt2) out.smt2.emplace_back(solver.to_smt2(), answer_name(r));
    if (r == z3::unknown) {
      out.status = ProofStatus::Unknown;
      out.reason = "Z3: " + solver.reason_unknown();
      out.ms = elapsed_ms();
      return out;
    }
    if (r == z3::sat) {
      const z3::model m = solver.get_model();
      out.values = values_in(m, variables);
      for (const auto& o : scope.obligations())
        if (m.eval(o.guard && !o.condition, true).is_true()) {
          out.failed_side_condition = o.what;
          break;
        }
      out.status = ProofStatus::Refuted;
      out.ms = elapsed_ms();
      return out;
    }
    count_reachability(path_solver(kReachabilityResources), hypotheses, variables, out);
  } while (explorer.next_path());
  out.ms = elapsed_ms();
  if (out.reachable_paths > 0) {
    out.status = ProofStatus::Proved;
  } else if (out.undecided_paths == 0) {
    out.status = ProofStatus::Vacuous;
    out.reason = "no value in the ranges satisfies the hypotheses (Z3 showed each of the " + std::to_string(out.paths) +
                 " case(s) of the model's branches unreachable under them)";
  } else {
    out.status = ProofStatus::Unknown;
    out.reason = "every case holds, but Z3 did not show the hypotheses satisfiable in any of them (" +
                 std::to_string(out.undecided_paths) + " undecided, " + std::to_string(out.unreachable_paths) +
                 " unreachable)";
  }
  return out;
}
}  // namespace

std::string smt2_script(const ProofOutcome& outcome) {
  std::ostringstream s;
  s << "(set-logic ALL)\n";
  // Z3 prints its signed-multiplication overflow predicates under its own names; define them
  // in standard terms (the exact 128-bit product must fit in 64 bits) for other solvers.
  bool uses_overflow_predicates = false;
  for (const auto& q : outcome.smt2)
    uses_overflow_predicates = uses_overflow_predicates || q.first.find("bvsmul_no") != std::string::npos;
  if (uses_overflow_predicates)
    s << "(define-fun bvsmul_noovfl ((a (_ BitVec 64)) (b (_ BitVec 64))) Bool\n"
         "  (bvsle (bvmul ((_ sign_extend 64) a) ((_ sign_extend 64) b)) ((_ sign_extend 64) #x7fffffffffffffff)))\n"
         "(define-fun bvsmul_noudfl ((a (_ BitVec 64)) (b (_ BitVec 64))) Bool\n"
         "  (bvsge (bvmul ((_ sign_extend 64) a) ((_ sign_extend 64) b)) ((_ sign_extend 64) #x8000000000000000)))\n";
  for (const auto& [query, answer] : outcome.smt2) {
    // Z3 prints (check-sat) itself; drop its set-info/logic lines that would repeat.
    s << "; expect: " << answer << "\n(push 1)\n";
    std::istringstream lines(query);
    std::string line;
    while (std::getline(lines, line))
      if (line.rfind("(set-info", 0) != 0 && line.rfind("(set-logic", 0) != 0 && line.rfind("; benchmark", 0) != 0)
        s << line << "\n";
    s << "(pop 1)\n";
  }
  return s.str();
}

}  // namespace cuteref::proofs
