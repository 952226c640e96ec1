#include "symbolic_scalar.hpp"

namespace cuteref::proofs {

namespace {
thread_local SymbolicSession* g_current = nullptr;

void oblige(const z3::expr& c, const char* op) {
  current_session().add_obligation(c, std::string("the model's checked arithmetic rejects ") + op +
                                          " (overflow or a zero divisor)");
}

// Signed overflow checks in standard SMT-LIB terms (sign extension), so that exported
// queries are readable by other solvers: the exact result must fit in 64 bits.
z3::expr fits64(const z3::expr& wide) { return z3::sext(wide.extract(63, 0), wide.get_sort().bv_size() - 64) == wide; }
z3::expr add_ok(const z3::expr& a, const z3::expr& b) { return fits64(z3::sext(a, 1) + z3::sext(b, 1)); }
z3::expr sub_ok(const z3::expr& a, const z3::expr& b) { return fits64(z3::sext(a, 1) - z3::sext(b, 1)); }
z3::expr mul_ok(const z3::expr& a, const z3::expr& b) { return fits64(z3::sext(a, 64) * z3::sext(b, 64)); }
}  // namespace

SymbolicSession& current_session() {
  if (!g_current) throw Error("internal: symbolic arithmetic outside a SymbolicSession");
  return *g_current;
}

SymbolicSession::SymbolicSession() : explorer_(ctx_), previous_(g_current) { g_current = this; }
SymbolicSession::~SymbolicSession() { g_current = previous_; }

void SymbolicSession::add_obligation(const z3::expr& condition, std::string what) {
  z3::expr g = ctx_.bool_val(true);
  for (const auto& x : guards_) g = g && x;
  obligations_.push_back({g, condition, std::move(what)});
}

SymInt operator+(const SymInt& a, const SymInt& b) {
  oblige(add_ok(a.e, b.e), "+");
  return SymInt(a.e + b.e);
}
SymInt operator-(const SymInt& a, const SymInt& b) {
  oblige(sub_ok(a.e, b.e), "-");
  return SymInt(a.e - b.e);
}
SymInt operator*(const SymInt& a, const SymInt& b) {
  oblige(mul_ok(a.e, b.e), "*");
  return SymInt(a.e * b.e);
}
SymInt operator/(const SymInt& a, const SymInt& b) {
  const z3::expr zero = a.e.ctx().bv_val(0, 64);
  oblige(b.e != zero && !(a.e == a.e.ctx().bv_val(INT64_MIN, 64) && b.e == a.e.ctx().bv_val(-1, 64)), "/");
  return SymInt(z3::to_expr(a.e.ctx(), Z3_mk_bvsdiv(a.e.ctx(), a.e, b.e)));
}
SymInt operator%(const SymInt& a, const SymInt& b) {
  const z3::expr zero = a.e.ctx().bv_val(0, 64);
  oblige(b.e != zero, "%");
  return SymInt(z3::srem(a.e, b.e));
}
SymInt operator&(const SymInt& a, const SymInt& b) { return SymInt(a.e & b.e); }
SymInt operator^(const SymInt& a, const SymInt& b) { return SymInt(a.e ^ b.e); }
z3::expr operator<(const SymInt& a, const SymInt& b) { return z3::slt(a.e, b.e); }
z3::expr operator>=(const SymInt& a, const SymInt& b) { return z3::sge(a.e, b.e); }
z3::expr operator==(const SymInt& a, const SymInt& b) { return a.e == b.e; }

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
}

bool PathExplorer::decide(const z3::expr& condition) {
  const z3::expr c = condition.simplify();
  if (c.is_true()) return true;
  if (c.is_false()) return false;
  if (position_ < choices_.size()) {
    const bool v = choices_[position_++].value;
    path_.push_back(v ? c : !c);
    return v;
  }
  // A new decision: which values are feasible under the domain and the path so far?
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
  auto& ctx = a.e.ctx();
  const z3::expr zero = ctx.bv_val(0, 64);
  // As CheckedInt: 0 <= n <= 63, a >= 0 and no bit shifted into or past bit 63.
  const z3::expr ok = z3::sge(n.e, zero) && z3::sle(n.e, ctx.bv_val(63, 64)) && z3::sge(a.e, zero) &&
                      z3::lshr(z3::shl(a.e, n.e), n.e) == a.e && z3::sge(z3::shl(a.e, n.e), zero);
  proofs::current_session().add_obligation(ok, "the model's checked arithmetic rejects << (overflow)");
  return SymInt(z3::shl(a.e, n.e));
}

proofs::SymInt ScalarOps<proofs::SymInt>::lshr(const SymInt& a, const SymInt& n) {
  auto& ctx = a.e.ctx();
  const z3::expr ok = z3::sge(n.e, ctx.bv_val(0, 64)) && z3::sle(n.e, ctx.bv_val(63, 64));
  proofs::current_session().add_obligation(ok, "the model rejects a shift count outside [0, 63]");
  return SymInt(z3::lshr(a.e, n.e));
}

}  // namespace cuteref
