#include "swizzle_minimality.hpp"

#include <functional>
#include <optional>
#include <sstream>

#include "atoms/smem_banks_generic.hpp"
#include "atoms/swizzle_family.hpp"
#include "laws.hpp"
#include "swizzle_eval.hpp"

namespace cuteref::proofs {

namespace {

int exact_log2(std::int64_t v) {
  int e = 0;
  while ((std::int64_t{1} << e) < v) ++e;
  return (std::int64_t{1} << e) == v ? e : -1;
}

bool is_matrix(const SmemInstruction& in) { return in.op == SmemOp::LoadMatrix || in.op == SmemOp::StoreMatrix; }

// The lanes whose addresses the instruction reads (smem_accesses: 8 rows per ldmatrix/stmatrix matrix).
std::size_t addressing_lanes(const SwizzleInstructionClass& c) {
  return is_matrix(c.instruction) ? static_cast<std::size_t>(8 * c.instruction.matrices) : c.offsets.size();
}

// A member's cost on the model's generic code, for a symbolic (or constant) triple.
struct SymbolicCost {
  z3::expr feasible;
  std::vector<SymInt> per_access;
  SymInt total;
};

// `consecutive`: with the model's check that each lane's values stay consecutive bytes; without
// it the hypothesis `feasible` is weaker (it holds on a superset of the feasible members), so a
// lower bound proved under it holds on every feasible member a fortiori (and the query is smaller).
SymbolicCost symbolic_cost(SymbolicScope& sc, const SwizzleSynthesis& s, const SymInt& b, const SymInt& m, const SymInt& sh,
                           bool consecutive) {
  const std::int64_t bytes = s.bits / 8;
  const int e = exact_log2(bytes);
  // Elements of a width that is no power of two have no element form: only the unswizzled member.
  z3::expr feasible = e >= 0 ? swizzle_moves_whole_elements(b, m, sh, e) : (b == sc.constant(0));
  std::vector<SymInt> per(s.accesses.size(), sc.constant(0));
  for (const SwizzleInstructionClass& c : s.classes) {
    const std::int64_t width = c.instruction.access_bytes;
    std::vector<std::optional<SymInt>> address(32);
    for (std::size_t t = 0; t < addressing_lanes(c) && t < c.offsets.size(); ++t) {
      const std::vector<std::int64_t>& lane = c.offsets[t];
      const SymInt first = swizzle_value(sc.constant(lane[0] * bytes), b, m, sh);
      // smem_accesses' checks: the access stays aligned to its width, its values consecutive.
      feasible = feasible && ((first & sc.constant(width - 1)) == sc.constant(0));
      for (std::size_t j = 1; consecutive && j < lane.size(); ++j)
        feasible = feasible && (swizzle_value(sc.constant(lane[j] * bytes), b, m, sh) ==
                                first + sc.constant(static_cast<std::int64_t>(j) * bytes));
      address[t] = first;
    }
    const SymInt w = instruction_wavefronts<SymInt>(address, static_cast<int>(width), is_matrix(c.instruction) ? c.instruction.matrices : 0,
                                                    c.instruction.op == SmemOp::Load);
    per[c.access] = per[c.access] + w * sc.constant(c.count);
  }
  SymInt total = sc.constant(0);
  for (const SymInt& p : per) total = total + p;
  return {feasible, per, total};
}

std::string triple_name(std::int64_t b, std::int64_t m, std::int64_t s) {
  if (b == 0 && m == 0 && s == 0) return "the unswizzled layout";
  return "Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + ">";
}

// A refuting member as the model counts it (the counterexample replayed on the enumeration).
std::string replay(const SwizzleSynthesis& s, const ProofOutcome& out) {
  const std::int64_t b = out.values.count("B") ? out.values.at("B") : 0, m = out.values.count("M") ? out.values.at("M") : 0,
                     sh = out.values.count("S") ? out.values.at("S") : 0;
  std::string d = triple_name(b, m, sh);
  for (const SwizzleMember& x : s.family) {
    const SwizzleTriple t = swizzle_triple(x);
    if (t.b != b || t.m != m || t.s != sh) continue;
    d += x.feasible ? ": the model counts " + std::to_string(x.total) : ": infeasible on the model (" + x.infeasible_reason + ")";
    return d;
  }
  return d + ": not a member of the enumerated family";
}

// Whether a refuting member is one the model finds infeasible (then the weaker hypothesis let it in).
bool refuted_by_infeasible(const SwizzleSynthesis& s, const ProofOutcome& out) {
  if (out.status != ProofStatus::Refuted || !out.values.count("B")) return false;
  for (const SwizzleMember& x : s.family) {
    const SwizzleTriple t = swizzle_triple(x);
    if (t.b == out.values.at("B") && t.m == out.values.at("M") && t.s == out.values.at("S")) return !x.feasible;
  }
  return false;
}

SwizzleClaimResult result_of(const std::string& what, const ProofOutcome& out, const SwizzleSynthesis& s) {
  SwizzleClaimResult r{what, out.status, out.ms, out.paths, {}, {}, std::nullopt};
  if (out.status == ProofStatus::Refuted) {
    if (out.values.count("B"))
      r.counterexample = SwizzleTriple{static_cast<int>(out.values.at("B")), static_cast<int>(out.values.at("M")),
                                       static_cast<int>(out.values.at("S"))};
    r.detail = "counterexample " + replay(s, out);
    if (!out.failed_side_condition.empty()) r.detail += " (side condition: " + out.failed_side_condition + ")";
  } else if (out.status == ProofStatus::Unknown) {
    r.detail = out.reason;
  }
  return r;
}

}  // namespace

bool SwizzleCertificate::proved() const {
  if (claims.empty()) return false;
  for (const SwizzleClaimResult& c : claims)
    if (c.status != ProofStatus::Proved) return false;
  return true;
}

SwizzleCertificate certify_swizzle_minimum(const SwizzleSynthesis& s, const ProofOptions& options) {
  SwizzleCertificate cert;
  cert.family = describe_family(s.modes, s.bits);
  for (const SwizzleInstructionClass& c : s.classes)
    for (std::size_t t = 0; t < addressing_lanes(c) && t < c.offsets.size(); ++t) cert.addresses += c.offsets[t].size();
  const SwizzleMember& best = s.family[s.best];
  const std::int64_t minimum = best.total;

  const std::string min_what = "every member (B,M,S) of the family, symbolic, that keeps every element and access whole has total >= " +
                               std::to_string(minimum);
  const SwizzleTriple bt = swizzle_triple(best);
  const std::string chosen_what = "the chosen " + triple_name(bt.b, bt.m, bt.s) + " keeps every element and access whole and has total " +
                                  std::to_string(minimum);
  std::vector<std::string> whats{min_what, chosen_what};
  if (minimum > s.ideal_total)
    for (std::size_t a = 0; a < s.accesses.size(); ++a)
      whats.push_back("every such member gives access " + std::to_string(a + 1) + " at least " + std::to_string(s.least[a]) +
                      " wavefronts (its ideal " + std::to_string(s.ideal[a]) + ")");
  if (cert.addresses > kMaxCertifiedAddresses) {
    for (const std::string& w : whats)
      cert.claims.push_back({w, ProofStatus::Unknown, 0, 0,
                             "not attempted: " + std::to_string(cert.addresses) + " symbolic addresses exceed the bound of " +
                                 std::to_string(kMaxCertifiedAddresses) + " (the enumeration stands alone)",
                             {}, std::nullopt});
    return cert;
  }

  // The family claims: (B, M, S) symbolic over the box, constrained by the model's membership.
  // First under the weaker hypothesis (aligned accesses, whole elements); a counterexample the
  // model finds infeasible sends the claim to the full one (values consecutive too).
  auto family_claim = [&](const std::string& what, const std::function<z3::expr(const SymbolicCost&)>& goal) {
    ProofOutcome out;
    double ms = 0;
    bool full = false;
    for (bool consecutive : {false, true}) {
      full = consecutive;
      SymbolicScope sc;
      std::vector<z3::expr> domain;
      const SymInt b = sc.ranged_variable("B", 0, kSwizzleFamilyMaxBits, domain);
      const SymInt m = sc.ranged_variable("M", 0, kSwizzleFamilyMaxBase, domain);
      const SymInt sh = sc.ranged_variable("S", -kSwizzleFamilyMaxShift, kSwizzleFamilyMaxShift, domain);
      domain.push_back(swizzle_family_member(b, m, sh, s.modes));
      out = prove(sc, domain, {{"B", b.e}, {"M", m.e}, {"S", sh.e}}, [&] {
        const SymbolicCost c = symbolic_cost(sc, s, b, m, sh, consecutive);
        sc.add_hypothesis(c.feasible);
        return goal(c);
      }, options);
      ms += out.ms;
      if (!refuted_by_infeasible(s, out)) break;
    }
    out.ms = ms;
    cert.claims.push_back(result_of(what, out, s));
    cert.claims.back().hypothesis = full ? "the feasible members: whole elements, aligned accesses, each lane's values consecutive"
                                         : "every member with whole elements and aligned accesses (a superset of the feasible ones)";
  };
  family_claim(min_what, [&](const SymbolicCost& c) { return c.total >= current_scope().constant(minimum); });
  {
    SymbolicScope sc;
    const ProofOutcome out = prove(sc, {}, {}, [&] {
      const SymbolicCost c = symbolic_cost(sc, s, sc.constant(bt.b), sc.constant(bt.m), sc.constant(bt.s), true);
      return c.feasible && (c.total == sc.constant(minimum));
    }, options);
    cert.claims.push_back(result_of(chosen_what, out, s));
  }
  if (minimum > s.ideal_total)
    for (std::size_t a = 0; a < s.accesses.size(); ++a)
      family_claim(whats[2 + a], [&, a](const SymbolicCost& c) { return c.per_access[a] >= current_scope().constant(s.least[a]); });
  return cert;
}

std::string describe(const SwizzleCertificate& c) {
  std::ostringstream os;
  os << "  certificate (Z3, the model's generic wavefront count on a symbolic member, " << c.addresses
     << " symbolic byte addresses): " << (c.proved() ? "proved" : "NOT proved") << "\n";
  for (const SwizzleClaimResult& r : c.claims) {
    os << "    " << status_name(r.status) << ": " << r.what;
    if (r.status == ProofStatus::Proved) os << " (" << static_cast<long long>(r.ms) << " ms, " << r.paths << " case(s))";
    if (!r.hypothesis.empty()) os << "; for " << r.hypothesis;
    if (!r.detail.empty()) os << ": " << r.detail;
    os << "\n";
  }
  return os.str();
}

}  // namespace cuteref::proofs
