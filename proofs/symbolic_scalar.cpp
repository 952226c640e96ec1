#include "symbolic_scalar.hpp"

#include <algorithm>
#include <optional>

namespace cuteref::proofs {

namespace {
thread_local SymbolicScope* g_current = nullptr;

// a && b, without a literal `true` conjunct (a division's signs_hold is `true` where its signs
// are certain, and a definition under `true` is stated as it is).
z3::expr both_hold(const z3::expr& a, const z3::expr& b) { return a.is_true() ? b : b.is_true() ? a : a && b; }

void oblige(const z3::expr& c, const char* op) {
  current_scope().add_obligation(c, std::string("the model's checked arithmetic rejects ") + op +
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

SymbolicScope& current_scope() {
  if (!g_current) throw Error("internal: symbolic arithmetic outside a SymbolicScope");
  return *g_current;
}

SymbolicScope::SymbolicScope(Encoding encoding)
    : encoding_(encoding), explorer_(ctx_), previous_(g_current) {
  g_current = this;
}

SymInt SymbolicScope::variable(const std::string& name) {
  if (encoding_ == Encoding::BitVector64) return SymInt(ctx_.bv_const(name.c_str(), 64));
  const z3::expr v = ctx_.int_const(name.c_str());
  ranges_.push_back(v >= ctx_.int_val(INT64_MIN) && v <= ctx_.int_val(INT64_MAX));
  return SymInt(v);
}
SymbolicScope::~SymbolicScope() { g_current = previous_; }

SymInt SymbolicScope::ranged_variable(const std::string& name, std::int64_t lo, std::int64_t hi,
                                       std::vector<z3::expr>& domain) {
  if (encoding_ == Encoding::Int64Range) {
    const z3::expr v = ctx_.int_const(name.c_str());
    domain.push_back(v >= ctx_.int_val(lo) && v <= ctx_.int_val(hi));
    return SymInt(v, lo, hi);
  }
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

z3::solver SymbolicScope::make_solver() {
  if (encoding_ == Encoding::BitVector64) return z3::solver(ctx_, "QF_BV");
  z3::params som(ctx_);
  som.set("som", true);
  const z3::tactic t = z3::tactic(ctx_, "simplify") & z3::tactic(ctx_, "propagate-values") &
                       z3::tactic(ctx_, "solve-eqs") & z3::with(z3::tactic(ctx_, "simplify"), som) &
                       z3::tactic(ctx_, "smt");
  return t.mk_solver();
}

namespace {
bool is_one(const z3::expr& e) {
  std::int64_t v = 0;
  return e.is_int() && e.is_numeral_i64(v) && v == 1;
}
// Factors 1 are dropped: x and 1*x are one divisor (a quotient by 1*b must find the
// record of the quotient by b).
void collect_factors(const z3::expr& e, std::vector<z3::expr>& out) {
  if (e.is_app() && e.decl().decl_kind() == Z3_OP_MUL) {
    for (unsigned k = 0; k < e.num_args(); ++k) collect_factors(e.arg(k), out);
    return;
  }
  if (is_one(e)) return;
  out.push_back(e);
}
// A product term with its factors flattened and ordered by term id, so that equal products
// built in different association orders ((a*b)*c, a*(b*c)) become the same term.
z3::expr normalized_product(const z3::expr& e) {
  std::vector<z3::expr> f;
  collect_factors(e, f);
  if (f.empty()) return e.ctx().int_val(1);
  if (f.size() == 1) return f[0];
  std::sort(f.begin(), f.end(), [](const z3::expr& x, const z3::expr& y) { return x.id() < y.id(); });
  z3::expr p = f[0];
  for (std::size_t k = 1; k < f.size(); ++k) p = p * f[k];
  return p;
}

// The cofactor c with b * c == B as products (the same factors, in any order and grouping;
// factors 1 of b are ignored), or nothing when b's factors are not among B's.
std::optional<z3::expr> cofactor(const z3::expr& big, const z3::expr& b) {
  std::vector<z3::expr> rest, fb;
  collect_factors(big, rest);
  collect_factors(b, fb);
  for (const auto& f : fb) {
    auto it = std::find_if(rest.begin(), rest.end(), [&](const z3::expr& g) { return z3::eq(f, g); });
    if (it == rest.end()) return std::nullopt;
    rest.erase(it);
  }
  if (rest.empty()) return big.ctx().int_val(1);
  z3::expr c = rest[0];
  for (std::size_t k = 1; k < rest.size(); ++k) c = c * rest[k];
  return c;
}
}  // namespace

std::pair<z3::expr, z3::expr> SymbolicScope::division(const z3::expr& a, const z3::expr& b_in, DivisionSigns signs,
                                                      const z3::expr& signs_hold) {
  check_deadline();  // the lemmas below recurse
  // A fact that holds where `hold` does (every fact where the signs are certain).
  auto where = [](const z3::expr& hold, const z3::expr& fact) { return hold.is_true() ? fact : z3::implies(hold, fact); };
  const bool natural = signs == DivisionSigns::Natural;
  const bool positive = signs != DivisionSigns::General;
  const z3::expr b = positive ? normalized_product(b_in) : b_in;
  // x / 1 is x and x % 1 is 0, for every x. Not recorded: a record whose quotient is its
  // own dividend would make the nesting lemma below find it again for every later division
  // of that dividend, without end.
  if (is_one(b)) return {a, ctx_.int_val(0)};
  for (const auto& d : divisions_)
    if (z3::eq(d.a, a) && z3::eq(d.b, b)) return {d.q, d.r};
  // The lemmas hold for dividends of either sign once the divisor is positive: C++'s
  // truncating division is odd in the dividend (the laws division_lemmas and
  // division_remainder_split prove each over all integers, both signs).
  if (positive) {
    // (b * c) / b is c and (b * c) % b is 0, for b >= 1 and every c (c >= 0 for a natural
    // dividend). Layouts divide products of extents by some of their factors (complement's
    // gaps and rest modes).
    if (const std::optional<z3::expr> c = cofactor(a, b)) {
      const z3::expr zero = ctx_.int_val(0);
      divisions_.push_back({a, b, *c, zero, signs, signs_hold});
      exact_used_ = true;
      return {*c, zero};
    }
    // a / (a * c) is 1 (remainder 0) for c == 1 and 0 (remainder a) for c >= 2, for a >= 1
    // (b = a * c > 0 and a >= 0 give a >= 1 and c >= 1; the law division_lemmas proves it
    // over all integers). Complement divides its extent by a cotarget that is a multiple of it.
    if (const std::optional<z3::expr> c = cofactor(b, a); natural && c && !is_one(*c)) {
      const z3::expr zero = ctx_.int_val(0), one = ctx_.int_val(1);
      const z3::expr q = z3::ite(*c == one, one, zero), r = z3::ite(*c == one, zero, a);
      divisions_.push_back({a, b, q, r, signs, signs_hold});
      exact_used_ = true;
      return {q, r};
    }
    // (x % (b * c)) / b is (x / b) % c, and (x % (b * c)) % b is x % b, for every x and
    // b, c >= 1 (the law division_remainder_split): the digits of a remainder are digits of
    // the dividend, so that crd2idx on a tuple mode (which splits index % size(mode) again)
    // and on the flattened modes share their quotients and remainders. c >= 1 follows from
    // b * c == B > 0 and b > 0 (this division's divisor is positive, and so is the earlier
    // one's, B). x / b has x's signs, and so has (x / b) / c.
    for (std::size_t k = 0; k < divisions_.size(); ++k) {
      if (!divisions_[k].positive() || !z3::eq(divisions_[k].r, a)) continue;
      const std::optional<z3::expr> c = cofactor(divisions_[k].b, b);
      if (!c) continue;
      const z3::expr x = divisions_[k].a;  // copies: the calls below may reallocate divisions_
      const DivisionSigns x_signs = divisions_[k].signs;
      // Where both divisions' signs hold, so do those of x / b and q1 / c (b, c >= 1 from
      // b * c == B >= 1 and b >= 1; q1 >= 0 for x >= 0).
      const z3::expr hold = both_hold(divisions_[k].signs_hold, signs_hold);
      const auto [q1, r1] = division(x, b, x_signs, hold);
      const z3::expr r2 = division(q1, *c, x_signs, hold).second;
      define(where(hold, a == b * r2 + r1));  // a consequence of the lemma and the definitions above
      divisions_.push_back({a, b, r2, r1, signs, hold});
      split_used_ = true;
      return {r2, r1};
    }
  }
  // Fresh names from a counter (the nested case below recurses before it records).
  const std::string n = std::to_string(fresh_names_++);
  const z3::expr r = ctx_.int_const(("div!r" + n).c_str());
  const z3::expr zero = ctx_.int_val(0);
  if (positive) {
    // C++'s truncating division by b >= 1: a == b*q + r with r in [0, b) and q >= 0 for
    // a >= 0, r in (-b, 0] and q <= 0 for a < 0 (the law division_lemmas proves that this
    // determines q and r, and that they are C++'s quotient and remainder).
    auto defining = [&](const z3::expr& q) {
      const z3::expr nonnegative = r >= zero && r < b && q >= zero;
      if (natural) return a == b * q + r && nonnegative;
      return a == b * q + r && z3::ite(a >= zero, nonnegative, r <= zero && r > -b && q <= zero);
    };
    // (x / c) / b is x / (c * b) for every x and c, b > 0 (the law division_lemmas): the
    // quotient of a nested division is that of the index divided by the product, so that
    // crd2idx on nested and merged modes shares its quotients.
    for (std::size_t k = 0; k < divisions_.size(); ++k) {
      if (!divisions_[k].positive() || !z3::eq(divisions_[k].q, a)) continue;
      const z3::expr x = divisions_[k].a, c = divisions_[k].b;
      const DivisionSigns x_signs = divisions_[k].signs;
      const z3::expr hold = both_hold(divisions_[k].signs_hold, signs_hold);
      const z3::expr q = division(x, c * b, x_signs, hold).first;
      define(where(hold, defining(q)));
      divisions_.push_back({a, b, q, r, signs, hold});
      nesting_used_ = true;
      return {q, r};
    }
    const z3::expr q = ctx_.int_const(("div!q" + n).c_str());
    define(where(signs_hold, defining(q)));
    // A dividend written as rest + b*c (e.g. a coordinate's index x + m*y): the instance of
    // uniqueness of division (the law division_lemmas proves it for all integers) for the
    // two representations b*q + r and b*c + rest, so that Z3 need not find it.
    if (natural && a.is_app() && a.decl().decl_kind() == Z3_OP_ADD)
      for (unsigned k = 0; k < a.num_args(); ++k) {
        const std::optional<z3::expr> c = cofactor(a.arg(k), b);
        if (!c) continue;
        z3::expr rest = zero;
        for (unsigned l = 0; l < a.num_args(); ++l)
          if (l != k) rest = rest + a.arg(l);
        define(z3::implies(b >= 1 && a == b * q + r && a == b * *c + rest && r >= zero && r < b && rest >= zero &&
                               rest < b,
                           q == *c && r == rest));
        break;
      }
    // Uniqueness of division, stated for Z3 (which would need nonlinear reasoning to find
    // it): the same dividend over equal positive divisors has the same quotient and remainder.
    for (const auto& d : divisions_)
      if (d.positive() && z3::eq(d.a, a)) define(z3::implies(d.b == b, d.q == q && d.r == r));
    divisions_.push_back({a, b, q, r, signs, signs_hold});
    return {q, r};
  }
  const z3::expr q = ctx_.int_const(("div!q" + n).c_str());
  const z3::expr abs_r = z3::ite(r >= zero, r, -r), abs_b = z3::ite(b >= zero, b, -b);
  define(z3::implies(b != zero, a == b * q + r && abs_r < abs_b && (r == zero || ((r > zero) == (a > zero)))));
  divisions_.push_back({a, b, q, r, signs, ctx_.bool_val(true)});  // General: no sign assumed
  return {q, r};
}

void SymbolicScope::add_obligation(const z3::expr& condition, std::string what) {
  check_deadline();
  z3::expr g = ctx_.bool_val(true);
  for (const auto& x : guards_) g = g && x;
  obligations_.push_back({g, condition, std::move(what)});
}

namespace {
using Bound = SymInt::Bound;
constexpr Bound kMin = INT64_MIN, kMax = INT64_MAX;
bool fits(Bound lo, Bound hi) { return lo >= kMin && hi <= kMax; }
Bound clamp(Bound v) { return v < kMin ? kMin : v > kMax ? kMax : v; }
// Every arithmetic operation's result passes here: the place to notice the time limit.
// An exact interval that misses int64 entirely (the operation overflows at every point, a
// side condition that fails) gives no interval: clamped, it would read as the constant
// INT64_MAX (or MIN), which comparisons and concrete_of would take for the value.
// lo_certain, hi_certain: whether the operands' bounds the exact lo and hi come from are
// certain (SymInt); a bound clamped to int64 is not.
SymInt ranged(z3::expr e, Bound lo, Bound hi, bool lo_certain, bool hi_certain) {
  current_scope().check_deadline();
  if (lo > kMax || hi < kMin) return SymInt(std::move(e), kMin, kMax, false, false);
  return SymInt(std::move(e), clamp(lo), clamp(hi), lo_certain && lo >= kMin, hi_certain && hi <= kMax);
}
// Both bounds of a and of b certain.
bool all_certain(const SymInt& a, const SymInt& b) { return a.lo_certain && a.hi_certain && b.lo_certain && b.hi_certain; }
Bound abs_max(const SymInt& a) { return -a.lo > a.hi ? -a.lo : a.hi; }
bool excludes(const SymInt& a, Bound v) { return a.lo > v || a.hi < v; }
}  // namespace

// Int64Range: the exact result must be an int64.
z3::expr in_int64(const z3::expr& r) {
  return r >= r.ctx().int_val(INT64_MIN) && r <= r.ctx().int_val(INT64_MAX);
}
bool integer(const SymInt& a) { return a.e.is_int(); }
void no_bits(const SymInt& a, const char* op) {
  if (integer(a))
    throw NeedsBitVectors(op);
}
// C++'s truncating division on integers: fresh quotient and remainder variables defined by
// a == b*q + r, |r| < |b|, r == 0 or r has the sign of a (SymbolicScope::division).
// Variables instead of SMT-LIB's div/mod terms let Z3 eliminate them by substitution and
// normalize the polynomials that crd2idx builds, which its div/mod reasoning does not do.
// The signs come from the lower bounds; where one is not certain, the definitions hold only
// where its sign does (SymbolicScope::division's signs_hold).
std::pair<z3::expr, z3::expr> trunc_division(const SymInt& a, const SymInt& b) {
  using S = SymbolicScope::DivisionSigns;
  const S signs = b.lo > 0 ? (a.lo >= 0 ? S::Natural : S::PositiveDivisor) : S::General;
  z3::context& ctx = a.e.ctx();
  z3::expr hold = ctx.bool_val(true);
  if (signs != S::General && !b.lo_certain) hold = b.e >= ctx.int_val(1);
  if (signs == S::Natural && !a.lo_certain) hold = both_hold(hold, a.e >= ctx.int_val(0));
  return current_scope().division(a.e, b.e, signs, hold);
}
z3::expr trunc_div(const SymInt& a, const SymInt& b) { return trunc_division(a, b).first; }
z3::expr trunc_rem(const SymInt& a, const SymInt& b) { return trunc_division(a, b).second; }

SymInt operator+(const SymInt& a, const SymInt& b) {
  const Bound lo = a.lo + b.lo, hi = a.hi + b.hi;
  const bool lo_c = a.lo_certain && b.lo_certain, hi_c = a.hi_certain && b.hi_certain;
  if (integer(a)) {
    if (!fits(lo, hi)) oblige(in_int64(a.e + b.e), "+");
    return ranged(a.e + b.e, lo, hi, lo_c, hi_c);
  }
  if (!fits(lo, hi)) oblige(add_ok(a.e, b.e), "+");
  return ranged(a.e + b.e, lo, hi, lo_c, hi_c);
}
SymInt operator-(const SymInt& a, const SymInt& b) {
  const Bound lo = a.lo - b.hi, hi = a.hi - b.lo;
  const bool lo_c = a.lo_certain && b.hi_certain, hi_c = a.hi_certain && b.lo_certain;
  if (integer(a)) {
    if (!fits(lo, hi)) oblige(in_int64(a.e - b.e), "-");
    return ranged(a.e - b.e, lo, hi, lo_c, hi_c);
  }
  if (!fits(lo, hi)) oblige(sub_ok(a.e, b.e), "-");
  return ranged(a.e - b.e, lo, hi, lo_c, hi_c);
}
z3::expr product_is(const SymInt& a, const SymInt& b, const SymInt& t) {
  if (integer(a)) return a.e * b.e == t.e;
  return mul_ok(a.e, b.e) && a.e * b.e == t.e;
}
SymInt operator*(const SymInt& a, const SymInt& b) {
  const Bound p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  Bound lo = p[0], hi = p[0];
  for (Bound x : p) lo = x < lo ? x : lo, hi = x > hi ? x : hi;
  // Of non-negative factors (certainly so), lo is the product of the lower bounds and hi of
  // the upper ones; otherwise either may be any of the four products.
  const bool nonnegative = a.lo >= 0 && b.lo >= 0 && a.lo_certain && b.lo_certain;
  const bool lo_c = nonnegative || all_certain(a, b);
  const bool hi_c = nonnegative ? a.hi_certain && b.hi_certain : all_certain(a, b);
  if (integer(a)) {
    if (!fits(lo, hi)) oblige(in_int64(a.e * b.e), "*");
    return ranged(a.e * b.e, lo, hi, lo_c, hi_c);
  }
  if (!fits(lo, hi)) oblige(mul_ok(a.e, b.e), "*");
  return ranged(a.e * b.e, lo, hi, lo_c, hi_c);
}
// b != 0 at every point (a quotient or remainder by 0 is unconstrained: the model's check
// fails there).
bool certainly_nonzero(const SymInt& b) { return (b.lo > 0 && b.lo_certain) || (b.hi < 0 && b.hi_certain); }
// The quotient's interval: [a.lo / b.hi, a.hi / b.lo] for a >= 0 and b > 0 (certain where
// those signs and the bound used are), else [-|a|, |a|] (|a / b| <= |a| for every b != 0).
SymInt quotient(z3::expr q, const SymInt& a, const SymInt& b) {
  if (a.lo >= 0 && b.lo > 0) {
    const bool signs = a.lo_certain && b.lo_certain;
    return ranged(std::move(q), a.lo / b.hi, a.hi / b.lo, signs && b.hi_certain, signs && a.hi_certain);
  }
  const Bound m = abs_max(a);
  const bool m_c = a.lo_certain && a.hi_certain && certainly_nonzero(b);
  return ranged(std::move(q), -m, m, m_c, m_c);
}
SymInt operator/(const SymInt& a, const SymInt& b) {
  if (integer(a)) {
    const z3::expr q = trunc_div(a, b);
    if (!(excludes(b, 0) && (a.lo > kMin || excludes(b, -1))))
      oblige(b.e != a.e.ctx().int_val(0) && in_int64(q), "/");
    return quotient(q, a, b);
  }
  const z3::expr zero = a.e.ctx().bv_val(0, 64);
  if (!(excludes(b, 0) && (a.lo > kMin || excludes(b, -1))))
    oblige(b.e != zero && !(a.e == a.e.ctx().bv_val(INT64_MIN, 64) && b.e == a.e.ctx().bv_val(-1, 64)), "/");
  const z3::expr q = z3::to_expr(a.e.ctx(), Z3_mk_bvsdiv(a.e.ctx(), a.e, b.e));
  return quotient(q, a, b);
}
SymInt operator%(const SymInt& a, const SymInt& b) {
  const Bound m = abs_max(b) - 1;  // |a % b| < |b|, with the sign of a
  const Bound lo = a.lo >= 0 ? 0 : (a.lo > -m ? a.lo : -m);
  const Bound hi = a.hi <= 0 ? 0 : (a.hi < m ? a.hi : m);
  // lo is a's sign or the larger of two lower bounds, -m and a.lo; hi the same above.
  const bool nonzero = certainly_nonzero(b), m_c = b.lo_certain && b.hi_certain;
  const bool lo_c = nonzero && a.lo_certain && (a.lo >= 0 || m_c);
  const bool hi_c = nonzero && a.hi_certain && (a.hi <= 0 || m_c);
  if (integer(a)) {
    if (!excludes(b, 0)) oblige(b.e != a.e.ctx().int_val(0), "%");
    return ranged(trunc_rem(a, b), lo, hi, lo_c, hi_c);
  }
  const z3::expr zero = a.e.ctx().bv_val(0, 64);
  if (!excludes(b, 0)) oblige(b.e != zero, "%");
  return ranged(z3::srem(a.e, b.e), lo, hi, lo_c, hi_c);
}
SymInt operator&(const SymInt& a, const SymInt& b) {
  no_bits(a, "&");
  // (Bit operations occur in the bit-vector encoding only, which defines nothing from signs;
  // the bounds' certainty is kept all the same.)
  const bool c = all_certain(a, b);
  if (a.lo >= 0 && b.lo >= 0) return ranged(a.e & b.e, 0, a.hi < b.hi ? a.hi : b.hi, c, c);
  if (a.lo >= 0) return ranged(a.e & b.e, 0, a.hi, c, c);
  if (b.lo >= 0) return ranged(a.e & b.e, 0, b.hi, c, c);
  return SymInt(a.e & b.e);
}
SymInt operator^(const SymInt& a, const SymInt& b) {
  no_bits(a, "^");
  if (a.lo >= 0 && b.lo >= 0) {
    Bound top = 1;
    while (top <= a.hi || top <= b.hi) top *= 2;
    const bool c = all_certain(a, b);
    return ranged(a.e ^ b.e, 0, top - 1, c, c);
  }
  return SymInt(a.e ^ b.e);
}
// Comparisons decided by the intervals are constants, so decide() need not branch.
z3::expr operator<(const SymInt& a, const SymInt& b) {
  if (a.hi < b.lo) return a.e.ctx().bool_val(true);
  if (a.lo >= b.hi) return a.e.ctx().bool_val(false);
  return integer(a) ? a.e < b.e : z3::slt(a.e, b.e);
}
z3::expr operator>=(const SymInt& a, const SymInt& b) {
  if (a.lo >= b.hi) return a.e.ctx().bool_val(true);
  if (a.hi < b.lo) return a.e.ctx().bool_val(false);
  return integer(a) ? a.e >= b.e : z3::sge(a.e, b.e);
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
  domain_ = domain;
  choices_.clear();
  branch_points_ = 0;
}

void PathExplorer::begin_run() {
  position_ = 0;
  path_.clear();
  known_.clear();
}

bool PathExplorer::decide(const z3::expr& condition) {
  current_scope().check_deadline();
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
  for (std::size_t k = 0; k < known_.size(); ++k)
    if (z3::eq(known_[k].first, c)) {
      const bool value = known_[k].second;  // a copy: emplace_back below may reallocate
      choices_.push_back({value, false});
      ++position_;
      path_.push_back(value ? c : !c);
      known_.emplace_back(c, value);
      return value;
    }
  auto feasible = [&](const z3::expr& e) {
    SymbolicScope& scope = current_scope();
    if (scope.encoding() == Encoding::Int64Range) {
      z3::solver s = scope.make_solver();
      for (const auto& d : domain_) s.add(d);
      for (const auto& p : path_) s.add(p);
      for (const auto& d : scope.definitions()) s.add(d);
      s.add(e);
      const z3::check_result r = s.check();
      scope.check_deadline();
      return r != z3::unsat;
    }
    solver_.push();
    for (const auto& p : path_) solver_.add(p);
    for (const auto& d : scope.definitions()) solver_.add(d);
    solver_.add(e);
    const z3::check_result r = solver_.check();
    solver_.pop();
    scope.check_deadline();  // an interrupted check answers unknown: not a feasible branch
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
  if (a.e.is_int()) throw proofs::NeedsBitVectors("<<");
  auto& ctx = a.e.ctx();
  const z3::expr zero = ctx.bv_val(0, 64);
  const bool counts_ok = n.lo >= 0 && n.hi <= 63;
  const Bound top = counts_ok ? (a.hi << static_cast<int>(n.hi)) : 0;
  const bool safe = counts_ok && a.lo >= 0 && top <= INT64_MAX;
  if (!safe) {
    // As CheckedInt: 0 <= n <= 63, a >= 0 and no bit shifted into or past bit 63.
    const z3::expr ok = z3::sge(n.e, zero) && z3::sle(n.e, ctx.bv_val(63, 64)) && z3::sge(a.e, zero) &&
                        z3::lshr(z3::shl(a.e, n.e), n.e) == a.e && z3::sge(z3::shl(a.e, n.e), zero);
    proofs::current_scope().add_obligation(ok, "the model's checked arithmetic rejects << (overflow)");
    return SymInt(z3::shl(a.e, n.e), a.lo >= 0 ? 0 : INT64_MIN, INT64_MAX, a.lo < 0, true);  // wraps where it fails
  }
  const bool c = a.lo_certain && a.hi_certain && n.lo_certain && n.hi_certain;
  return SymInt(z3::shl(a.e, n.e), a.lo << static_cast<int>(n.lo), top, c, c);
}

proofs::SymInt ScalarOps<proofs::SymInt>::lshr(const SymInt& a, const SymInt& n) {
  if (a.e.is_int()) throw proofs::NeedsBitVectors(">>");
  auto& ctx = a.e.ctx();
  if (n.lo >= 0 && n.hi <= 63) {
    const bool c = a.lo_certain && a.hi_certain && n.lo_certain && n.hi_certain;
    if (a.lo >= 0) return SymInt(z3::lshr(a.e, n.e), a.lo >> static_cast<int>(n.hi), a.hi >> static_cast<int>(n.lo), c, c);
    return SymInt(z3::lshr(a.e, n.e));
  }
  const z3::expr ok = z3::sge(n.e, ctx.bv_val(0, 64)) && z3::sle(n.e, ctx.bv_val(63, 64));
  proofs::current_scope().add_obligation(ok, "the model rejects a shift count outside [0, 63]");
  return SymInt(z3::lshr(a.e, n.e));
}

}  // namespace cuteref
