#include "symbolic_scalar.hpp"

namespace cuteref::proofs {

namespace {
thread_local SymbolicSession* g_current = nullptr;

void oblige(const z3::expr& c, const char* op) {
  current_session().add_obligation(c, std::string("the model's checked arithmetic rejects ") + op +
                                          " (overflow or a zero divisor)");
}

// Signed overflow checks of + and - in standard SMT-LIB terms (sign extension): the exact
// result must fit in 64 bits.
z3::expr fits64(const z3::expr& wide) { return z3::sext(wide.extract(63, 0), wide.get_sort().bv_size() - 64) == wide; }
z3::expr add_ok(const z3::expr& a, const z3::expr& b) { return fits64(z3::sext(a, 1) + z3::sext(b, 1)); }
z3::expr sub_ok(const z3::expr& a, const z3::expr& b) { return fits64(z3::sext(a, 1) - z3::sext(b, 1)); }
// Z3's own signed-multiplication overflow predicates: far cheaper to bit-blast than a
// 128-bit product. smt2_script() defines them in standard terms for other solvers.
z3::expr mul_ok(const z3::expr& a, const z3::expr& b) {
  return z3::bvmul_no_overflow(a, b, true) && z3::bvmul_no_underflow(a, b);
}
}  // namespace

SymbolicSession& current_session() {
  if (!g_current) throw Error("internal: symbolic arithmetic outside a SymbolicSession");
  return *g_current;
}

SymbolicSession::SymbolicSession() : explorer_(ctx_), previous_(g_current) { g_current = this; }
SymbolicSession::~SymbolicSession() { g_current = previous_; }

SymInt SymbolicSession::ranged_variable(const std::string& name, std::int64_t lo, std::int64_t hi,
                                       std::vector<z3::expr>& domain) {
  unsigned bits = 1;
  if (lo >= 0) {
    while (bits < 64 && (static_cast<std::uint64_t>(hi) >> bits) != 0) ++bits;
  } else {
    auto fits = [&](unsigned w) {
      if (w >= 64) return true;
      const std::int64_t min = -(std::int64_t{1} << (w - 1)), max = (std::int64_t{1} << (w - 1)) - 1;
      return lo >= min && hi <= max;
    };
    while (!fits(bits)) ++bits;
  }
  const z3::expr narrow = ctx_.bv_const(name.c_str(), bits);
  const z3::expr wide = bits == 64 ? narrow : lo >= 0 ? z3::zext(narrow, 64 - bits) : z3::sext(narrow, 64 - bits);
  domain.push_back(z3::sge(wide, ctx_.bv_val(lo, 64)) && z3::sle(wide, ctx_.bv_val(hi, 64)));
  return SymInt(wide, lo, hi);
}

void SymbolicSession::add_obligation(const z3::expr& condition, std::string what) {
  z3::expr g = ctx_.bool_val(true);
  for (const auto& x : guards_) g = g && x;
  obligations_.push_back({g, condition, std::move(what)});
}

namespace {
using Bound = SymInt::Bound;
constexpr Bound kMin = INT64_MIN, kMax = INT64_MAX;
bool fits(Bound lo, Bound hi) { return lo >= kMin && hi <= kMax; }
Bound clamp(Bound v) { return v < kMin ? kMin : v > kMax ? kMax : v; }
SymInt ranged(z3::expr e, Bound lo, Bound hi) { return SymInt(std::move(e), clamp(lo), clamp(hi)); }
Bound abs_max(const SymInt& a) { return -a.lo > a.hi ? -a.lo : a.hi; }
bool excludes(const SymInt& a, Bound v) { return a.lo > v || a.hi < v; }
}  // namespace

SymInt operator+(const SymInt& a, const SymInt& b) {
  const Bound lo = a.lo + b.lo, hi = a.hi + b.hi;
  if (!fits(lo, hi)) oblige(add_ok(a.e, b.e), "+");
  return ranged(a.e + b.e, lo, hi);
}
SymInt operator-(const SymInt& a, const SymInt& b) {
  const Bound lo = a.lo - b.hi, hi = a.hi - b.lo;
  if (!fits(lo, hi)) oblige(sub_ok(a.e, b.e), "-");
  return ranged(a.e - b.e, lo, hi);
}
SymInt operator*(const SymInt& a, const SymInt& b) {
  const Bound p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  Bound lo = p[0], hi = p[0];
  for (Bound x : p) lo = x < lo ? x : lo, hi = x > hi ? x : hi;
  if (!fits(lo, hi)) oblige(mul_ok(a.e, b.e), "*");
  return ranged(a.e * b.e, lo, hi);
}
SymInt operator/(const SymInt& a, const SymInt& b) {
  const z3::expr zero = a.e.ctx().bv_val(0, 64);
  if (!(excludes(b, 0) && (a.lo > kMin || excludes(b, -1))))
    oblige(b.e != zero && !(a.e == a.e.ctx().bv_val(INT64_MIN, 64) && b.e == a.e.ctx().bv_val(-1, 64)), "/");
  const z3::expr q = z3::to_expr(a.e.ctx(), Z3_mk_bvsdiv(a.e.ctx(), a.e, b.e));
  if (a.lo >= 0 && b.lo > 0) return ranged(q, a.lo / b.hi, a.hi / b.lo);
  const Bound m = abs_max(a);
  return ranged(q, -m, m);
}
SymInt operator%(const SymInt& a, const SymInt& b) {
  const z3::expr zero = a.e.ctx().bv_val(0, 64);
  if (!excludes(b, 0)) oblige(b.e != zero, "%");
  const Bound m = abs_max(b) - 1;  // |a % b| < |b|, with the sign of a
  const Bound lo = a.lo >= 0 ? 0 : (a.lo > -m ? a.lo : -m);
  const Bound hi = a.hi <= 0 ? 0 : (a.hi < m ? a.hi : m);
  return ranged(z3::srem(a.e, b.e), lo, hi);
}
SymInt operator&(const SymInt& a, const SymInt& b) {
  if (a.lo >= 0 && b.lo >= 0) return ranged(a.e & b.e, 0, a.hi < b.hi ? a.hi : b.hi);
  if (a.lo >= 0) return ranged(a.e & b.e, 0, a.hi);
  if (b.lo >= 0) return ranged(a.e & b.e, 0, b.hi);
  return SymInt(a.e & b.e);
}
SymInt operator^(const SymInt& a, const SymInt& b) {
  if (a.lo >= 0 && b.lo >= 0) {
    Bound top = 1;
    while (top <= a.hi || top <= b.hi) top *= 2;
    return ranged(a.e ^ b.e, 0, top - 1);
  }
  return SymInt(a.e ^ b.e);
}
// Comparisons decided by the intervals are constants, so decide() need not branch.
z3::expr operator<(const SymInt& a, const SymInt& b) {
  if (a.hi < b.lo) return a.e.ctx().bool_val(true);
  if (a.lo >= b.hi) return a.e.ctx().bool_val(false);
  return z3::slt(a.e, b.e);
}
z3::expr operator>=(const SymInt& a, const SymInt& b) {
  if (a.lo >= b.hi) return a.e.ctx().bool_val(true);
  if (a.hi < b.lo) return a.e.ctx().bool_val(false);
  return z3::sge(a.e, b.e);
}
z3::expr operator==(const SymInt& a, const SymInt& b) {
  if (a.hi < b.lo || b.hi < a.lo) return a.e.ctx().bool_val(false);
  if (a.lo == a.hi && b.lo == b.hi && a.lo == b.lo) return a.e.ctx().bool_val(true);
  return a.e == b.e;
}

// PathExplorer ------------------------------------------------------------------------

void PathExplorer::set_domain(const std::vector<z3::expr>& domain) {
  solver_.reset();
  for (const auto& d : domain) solver_.add(d);
  choices_.clear();
  branch_points_ = 0;
}

void PathExplorer::begin_run() {
  position_ = 0;
  path_.clear();
  known_.clear();
}

bool PathExplorer::decide(const z3::expr& condition) {
  const z3::expr c = condition.simplify();
  if (c.is_true()) return true;
  if (c.is_false()) return false;
  if (position_ < choices_.size()) {
    const bool v = choices_[position_++].value;
    path_.push_back(v ? c : !c);
    known_.emplace_back(c, v);
    return v;
  }
  // A new decision. A condition already decided on this path (the same term: Z3 shares
  // equal terms) has its value; otherwise ask which values are feasible under the domain
  // and the path so far (one incremental solver: much faster here than fresh ones).
  for (const auto& [term, value] : known_)
    if (z3::eq(term, c)) {
      choices_.push_back({value, false});
      ++position_;
      path_.push_back(value ? c : !c);
      known_.emplace_back(c, value);
      return value;
    }
  auto feasible = [&](const z3::expr& e) {
    solver_.push();
    for (const auto& p : path_) solver_.add(p);
    solver_.add(e);
    const z3::check_result r = solver_.check();
    solver_.pop();
    return r != z3::unsat;  // unknown counts as feasible: explored, never skipped
  };
  const bool t = feasible(c), f = feasible(!c);
  const bool v = t;  // true first; if neither is feasible the path itself is, so never here
  const bool open = t && f;
  if (open) ++branch_points_;
  choices_.push_back({v, open});
  ++position_;
  path_.push_back(v ? c : !c);
  known_.emplace_back(c, v);
  return v;
}

bool PathExplorer::next_path() {
  while (!choices_.empty() && !choices_.back().alternative_open) choices_.pop_back();
  if (choices_.empty()) return false;
  choices_.back() = {false, false};
  return true;
}

}  // namespace cuteref::proofs

namespace cuteref {

proofs::SymInt ScalarOps<proofs::SymInt>::shl(const SymInt& a, const SymInt& n) {
  using Bound = SymInt::Bound;
  auto& ctx = a.e.ctx();
  const z3::expr zero = ctx.bv_val(0, 64);
  const bool counts_ok = n.lo >= 0 && n.hi <= 63;
  const Bound top = counts_ok ? (a.hi << static_cast<int>(n.hi)) : 0;
  const bool safe = counts_ok && a.lo >= 0 && top <= INT64_MAX;
  if (!safe) {
    // As CheckedInt: 0 <= n <= 63, a >= 0 and no bit shifted into or past bit 63.
    const z3::expr ok = z3::sge(n.e, zero) && z3::sle(n.e, ctx.bv_val(63, 64)) && z3::sge(a.e, zero) &&
                        z3::lshr(z3::shl(a.e, n.e), n.e) == a.e && z3::sge(z3::shl(a.e, n.e), zero);
    proofs::current_session().add_obligation(ok, "the model's checked arithmetic rejects << (overflow)");
    return SymInt(z3::shl(a.e, n.e), a.lo >= 0 ? 0 : INT64_MIN, INT64_MAX);
  }
  return SymInt(z3::shl(a.e, n.e), a.lo << static_cast<int>(n.lo), top);
}

proofs::SymInt ScalarOps<proofs::SymInt>::lshr(const SymInt& a, const SymInt& n) {
  auto& ctx = a.e.ctx();
  if (n.lo >= 0 && n.hi <= 63) {
    if (a.lo >= 0) return SymInt(z3::lshr(a.e, n.e), a.lo >> static_cast<int>(n.hi), a.hi >> static_cast<int>(n.lo));
    return SymInt(z3::lshr(a.e, n.e));
  }
  const z3::expr ok = z3::sge(n.e, ctx.bv_val(0, 64)) && z3::sle(n.e, ctx.bv_val(63, 64));
  proofs::current_session().add_obligation(ok, "the model rejects a shift count outside [0, 63]");
  return SymInt(z3::lshr(a.e, n.e));
}

}  // namespace cuteref
