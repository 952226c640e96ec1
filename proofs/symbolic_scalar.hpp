// The proofs' scalar: a 64-bit Z3 bit-vector that stands for the model's CheckedInt.
//
// Every operation the model checks (overflow of + - * <<, division by zero, negative
// shifts, ScalarOps::require) adds a side condition to the current SymbolicScope instead
// of throwing: a proof must show the model would not have thrown, a counterexample may be
// "the model rejects this input". Every branch of a generic algorithm
// (ScalarOps::decide) is a case split recorded by the scope's path explorer.
#pragma once

#include <z3++.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "scalar.hpp"

namespace cuteref::proofs {

class SymbolicScope;

// Thrown by the symbolic operations once the proof's time limit has passed (see
// SymbolicScope::expire). Not a cuteref::Error: no handler of the model's diagnostics may
// turn it into another answer; prove() catches it and answers `unknown` (timeout).
struct ProofTimeout : std::runtime_error {
  ProofTimeout() : std::runtime_error("the proof's time limit was reached") {}
};

// Thrown by a bit operation (& | ^ << >>, and what is built of them: swizzles, F2 layouts)
// on the integer encoding's scalars, which have none. Not a cuteref::Error, as ProofTimeout:
// no handler of the model's diagnostics may turn it into another answer; `prove` states the
// claim again in the bit-vector encoding.
struct NeedsBitVectors : std::runtime_error {
  explicit NeedsBitVectors(const std::string& op)
      : std::runtime_error("the integer encoding has no bit operation " + op + " (use the bit-vector encoding)") {}
};

// The scope that symbolic operations report to (one at a time per thread).
SymbolicScope& current_scope();

// A bit-vector with an interval [lo, hi] known to contain its value (given the domain and
// the side conditions recorded before it). Side conditions that the intervals already
// establish (e.g. no overflow in a product of bounded extents) are not handed to Z3: this
// is sound interval arithmetic, and it keeps the bit-blasted queries small. Values
// computed under a guard (SymbolicScope::push_guard) are used only under that guard.
//
// A bound is *certain* when it holds at every point of the domain, and not only where the
// side conditions recorded before it hold (an interval clamped to int64 after an overflow
// obligation, or narrowed under a guard, is not). Only a certain bound may make a fact that
// is added to every query: the sign facts of a division's definition (SymbolicScope::
// division). A definition from an uncertain sign once removed the very points where an
// overflow obligation failed, and so discharged it: a false `proved`.
struct SymInt {
  // __int128 is a GCC/Clang extension (-Wpedantic): __extension__ marks its one use as intended.
  __extension__ typedef __int128 Bound;
  z3::expr e;
  Bound lo = INT64_MIN, hi = INT64_MAX;
  bool lo_certain = true, hi_certain = true;
  explicit SymInt(z3::expr x) : e(std::move(x)) {}
  SymInt(z3::expr x, Bound l, Bound h, bool l_certain = true, bool h_certain = true)
      : e(std::move(x)), lo(l), hi(h), lo_certain(l_certain), hi_certain(h_certain) {}
};

SymInt operator+(const SymInt& a, const SymInt& b);
SymInt operator-(const SymInt& a, const SymInt& b);
SymInt operator*(const SymInt& a, const SymInt& b);
SymInt operator/(const SymInt& a, const SymInt& b);  // truncating, as C++
SymInt operator%(const SymInt& a, const SymInt& b);  // sign of the dividend, as C++
SymInt operator&(const SymInt& a, const SymInt& b);
SymInt operator^(const SymInt& a, const SymInt& b);
z3::expr operator<(const SymInt& a, const SymInt& b);
z3::expr operator>=(const SymInt& a, const SymInt& b);
z3::expr operator==(const SymInt& a, const SymInt& b);
// a * b == t on the exact product, with no side condition: in the integer encoding the product
// is unbounded (one past int64 equals no t), in bit-vectors it must not overflow.
z3::expr product_is(const SymInt& a, const SymInt& b, const SymInt& t);

// A recorded side condition: `condition` must hold whenever `guard` does.
struct Obligation {
  z3::expr guard;
  z3::expr condition;
  std::string what;
};

// Depth-first enumeration of the branch combinations of decide(): each run of the
// algorithm replays the recorded prefix and extends it; infeasible branches (under the
// domain and the path so far) are never entered.
class PathExplorer {
 public:
  explicit PathExplorer(z3::context& ctx) : solver_(ctx) {}
  void set_domain(const std::vector<z3::expr>& domain);
  void begin_run();
  bool decide(const z3::expr& condition);
  // Advance to the next unexplored branch combination; false when all were run.
  bool next_path();
  const std::vector<z3::expr>& path_condition() const { return path_; }
  std::size_t branch_points() const { return branch_points_; }

 private:
  struct Choice {
    bool value;
    bool alternative_open;  // the other value is feasible and not yet explored
  };
  std::vector<z3::expr> domain_;
  z3::solver solver_;  // incremental: the domain, then the path under push/pop
  std::vector<std::pair<z3::expr, bool>> known_;  // the path's conditions, with their values
  std::vector<Choice> choices_;
  std::vector<z3::expr> path_;
  std::size_t position_ = 0;
  std::size_t branch_points_ = 0;
};

// How SymInt represents the model's checked int64:
//   BitVector64: a 64-bit bit-vector, each checked operation with its no-overflow side
//     condition. Needed for the bit operations (& ^ << >>) of swizzles.
//   Int64Range: an unbounded integer, each checked operation with the side condition that
//     its exact result lies in [-2^63, 2^63). CheckedInt computes the exact result or
//     throws, so this is the same function; Z3's arithmetic solver handles division by a
//     symbolic divisor (crd2idx on symbolic shapes), which bit-blasted 64-bit division does
//     not finish (measured: a rank-2 coalesce proof did not end in 200 s). Bit operations
//     are refused (an Error) in this encoding.
enum class Encoding { BitVector64, Int64Range };

class SymbolicScope {
 public:
  explicit SymbolicScope(Encoding encoding = Encoding::BitVector64);
  Encoding encoding() const { return encoding_; }
  ~SymbolicScope();
  SymbolicScope(const SymbolicScope&) = delete;
  SymbolicScope& operator=(const SymbolicScope&) = delete;

  z3::context& ctx() { return ctx_; }

  // The time limit of a proof: prove()'s watchdog thread calls expire() at the deadline (and
  // interrupts Z3's running call); from then on every symbolic operation (constants,
  // arithmetic, side conditions, branch decisions) throws ProofTimeout, so that building a
  // query stops too, not only the solver.
  void expire() noexcept { expired_.store(true, std::memory_order_relaxed); }
  bool expired() const noexcept { return expired_.load(std::memory_order_relaxed); }
  void check_deadline() const {
    if (expired()) throw ProofTimeout();
  }

  SymInt constant(std::int64_t v) {
    check_deadline();
    return SymInt(encoding_ == Encoding::BitVector64 ? ctx_.bv_val(v, 64) : ctx_.int_val(v), v, v);
  }
  // An unconstrained int64 variable (in Int64Range, its range is part of every query's
  // domain through variable_range()).
  SymInt variable(const std::string& name);
  // A variable ranging over [lo, hi]: declared with the fewest bits that hold the range and
  // sign- or zero-extended to 64 bits (so Z3 sees the constant high bits), with the range
  // appended to `domain`. Still a 64-bit value for all of the model's arithmetic.
  SymInt ranged_variable(const std::string& name, std::int64_t lo, std::int64_t hi, std::vector<z3::expr>& domain);

  void add_obligation(const z3::expr& condition, std::string what);
  const std::vector<Obligation>& obligations() const { return obligations_; }
  // The obligations recorded after the first `n`, removed (to state them as hypotheses).
  std::vector<Obligation> take_obligations_after(std::size_t n) {
    std::vector<Obligation> out(obligations_.begin() + static_cast<std::ptrdiff_t>(n), obligations_.end());
    obligations_.erase(obligations_.begin() + static_cast<std::ptrdiff_t>(n), obligations_.end());
    return out;
  }
  void clear_obligations() { obligations_.clear(); }
  // Obligations recorded inside a guard hold only where the guard does (e.g. evaluation
  // at an index i is only required to be defined for i < size).
  void push_guard(const z3::expr& g) { guards_.push_back(g); }
  void pop_guard() { guards_.pop_back(); }

  PathExplorer& explorer() { return explorer_; }
  // A stronger goal that implies the claim's (e.g. two layouts with the same modes), set by
  // the claim while it runs: the prover tries it first on each path (a cheap polynomial
  // identity where the claim's own goal needs division facts); if Z3 does not show it, the
  // claim's goal decides the path. Cleared before each run.
  void set_sufficient_goal(const z3::expr& g) { sufficient_ = g; }
  const std::optional<z3::expr>& sufficient_goal() const { return sufficient_; }
  void clear_sufficient_goal() { sufficient_.reset(); }
  // Hypotheses the claim states while it runs (prove --assume): the goal is proved where
  // they hold. Cleared before each run.
  void add_hypothesis(const z3::expr& h) { hypotheses_.push_back(h); }
  const std::vector<z3::expr>& hypotheses() const { return hypotheses_; }
  void clear_hypotheses() { hypotheses_.clear(); }
  // A solver suited to the encoding: for Int64Range, Z3's preprocessing (equations solved
  // and substituted, polynomials normalized) before its SMT core; measured: the queries of
  // crd2idx on symbolic shapes go from "no answer in minutes" to milliseconds.
  z3::solver make_solver();
  // Definitions of auxiliary variables (the quotient and remainder of an integer division):
  // facts that hold for some value of the new variables whatever the others are, so adding
  // them to a query changes no verdict about the original variables.
  void define(const z3::expr& fact) { definitions_.push_back(fact); }
  const std::vector<z3::expr>& definitions() const { return definitions_; }
  void clear_definitions() { definitions_.clear(); divisions_.clear(); }
  // Whether a proof used the division-nesting lemma (proved by the law division_lemmas),
  // or the remainder-split lemma (proved by the law division_remainder_split).
  bool nesting_used() const { return nesting_used_; }
  bool split_used() const { return split_used_; }
  bool exact_used() const { return exact_used_; }
  // What the intervals say of a division's signs: Natural (a >= 0, b > 0: the remainder is
  // in [0, b)), PositiveDivisor (b > 0, a of either sign: the remainder has a's sign), or
  // General (nothing known). The lemmas below need a positive divisor.
  enum class DivisionSigns { Natural, PositiveDivisor, General };
  // The (quotient, remainder) variables of a / b, shared by / and % of the same operands.
  // `signs_hold`: where `signs` rests on bounds that are not certain, the conditions it
  // assumes (b >= 1, and a >= 0 for Natural); the definitions then hold only where they do,
  // so that each stays satisfiable at every point (a definition that is not would remove
  // points from every query). True (the constant) where the signs are certain.
  std::pair<z3::expr, z3::expr> division(const z3::expr& a, const z3::expr& b, DivisionSigns signs,
                                         const z3::expr& signs_hold);
  // Range facts of the Int64Range variables made by variable(): every int64 is in range.
  const std::vector<z3::expr>& variable_ranges() const { return ranges_; }

 private:
  z3::context ctx_;
  Encoding encoding_;
  std::vector<Obligation> obligations_;
  std::vector<z3::expr> guards_;
  std::vector<z3::expr> ranges_;
  std::vector<z3::expr> definitions_;
  std::optional<z3::expr> sufficient_;
  std::vector<z3::expr> hypotheses_;
  struct Division {
    z3::expr a, b, q, r;
    DivisionSigns signs;
    z3::expr signs_hold;  // division()'s argument: where the definitions hold
    bool positive() const { return signs != DivisionSigns::General; }
  };
  bool nesting_used_ = false;
  bool split_used_ = false;
  bool exact_used_ = false;
  std::size_t fresh_names_ = 0;
  std::vector<Division> divisions_;
  PathExplorer explorer_;
  SymbolicScope* previous_;
  std::atomic<bool> expired_{false};
};

}  // namespace cuteref::proofs

namespace cuteref {

template <>
struct ScalarOps<proofs::SymInt> {
  using Bool = z3::expr;
  using SymInt = proofs::SymInt;
  static SymInt constant(std::int64_t v) { return proofs::current_scope().constant(v); }
  static std::string text(const SymInt&) { return "(a term)"; }
  static z3::expr product_is(const SymInt& a, const SymInt& b, const SymInt& t) { return proofs::product_is(a, b, t); }
  static SymInt select(const z3::expr& c, const SymInt& a, const SymInt& b) {
    if (c.is_true()) return a;
    if (c.is_false()) return b;
    return SymInt(z3::ite(c, a.e, b.e), a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi,
                  a.lo_certain && b.lo_certain, a.hi_certain && b.hi_certain);
  }
  static SymInt shl(const SymInt& a, const SymInt& n);
  static SymInt lshr(const SymInt& a, const SymInt& n);
  template <class Message>
  static void require(const z3::expr& c, Message&& what) {
    proofs::current_scope().add_obligation(c, what());
  }
  static bool decide(const z3::expr& c) { return proofs::current_scope().explorer().decide(c); }
  static z3::expr both(const z3::expr& a, const z3::expr& b) { return a && b; }
  static z3::expr truth(bool v) { return proofs::current_scope().ctx().bool_val(v); }
  // ceil_div(a, b) >= 1 for a, b >= 1 (a/b alone may be 0): the bound lets later divisions
  // by q use the natural-number division facts.
  static void note_ceil_div(SymInt& q, const SymInt& a, const SymInt& b) {
    if (a.lo >= 1 && b.lo >= 1 && q.lo < 1) {
      q.lo = 1;
      q.lo_certain = q.lo_certain && a.lo_certain && b.lo_certain;
    }
  }
  // The width of the interval's upper end for a non-negative interval, else 64.
  static int bit_width_bound(const SymInt& x) {
    if (x.lo < 0) return 64;
    int w = 0;
    for (SymInt::Bound u = x.hi; u != 0; u >>= 1) ++w;
    return w;
  }
};

}  // namespace cuteref
