#include "swizzle_minimality.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <sstream>

#include "atoms/smem_banks_generic.hpp"
#include "atoms/swizzle_family.hpp"
#include "error.hpp"
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

// Every class, for the chosen member's check.
std::vector<std::size_t> all_classes(const SwizzleSynthesis& s) {
  std::vector<std::size_t> v;
  for (std::size_t c = 0; c < s.classes.size(); ++c) v.push_back(c);
  return v;
}

// How much of the model's feasibility a hypothesis states:
//   Aligned:      whole elements and each checked lane's access aligned to its width (not that its
//                 values stay consecutive bytes): a superset of the feasible members;
//   ExactByLemma: the model's feasibility, the consecutive values stated once per value index j as
//                 Sw(j * bytes) == j * bytes, which for an aligned access at A is the model's
//                 Sw(A + j * bytes) == Sw(A) + j * bytes by the XOR lemma (xor_lemma below, proved
//                 in the same certificate whenever this form is used);
//   ExactPerLane: the model's checks as it runs them, per lane and value.
enum class Feasibility { Aligned, ExactByLemma, ExactPerLane };

// The member's feasibility, restricted to the classes `checked`, and the wavefronts of the
// classes `counted` (counted within checked: their accesses' alignment is a precondition of the
// count). With fewer classes checked, or Aligned, the hypothesis is weaker (it holds on a
// superset of the feasible members): a lower bound proved under it holds on every feasible member
// a fortiori, with a smaller query.
SymbolicCost symbolic_cost(SymbolicScope& sc, const SwizzleSynthesis& s, const SymInt& b, const SymInt& m, const SymInt& sh,
                           Feasibility form, const std::vector<std::size_t>& counted, const std::vector<std::size_t>& checked) {
  const std::int64_t bytes = s.bits / 8;
  const int e = exact_log2(bytes);
  // Elements of a width that is no power of two have no element form: only the unswizzled member.
  z3::expr feasible = e >= 0 ? swizzle_moves_whole_elements(b, m, sh, e) : (b == sc.constant(0));
  std::vector<std::optional<std::vector<std::optional<SymInt>>>> addresses(s.classes.size());
  std::size_t most_values = 0;
  for (std::size_t k : checked) {
    const SwizzleInstructionClass& c = s.classes.at(k);
    const std::int64_t width = c.instruction.access_bytes;
    std::vector<std::optional<SymInt>> address(32);
    for (std::size_t t = 0; t < addressing_lanes(c) && t < c.offsets.size(); ++t) {
      const std::vector<std::int64_t>& lane = c.offsets[t];
      most_values = std::max(most_values, lane.size());
      const SymInt first = swizzle_value(sc.constant(lane[0] * bytes), b, m, sh);
      // smem_accesses' checks: the access stays aligned to its width, its values consecutive.
      feasible = feasible && ((first & sc.constant(width - 1)) == sc.constant(0));
      for (std::size_t j = 1; form == Feasibility::ExactPerLane && j < lane.size(); ++j)
        feasible = feasible && (swizzle_value(sc.constant(lane[j] * bytes), b, m, sh) ==
                                first + sc.constant(static_cast<std::int64_t>(j) * bytes));
      address[t] = first;
    }
    addresses[k] = std::move(address);
  }
  for (std::size_t j = 1; form == Feasibility::ExactByLemma && j < most_values; ++j) {
    const SymInt d = sc.constant(static_cast<std::int64_t>(j) * bytes);
    feasible = feasible && (swizzle_value(d, b, m, sh) == d);
  }
  std::vector<SymInt> per(s.accesses.size(), sc.constant(0));
  for (std::size_t k : counted) {
    const SwizzleInstructionClass& c = s.classes.at(k);
    if (!addresses[k]) throw Error("swizzle minimality: instruction " + std::to_string(k + 1) + " is counted but not checked");
    const SymInt w = instruction_wavefronts<SymInt>(*addresses[k], c.instruction.access_bytes,
                                                    is_matrix(c.instruction) ? c.instruction.matrices : 0, c.instruction.op == SmemOp::Load);
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

SwizzleClaimResult prove_swizzle_xor_lemma(SwizzleModes modes, const ProofOptions& options, bool disjoint) {
  SymbolicScope sc;
  std::vector<z3::expr> domain;
  const SymInt b = sc.ranged_variable("B", 0, kSwizzleFamilyMaxBits, domain);
  const SymInt m = sc.ranged_variable("M", 0, kSwizzleFamilyMaxBase, domain);
  const SymInt sh = sc.ranged_variable("S", -kSwizzleFamilyMaxShift, kSwizzleFamilyMaxShift, domain);
  const SymInt a = sc.ranged_variable("A", 0, (std::int64_t{1} << 62) - 1, domain);
  const SymInt d = sc.ranged_variable("d", 0, (std::int64_t{1} << 62) - 1, domain);
  domain.push_back(swizzle_family_member(b, m, sh, modes));
  if (disjoint) domain.push_back((a & d) == sc.constant(0));
  const ProofOutcome out = prove(sc, domain, {{"B", b.e}, {"M", m.e}, {"S", sh.e}, {"A", a.e}, {"d", d.e}}, [&] {
    return swizzle_value(a + d, b, m, sh) == (swizzle_value(a, b, m, sh) ^ swizzle_value(d, b, m, sh));
  }, options);
  SwizzleClaimResult r{std::string("lemma: for every member and every A, d in [0, 2^62)") + (disjoint ? " with A & d = 0" : "") +
                           ", Sw(A + d) = Sw(A) ^ Sw(d) (so an aligned access stays consecutive exactly when Sw(j * bytes) = "
                           "j * bytes for its values j)",
                       out.status, out.ms, out.paths, {}, {}, std::nullopt};
  if (out.status == ProofStatus::Refuted) {
    r.detail = "counterexample";
    for (const auto& [k, v] : out.values) r.detail += " " + k + "=" + std::to_string(v);
  } else if (out.status == ProofStatus::Unknown) {
    r.detail = out.reason;
  }
  return r;
}

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
  const std::string chosen_what = "the chosen member (" + triple_name(bt.b, bt.m, bt.s) + ")" + " keeps every element and access whole and has total " +
                                  std::to_string(minimum);
  std::vector<std::string> whats{min_what, chosen_what};
  if (minimum > s.ideal_total)
    for (std::size_t a = 0; a < s.accesses.size(); ++a)
      whats.push_back("every such member gives access " + std::to_string(a + 1) + " at least " + std::to_string(s.least[a]) +
                      " wavefronts (its ideal " + std::to_string(s.ideal[a]) + ")");
  if (cert.addresses > kMaxCertifiedAddresses) {
    for (const std::string& w : whats)
      cert.claims.push_back({w, ProofStatus::Unknown, 0, 0,
                             "not attempted: " + std::to_string(cert.addresses) + " (lane, value) addresses exceed the bound of " +
                                 std::to_string(kMaxCertifiedAddresses) + " (the enumeration stands alone)",
                             {}, std::nullopt});
    return cert;
  }

  // options.timeout_ms bounds the whole certificate: each proof gets what is left; once nothing
  // is, the claims not yet proved are unknown.
  const auto start = std::chrono::steady_clock::now();
  ProofOptions limited = options;
  auto remaining = [&](ProofOutcome& out) {
    if (options.timeout_ms == 0) return true;
    const double spent = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (spent + 1 >= options.timeout_ms) {
      out.status = ProofStatus::Unknown;
      out.reason = "timeout: the certificate's time limit of " + std::to_string(options.timeout_ms) + " ms was spent";
      return false;
    }
    limited.timeout_ms = static_cast<unsigned>(options.timeout_ms - spent);
    return true;
  };
  // The XOR lemma, proved once when a claim needs the model's whole feasibility: for every member
  // and every A, d >= 0 with no common bit (an aligned access A, d inside it: A + d = A ^ d),
  // Sw(A + d) == Sw(A) ^ Sw(d): a swizzle is linear over XOR.
  std::optional<bool> lemma;
  std::optional<SwizzleClaimResult> lemma_result;  // reported after the claims that used it
  auto lemma_proved = [&]() {
    if (lemma) return *lemma;
    ProofOutcome unused;
    SwizzleClaimResult r;
    if (remaining(unused)) r = prove_swizzle_xor_lemma(s.modes, limited, true);
    else r = result_of("lemma", unused, s);
    lemma_result = r;
    lemma = r.status == ProofStatus::Proved;
    return *lemma;
  };
  // The family claims: (B, M, S) symbolic over the box, constrained by the model's membership:
  // the classes `only`, weighted by their numbers, total at least `lower`. First under the weaker
  // hypothesis (aligned accesses, whole elements); a counterexample the model finds infeasible
  // sends the claim to the full one (values consecutive too).
  auto family_claim = [&](const std::string& what, const std::vector<std::size_t>& only, std::int64_t lower) {
    ProofOutcome out;
    double ms = 0;
    bool exact = false;
    for (bool second : {false, true}) {
      if (!remaining(out)) break;
      exact = second;
      if (second && !lemma_proved()) {
        out.status = ProofStatus::Unknown;
        out.reason = "the XOR lemma that the model's whole feasibility is stated with is not proved";
        break;
      }
      SymbolicScope sc;
      std::vector<z3::expr> domain;
      const SymInt b = sc.ranged_variable("B", 0, kSwizzleFamilyMaxBits, domain);
      const SymInt m = sc.ranged_variable("M", 0, kSwizzleFamilyMaxBase, domain);
      const SymInt sh = sc.ranged_variable("S", -kSwizzleFamilyMaxShift, kSwizzleFamilyMaxShift, domain);
      domain.push_back(swizzle_family_member(b, m, sh, s.modes));
      out = prove(sc, domain, {{"B", b.e}, {"M", m.e}, {"S", sh.e}}, [&] {
        // The second pass: the model's whole feasibility (every class, values consecutive).
        const SymbolicCost c = second ? symbolic_cost(sc, s, b, m, sh, Feasibility::ExactByLemma, only, all_classes(s))
                                      : symbolic_cost(sc, s, b, m, sh, Feasibility::Aligned, only, only);
        sc.add_hypothesis(c.feasible);
        return c.total >= sc.constant(lower);
      }, limited);
      ms += out.ms;
      if (!refuted_by_infeasible(s, out)) break;
    }
    out.ms = ms;
    SwizzleClaimResult r = result_of(what, out, s);
    r.hypothesis = exact ? "the feasible members: whole elements, every access aligned, each lane's values consecutive (by the XOR lemma)"
                         : "every member with whole elements and these accesses aligned (a superset of the feasible ones)";
    return r;
  };
  // A bound on the classes `only`: when their least counts (each over the family, enumerated),
  // times their numbers, already sum to `lower`, it is proved as one claim per class (each
  // w_c >= its least, for every member) and the sum is arithmetic; else as one joint claim.
  auto bound = [&](const std::string& what, const std::vector<std::size_t>& only, std::int64_t lower) {
    std::int64_t sum = 0;
    for (std::size_t c : only) sum += s.classes[c].count * s.class_least[c];
    if (only.size() < 2 || sum < lower) return family_claim(what, only, lower);
    SwizzleClaimResult r{what + " (as " + std::to_string(only.size()) +
                             " claims, one per distinct instruction: its least count over the family, proved for every member; "
                             "times its number, summed: " + std::to_string(sum) + ")",
                         ProofStatus::Proved, 0, 0, {}, {}, std::nullopt};
    for (std::size_t c : only) {
      const SwizzleClaimResult one = family_claim(what, {c}, s.class_least[c]);
      r.ms += one.ms;
      r.paths += one.paths;
      if (r.hypothesis.empty() || one.hypothesis.find("feasible members:") != std::string::npos) r.hypothesis = one.hypothesis;
      if (one.status != ProofStatus::Proved && r.status == ProofStatus::Proved) {
        r.status = one.status;
        r.detail = "instruction " + std::to_string(c + 1) + " (at least " + std::to_string(s.class_least[c]) + "): " + one.detail;
        r.counterexample = one.counterexample;
      }
    }
    return r;
  };
  cert.claims.push_back(bound(min_what, all_classes(s), minimum));
  {
    SymbolicScope sc;
    ProofOutcome out;
    if (remaining(out))
      out = prove(sc, {}, {}, [&] {
        const SymbolicCost c = symbolic_cost(sc, s, sc.constant(bt.b), sc.constant(bt.m), sc.constant(bt.s), Feasibility::ExactPerLane,
                                             all_classes(s), all_classes(s));
        return c.feasible && (c.total == sc.constant(minimum));
      }, limited);
    cert.claims.push_back(result_of(chosen_what, out, s));
  }
  if (minimum > s.ideal_total)
    for (std::size_t a = 0; a < s.accesses.size(); ++a)
    {
      std::vector<std::size_t> of_access;
      for (std::size_t c = 0; c < s.classes.size(); ++c)
        if (s.classes[c].access == a) of_access.push_back(c);
      cert.claims.push_back(bound(whats[2 + a], of_access, s.least[a]));
    }
  if (lemma_result) cert.claims.push_back(*lemma_result);
  return cert;
}

std::string describe(const SwizzleCertificate& c) {
  std::ostringstream os;
  os << "  certificate (Z3, the model's generic wavefront count on a symbolic member, " << c.addresses
     << " (lane, value) byte addresses): " << (c.proved() ? "proved" : "NOT proved") << "\n";
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
