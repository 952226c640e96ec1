#include "laws.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

#include "coalesce.hpp"
#include "complement.hpp"
#include "composition.hpp"
#include "coordinates.hpp"
#include "divide.hpp"
#include "coalesce_induction.hpp"
#include "complement_induction.hpp"
#include "composition_induction.hpp"
#include "flatten_induction.hpp"
#include "inverse_induction.hpp"
#include "inverse.hpp"
#include "recast.hpp"
#include "recast_induction.hpp"
#include "notation.hpp"
#include "seed_swizzle_hypothesis.hpp"
#include "swizzle.hpp"
#include "swizzle_eval.hpp"
#include "symbolic_algebra.hpp"
#include "symbolic_layout.hpp"

namespace cuteref::proofs {

std::string status_name(ProofStatus s) {
  return s == ProofStatus::Proved    ? "proved"
         : s == ProofStatus::Refuted ? "refuted"
         : s == ProofStatus::Vacuous ? "vacuous"
                                     : "unknown";
}

bool law_passed(const Law& law, const LawResult& r) {
  return r.status == law.expected && r.corner_failure.empty() && r.corner_cases > 0;
}

namespace {

constexpr std::size_t kSmt2Sample = 2;  // queries kept per law unless all are asked for

// Runs one proof and folds it into the law's result. Returns the outcome.
ProofOutcome run_one(LawResult& r, SymbolicScope& s, const std::vector<z3::expr>& domain,
                     const std::vector<ProofVariable>& vars, const std::function<z3::expr()>& claim,
                     const ProofOptions& options) {
  ProofOptions o = options;
  o.keep_smt2 = options.keep_all_smt2 || r.smt2.size() < kSmt2Sample;
  ProofOutcome out = prove(s, domain, vars, claim, o);
  if (std::getenv("CUTEREF_PROOF_TRACE"))
    std::cerr << "  proof " << r.proofs << ": " << status_name(out.status) << " " << out.ms << " ms, " << out.paths
              << " paths\n";
  r.ms += out.ms;
  r.paths += out.paths;
  r.unreachable += out.unreachable_paths;
  ++r.proofs;
  add_domain_points_checked(r.domain_points_checked, out.domain_points_checked);
  for (auto& q : out.smt2)
    if (options.keep_all_smt2 || r.smt2.size() < kSmt2Sample) r.smt2.push_back(std::move(q));
  return out;
}

// Folds a proof's status: the law is Proved/Refuted only if every proof is.
void fold_status(LawResult& r, const ProofOutcome& out, ProofStatus expected, const std::string& what) {
  if (out.status != expected && r.status == expected) {
    r.status = out.status;
    std::ostringstream d;
    d << what << ": " << status_name(out.status);
    for (const auto& [k, v] : out.values) d << " " << k << "=" << v;
    if (!out.failed_side_condition.empty()) d << " (" << out.failed_side_condition << ")";
    if (!out.reason.empty()) d << " (" << out.reason << ")";
    r.detail = d.str();
  }
}

// ---- swizzle ------------------------------------------------------------------------

struct Bms {
  int b, m, s;
  std::string name() const {
    return "Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + ">";
  }
};

std::vector<Bms> swizzle_table(bool legal) {
  std::vector<Bms> t;
  for (int b = 0; b <= 8; ++b)
    for (int m = 0; m <= 8; ++m)
      for (int s = -8; s <= 8; ++s)
        if ((std::abs(s) >= b) == legal) t.push_back({b, m, s});
  return t;
}

// Sw(Sw(x)) == x by the model's swizzle_value, for every 64-bit x (the model swizzles
// offsets of any sign, as CuTe does).
z3::expr involution_claim(const SymInt& x, const SymInt& b, const SymInt& m, const SymInt& s) {
  return swizzle_value(swizzle_value(x, b, m, s), b, m, s) == x;
}

// The offsets "every 64-bit offset x (negative included)" covers at its ends and at the sign
// change. (B, M, S) are constants of the table, not variables: swizzle_table lists them.
std::vector<std::map<std::string, std::int64_t>> every_offset_points() {
  return {{{"x", INT64_MIN}}, {{"x", -1}}, {{"x", 0}}, {{"x", INT64_MAX}}};
}

// The points "all legal B,M,S" (CuTe's B, M >= 0, |S| >= B; the model's fields within 63
// bits) and "every 64-bit offset x" cover: the identity Sw<0,0,0>, the smallest nonzero field
// with a shift of each sign, a field that reaches bit 63, and every_offset_points.
std::vector<std::map<std::string, std::int64_t>> legal_swizzle_points() {
  std::vector<std::map<std::string, std::int64_t>> points = every_offset_points();
  points.push_back({{"B", 0}, {"M", 0}, {"S", 0}});
  points.push_back({{"B", 1}, {"M", 0}, {"S", 1}});
  points.push_back({{"B", 1}, {"M", 0}, {"S", -1}});
  points.push_back({{"B", 1}, {"M", 61}, {"S", 1}});
  return points;
}

LawResult swizzle_involution_table(const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s;
  const SymInt x = s.variable("x");
  const ProofOptions o = with_domain_points(opt, every_offset_points());
  for (const Bms& p : swizzle_table(true)) {
    const auto out = run_one(r, s, {}, {{"x", x.e}}, [&] {
      return involution_claim(x, s.constant(p.b), s.constant(p.m), s.constant(p.s));
    }, o);
    fold_status(r, out, ProofStatus::Proved, p.name());
    const Swizzle sw(p.b, p.m, p.s);  // the model's class: same generic code, CheckedInt
    for (std::int64_t v = -512; v < 1024; ++v, ++r.corner_cases)
      if (sw(sw(v)) != v && r.corner_failure.empty()) r.corner_failure = p.name() + " at " + std::to_string(v);
  }
  require_domain_points_checked(r, o);
  return r;
}

LawResult swizzle_involution_symbolic(const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s;
  const SymInt x = s.variable("x"), b = s.variable("B"), m = s.variable("M"), sh = s.variable("S");
  const z3::expr legal = swizzle_parameters_legal(b, m, sh);
  const ProofOptions o = with_domain_points(opt, legal_swizzle_points());
  const auto out = run_one(r, s, {legal}, {{"x", x.e}, {"B", b.e}, {"M", m.e}, {"S", sh.e}},
                           [&] { return involution_claim(x, b, m, sh); }, o);
  fold_status(r, out, ProofStatus::Proved, "symbolic B,M,S");
  require_domain_points_checked(r, o);
  // Corner: every legal (B,M,S) with B, M, |S| <= 4, x < 512, on the model's class.
  for (int bb = 0; bb <= 4; ++bb)
    for (int mm = 0; mm <= 4; ++mm)
      for (int ss = -4; ss <= 4; ++ss) {
        if (std::abs(ss) < bb) continue;
        const Swizzle sw(bb, mm, ss);
        for (std::int64_t v = -256; v < 512; ++v, ++r.corner_cases)
          if (sw(sw(v)) != v && r.corner_failure.empty()) r.corner_failure = Bms{bb, mm, ss}.name();
      }
  return r;
}

// A refutation names no domain points: a narrower domain can only lose its counterexample,
// never make the law prove more than it states.
LawResult swizzle_illegal_refuted(const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Refuted;
  SymbolicScope s;
  const SymInt x = s.variable("x");
  std::size_t shown = 0;
  for (const Bms& p : swizzle_table(false)) {
    const auto out = run_one(r, s, {x >= s.constant(0)}, {{"x", x.e}}, [&] {
      return involution_claim(x, s.constant(p.b), s.constant(p.m), s.constant(p.s));
    }, opt);
    fold_status(r, out, ProofStatus::Refuted, p.name());
    if (out.status != ProofStatus::Refuted) continue;
    // Replay on the model's swizzle_value with CheckedInt (the Swizzle class itself refuses
    // |S| < B, as CuTe does, so the generic function is called directly).
    const std::int64_t v = out.values.at("x");
    const CheckedInt y = swizzle_value<CheckedInt>(swizzle_value<CheckedInt>(v, p.b, p.m, p.s), p.b, p.m, p.s);
    ++r.corner_cases;
    if (y.v == v && r.corner_failure.empty()) r.corner_failure = p.name() + ": x=" + std::to_string(v) + " does not fail";
    if (shown++ < 2)
      r.detail += (r.detail.empty() ? "" : "; ") + p.name() + ": x=" + std::to_string(v) + " -> " +
                  std::to_string(swizzle_value<CheckedInt>(v, p.b, p.m, p.s).v) + " -> " + std::to_string(y.v);
  }
  return r;
}

LawResult swizzle_outside_bits(const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s;
  const SymInt x = s.variable("x"), b = s.variable("B"), m = s.variable("M"), sh = s.variable("S");
  const ProofOptions o = with_domain_points(opt, legal_swizzle_points());
  const auto out = run_one(
      r, s, {swizzle_parameters_legal(b, m, sh)}, {{"x", x.e}, {"B", b.e}, {"M", m.e}, {"S", sh.e}},
      [&] {
        using Ops = ScalarOps<SymInt>;
        const SymInt zero = s.constant(0);
        // Destination field [M + max(0,-S), +B): with S >= 0 this is [M, M+B).
        const SymInt dest = swizzle_field_mask(b, m + Ops::select(sh >= zero, zero, zero - sh));
        const SymInt changed = swizzle_value(x, b, m, sh) ^ x;
        return (changed & dest) == changed;
      },
      o);
  fold_status(r, out, ProofStatus::Proved, "symbolic B,M,S");
  require_domain_points_checked(r, o);
  for (const Bms& p : swizzle_table(true)) {
    const Swizzle sw(p.b, p.m, p.s);
    for (std::int64_t v = -256; v < 256; ++v, ++r.corner_cases)
      if (((sw(v) ^ v) & ~sw.destination_mask()) != 0 && r.corner_failure.empty()) r.corner_failure = p.name();
  }
  return r;
}

LawResult swizzle_128b_block(const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s;
  const SymInt x = s.variable("x");
  // A block of bytes is one of non-negative offsets: the first and the last offset.
  const ProofOptions o = with_domain_points(opt, {{{"x", 0}}, {{"x", INT64_MAX}}});
  const auto out = run_one(r, s, {x >= s.constant(0)}, {{"x", x.e}}, [&] {
    const SymInt y = swizzle_value(x, s.constant(3), s.constant(4), s.constant(3));
    return y / s.constant(1024) == x / s.constant(1024);
  }, o);
  fold_status(r, out, ProofStatus::Proved, "Sw<3,4,3>");
  require_domain_points_checked(r, o);
  // Corner: each of the first 64 blocks is mapped onto itself (a permutation of the block).
  const Swizzle sw(3, 4, 3);
  for (std::int64_t blk = 0; blk < 64; ++blk) {
    std::set<std::int64_t> image;
    for (std::int64_t v = blk * 1024; v < (blk + 1) * 1024; ++v, ++r.corner_cases) image.insert(sw(v));
    if ((image.size() != 1024 || *image.begin() != blk * 1024 || *image.rbegin() != blk * 1024 + 1023) &&
        r.corner_failure.empty())
      r.corner_failure = "block " + std::to_string(blk);
  }
  return r;
}

// A refutation: no domain points (swizzle_illegal_refuted says why).
LawResult seed000_swizzle_refuted(const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Refuted;
  SymbolicScope s;
  const SymInt x = s.variable("x");
  const auto out = run_one(r, s, {x >= s.constant(0), x < s.constant(std::int64_t{1} << 56)}, {{"x", x.e}}, [&] {
    const SymInt b = s.constant(3), m = s.constant(4), sh = s.constant(3);
    return seed000_swizzle_value(b, m, sh, seed000_swizzle_value(b, m, sh, x)) == x;
  }, opt);
  fold_status(r, out, ProofStatus::Refuted, "seed 000 formula with (B,M,S) = (3,4,3)");
  if (out.status == ProofStatus::Refuted) {
    const std::int64_t v = out.values.at("x");
    const std::int64_t once = seed000_swizzle(3, 4, 3, v), twice = seed000_swizzle(3, 4, 3, once);
    ++r.corner_cases;
    if (twice == v) r.corner_failure = "x=" + std::to_string(v) + " does not fail";
    r.detail = "x=" + std::to_string(v) + " -> " + std::to_string(once) + " -> " + std::to_string(twice);
  }
  // Hand-derived witness (seed 000's example offset): 24 = 0b11000 -> field (24>>3)&7 = 3
  // lands at bit 4: 24 ^ 48 = 40; again (40>>3)&7 = 5: 40 ^ 80 = 120 != 24.
  ++r.corner_cases;
  if (seed000_swizzle(3, 4, 3, seed000_swizzle(3, 4, 3, 24)) != 120) r.corner_failure = "hand-derived x=24";
  return r;
}

// ---- coalesce -----------------------------------------------------------------------

// Profiles (shape trees) of the coalesce laws: flat of rank 1..4, or depth 2 with <= 4
// leaves (a tuple of leaves and tuples of leaves, at least one tuple).
std::vector<IntTuple> profiles(bool nested) {
  std::vector<IntTuple> out;
  const IntTuple leaf = IntTuple::static_int(0);
  // elements: a leaf, or a tuple of k leaves (1 <= k <= 4).
  std::function<void(std::vector<IntTuple>&, int, bool)> grow = [&](std::vector<IntTuple>& cur, int leaves, bool has_tuple) {
    if (!cur.empty() && has_tuple == nested) out.push_back(IntTuple::tuple(cur));
    for (int k = 0; k <= 4 - leaves; ++k) {
      if (k == 0) {
        if (leaves + 1 > 4) continue;
        cur.push_back(leaf);
        grow(cur, leaves + 1, has_tuple);
        cur.pop_back();
      } else if (nested) {
        std::vector<IntTuple> inner(static_cast<std::size_t>(k), leaf);
        cur.push_back(IntTuple::tuple(inner));
        grow(cur, leaves + k, true);
        cur.pop_back();
      }
    }
  };
  std::vector<IntTuple> cur;
  grow(cur, 0, false);
  return out;
}

constexpr std::int64_t kShapeMax = 4096, kStrideMax = 4096;

// A concrete layout of the profile with the given leaf values.
Layout concrete_layout(const IntTuple& profile, const std::vector<std::int64_t>& sh, const std::vector<std::int64_t>& st) {
  std::size_t k = 0, j = 0;
  std::function<IntTuple(const IntTuple&, const std::vector<std::int64_t>&, std::size_t&)> fill =
      [&](const IntTuple& p, const std::vector<std::int64_t>& v, std::size_t& i) -> IntTuple {
    if (!p.is_tuple()) return IntTuple::integer(v[i++]);
    std::vector<IntTuple> e;
    for (const auto& x : p.elements()) e.push_back(fill(x, v, i));
    return IntTuple::tuple(std::move(e));
  };
  return Layout(fill(profile, sh, k), fill(profile, st, j));
}

// Enumerates small layouts of a profile (shapes 1..3, strides -2..2, at most 3 leaves) and
// checks the law on the concrete model.
void coalesce_corner(LawResult& r, const IntTuple& profile, bool idempotence) {
  std::vector<IntTuple> leaves;
  flatten_into(profile, leaves);
  const std::size_t n = leaves.size();
  if (n > 3) return;
  std::vector<std::int64_t> sh(n, 1), st(n, -2);
  for (;;) {
    const Layout l = concrete_layout(profile, sh, st);
    const Layout c = coalesce(l);
    ++r.corner_cases;
    bool ok = true;
    if (idempotence) {
      const Layout cc = coalesce(c);
      ok = cc.shape().same_values(c.shape()) && cc.stride().same_values(c.stride());
    } else {
      ok = size_value(c) == size_value(l);
      for (std::int64_t i = 0; ok && i < size_value(l); ++i) ok = apply_index(c, i) == apply_index(l, i);
    }
    if (!ok && r.corner_failure.empty()) r.corner_failure = l.to_string();
    std::size_t i = 0;
    for (; i < n; ++i) {
      if (st[i] < 2) { ++st[i]; break; }
      st[i] = -2;
    }
    if (i < n) continue;
    for (i = 0; i < n; ++i) {
      if (sh[i] < 3) { ++sh[i]; break; }
      sh[i] = 1;
    }
    if (i == n) break;
  }
}

// Which depth-2 profiles a law takes: all, or only those where a tuple mode of >= 2 leaves
// precedes another mode (their digits need the remainder split), or only the others.
enum class Split { Any, Only, None };

bool splits_a_remainder(const IntTuple& p) {
  for (std::size_t k = 0; k + 1 < p.rank(); ++k)
    if (p[k].is_tuple() && p[k].rank() >= 2) return true;
  return false;
}

LawResult coalesce_law(bool nested, bool idempotence, std::size_t max_leaves, const ProofOptions& opt,
                       Split split = Split::Any) {
  LawResult r;
  r.status = ProofStatus::Proved;
  // Integer encoding: crd2idx divides by symbolic extents (see Encoding).
  SymbolicScope s(Encoding::Int64Range);
  // The statements' ranges, "shapes in [1,2^12], strides in [-2^12,2^12]", at their ends and
  // at stride 0, and the first index (every profile has a leaf s0:d0).
  const std::int64_t bound = std::int64_t{1} << 12;
  const ProofOptions o = with_domain_points(
      opt, {{{"index", 0}}, {{"s0", 1}}, {{"s0", bound}}, {{"d0", -bound}}, {{"d0", 0}}, {{"d0", bound}}});
  for (const IntTuple& p : profiles(nested)) {
    std::vector<IntTuple> leaves;
    flatten_into(p, leaves);
    if (leaves.size() > max_leaves) continue;
    if (split != Split::Any && splits_a_remainder(p) != (split == Split::Only)) continue;
    // A tuple mode of >= 2 leaves that is not the last mode splits index % size(mode)
    // again; the integer encoding rewrites those digits by (x % (a*b)) / a == (x / a) % b
    // and (x % (a*b)) % a == x % a (SymbolicScope::division; the law
    // division_remainder_split proves them), so every depth-2 profile is proved.
    if (std::getenv("CUTEREF_PROOF_TRACE")) std::cerr << "  profile " << p.to_string() << "\n";
    std::vector<SymInt> shapes, strides;
    std::vector<z3::expr> domain;
    const SymLayout l = variable_layout(s, p, {1, kShapeMax}, {-kStrideMax, kStrideMax}, domain, shapes, strides);
    const SymInt index = s.ranged_variable("index", 0, INT64_MAX, domain);  // < size: functions_equal
    auto vars = named(shapes, strides, "s", "d");
    vars.push_back({"index", index.e});
    const auto out = run_one(r, s, domain, vars, [&]() -> z3::expr {
      const SymLayout c = sym_coalesce(l);
      if (!idempotence) return functions_equal(c, l, index);
      const SymLayout cc = sym_coalesce(c);
      return structurally_equal(cc.shape, c.shape) && structurally_equal(cc.stride, c.stride);
    }, o);
    fold_status(r, out, ProofStatus::Proved, "profile " + p.to_string());
    coalesce_corner(r, p, idempotence);
  }
  require_domain_points_checked(r, o);
  return r;
}

// coalesce keeps the function for every flat rank: coalesce_induction.hpp's step lemma, with
// the model's decisions, and a corner of small layouts enumerated.
LawResult coalesce_every_rank_law(const ProofOptions& opt) {
  // The points coalesce_induction.hpp's statement covers: the first index (i = 0), a mode of
  // shape 1 (the dropped step), the smallest kept summary (Np = sl = 1), strides of either
  // sign down to the most negative.
  const ProofOptions o = with_domain_points(
      opt, {{{"i", 0}}, {{"s", 1}}, {{"Np", 1}, {"sl", 1}}, {{"d", INT64_MIN}}, {{"dl", INT64_MIN}}, {{"d", -1}}});
  LawResult r = coalesce_step_lemma(ScalarCoalesceOps<SymInt>{}, o);
  require_domain_points_checked(r, o);
  // The corner: coalesce of flat layouts of rank 1 to 6 with shapes in [1,3] and strides in
  // [-2,4] (all of them up to rank 3, the first 20000 in odometer order above) equals the
  // layout at every index, on the concrete model.
  for (std::size_t rank = 1; rank <= 6; ++rank) {
    std::vector<std::int64_t> digits(2 * rank, 0);
    for (std::size_t count = 0; count < 20000; ++count) {
      std::vector<IntTuple> sh, st;
      for (std::size_t k = 0; k < rank; ++k) {
        sh.push_back(IntTuple::integer(1 + digits[k]));
        st.push_back(IntTuple::integer(digits[rank + k] - 2));
      }
      const Layout l(IntTuple::tuple(sh), IntTuple::tuple(st));
      const Layout c = coalesce(l);
      ++r.corner_cases;
      for (std::int64_t x = 0; x < size_value(l); ++x)
        if (apply_index(l, x) != apply_index(c, x) && r.corner_failure.empty()) r.corner_failure = l.to_string();
      std::size_t k = 0;
      while (k < digits.size() && ++digits[k] == (k < rank ? 3 : 7)) digits[k++] = 0;
      if (k == digits.size()) break;
    }
  }
  return r;
}

// coalesce is idempotent for every flat rank: coalesce_induction.hpp's two lemmas with the
// model's decisions, and coalesce(coalesce(L)) == coalesce(L) (same modes) on a corner.
LawResult coalesce_idempotent_every_rank_law(const ProofOptions& opt) {
  // The points coalesce_induction.hpp's statement covers: shapes of 1 (sp, s), the smallest
  // last kept mode of coalesce's output (shape != 1: sl = 2), strides down to the most
  // negative and 0.
  const ProofOptions o = with_domain_points(opt, {{{"sp", 1}}, {{"s", 1}}, {{"sl", 2}}, {{"dp", INT64_MIN}},
                                                  {{"dl", INT64_MIN}}, {{"d", INT64_MIN}}, {{"d", 0}}});
  LawResult r = coalesce_idempotence_lemmas(ScalarCoalesceOps<SymInt>{}, o);
  require_domain_points_checked(r, o);
  for (std::int64_t code = 0; code < 4 * 4 * 4 * 4 * 7 * 7 * 7 * 7; code += 3) {
    std::int64_t k = code;
    std::vector<IntTuple> sh, st;
    for (int m = 0; m < 4; ++m) sh.push_back(IntTuple::integer(1 + k % 4)), k /= 4;
    for (int m = 0; m < 4; ++m) st.push_back(IntTuple::integer(k % 7 - 2)), k /= 7;
    const Layout c = coalesce(Layout(IntTuple::tuple(sh), IntTuple::tuple(st)));
    const Layout cc = coalesce(c);
    ++r.corner_cases;
    if ((cc.shape() != c.shape() || cc.stride() != c.stride()) && r.corner_failure.empty()) r.corner_failure = c.to_string();
  }
  return r;
}

// Calls fn(A, M, complement(A, M)) for every A of rank 3 with shapes in [1,3] and strides in
// [0,6], and every cotarget M in [1,40] step 3, that complement accepts (the corner of the
// complement laws).
template <class Fn>
void for_each_small_complement(Fn&& fn) {
  for (std::int64_t code = 0; code < 3 * 3 * 3 * 7 * 7 * 7; ++code) {
    std::int64_t k = code;
    std::vector<IntTuple> sh, st;
    for (int m = 0; m < 3; ++m) sh.push_back(IntTuple::integer(1 + k % 3)), k /= 3;
    for (int m = 0; m < 3; ++m) st.push_back(IntTuple::integer(k % 7)), k /= 7;
    const Layout a(IntTuple::tuple(sh), IntTuple::tuple(st));
    for (std::int64_t m = 1; m <= 40; m += 3) {
      std::optional<Layout> complemented;
      try {
        complemented = complement(a, IntTuple::integer(m));
      } catch (const Error&) {
        continue;
      }
      fn(a, m, *complemented);
    }
  }
}

// complement for every rank: the step lemma of complement_induction.hpp with the proofs'
// SymComplementOps, and a corner enumerated.
LawResult complement_every_rank_law(const ProofOptions& opt) {
  // The points complement_induction.hpp's statement covers: the smallest extent, shape,
  // cotarget leaf and divisor (1), stride 0 (strides >= 0), the first coordinates.
  const ProofOptions o = with_domain_points(opt, {{{"E", 1}}, {{"s", 1}}, {{"d", 0}}, {{"c", 1}}, {{"divisor", 1}},
                                                  {{"y1", 0}}, {{"z1", 0}}});
  LawResult r = complement_step_lemma(SymComplementOps{}, o);
  require_domain_points_checked(r, o);
  // The corner: (filter(A), R) is injective on the model.
  for_each_small_complement([&](const Layout& a, std::int64_t m, const Layout& rl) {
    const Layout fa = filter(a);
    std::set<std::int64_t> seen;
    bool ok = true;
    for (std::int64_t j = 0; ok && j < size_value(fa); ++j)
      for (std::int64_t i = 0; ok && i < size_value(rl); ++i) ok = seen.insert(apply_index(fa, j) + apply_index(rl, i)).second;
    ++r.corner_cases;
    if (!ok && r.corner_failure.empty()) r.corner_failure = "complement(" + a.to_string() + ", " + std::to_string(m) + ")";
  });
  return r;
}

// complement's ordering and size post-conditions for every rank: the step lemmas of
// complement_induction.hpp with the proofs' SymComplementOps, and a corner enumerated.
LawResult complement_ordered_every_rank_law(const ProofOptions& opt) {
  // The points complement_induction.hpp's statement covers: R so far of one index (N = 1),
  // the smallest extent, shape, cotarget and divisor, stride 0 (strides >= 0; for an exact
  // gap k = 0), the first indices, and the exact-gap size bound at G = S = M = 1.
  const ProofOptions o = with_domain_points(
      opt, {{{"E", 1}}, {{"N", 1}}, {{"s", 1}}, {{"d", 0}}, {{"c", 1}}, {{"divisor", 1}}, {{"u1", 0}}, {{"y1", 0}},
            {{"G", 1}}, {{"S", 1}}, {{"k", 0}}, {{"M", 1}}});
  LawResult r = complement_order_step_lemma(SymComplementOps{}, o);
  require_domain_points_checked(r, o);
  // The corner: R(i-1) < R(i) on the model, and size(R) * size(filter(A)) >= M where each gap
  // is exact (every stride of filter(A), in increasing order, a multiple of the extent reached
  // before it: computed here from A's modes).
  std::size_t size_checked = 0;
  for_each_small_complement([&](const Layout& a, std::int64_t m, const Layout& rl) {
    // filter(A)'s modes: shape > 1 and stride > 0, in increasing stride order.
    std::vector<std::pair<std::int64_t, std::int64_t>> modes;  // (stride, shape)
    for (std::size_t k = 0; k < a.shape().rank(); ++k)
      if (a.shape()[k].value() > 1 && a.stride()[k].value() > 0)
        modes.emplace_back(a.stride()[k].value(), a.shape()[k].value());
    std::sort(modes.begin(), modes.end());
    bool exact = true;
    std::int64_t extent = 1, size_a = 1;
    for (const auto& [stride, shape] : modes) {
      exact = exact && stride % extent == 0;
      extent = stride * shape;
      size_a *= shape;
    }
    ++r.corner_cases;
    bool ok = true;
    for (std::int64_t i = 1; ok && i < size_value(rl); ++i) ok = apply_index(rl, i - 1) < apply_index(rl, i);
    if (exact) {
      ++size_checked;
      ok = ok && size_value(rl) * size_a >= m;
    }
    if (!ok && r.corner_failure.empty()) r.corner_failure = "complement(" + a.to_string() + ", " + std::to_string(m) + ")";
  });
  // Without exact gaps CuTe's size bound fails (by hand: the gap below stride 3 after (2:1) is
  // 3 / 2 = 1, the extent 6, R = ceil(24 / 6) : 6 = 4:6, and 4 * 4 < 24).
  const Layout inexact = complement(parse_layout("(2,2):(1,3)"), IntTuple::integer(24));
  ++r.corner_cases;
  if ((size_value(inexact) != 4 || size_value(inexact) * 4 >= 24) && r.corner_failure.empty())
    r.corner_failure = "complement((2,2):(1,3), 24) is " + inexact.to_string() + ", expected 4:6";
  if (size_checked == 0 && r.corner_failure.empty()) r.corner_failure = "no exact-gap case in the corner";
  return r;
}

// composition of one leaf mode n:d into a flat A, for every rank of A: the step lemma of
// composition_induction.hpp with the proofs' SymCompositionOps, and a corner enumerated.
LawResult composition_every_rank_law(const ProofOptions& opt) {
  // The points composition_induction.hpp's statements cover: A's shapes of 1 (s, sw), A's
  // strides down to the most negative and 0 (t, tw), n == 1, B's stride of magnitude 1 (d;
  // its sign is the case `negative`, d == 0 is outside the step lemma, by inspection), the
  // first coordinate and index (c, x) and nothing occupied before (prior).
  const ProofOptions o = with_domain_points(opt, {{{"s", 1}}, {{"t", INT64_MIN}}, {{"t", 0}}, {{"n", 1}}, {{"d", 1}},
                                                  {{"c", 0}}, {{"prior", 0}}, {{"sw", 1}}, {{"tw", INT64_MIN}},
                                                  {{"x", 0}}});
  LawResult r = composition_step_lemma(SymCompositionOps{nullptr}, o);
  fold_lemma(r, coalesce_x_step_lemma(SymCoalesceXOps{}, o));
  require_domain_points_checked(r, o);
  // The corner: every flat A of rank 1 to 3 with shapes in [1,4] and strides in [-1,3], and
  // every B = n:d with n in [1,6], d in [-3,4], that composition accepts: (A o B)(c) equals
  // A(d * c) (-A(|d| * c) for d < 0), evaluated by apply_index, which does not bound the index
  // (A's last mode takes the whole quotient), on the concrete model.
  for (std::size_t rank = 1; rank <= 3; ++rank)
    for_each_small_flat_layout(rank, 4, -1, 3, SIZE_MAX, [&](const std::vector<IntTuple>& sh, const std::vector<IntTuple>& st) {
      const Layout a(IntTuple::tuple(sh), IntTuple::tuple(st));
      for (std::int64_t n = 1; n <= 6; ++n)
        for (std::int64_t d = -3; d <= 4; ++d) {
          std::optional<Layout> composed;
          try {
            composed = composition(a, Layout(IntTuple::integer(n), IntTuple::integer(d)));
          } catch (const Error&) {
            continue;
          }
          ++r.corner_cases;
          for (std::int64_t c = 0; c < n; ++c) {
            const std::int64_t expected = d < 0 ? -apply_index(a, -d * c) : apply_index(a, d * c);
            if (apply_index(*composed, c) != expected && r.corner_failure.empty())
              r.corner_failure = "composition(" + a.to_string() + ", " + std::to_string(n) + ":" + std::to_string(d) + ")";
          }
        }
    });
  return r;
}

// The corner of the two composition-by-tuple laws: every flat A of rank 1 to 3 with shapes in
// [1, a_shape_max] and strides in [a_lo, a_hi], and every B of two leaves with shapes in [1,4]
// and strides in [b_lo, b_hi] (with a negative one when `negative_only`), that composition
// accepts: (A o B)(i) == A(B(i)) for every i < size(B), A's last mode unbounded, and A at a
// negative offset evaluated by crd2idx (CuTe's, with C++'s truncating division; apply_index
// refuses negative offsets). Returns the number of accepted pairs.
std::size_t composition_pair_corner(LawResult& r, std::int64_t a_shape_max, std::int64_t a_lo, std::int64_t a_hi,
                                    std::int64_t b_lo, std::int64_t b_hi, bool negative_only) {
  const std::int64_t strides = b_hi - b_lo + 1;
  std::size_t accepted = 0;
  for (std::size_t rank = 1; rank <= 3; ++rank)
    for_each_small_flat_layout(rank, a_shape_max, a_lo, a_hi, SIZE_MAX, [&](const std::vector<IntTuple>& sh, const std::vector<IntTuple>& st) {
      const Layout a(IntTuple::tuple(sh), IntTuple::tuple(st));
      for (std::int64_t code = 0; code < 4 * 4 * strides * strides; ++code) {
        const std::int64_t n0 = 1 + code % 4, n1 = 1 + code / 4 % 4;
        const std::int64_t d0 = b_lo + code / 16 % strides, d1 = b_lo + code / (16 * strides);
        if (negative_only && d0 >= 0 && d1 >= 0) continue;
        const Layout b(IntTuple::tuple({IntTuple::integer(n0), IntTuple::integer(n1)}),
                       IntTuple::tuple({IntTuple::integer(d0), IntTuple::integer(d1)}));
        std::optional<Layout> composed;
        try {
          composed = composition(a, b);
        } catch (const Error&) {
          continue;
        }
        ++r.corner_cases;
        ++accepted;
        for (std::int64_t i = 0; i < n0 * n1; ++i)
          if (apply_index(*composed, i) != crd2idx_index(CheckedInt(apply_index(b, i)), a.shape(), a.stride()).v &&
              r.corner_failure.empty())
            r.corner_failure = "composition(" + a.to_string() + ", " + b.to_string() + ")";
      }
    });
  return accepted;
}

// composition by a flat B of any number of leaves (strides >= 0) into a flat A of every rank:
// the digit-additivity lemma of composition_induction.hpp, the induction over B's leaves
// (composition_leaves_step_lemma), composition_every_rank's step lemma (each leaf's digits
// within the occupancy the model records), and a corner enumerated
// (A: shapes [1,3], strides [0,2]; B: strides [0,5]).
LawResult composition_tuple_every_rank_law(const ProofOptions& opt) {
  // The points the statements cover: a mode of shape 1 (s, whose digits are then 0), zero
  // digits and quotients, B's leaf at offset 0 (Y: strides >= 0 include 0), A of rank 1 and
  // its first mode (k0).
  const ProofOptions o = with_domain_points(opt, {{{"s", 1}}, {{"a", 0}}, {{"b", 0}}, {{"Xq", 0}}, {{"Yq", 0}},
                                                  {{"X", 0}}, {{"Y", 0}}, {{"r", 1}}, {{"k0", 0}}});
  LawResult r = digit_additivity_lemma(o);
  fold_lemma(r, composition_leaves_step_lemma(o));
  require_domain_points_checked(r, o);
  composition_pair_corner(r, 3, 0, 2, 0, 5, false);
  return r;
}

// composition by a flat B whose leaves have strides of either sign, into a flat A of every
// rank: the signed digit lemmas of composition_induction.hpp, and a corner enumerated (A:
// shapes [1,3], strides [-1,2]; B: strides [-4,4], one at least negative).
LawResult composition_signed_every_rank_law(const ProofOptions& opt) {
  // The points the statements cover: "every x" (of either sign; -INT64_MAX is the most
  // negative whose negation is an int64), u of either sign up to the same bound, 0, shapes
  // of 1, A's strides down to the most negative.
  const ProofOptions o = with_domain_points(opt, {{{"x", -INT64_MAX}}, {{"x", -1}}, {{"x", 0}}, {{"x", INT64_MAX}},
                                                  {{"u", -INT64_MAX}}, {{"u", -1}}, {{"u", 0}}, {{"s", 1}},
                                                  {{"M", 1}}, {{"t", INT64_MIN}}, {{"tk", INT64_MIN}}});
  LawResult r = signed_digit_lemmas(o);
  require_domain_points_checked(r, o);
  if (composition_pair_corner(r, 3, -1, 2, -4, 4, true) == 0 && r.corner_failure.empty())
    r.corner_failure = "no composition with a negative stride was accepted";
  return r;
}

// upcast and downcast for every rank and depth: the leaf lemmas of recast_induction.hpp with
// the proofs' SymRecastOps, and a corner enumerated.
LawResult recast_every_rank_law(const ProofOptions& opt) {
  // The points recast_induction.hpp's statement covers: a leaf of shape 1, n == 1 and
  // |d| == 1 (m), |d| == n (f == 1 in the wide case), the narrow case's smallest factor k ==
  // 2, the first coordinates and part, and downcast's stride w of any sign ("any d").
  const ProofOptions o = with_domain_points(opt, {{{"s", 1}}, {{"m", 1}}, {{"f", 1}}, {{"k", 2}}, {{"cp", 0}},
                                                  {{"c", 0}}, {{"r", 0}}, {{"w", INT64_MIN}}, {{"w", -1}},
                                                  {{"w", 0}}, {{"w", INT64_MAX}}});
  LawResult r = recast_leaf_lemma(SymRecastOps{}, o);
  require_domain_points_checked(r, o);
  // The corner: every flat L of rank 1 to 3 with shapes in [1,4] and static strides in
  // [-4,8], n in {1, 2, 3, 4, 8}: the multiset of n * upcast(L, n)'s offsets is the multiset
  // of L's offsets at the coordinates whose every leaf offset is a multiple of n; the multiset
  // of downcast(L, n)'s offsets (where it is defined: some static _1) is that of
  // n * L(c) + sum_j d_j * r_j over L's coordinates and the parts r_j < n of each contiguous leaf
  // (stride +-1); L's coordinates enumerated here, not by the model.
  for (std::size_t rank = 1; rank <= 3; ++rank)
    for_each_small_flat_layout(rank, 4, -4, 8, SIZE_MAX, [&](const std::vector<IntTuple>& sh, const std::vector<IntTuple>& st) {
      std::vector<IntTuple> static_st;
      for (const IntTuple& d : st) static_st.push_back(IntTuple::static_int(d.value()));
      const Layout l(IntTuple::tuple(sh), IntTuple::tuple(static_st));
      for (const std::int64_t n : {1, 2, 3, 4, 8}) {
        // Every coordinate of L and of each contiguous leaf's parts, as an odometer over the
        // leaves (extent s_k, times n for a contiguous leaf).
        std::vector<std::int64_t> up_expected, down_expected;
        std::vector<std::int64_t> digit(rank, 0);
        for (;;) {
          std::int64_t offset = 0, narrow = 0;
          bool aligned = true, in_box = true;
          for (std::size_t k = 0; k < rank; ++k) {
            const std::int64_t d = static_st[k].value();
            const bool contiguous = d == 1 || d == -1;
            const std::int64_t c = contiguous ? digit[k] / n : digit[k];
            in_box = in_box && c < sh[k].value();
            offset += d * c;
            aligned = aligned && (d * c) % n == 0;
            narrow += n * d * c + (contiguous ? d * (digit[k] % n) : 0);
          }
          if (in_box) down_expected.push_back(narrow);
          bool plain = true;  // every contiguous leaf's part is 0: a coordinate of L itself
          for (std::size_t k = 0; k < rank; ++k) {
            const std::int64_t d = static_st[k].value();
            if ((d == 1 || d == -1) && digit[k] % n != 0) plain = false;
          }
          if (in_box && plain && aligned) up_expected.push_back(offset);
          std::size_t k = 0;
          while (k < rank) {
            const std::int64_t d = static_st[k].value();
            const std::int64_t extent = sh[k].value() * ((d == 1 || d == -1) ? n : 1);
            if (++digit[k] < extent) break;
            digit[k++] = 0;
          }
          if (k == rank) break;
        }
        std::vector<std::int64_t> up_actual, down_actual;
        bool up_defined = true, down_defined = true;
        try {
          const Layout u = upcast(l, n);
          for (std::int64_t i = 0; i < size_value(u); ++i) up_actual.push_back(n * apply_index(u, i));
        } catch (const Error&) {
          up_defined = false;
        }
        try {
          const Layout dn = downcast(l, n);
          for (std::int64_t i = 0; i < size_value(dn); ++i) down_actual.push_back(apply_index(dn, i));
        } catch (const Error&) {
          down_defined = false;
        }
        std::sort(up_expected.begin(), up_expected.end());
        std::sort(up_actual.begin(), up_actual.end());
        std::sort(down_expected.begin(), down_expected.end());
        std::sort(down_actual.begin(), down_actual.end());
        if (up_defined) ++r.corner_cases;
        if (down_defined) ++r.corner_cases;
        if (((up_defined && up_actual != up_expected) || (down_defined && down_actual != down_expected)) &&
            r.corner_failure.empty())
          r.corner_failure = l.to_string() + " by " + std::to_string(n);
      }
    });
  return r;
}

// right_inverse for every rank: the step lemma of inverse_induction.hpp with the proofs'
// SymInverseOps, and a corner enumerated.
LawResult right_inverse_every_rank_law(const ProofOptions& opt) {
  // The points inverse_induction.hpp's statement covers: the walk's start (next == 1), a
  // mode of shape 1 at weight 1, strides of any sign down to the most negative and 0, i == 0.
  const ProofOptions o = with_domain_points(opt, {{{"next", 1}}, {{"s", 1}}, {{"w", 1}}, {{"d", INT64_MIN}},
                                                  {{"d", -1}}, {{"d", 0}}, {{"i", 0}}});
  LawResult r = right_inverse_step_lemma(SymInverseOps{nullptr}, o);
  require_domain_points_checked(r, o);
  // The corner: every flat L of rank 1 to 4 with shapes in [1,3] and strides in [0,8] (the
  // first 40000 in odometer order at rank 4): L(R(i)) == i for every i < size(R), R the
  // model's by-value right inverse, on the concrete model.
  for (std::size_t rank = 1; rank <= 4; ++rank)
    for_each_small_flat_layout(rank, 3, 0, 8, 40000, [&](const std::vector<IntTuple>& sh, const std::vector<IntTuple>& st) {
      const Layout l(IntTuple::tuple(sh), IntTuple::tuple(st));
      const Layout inv = right_inverse_full(l);
      ++r.corner_cases;
      for (std::int64_t i = 0; i < size_value(inv); ++i)
        if (apply_index(l, apply_index(inv, i)) != i && r.corner_failure.empty()) r.corner_failure = l.to_string();
    });
  return r;
}

// right_inverse's maximality for every rank: the step lemma of inverse_induction.hpp with the
// proofs' SymInverseOps, and a corner enumerated.
LawResult right_inverse_maximal_every_rank_law(const ProofOptions& opt) {
  // The points inverse_induction.hpp's statement covers: the walk's start (P == next == 1,
  // m == 0), stride 0 (strides >= 0), a mode of shape 1, the first coordinate, step and value.
  const ProofOptions o = with_domain_points(opt, {{{"P", 1}}, {{"next", 1}}, {{"m", 0}}, {{"d", 0}}, {{"s", 1}},
                                                  {{"x", 0}}, {{"j", 0}}, {{"v", 0}}});
  LawResult r = right_inverse_maximal_step_lemma(SymInverseOps{nullptr}, o);
  require_domain_points_checked(r, o);
  const auto image_of = [](const Layout& l) {
    std::set<std::int64_t> image;
    for (std::int64_t i = 0; i < size_value(l); ++i) image.insert(apply_index(l, i));
    return image;
  };
  // The corner: every injective flat L of rank 1 to 4 with shapes in [1,3] and strides in
  // [0,12] (the first 60000 in odometer order at rank 4): size(R) is not in L's image, R the
  // model's by-value right inverse, on the concrete model.
  for (std::size_t rank = 1; rank <= 4; ++rank)
    for_each_small_flat_layout(rank, 3, 0, 12, 60000, [&](const std::vector<IntTuple>& sh, const std::vector<IntTuple>& st) {
      const Layout l(IntTuple::tuple(sh), IntTuple::tuple(st));
      const std::set<std::int64_t> image = image_of(l);
      if (static_cast<std::int64_t>(image.size()) != size_value(l)) return;  // not injective
      ++r.corner_cases;
      if (image.count(size_value(right_inverse_full(l))) != 0 && r.corner_failure.empty()) r.corner_failure = l.to_string();
    });
  // Both hypotheses are needed (derived by hand): (2,2):(1,1) is not injective, its inverse is
  // 2:1 and L(3) == 2; (2,2,2):(1,-3,5) is injective with a negative stride, the walk takes
  // only the stride-1 mode (-3 and 5 are not the offset reached) and L at (0,1,1) is 2.
  for (const char* text : {"(2,2):(1,1)", "(2,2,2):(1,-3,5)"}) {
    const Layout l = parse_layout(text);
    ++r.corner_cases;
    if ((size_value(right_inverse_full(l)) != 2 || image_of(l).count(2) == 0) && r.corner_failure.empty())
      r.corner_failure = std::string(text) + " (expected size 2, in the image)";
  }
  return r;
}

// left_inverse for every rank: the step lemma of inverse_induction.hpp with the proofs'
// SymInverseOps, and a corner enumerated.
LawResult left_inverse_every_rank_law(const ProofOptions& opt) {
  // The points inverse_induction.hpp's statement covers: the walk's start (covered ==
  // s_prev == 1, Y == 0), the smallest nonzero stride (the walk skips stride 0) at weight 1, a
  // mode of shape 1, c == 0.
  const ProofOptions o = with_domain_points(opt, {{{"covered", 1}}, {{"s_prev", 1}}, {{"Y", 0}}, {{"d", 1}},
                                                  {{"w", 1}}, {{"s", 1}}, {{"c", 0}}});
  LawResult r = left_inverse_step_lemma(SymInverseOps{nullptr}, o);
  require_domain_points_checked(r, o);
  // The corner: every injective flat L of rank 1 to 4 with shapes in [1,3] and strides in
  // [0,12] (the first 60000 in odometer order at rank 4) that left_inverse accepts:
  // Li(L(i)) == i for every i < size(L), on the concrete model.
  for (std::size_t rank = 1; rank <= 4; ++rank)
    for_each_small_flat_layout(rank, 3, 0, 12, 60000, [&](const std::vector<IntTuple>& sh, const std::vector<IntTuple>& st) {
      const Layout l(IntTuple::tuple(sh), IntTuple::tuple(st));
      std::set<std::int64_t> image;
      for (std::int64_t i = 0; i < size_value(l); ++i) image.insert(apply_index(l, i));
      if (static_cast<std::int64_t>(image.size()) != size_value(l)) return;  // not injective
      std::optional<Layout> inv;
      try {
        inv = left_inverse(l);
      } catch (const Error&) {
        return;
      }
      ++r.corner_cases;
      for (std::int64_t i = 0; i < size_value(l); ++i)
        if (apply_index(*inv, apply_index(l, i)) != i && r.corner_failure.empty()) r.corner_failure = l.to_string();
    });
  return r;
}

// A nested layout is the function of its flattened modes, for every depth: the step lemma of
// flatten_induction.hpp on the model's crd2idx, and a corner of layouts up to depth 4.
LawResult flatten_every_depth_law(const ProofOptions& opt) {
  // The points flatten_induction.hpp's statement covers: the first index (x = 0), every
  // extent at 1 (extents are any int64 >= 1), a stride of either sign.
  const ProofOptions o = with_domain_points(opt, {{{"x", 0}}, {{"p", 1}}, {{"q", 1}}, {{"s", 1}}, {{"w", 1}},
                                                  {{"z", 1}}, {{"d", -1}}, {{"d", INT64_MIN}}});
  LawResult r = flatten_step_lemma(ModelFlatten{}, o);
  require_domain_points_checked(r, o);
  // The corner: nested profiles of depth 2 to 4 with up to 5 leaves, shapes in [1,3] and
  // strides in [-1,1]: L(i) == flatten(L)(i) for every i < size(L), on the concrete model.
  for (const char* text : {"((0,0),0)", "(0,(0,0))", "((0,(0,0)),0)", "(0,((0,0),0))", "(((0,0),0),(0,0))",
                           "((0,((0,0),0)),0)", "(((0,(0,0)),0),0)", "((0,0),(0,(0,0)))"}) {
    const IntTuple profile = parse_int_tuple(text);
    std::vector<IntTuple> leaves;
    flatten_into(profile, leaves);
    const std::size_t n = leaves.size();
    std::vector<std::int64_t> code(2 * n, 0);
    for (;;) {
      std::vector<std::int64_t> sh(n), st(n);
      for (std::size_t k = 0; k < n; ++k) sh[k] = 1 + code[k], st[k] = code[n + k] - 1;
      const Layout l = concrete_layout(profile, sh, st);
      const Layout f = flatten(l);
      ++r.corner_cases;
      for (std::int64_t i = 0; i < size_value(l); ++i)
        if (apply_index(l, i) != apply_index(f, i) && r.corner_failure.empty()) r.corner_failure = l.to_string();
      std::size_t k = 0;
      while (k < code.size() && ++code[k] == 3) code[k++] = 0;
      if (k == code.size()) break;
    }
  }
  return r;
}

// ---- composition, complement, right_inverse on concrete layouts too large to enumerate

// (A o B)(i) == A(B(i)) for every i < size(B), by the model's composition (run concretely)
// and its crd2idx (run symbolically on i).
struct CompositionCase {
  std::string a, b;
  std::string vendor;  // coalesce(composition(a, b)) as pycute (nvidia-cutlass 4.2.0.0) printed it
};

LawResult composition_law(const std::vector<CompositionCase>& cases, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s;
  for (const auto& [ta, tb, vendor] : cases) {
    const Layout a = parse_layout(ta), b = parse_layout(tb);
    const Layout c = composition(a, b);
    // The vendor agrees: pycute's coalesced result, printed (no static leaves here).
    ++r.corner_cases;
    if (coalesce(c).to_string() != vendor && r.corner_failure.empty())
      r.corner_failure = "vendor: pycute printed " + vendor + ", the model " + coalesce(c).to_string();
    const SymInt i = s.variable("index");
    const SymLayout sa = lift(a), sb = lift(b), sc = lift(c);
    // "every i < size(B)": the first and the last index.
    const ProofOptions o = with_domain_points(opt, {{{"index", 0}}, {{"index", size_value(b) - 1}}});
    const auto out = run_one(r, s, {i >= s.constant(0), i < s.constant(size_value(b))}, {{"index", i.e}}, [&] {
      return sym_size(sc) == sym_size(sb) && apply_at(sc, i) == apply_at(sa, apply_at(sb, i));
    }, o);
    fold_status(r, out, ProofStatus::Proved, "composition(" + ta + ", " + tb + ") = " + c.to_string());
    require_domain_points_checked(r, o);
    // Corner: the first and last 512 indices on the concrete model.
    const std::int64_t n = size_value(b);
    for (std::int64_t k = 0; k < std::min<std::int64_t>(n, 1024); ++k, ++r.corner_cases) {
      const std::int64_t idx = k < 512 ? k : n - 1024 + k;
      if (idx < 0) continue;
      if (apply_index(c, idx) != apply_index(a, apply_index(b, idx)) && r.corner_failure.empty())
        r.corner_failure = ta + " o " + tb + " at " + std::to_string(idx);
    }
  }
  return r;
}

// R = complement(A, M): A(j) == R(i) only at 0, and (A, R) is injective:
// A(j1) + R(i1) == A(j2) + R(i2) implies j1 == j2 and i1 == i2.
struct ComplementCase {
  std::string a;
  std::int64_t m;
  std::string vendor;  // coalesce(complement(a, m)) as pycute (nvidia-cutlass 4.2.0.0) printed it
};

// The vendor's value, printed as pycute prints it, agrees with the model's: one corner case.
// pycute has no static integers: the model's static marks (`_1`) are dropped to compare.
void vendor_agrees(LawResult& r, const std::string& what, const Layout& model, const std::string& vendor) {
  ++r.corner_cases;
  std::string printed = coalesce(model).to_string();
  printed.erase(std::remove(printed.begin(), printed.end(), '_'), printed.end());
  if (printed != vendor && r.corner_failure.empty())
    r.corner_failure = "vendor: " + what + ": pycute printed " + vendor + ", the model " + printed;
}

LawResult complement_law(const std::vector<ComplementCase>& cases, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s;
  for (const auto& [ta, m, vendor] : cases) {
    const Layout a = parse_layout(ta);
    const Layout c = complement(a, IntTuple::integer(m));
    vendor_agrees(r, "complement(" + ta + ", " + std::to_string(m) + ")", c, vendor);
    const SymLayout sa = lift(a), sc = lift(c);
    const SymInt j1 = s.variable("j1"), j2 = s.variable("j2"), i1 = s.variable("i1"), i2 = s.variable("i2");
    const SymInt na = s.constant(size_value(a)), nc = s.constant(size_value(c)), zero = s.constant(0);
    std::vector<z3::expr> dom{j1 >= zero, j1 < na, j2 >= zero, j2 < na, i1 >= zero, i1 < nc, i2 >= zero, i2 < nc};
    // Every index pair: the first and the last index of A and of R, on each side.
    const std::int64_t last_a = size_value(a) - 1, last_r = size_value(c) - 1;
    const ProofOptions o = with_domain_points(opt, {{{"j1", 0}, {"i1", 0}}, {{"j1", last_a}, {"i1", last_r}},
                                                    {{"j2", 0}, {"i2", last_r}}, {{"j2", last_a}, {"i2", 0}}});
    const auto out = run_one(r, s, dom, {{"j1", j1.e}, {"i1", i1.e}, {"j2", j2.e}, {"i2", i2.e}}, [&] {
      const SymInt a1 = apply_at(sa, j1), c1 = apply_at(sc, i1), a2 = apply_at(sa, j2), c2 = apply_at(sc, i2);
      const z3::expr meet_at_zero = z3::implies(a1 == c1, a1 == zero);
      const z3::expr injective = z3::implies(a1 + c1 == a2 + c2, j1 == j2 && i1 == i2);
      return meet_at_zero && injective;
    }, o);
    fold_status(r, out, ProofStatus::Proved, "complement(" + ta + ", " + std::to_string(m) + ") = " + c.to_string());
    require_domain_points_checked(r, o);
    // Corner: the first 64 x 64 pairs on the concrete model.
    std::set<std::int64_t> seen;
    for (std::int64_t j = 0; j < std::min<std::int64_t>(64, size_value(a)); ++j)
      for (std::int64_t i = 0; i < std::min<std::int64_t>(64, size_value(c)); ++i, ++r.corner_cases) {
        const std::int64_t va = apply_index(a, j), vc = apply_index(c, i);
        if ((va == vc && va != 0) || !seen.insert(va + vc).second)
          if (r.corner_failure.empty()) r.corner_failure = ta + " at j=" + std::to_string(j) + " i=" + std::to_string(i);
      }
  }
  return r;
}

LawResult right_inverse_law(const std::vector<std::pair<std::string, std::string>>& cases, const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s;
  for (const auto& [tl, vendor] : cases) {  // vendor: coalesce(right_inverse(L)) as pycute printed it
    const Layout l = parse_layout(tl);
    const Layout inv = right_inverse_full(l);
    vendor_agrees(r, "right_inverse(" + tl + ")", inv, vendor);
    const SymLayout sl = lift(l), si = lift(inv);
    const SymInt i = s.variable("index");
    // "every i < size(R)": the first and the last index.
    const ProofOptions o = with_domain_points(opt, {{{"index", 0}}, {{"index", size_value(inv) - 1}}});
    const auto out = run_one(r, s, {i >= s.constant(0), i < s.constant(size_value(inv))}, {{"index", i.e}},
                             [&] { return apply_at(sl, apply_at(si, i)) == i; }, o);
    fold_status(r, out, ProofStatus::Proved, "right_inverse(" + tl + ") = " + inv.to_string());
    require_domain_points_checked(r, o);
    for (std::int64_t k = 0; k < std::min<std::int64_t>(size_value(inv), 4096); ++k, ++r.corner_cases)
      if (apply_index(l, apply_index(inv, k)) != k && r.corner_failure.empty())
        r.corner_failure = tl + " at " + std::to_string(k);
  }
  return r;
}

// The hypotheses of a negated lemma `H1 && ... && Hk && !C`: H1 && ... && Hk (true for a
// lemma `!C` without hypotheses).
z3::expr lemma_hypotheses(const z3::expr& negated) {
  z3::context& ctx = negated.ctx();
  if (!negated.is_app() || negated.decl().decl_kind() != Z3_OP_AND) return ctx.bool_val(true);
  const unsigned n = negated.num_args();
  const z3::expr last = negated.arg(n - 1);
  if (!last.is_app() || last.decl().decl_kind() != Z3_OP_NOT) return ctx.bool_val(true);
  z3::expr h = ctx.bool_val(true);
  for (unsigned k = 0; k + 1 < n; ++k) h = h && negated.arg(k);
  return h;
}

// Proves each negated statement unsat (over all integers), with `solver_for` making the
// solver (Z3's default, or the integer encoding's preprocessing). Each lemma's hypotheses
// are shown satisfiable first: a lemma whose hypotheses cannot hold is Vacuous, not proved.
void prove_lemmas(LawResult& r, const std::vector<z3::expr>& negated, const std::function<z3::solver()>& solver_for) {
  const auto start = std::chrono::steady_clock::now();
  for (const auto& n : negated) {
    z3::params p(n.ctx());
    p.set("timeout", 60000u);
    {
      z3::solver hypotheses = solver_for();
      hypotheses.set(p);
      hypotheses.add(lemma_hypotheses(n));
      const z3::check_result h = hypotheses.check();
      if (h != z3::sat && r.status == ProofStatus::Proved) {
        r.status = h == z3::unsat ? ProofStatus::Vacuous : ProofStatus::Unknown;
        r.detail = "lemma " + std::to_string(r.proofs + 1) + ": its hypotheses are " +
                   (h == z3::unsat ? "unsatisfiable" : "not shown satisfiable");
      }
    }
    z3::solver solver = solver_for();
    solver.set(p);
    solver.add(n);
    const auto t0 = std::chrono::steady_clock::now();
    const z3::check_result c = solver.check();
    if (std::getenv("CUTEREF_PROOF_TRACE"))
      std::cerr << "  lemma " << r.proofs << ": " << (c == z3::unsat ? "unsat " : c == z3::sat ? "sat " : "unknown ")
                << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() << " ms\n";
    ++r.proofs;
    ++r.paths;
    r.smt2.emplace_back(solver.to_smt2(), c == z3::unsat ? "unsat" : c == z3::sat ? "sat" : "unknown");  // every lemma
    if (c != z3::unsat && r.status == ProofStatus::Proved) {
      r.status = c == z3::sat ? ProofStatus::Refuted : ProofStatus::Unknown;
      r.detail = "lemma " + std::to_string(r.proofs);
    }
  }
  r.ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// C++'s truncating quotient of x by b >= 1 in Z3's integer division (Euclidean, which is
// C++'s for x >= 0): C++'s is odd in x.
z3::expr truncating_quotient(const z3::expr& x, const z3::expr& b) { return z3::ite(x >= 0, x / b, -((-x) / b)); }

// How the integer encoding defines q = x / b and r = x % b for b >= 1 and x of either sign
// (SymbolicScope::division): x == b*q + r, r in [0, b) and q >= 0 for x >= 0, r in (-b, 0]
// and q <= 0 for x < 0.
z3::expr signed_division_defined(const z3::expr& x, const z3::expr& b, const z3::expr& q, const z3::expr& r) {
  return x == b * q + r && z3::ite(x >= 0, r >= 0 && r < b && q >= 0, r <= 0 && r > -b && q <= 0);
}

// Three facts the integer encoding states for Z3 (SymbolicScope::division): for x >= 0 and
// a, b > 0, (x / a) / b == x / (a * b); equal divisors of one dividend give one quotient
// and remainder; (b * c) / b == c, (b * c) % b == 0 for b >= 1 (exact division); and
// b / (b * c) is 1 for c == 1 and 0 (remainder b) for c >= 2, for b, c >= 1. Proved here over all integers with Z3's own integer division (which is
// C++'s on these signs), so the coalesce proofs rest on proved lemmas only.
// For dividends of either sign and a positive divisor (C++'s truncation): the encoding's
// definition (signed_division_defined) gives C++'s quotient and remainder (so it determines
// them: uniqueness), (x / a) / b == x / (a * b), and (b * c) / b == c, (b * c) % b == 0 for
// every c.
// No domain points: the lemmas are over all integers, each hypothesis (x >= 0, a, b >= 1)
// part of its formula, which is the statement's; there are no ranges to narrow.
LawResult division_lemmas(const ProofOptions&) {
  LawResult r;
  r.status = ProofStatus::Proved;
  z3::context ctx;
  const z3::expr x = ctx.int_const("x"), a = ctx.int_const("a"), b = ctx.int_const("b");
  const z3::expr q1 = ctx.int_const("q1"), q2 = ctx.int_const("q2"), r1 = ctx.int_const("r1"), r2 = ctx.int_const("r2");
  const z3::expr c = ctx.int_const("c");
  prove_lemmas(r,
               {x >= 0 && a >= 1 && b >= 1 && (x / a) / b != x / (a * b), !division_unique(b, x, q1, r1, q2, r2),
                b >= 1 && b * c == b * q1 + r1 && r1 >= 0 && r1 < b && !(q1 == c && r1 == 0),
                b >= 1 && c >= 1 && b == (b * c) * q1 + r1 && r1 >= 0 && r1 < b * c &&
                    !(q1 == z3::ite(c == 1, ctx.int_val(1), ctx.int_val(0)) && r1 == z3::ite(c == 1, ctx.int_val(0), b))},
               [&] { return z3::solver(ctx); });
  const auto t = truncating_quotient;
  prove_lemmas(r,
               {b >= 1 && signed_division_defined(x, b, q1, r1) && !(q1 == t(x, b) && r1 == x - b * t(x, b)),
                a >= 1 && b >= 1 && t(t(x, a), b) != t(x, a * b),
                b >= 1 && !(t(b * c, b) == c && b * c - b * t(b * c, b) == 0)},
               [&] { return z3::solver(ctx); });
  // C++'s own / and % on both signs (the machine's, which the model runs).
  for (std::int64_t xv = -300; xv < 300; ++xv)
    for (std::int64_t av = 1; av <= 12; ++av)
      for (std::int64_t bv = 1; bv <= 12; ++bv, ++r.corner_cases)
        if (((xv / av) / bv != xv / (av * bv) || (xv * av) / av != xv || (xv * av) % av != 0) && r.corner_failure.empty())
          r.corner_failure = "x=" + std::to_string(xv) + " a=" + std::to_string(av) + " b=" + std::to_string(bv);
  for (std::int64_t xv = 0; xv < 300; ++xv)
    for (std::int64_t av = 1; av <= 12; ++av)
      for (std::int64_t bv = 1; bv <= 12; ++bv, ++r.corner_cases)
        if (((xv / av) / bv != xv / (av * bv) || (xv * av) / av != xv || (xv * av) % av != 0 ||
             (xv >= 1 && (xv / (xv * bv) != (bv == 1 ? 1 : 0) || xv % (xv * bv) != (bv == 1 ? 0 : xv)))) &&
            r.corner_failure.empty())
          r.corner_failure = std::to_string(xv);
  return r;
}

// The remainder split the integer encoding uses for a tuple mode's digits
// (SymbolicScope::division): for x >= 0 and a, b >= 1,
//   (x % (a*b)) / a == (x / a) % b   and   (x % (a*b)) % a == x % a.
// Stated as the encoding states divisions, by quotient/remainder variables:
//   x == (a*b)*Q + R, 0 <= R < a*b      (Q, R: x / (a*b), x % (a*b))
//   R == a*q' + r',   0 <= r' < a       (q', r': R / a, R % a)
//   x == a*q1 + r1,   0 <= r1 < a       (q1, r1: x / a, x % a)
//   q1 == b*q2 + r2,  0 <= r2 < b       (q2, r2: q1 / b, q1 % b)
// claim: q' == r2 and r' == r1. Z3 gives no answer on the claim in one step (minutes), so
// it is proved in four steps, each an unsat query over all integers:
//   1. 0 <= q' < b (from a*q' <= R < a*b, a >= 1);
//   2. x == a*(b*Q + q') + r' (substitution);
//   3. (uniqueness of division, division_lemmas) instantiated twice: x by a gives
//      q1 == b*Q + q' and r1 == r'; then q1 by b gives r2 == q' (with 1.);
//   4. the claim follows from the definitions, 1., 2. and the two instances of 3.
// Uniqueness itself is proved (again here) as a universal statement, so its instances in
// step 4 are valid facts. Step 5 extends the claim to dividends of either sign (C++'s
// truncating / and %, which the encoding uses once the divisors are positive).
// No domain points, as division_lemmas: over all integers, the hypotheses in the formulas.
LawResult division_remainder_split(const ProofOptions&) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);  // for its solver (preprocessing + SMT core)
  z3::context& ctx = s.ctx();
  auto v = [&](const char* n) { return ctx.int_const(n); };
  const z3::expr x = v("x"), a = v("a"), b = v("b"), Q = v("Q"), R = v("R"), qp = v("qp"), rp = v("rp");
  const z3::expr q1 = v("q1"), r1 = v("r1"), q2 = v("q2"), r2 = v("r2");
  const z3::expr defs = x >= 0 && a >= 1 && b >= 1 && x == (a * b) * Q + R && R >= 0 && R < a * b &&
                        R == a * qp + rp && rp >= 0 && rp < a && x == a * q1 + r1 && r1 >= 0 && r1 < a &&
                        q1 == b * q2 + r2 && r2 >= 0 && r2 < b;
  const z3::expr step1 = qp >= 0 && qp < b;
  const z3::expr step2 = x == a * (b * Q + qp) + rp;
  const z3::expr u_a = division_unique(a, x, q1, r1, b * Q + qp, rp);
  const z3::expr u_b = division_unique(b, q1, q2, r2, Q, qp);
  const z3::expr d = ctx.int_const("d"), y = ctx.int_const("y"), u = ctx.int_const("u"), w = ctx.int_const("w");
  const z3::expr uu = ctx.int_const("uu"), ww = ctx.int_const("ww");
  prove_lemmas(r, {!division_unique(d, y, u, w, uu, ww)}, [&] { return z3::solver(ctx); });
  prove_lemmas(r,
               {a >= 1 && b >= 1 && R >= 0 && R < a * b && R == a * qp + rp && rp >= 0 && rp < a && !step1,
                x == (a * b) * Q + R && R == a * qp + rp && !step2,
                defs && step1 && step2 && u_a && u_b && !(qp == r2 && rp == r1)},
               [&] { return s.make_solver(); });
  // 5. Dividends of either sign (C++'s truncation, as the encoding defines it:
  //    signed_division_defined): the statement of 1.-4. (natural defs imply the claim),
  //    proved above for all integers, instantiated at x and at -x with every quotient and
  //    remainder negated, gives the claim for every x (truncation is odd in the dividend).
  const auto natural_claim = [&](const z3::expr& xs, const z3::expr& Qs, const z3::expr& Rs, const z3::expr& qps,
                                 const z3::expr& rps, const z3::expr& q1s, const z3::expr& r1s, const z3::expr& q2s,
                                 const z3::expr& r2s) {
    const z3::expr natural_defs = xs >= 0 && a >= 1 && b >= 1 && xs == (a * b) * Qs + Rs && Rs >= 0 && Rs < a * b &&
                                  Rs == a * qps + rps && rps >= 0 && rps < a && xs == a * q1s + r1s && r1s >= 0 &&
                                  r1s < a && q1s == b * q2s + r2s && r2s >= 0 && r2s < b;
    return z3::implies(natural_defs, qps == r2s && rps == r1s);
  };
  const z3::expr signed_defs = a >= 1 && b >= 1 && signed_division_defined(x, a * b, Q, R) &&
                               signed_division_defined(R, a, qp, rp) && signed_division_defined(x, a, q1, r1) &&
                               signed_division_defined(q1, b, q2, r2);
  prove_lemmas(r,
               {signed_defs && natural_claim(x, Q, R, qp, rp, q1, r1, q2, r2) &&
                natural_claim(-x, -Q, -R, -qp, -rp, -q1, -r1, -q2, -r2) && !(qp == r2 && rp == r1)},
               [&] { return s.make_solver(); });
  for (std::int64_t xv = -400; xv < 0; ++xv)  // C++'s own / and % on negative dividends
    for (std::int64_t av = 1; av <= 12; ++av)
      for (std::int64_t bv = 1; bv <= 12; ++bv, ++r.corner_cases)
        if (((xv % (av * bv)) / av != (xv / av) % bv || (xv % (av * bv)) % av != xv % av) && r.corner_failure.empty())
          r.corner_failure = "x=" + std::to_string(xv) + " a=" + std::to_string(av) + " b=" + std::to_string(bv);
  for (std::int64_t xv = 0; xv < 400; ++xv)
    for (std::int64_t av = 1; av <= 12; ++av)
      for (std::int64_t bv = 1; bv <= 12; ++bv, ++r.corner_cases)
        if (((xv % (av * bv)) / av != (xv / av) % bv || (xv % (av * bv)) % av != xv % av) && r.corner_failure.empty())
          r.corner_failure = "x=" + std::to_string(xv) + " a=" + std::to_string(av) + " b=" + std::to_string(bv);
  return r;
}

// ---- parametric layouts: the model's divide, complement and composition on symbolic extents

// A (m,n) column-major matrix A = (m,n):(1,m) divided by the tile (128,64), mode by mode as
// CuTe's tuple tiler does (tiler.cpp's apply_tiler: mode k of A divided by tile extent k),
// each mode by the model's logical_divide (divide_generic.hpp, with the model's complement
// and composition run on the symbolic m, n). Claim: mode 0 of the result has shape
// (128, m/128) and mode 1 (64, n/64), and element (i,j) of tile (p,q), i.e. coordinate
// ((i,p),(j,q)), whose index in mode 0 is i + 128p and in mode 1 j + 64q, is the matrix
// element (128p + i, 64q + j) of A; for every m, n multiple of the tile up to 2^20.
LawResult tiled_matrix_law(const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  std::vector<z3::expr> dom;
  const std::int64_t tm = 128, tn = 64, max_tiles_m = (1 << 20) / tm, max_tiles_n = (1 << 20) / tn;
  const SymInt mm = s.ranged_variable("m_tiles", 1, max_tiles_m, dom), nn = s.ranged_variable("n_tiles", 1, max_tiles_n, dom);
  const SymInt i = s.ranged_variable("i", 0, tm - 1, dom), j = s.ranged_variable("j", 0, tn - 1, dom);
  const SymInt p = s.ranged_variable("p", 0, max_tiles_m - 1, dom), q = s.ranged_variable("q", 0, max_tiles_n - 1, dom);
  dom.push_back(p < mm);
  dom.push_back(q < nn);
  // "every m, n multiple of the tile up to 2^20", every element (i, j) of every tile (p, q):
  // one tile, the largest matrix and its last tile, the tile's first and last element.
  const std::int64_t most = std::int64_t{1} << 20;
  const ProofOptions o = with_domain_points(
      opt, {{{"m_tiles", 1}, {"n_tiles", 1}, {"p", 0}, {"q", 0}},
            {{"m_tiles", most / 128}, {"p", most / 128 - 1}},
            {{"n_tiles", most / 64}, {"q", most / 64 - 1}},
            {{"i", 0}, {"j", 0}},
            {{"i", 127}, {"j", 63}}});
  const auto out = run_one(r, s, dom, {{"m_tiles", mm.e}, {"n_tiles", nn.e}, {"i", i.e}, {"p", p.e}, {"j", j.e}, {"q", q.e}},
                           [&]() -> z3::expr {
    const SymInt m = s.constant(tm) * mm, n = s.constant(tn) * nn;
    const SymLayout a0{SymTuple::of(m), SymTuple::of(s.constant(1))}, a1{SymTuple::of(n), SymTuple::of(m)};
    const SymLayout t0{SymTuple::of(s.constant(tm)), SymTuple::of(s.constant(1))};
    const SymLayout t1{SymTuple::of(s.constant(tn)), SymTuple::of(s.constant(1))};
    const SymLayout l0 = sym_logical_divide(a0, t0), l1 = sym_logical_divide(a1, t1);
    z3::context& ctx = s.ctx();
    auto shaped = [&](const SymLayout& l, std::int64_t tile, const SymInt& tiles) -> z3::expr {
      if (!l.shape.is_tuple() || l.shape.rank() != 2 || l.shape[0].is_tuple() || l.shape[1].is_tuple())
        return ctx.bool_val(false);
      return *l.shape[0].leaf == s.constant(tile) && *l.shape[1].leaf == tiles;
    };
    const SymInt lhs = apply_at(l0, i + s.constant(tm) * p) + apply_at(l1, j + s.constant(tn) * q);
    const SymInt rhs = apply_at(a0, s.constant(tm) * p + i) + apply_at(a1, s.constant(tn) * q + j);
    return shaped(l0, tm, mm) && shaped(l1, tn, nn) && lhs == rhs;
  }, o);
  fold_status(r, out, ProofStatus::Proved, "(m,n):(1,m) / (128,64)");
  require_domain_points_checked(r, o);
  // Corner: the model's logical_divide with the tuple tiler (128,64) on small matrices,
  // every element of every tile.
  const Value tiler(IntTuple::tuple({IntTuple::integer(tm), IntTuple::integer(tn)}));
  for (std::int64_t mv : {tm, 2 * tm, 3 * tm})
    for (std::int64_t nv : {tn, 2 * tn}) {
      const Layout a = parse_layout("(" + std::to_string(mv) + "," + std::to_string(nv) + "):(1," + std::to_string(mv) + ")");
      const Layout l = logical_divide(a, tiler);
      const std::string want = "((" + std::to_string(tm) + "," + std::to_string(mv / tm) + "),(" + std::to_string(tn) +
                               "," + std::to_string(nv / tn) + "))";
      std::string got = l.shape().to_string();
      got.erase(std::remove(got.begin(), got.end(), '_'), got.end());
      if (got != want && r.corner_failure.empty()) r.corner_failure = "shape of " + a.to_string() + " / (128,64): " + got;
      for (std::int64_t pv = 0; pv < mv / tm; ++pv)
        for (std::int64_t qv = 0; qv < nv / tn; ++qv)
          for (std::int64_t iv = 0; iv < tm; ++iv)
            for (std::int64_t jv = 0; jv < tn; ++jv, ++r.corner_cases) {
              const std::int64_t index = iv + tm * pv + mv * (jv + tn * qv);  // colex index of ((i,p),(j,q))
              if (apply_index(l, index) != (tm * pv + iv) + mv * (tn * qv + jv) && r.corner_failure.empty())
                r.corner_failure = a.to_string() + " at i=" + std::to_string(iv) + " p=" + std::to_string(pv);
            }
    }
  return r;
}

// (A o B)(i) == A(B(i)) for the model's composition on symbolic extents: A = (m,n):(1,p), an
// (m,n) column-major matrix with column pitch p, and B = (128,64):(1,m), a 128x64 tile in A's
// index space (rows 0..127 of columns 0..63). m in [128, 2^16], n in [64, 2^16],
// p in [1, 2^24] (A's modes merge when p == m: a case split of coalesce_x). Also the
// result's shape and strides: (128,64):(1,p).
LawResult composition_parametric_law(const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  SymbolicScope s(Encoding::Int64Range);
  std::vector<z3::expr> dom;
  const SymInt m = s.ranged_variable("m", 128, 1 << 16, dom), n = s.ranged_variable("n", 64, 1 << 16, dom);
  const SymInt p = s.ranged_variable("p", 1, 1 << 24, dom), i = s.ranged_variable("i", 0, 128 * 64 - 1, dom);
  // The statement's ranges at their ends ("m, n in [128|64, 2^16], p in [1, 2^24]", p == m
  // where A's modes merge) and B's first and last index (B has 128 * 64 elements).
  const ProofOptions o = with_domain_points(
      opt, {{{"m", 128}, {"n", 64}, {"p", 1}, {"i", 0}}, {{"m", 1 << 16}, {"n", 1 << 16}, {"p", 1 << 24}},
            {{"m", 128}, {"p", 128}}, {{"i", 128 * 64 - 1}}});
  const auto out = run_one(r, s, dom, {{"m", m.e}, {"n", n.e}, {"p", p.e}, {"i", i.e}}, [&]() -> z3::expr {
    const SymLayout a{SymTuple::tuple({SymTuple::of(m), SymTuple::of(n)}),
                      SymTuple::tuple({SymTuple::of(s.constant(1)), SymTuple::of(p)})};
    const SymLayout b{SymTuple::tuple({SymTuple::of(s.constant(128)), SymTuple::of(s.constant(64))}),
                      SymTuple::tuple({SymTuple::of(s.constant(1)), SymTuple::of(m)})};
    const SymLayout c = sym_composition(a, b);
    const SymLayout want{b.shape, SymTuple::tuple({SymTuple::of(s.constant(1)), SymTuple::of(p)})};
    const z3::expr shaped = structurally_equal(c.shape, want.shape) && structurally_equal(c.stride, want.stride);
    return shaped && sym_size(c) == sym_size(b) && apply_at(c, i) == apply_at(a, apply_at(b, i));
  }, o);
  fold_status(r, out, ProofStatus::Proved, "(m,n):(1,p) o (128,64):(1,m)");
  require_domain_points_checked(r, o);
  // Corner: the model's composition for small m, n, p, every index of B.
  for (std::int64_t mv : {128, 129, 200})
    for (std::int64_t pv : {1, 128, 129, 300})
      for (std::int64_t nv : {64, 65}) {
        std::ostringstream text;
        text << "(" << mv << "," << nv << "):(1," << pv << ")";
        const Layout a = parse_layout(text.str());
        const Layout b = parse_layout("(128,64):(1," + std::to_string(mv) + ")");
        const Layout c = composition(a, b);
        for (std::int64_t k = 0; k < size_value(b); ++k, ++r.corner_cases)
          if (apply_index(c, k) != apply_index(a, apply_index(b, k)) && r.corner_failure.empty())
            r.corner_failure = a.to_string() + " o " + b.to_string() + " at " + std::to_string(k);
      }
  return r;
}

// R = complement(A, M) for parametric A, by the model's complement (complement_generic.hpp)
// on symbolic extents: A(j) == R(i) only at 0, size(A) * size(R) == M, and
// (j, i) -> A(j) + R(i) is injective on [0, size(A)) x [0, size(R)). Families: a
// column-major (a,b) block with row pitch a*c, A = (a,b):(1,a*c), and the same transposed,
// A = (a,b):(b*c,1) (complement sorts its modes), in a codomain M = a*b*c*e; a in [2, 2^8]
// (A keeps a mode: sym_complement does not cover an A that filters to _1:_0), b, c, e in
// [1, 2^8]. Injectivity on symbolic extents is uniqueness of a mixed-radix representation
// with symbolic radices (Z3 gave no answer in 5 minutes on the direct query), so it is proved
// in steps, each an unsat query:
//   S1 (model, per family, A and R apart): size(R) == c*e and, with coordinates
//      q = j/a, r = j%a, qi = i/c, ri = i%c (j < a*b, i < c*e), A(j) and R(i) equal fixed
//      formulas: family 0 gives A(j) + R(i) == r + a*(ri + c*(q + b*qi)), family 1 gives
//      q + b*(ri + c*(r + a*qi)), i.e. the modes of (A, R) sorted by stride form a compact
//      column-major layout (a,c,b,e) resp. (b,c,a,e);
//   S2 (all integers): a compact rank-4 layout is injective, x0 + s0*(x1 + s1*(x2 + s2*x3))
//      determines x for 0 <= xk < sk, by three instances of uniqueness of division
//      (division_unique, proved again here) and a final combination;
//   S3 (all integers, per family): two coordinate tuples with equal A + R formulas are
//      equal (the S2 instance with the family's radices);
//   S4 (all integers): j in [0, a*b) is a*(j/a) + j%a with 0 <= j/a < b, 0 <= j%a < a
//      (and i in [0, c*e) likewise), so the coordinates are in S3's ranges and index pairs
//      with equal A(j) + R(i) have equal coordinates by S1 and S3, hence are equal.
// One query's variables for complement_parametric_law: the extents a in [2, 2^8], b, c, e in
// [1, 2^8] and the indices j (into A) and i (into R) in [0, 2^32), with their ranges in `dom`.
struct ComplementFamilyVariables {
  std::vector<z3::expr> dom;
  SymInt a, b, c, e, j, i;
  ComplementFamilyVariables(SymbolicScope& s, const std::string& j_name, const std::string& i_name)
      : a(s.ranged_variable("a", 2, 256, dom)),
        b(s.ranged_variable("b", 1, 256, dom)),
        c(s.ranged_variable("c", 1, 256, dom)),
        e(s.ranged_variable("e", 1, 256, dom)),
        j(s.ranged_variable(j_name, 0, std::int64_t{1} << 32, dom)),
        i(s.ranged_variable(i_name, 0, std::int64_t{1} << 32, dom)) {}
  std::vector<ProofVariable> named(const std::string& j_name, const std::string& i_name) const {
    return {{"a", a.e}, {"b", b.e}, {"c", c.e}, {"e", e.e}, {j_name, j.e}, {i_name, i.e}};
  }
};

// complement_parametric_law's A: family 0 is (a,b):(1,a*c), family 1 (a,b):(b*c,1).
SymLayout complement_family_layout(SymbolicScope& s, int family, const SymInt& a, const SymInt& b,
                                   const SymInt& c) {
  const SymTuple shape = SymTuple::tuple({SymTuple::of(a), SymTuple::of(b)});
  return family == 0 ? SymLayout{shape, SymTuple::tuple({SymTuple::of(s.constant(1)), SymTuple::of(a * c)})}
                     : SymLayout{shape, SymTuple::tuple({SymTuple::of(b * c), SymTuple::of(s.constant(1))})};
}

const char* complement_family_name(int family) { return family == 0 ? "(a,b):(1,a*c)" : "(a,b):(b*c,1)"; }

LawResult complement_parametric_law(const ProofOptions& opt) {
  LawResult r;
  r.status = ProofStatus::Proved;
  // The statement's ranges at their ends ("a in [2,2^8], b,c,e in [1,2^8]") and the first
  // indices of A and R (j1, i1 in the first queries, j, i in S1's). S2-S4 are over all
  // integers, their hypotheses part of each formula: no ranges to narrow.
  const ProofOptions o = with_domain_points(
      opt, {{{"a", 2}, {"b", 1}, {"c", 1}, {"e", 1}}, {{"a", 256}, {"b", 256}, {"c", 256}, {"e", 256}},
            {{"j1", 0}, {"i1", 0}}, {{"j", 0}, {"i", 0}}});
  for (int family = 0; family < 2; ++family) {
    SymbolicScope s(Encoding::Int64Range);
    const ComplementFamilyVariables v(s, "j1", "i1");
    const SymInt &a = v.a, &b = v.b, &c = v.c, &e = v.e, &j1 = v.j, &i1 = v.i;
    const auto out = run_one(r, s, v.dom, v.named("j1", "i1"), [&]() -> z3::expr {
      const SymLayout la = complement_family_layout(s, family, a, b, c);
      const SymInt m = a * b * c * e;
      const SymLayout lr = sym_complement(la, {m});
      const SymInt na = sym_size(la), nr = sym_size(lr), zero = s.constant(0);
      const z3::expr in = j1 < na && i1 < nr;
      const SymInt a1 = apply_at(la, j1), r1 = apply_at(lr, i1);
      const z3::expr meet_at_zero = z3::implies(a1 == r1, a1 == zero);
      return na * nr == m && z3::implies(in, meet_at_zero);
    }, o);
    fold_status(r, out, ProofStatus::Proved, complement_family_name(family));
  }
  // S1: the model's A and R on coordinates (per family; A and R in separate queries).
  for (int part = 0; part < 4; ++part) {
    const int family = part / 2;
    const bool of_r = part % 2 == 1;
    SymbolicScope s(Encoding::Int64Range);
    const ComplementFamilyVariables v(s, "j", "i");
    const SymInt &a = v.a, &b = v.b, &c = v.c, &e = v.e, &j = v.j, &i = v.i;
    const auto out = run_one(r, s, v.dom, v.named("j", "i"), [&]() -> z3::expr {
      const SymLayout la = complement_family_layout(s, family, a, b, c);
      const SymLayout lr = sym_complement(la, {a * b * c * e});
      if (!of_r) {
        const SymInt av = apply_at(la, j);
        return z3::implies(j < a * b, family == 0 ? av == j % a + a * c * (j / a) : av == (j % a) * b * c + j / a);
      }
      const SymInt rv = apply_at(lr, i);
      return sym_size(lr) == c * e &&
             z3::implies(i < c * e, rv == (family == 0 ? a : b) * (i % c) + a * b * c * (i / c));
    }, o);
    fold_status(r, out, ProofStatus::Proved, std::string(of_r ? "S1 R of " : "S1 A of ") + complement_family_name(family));
  }
  {
    SymbolicScope scope(Encoding::Int64Range);  // for its solver (preprocessing + SMT core)
    z3::context& ctx = scope.ctx();
    auto v = [&](const std::string& n) { return ctx.int_const(n.c_str()); };
    std::vector<z3::expr> sv, x, y;
    for (int k = 0; k < 4; ++k) {
      sv.push_back(v("s" + std::to_string(k)));
      x.push_back(v("x" + std::to_string(k)));
      y.push_back(v("y" + std::to_string(k)));
    }
    // Upper parts of the mixed-radix value: up(z, k) = z_k + s_k*(z_{k+1} + ...).
    auto up = [&](const std::vector<z3::expr>& z, const std::vector<z3::expr>& rad, int k) {
      z3::expr u = z[3];
      for (int m = 2; m >= k; --m) u = z[m] + rad[m] * u;
      return u;
    };
    auto ranges = [&](const std::vector<z3::expr>& rad) {
      z3::expr g = ctx.bool_val(true);
      for (int k = 0; k < 4; ++k) g = g && rad[k] >= 1 && x[k] >= 0 && x[k] < rad[k] && y[k] >= 0 && y[k] < rad[k];
      return g;
    };
    auto all_equal = [&] { return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3]; };
    // The compact lemma on radices rad as an implication (its instance, once S2 holds).
    auto compact = [&](const std::vector<z3::expr>& rad) {
      return z3::implies(ranges(rad) && up(x, rad, 0) == up(y, rad, 0), all_equal());
    };
    const z3::expr d = v("d"), yy = v("yy"), u1 = v("u1"), w1 = v("w1"), u2 = v("u2"), w2 = v("w2");
    const z3::expr g = ranges(sv);
    std::vector<z3::expr> negated{!division_unique(d, yy, u1, w1, u2, w2)};
    // S2: step k peels digit k by uniqueness of division by s_k.
    for (int k = 0; k < 3; ++k)
      negated.push_back(g && up(x, sv, k) == up(y, sv, k) &&
                        division_unique(sv[k], up(x, sv, k), up(x, sv, k + 1), x[k], up(y, sv, k + 1), y[k]) &&
                        !(x[k] == y[k] && up(x, sv, k + 1) == up(y, sv, k + 1)));
    negated.push_back(g && up(x, sv, 0) == up(y, sv, 0) &&
                      z3::implies(up(x, sv, 0) == up(y, sv, 0), x[0] == y[0] && up(x, sv, 1) == up(y, sv, 1)) &&
                      z3::implies(up(x, sv, 1) == up(y, sv, 1), x[1] == y[1] && up(x, sv, 2) == up(y, sv, 2)) &&
                      z3::implies(up(x, sv, 2) == up(y, sv, 2), x[2] == y[2] && x[3] == y[3]) && !all_equal());
    // S3: the families' A + R formulas (S1) with coordinates x = (r, ri, q, qi) for family 0,
    // x = (q, ri, r, qi) for family 1, and the compact lemma on the sorted radices.
    const z3::expr a = v("a"), b = v("b"), c = v("c"), e = v("e");
    const z3::expr base = a >= 2 && b >= 1 && c >= 1 && e >= 1;
    {
      const std::vector<z3::expr> rad{a, c, b, e};  // family 0: x = (r, ri, q, qi)
      auto f0 = [&](const std::vector<z3::expr>& z) { return (z[0] + a * c * z[2]) + (a * z[1] + a * b * c * z[3]); };
      negated.push_back(base && ranges(rad) && f0(x) == f0(y) && compact(rad) && !all_equal());
    }
    {
      const std::vector<z3::expr> rad{b, c, a, e};  // family 1: x = (q, ri, r, qi)
      auto f1 = [&](const std::vector<z3::expr>& z) { return (z[2] * b * c + z[0]) + (b * z[1] + a * b * c * z[3]); };
      negated.push_back(base && ranges(rad) && f1(x) == f1(y) && compact(rad) && !all_equal());
    }
    // S4: an index in [0, n*m) has quotient by n in [0, m) (remainder in [0, n): Z3's division).
    const z3::expr j = v("j"), n = v("n"), mm = v("m");
    negated.push_back(n >= 1 && mm >= 1 && j >= 0 && j < n * mm && !(j / n >= 0 && j / n < mm && j == n * (j / n) + j % n &&
                                                                      j % n >= 0 && j % n < n));
    prove_lemmas(r, {negated[0]}, [&] { return z3::solver(ctx); });
    prove_lemmas(r, std::vector<z3::expr>(negated.begin() + 1, negated.end()), [&] { return scope.make_solver(); });
  }
  require_domain_points_checked(r, o);
  // Corner: both families for a in [2,4], b, c, e in [1,3] on the concrete model, every pair.
  for (std::int64_t av = 2; av <= 4; ++av)
    for (std::int64_t bv = 1; bv <= 3; ++bv)
      for (std::int64_t cv = 1; cv <= 3; ++cv)
        for (std::int64_t ev = 1; ev <= 3; ++ev)
          for (int family = 0; family < 2; ++family) {
            std::ostringstream text;
            text << "(" << av << "," << bv << "):";
            if (family == 0)
              text << "(1," << av * cv << ")";
            else
              text << "(" << bv * cv << ",1)";
            const Layout la = parse_layout(text.str());
            const Layout lr = complement(la, IntTuple::integer(av * bv * cv * ev));
            std::set<std::int64_t> seen;
            bool ok = size_value(la) * size_value(lr) == av * bv * cv * ev;
            for (std::int64_t jv = 0; jv < size_value(la); ++jv)
              for (std::int64_t iv = 0; iv < size_value(lr); ++iv, ++r.corner_cases) {
                const std::int64_t x = apply_index(la, jv), y = apply_index(lr, iv);
                ok = ok && !(x == y && x != 0) && seen.insert(x + y).second;
              }
            if (!ok && r.corner_failure.empty()) r.corner_failure = la.to_string() + " in " + std::to_string(av * bv * cv * ev);
          }
  return r;
}

}  // namespace

std::string indexed_name(const char* prefix, std::size_t k) { return std::string(prefix).append(std::to_string(k)); }

std::vector<ProofVariable> named(const std::vector<SymInt>& a, const std::vector<SymInt>& b, const char* pa,
                                 const char* pb) {
  std::vector<ProofVariable> v;
  for (std::size_t i = 0; i < a.size(); ++i) v.push_back({indexed_name(pa, i), a[i].e});
  for (std::size_t i = 0; i < b.size(); ++i) v.push_back({indexed_name(pb, i), b[i].e});
  return v;
}

const std::vector<Law>& named_laws() {
  static const std::vector<Law> laws = [] {
    std::vector<Law> v;
    v.push_back({"swizzle_involution_table",
                 "Sw<B,M,S>(Sw<B,M,S>(x)) == x for every 0<=B,M<=8, |S|<=8, |S|>=B and every 64-bit offset x (negative included)",
                 ProofStatus::Proved, swizzle_involution_table});
    v.push_back({"swizzle_involution_symbolic",
                 "Sw<B,M,S>(Sw<B,M,S>(x)) == x for all legal symbolic B,M,S and every 64-bit offset x (negative included)",
                 ProofStatus::Proved, swizzle_involution_symbolic});
    v.push_back({"swizzle_illegal_refuted",
                 "Sw<B,M,S>(Sw<B,M,S>(x)) == x is refuted for every 1<=B<=8, 0<=M<=8, |S|<B (counterexamples replayed)",
                 ProofStatus::Refuted, swizzle_illegal_refuted});
    v.push_back({"swizzle_outside_bits_unchanged",
                 "Sw<B,M,S>(x) differs from x only in the destination field [M+max(0,-S), +B) (symbolic B,M,S, any 64-bit x)",
                 ProofStatus::Proved, swizzle_outside_bits});
    v.push_back({"swizzle_128B_block",
                 "Sw<3,4,3>(x) / 1024 == x / 1024: the 128-byte swizzle maps each 1024-byte block onto itself",
                 ProofStatus::Proved, swizzle_128b_block});
    v.push_back({"seed000_swizzle_refuted",
                 "seed 000's formula x ^ (((x >> S) & (2^B-1)) << M) with (3,4,3) is not an involution",
                 ProofStatus::Refuted, seed000_swizzle_refuted});
    v.push_back({"division_lemmas",
                 "(x/a)/b == x/(a*b) for x >= 0, a, b >= 1; x = b*q + r with 0 <= r < b determines q and r; "
                 "(b*c)/b == c, (b*c) % b == 0; b/(b*c) == [c == 1], b % (b*c) == [c != 1]*b for b, c >= 1 (the facts the "
                 "integer encoding gives Z3), over all integers; for x of either sign and a, b >= 1: the encoding's "
                 "definition of x/b, x%b is C++'s truncation, (x/a)/b == x/(a*b), (b*c)/b == c for every c",
                 ProofStatus::Proved, division_lemmas});
    v.push_back({"division_remainder_split",
                 "(x % (a*b)) / a == (x/a) % b and (x % (a*b)) % a == x % a for every x (C++'s truncation), a, b >= 1 "
                 "(the digits of a remainder; the integer encoding uses it for tuple modes)",
                 ProofStatus::Proved, division_remainder_split});
    v.push_back({"coalesce_preserves_flat",
                 "coalesce(L)(i) == L(i), equal sizes: flat L of rank <= 4, shapes in [1,2^12], strides in [-2^12,2^12]",
                 ProofStatus::Proved, [](const ProofOptions& o) { return coalesce_law(false, false, 4, o); }});
    v.push_back({"coalesce_preserves_nested",
                 "coalesce(L)(i) == L(i), equal sizes: depth-2 L with <= 4 leaves where no tuple mode of >= 2 leaves "
                 "precedes another mode (37 profiles), same ranges",
                 ProofStatus::Proved, [](const ProofOptions& o) { return coalesce_law(true, false, 4, o, Split::None); }});
    v.push_back({"coalesce_preserves_nested_split",
                 "coalesce(L)(i) == L(i), equal sizes: the other 13 depth-2 profiles, e.g. ((a,b),c), where a tuple "
                 "mode's digits split a remainder (division_remainder_split), same ranges",
                 ProofStatus::Proved, [](const ProofOptions& o) { return coalesce_law(true, false, 4, o, Split::Only); }});
    v.push_back({"coalesce_idempotent_flat",
                 "coalesce(coalesce(L)) is coalesce(L) (same shape and stride): flat L of rank <= 4, same ranges",
                 ProofStatus::Proved, [](const ProofOptions& o) { return coalesce_law(false, true, 4, o); }});
    v.push_back({"coalesce_preserves_every_rank",
                 "coalesce(L)(i) == L(i), equal sizes, for flat L of every rank: induction over coalesce_modes' walk, "
                 "coalesce_step run on a symbolic last mode and an uninterpreted summary of the modes before it; "
                 "shapes >= 1, strides and extents any integers where the model's checked products do not overflow",
                 ProofStatus::Proved, coalesce_every_rank_law});
    v.push_back({"coalesce_idempotent_every_rank",
                 "coalesce(coalesce(L)) has the modes of coalesce(L), for flat L of every rank: coalesce_step keeps "
                 "the output invariant (the last kept mode has shape != 1 and does not continue the one before) and "
                 "keeps every mode of such an output; shapes >= 1, where the model's checked products do not overflow",
                 ProofStatus::Proved, coalesce_idempotent_every_rank_law});
    v.push_back({"complement_injective_every_rank",
                 "complement(A, M) has shapes >= 1 and (filter(A), complement(A, M)) is injective and below its extent, for every rank of A and every "
                 "number of cotarget leaves: induction over complement_modes' walk, complement_gap_step and "
                 "complement_rest_step run on symbolic values with an uninterpreted summary of the modes before; "
                 "strides >= 0, shapes >= 1, where the model's checks pass",
                 ProofStatus::Proved, complement_every_rank_law});
    v.push_back({"complement_ordered_every_rank",
                 "R = complement(A, M) is increasing (R(i-1) < R(i); CuTe's comment has the inequality backwards) and "
                 "below the extent, for every rank of A and every number of cotarget leaves; and CuTe's size(R) >= "
                 "M / size(filter(A)) for a cotarget of one leaf where every gap is exact (false otherwise: "
                 "complement((2,2):(1,3), 24) == 4:6): induction over complement_modes' walk, complement_gap_step and "
                 "complement_rest_step run on symbolic values with R so far uninterpreted; strides >= 0, shapes >= 1, "
                 "where the model's checks pass",
                 ProofStatus::Proved, complement_ordered_every_rank_law});
    v.push_back({"composition_tuple_every_rank",
                 "(A o B)(i) == A(B(i)) for i < size(B), for flat B of every number of leaves with strides >= 0 and "
                 "flat A of every rank, where the model's checks pass: each leaf is composition_every_rank's "
                 "c -> A(d * c), whose step lemma also shows each leaf's digit in a mode of A within the occupancy the "
                 "model records there, and digits below the mode's shape add without carry (induction over A's "
                 "modes), so A is additive on B's leaves; the induction over B's leaves is a query of its own "
                 "(composition_leaves_step_lemma: the summary R(c) == A(X), X's digits within the record, the "
                 "record below each shape, kept by one more leaf under the model's no-carry check, for every rank). "
                 "Negative strides of B are outside this law",
                 ProofStatus::Proved, composition_tuple_every_rank_law});
    v.push_back({"composition_signed_every_rank",
                 "(A o B)(i) == A(B(i)) for i < size(B), for flat B of every number of leaves with strides of either "
                 "sign and flat A of every rank, where the model's checks pass (leaves of one sign do not carry "
                 "together; leaves of both signs stay within one mode of A), A evaluated below 0 as the model does "
                 "(truncating digits): A is odd (A(-x) == -A(x)) and linear on the multiples of one mode's weight "
                 "below its shape, each by induction over A's modes; with composition_every_rank and "
                 "composition_tuple_every_rank",
                 ProofStatus::Proved, composition_signed_every_rank_law});
    v.push_back({"recast_every_rank",
                 "n * upcast(L, n)(c') == L(k . c') (k_j = n / |d_j| on leaves with |d_j| < n, else 1), a bijection "
                 "onto the coordinates of L whose every leaf offset is a multiple of n; downcast(L, n)(c') == "
                 "n * L(c) + sum of d_j * r_j over the contiguous leaves (static stride +-1, coordinate n c_j + r_j), "
                 "a bijection from L's coordinates and parts r_j < n; for L of every rank and depth: each leaf mode "
                 "changes on its own (upcast_leaf, downcast_leaf run on one symbolic leaf), offsets add over leaves "
                 "(flatten_every_depth); where the model's checks pass (upcast: |d| and n divide one another). "
                 "recast is downcast(upcast(L, num), den)",
                 ProofStatus::Proved, recast_every_rank_law});
    v.push_back({"right_inverse_every_rank",
                 "L(R(i)) == i for every i < size(R), R = right_inverse_full(L) (the by-value inverse), for flat L of every rank: "
                 "induction over right_inverse_modes' walk, right_inverse_step run on one symbolic mode with L, R "
                 "and L's digits uninterpreted (the digit facts from composition_tuple_every_rank's additivity); "
                 "shapes >= 1, strides any integers, where the model's checked products do not overflow",
                 ProofStatus::Proved, right_inverse_every_rank_law});
    v.push_back({"right_inverse_maximal_every_rank",
                 "size(R) is not in L's image, R = right_inverse_full(L), for injective flat L of every rank with "
                 "strides >= 0, so no right inverse of L (layout or function) has more elements: induction over "
                 "right_inverse_modes' walk in stride order, right_inverse_step run on one symbolic mode with the "
                 "modes before summarised by an uninterpreted offset function and its inverse; where the model's "
                 "checked products do not overflow. Not true without either hypothesis ((2,2):(1,1), (2,2,2):(1,-3,5))",
                 ProofStatus::Proved, right_inverse_maximal_every_rank_law});
    v.push_back({"left_inverse_every_rank",
                 "Li(L(i)) == i for every i < size(L), Li = left_inverse(L), for injective flat L of every rank: "
                 "induction over left_inverse_modes' walk, left_inverse_step run on one symbolic mode with the inverse "
                 "so far uninterpreted; shapes >= 1, strides >= 0, where the model's checks pass",
                 ProofStatus::Proved, left_inverse_every_rank_law});
    v.push_back({"flatten_every_depth",
                 "crd2idx(i, L) == crd2idx(i, flatten(L)) for every i < size(L), for L of every depth and rank: "
                 "structural induction whose step runs the model's crd2idx on a child (q, s, w) between summarised "
                 "siblings, against its flattening; extents >= 1, strides any integers, where the model's checked "
                 "products do not overflow",
                 ProofStatus::Proved, flatten_every_depth_law});
    v.push_back({"composition_every_rank",
                 "composition(A, n:d) has the function c -> A(d * c) for c < n (-A(|d| * c) for d < 0), for flat A "
                 "of every rank, its last mode unbounded: coalesce_x keeps A's function and compose_leaf_mode emits "
                 "A(d * c), each by induction over its walk (coalesce_unbounded_step, compose_mode_step, "
                 "compose_last_mode run on one symbolic mode with an uninterpreted rest); shapes >= 1, n >= 1, "
                 "strides any integers, where the model's checks pass. B's tuple modes are outside this law",
                 ProofStatus::Proved, composition_every_rank_law});
    v.push_back({"coalesce_idempotent_nested",
                 "coalesce(coalesce(L)) is coalesce(L): depth-2 L with <= 4 leaves, same ranges",
                 ProofStatus::Proved, [](const ProofOptions& o) { return coalesce_law(true, true, 4, o); }});
    v.push_back({"composition_huge",
                 "(A o B)(i) == A(B(i)) for every i < size(B), layouts of 2^40 and more elements",
                 ProofStatus::Proved, [](const ProofOptions& o) {
                   return composition_law({
                       {"(1048576,1048576):(1048576,1)", "(1048576,1048576):(1048576,1)", "1099511627776:1"},
                       {"(1048576,1048576):(1,1048576)", "(1024,1073741824):(1073741824,1)",
                        "(1024,1073741824):(1073741824,1)"},
                       {"((64,1024),(128,65536)):((1,8388608),(64,8192))", "(8192,(64,262144)):(1,(8192,524288))",
                        "(64,1024,2097152):(1,8388608,64)"},
                       {"(4096,4096,4096):(1,4096,16777216)", "((2,2048),(4096,4096)):((2048,1),(4096,16777216))",
                        "(2,2048,16777216):(2048,1,4096)"},
                   }, o);
                 }});
    v.push_back({"complement_disjoint_injective",
                 "R = complement(A, M): A(j) == R(i) only at 0, and (j, i) -> A(j) + R(i) is injective; A of 2^24 to 2^32 "
                 "elements, M up to 2^50; R as pycute computes it",
                 ProofStatus::Proved, [](const ProofOptions& o) {
                   return complement_law({
                       {"(1048576,1024):(1,2097152)", std::int64_t{1} << 44, "(2,8192):(1048576,2147483648)"},
                       {"((128,64),(256,1024)):((1,256),(32768,16777216))", std::int64_t{1} << 46,
                        "(2,2,2,4096):(128,16384,8388608,17179869184)"},
                       {"(65536,65536):(65536,1)", std::int64_t{1} << 40, "256:4294967296"},
                       {"(1024,1024,1024):(1,1048576,1073741824)", std::int64_t{1} << 42, "(1024,4):(1024,1099511627776)"},
                       {"(4096,(16,65536)):(16,(1,4294967296))", std::int64_t{1} << 50,
                        "(65536,4):(65536,281474976710656)"},
                       {"(1048576,256):(256,268435456)", std::int64_t{1} << 48, "(256,4096):(1,68719476736)"},
                   }, o);
                 }});
    v.push_back({"right_inverse",
                 "L(R(i)) == i for every i < size(R), R = right_inverse_full(L), L of 2^40 and more elements; R as pycute computes it",
                 ProofStatus::Proved, [](const ProofOptions& o) {
                   return right_inverse_law({
                       {"(1048576,1048576):(1048576,1)", "(1048576,1048576):(1048576,1)"},
                       {"((1024,1024),(1024,1024)):((1,1048576),(1024,1073741824))",
                        "(1024,1024,1024,1024):(1,1048576,1024,1073741824)"},
                       {"(4096,(256,4096)):(256,(1,1048576))", "(256,4096,4096):(4096,1,1048576)"},
                       {"(2097152,(2,1048576)):(2,(1,4194304))", "(2,2097152,1048576):(2097152,1,4194304)"},
                       {"((64,8),(65536,16384)):((16384,1),(8,1048576))", "524288:64"},
                   }, o);
                 }});
    v.push_back({"tiled_matrix_parametric",
                 "logical_divide((m,n):(1,m), (128,64)): mode shapes (128,m/128), (64,n/64), and element (i,j) of tile "
                 "(p,q) is matrix element (128p+i, 64q+j), for all m, n multiples of the tile up to 2^20",
                 ProofStatus::Proved, tiled_matrix_law});
    v.push_back({"composition_parametric",
                 "(A o B)(i) == A(B(i)) and A o B == (128,64):(1,p) for A = (m,n):(1,p), B = (128,64):(1,m), "
                 "m, n in [128|64, 2^16], p in [1, 2^24]",
                 ProofStatus::Proved, composition_parametric_law});
    v.push_back({"complement_parametric",
                 "R = complement(A, M = a*b*c*e) for A = (a,b):(1,a*c) and (a,b):(b*c,1), a in [2,2^8], b,c,e in [1,2^8]: "
                 "A and R meet only at 0, size(A)*size(R) == M, (j, i) -> A(j) + R(i) injective (in steps: (A, R) sorted is "
                 "compact; a compact rank-4 layout is injective by uniqueness of division)",
                 ProofStatus::Proved, complement_parametric_law});
    add_divide_product_laws(v);
    add_bank_laws(v);
    return v;
  }();
  return laws;
}

}  // namespace cuteref::proofs
