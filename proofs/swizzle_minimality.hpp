// The certificate of swizzle_for's answer, proved with Z3: no member of the (finite) family does
// better than the chosen one.
//
// The member is a symbolic triple (B, M, S), constrained to the family by the model's own
// definition (swizzle_family_member). For that triple the proof evaluates, with the model's
// generic code on Z3 bit-vectors: the byte address Sw<B,M,S>(o * bytes) of every value of every
// lane of every distinct instruction of the synthesis (swizzle_value, as CuTe's swizzle_ptr acts
// on byte addresses); whether the member is feasible, as the model decides it (the swizzle moves
// whole elements: swizzle_moves_whole_elements; each lane's values stay consecutive bytes; each
// access stays aligned to its width, as smem_accesses requires); and each instruction's
// wavefronts (instruction_wavefronts, smem_banks_generic.hpp), times its multiplicity. Claims:
//   minimum:  every feasible member's total is >= the minimum, and equals it or is >= the next
//             best total (where every feasible member reaches the minimum: equals it);
//   chosen:   the chosen member (constant B, M, S) is feasible and its total is the minimum;
//   access a: when the minimum exceeds the ideal, every feasible member gives access a at least
//             its least count over the family (the reason the ideal is out of reach).
// A family claim is first proved under a weaker hypothesis than feasibility (whole elements,
// the bounded instructions' accesses aligned, not each lane's values consecutive): it then holds
// on a superset of the feasible members, so on them a fortiori, with a smaller query. Only when
// Z3 refutes it with a member the model finds infeasible is it proved again under the model's
// whole feasibility. Where the distinct instructions' least counts over the family (enumerated),
// times their numbers, already sum to the bound, the bound is proved as one claim per distinct
// instruction (its count >= its least, for every member) and the sum is arithmetic.
// What is proved is about the family as defined; the ideal's being a lower bound for every
// layout is the count's definition (every phase takes at least one wavefront), not a Z3 proof.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atoms/swizzle_synthesis.hpp"
#include "prover.hpp"

namespace cuteref::proofs {

struct SwizzleClaimResult {
  std::string what;        // the claim in words
  ProofStatus status = ProofStatus::Unknown;
  double ms = 0;
  std::size_t paths = 0;   // branch cases of the model's code (rule 2's packing decisions)
  std::string detail;      // refuted: the member (B, M, S) and its count on the model; unknown: why
  std::string hypothesis;  // the family claims: which members the bound was proved for
  std::optional<SwizzleTriple> counterexample;  // refuted: the member Z3 found
};

struct SwizzleCertificate {
  std::string family;      // describe_family
  std::size_t addresses = 0;  // (lane, value) byte addresses of the distinct instructions, each symbolic in the member
  std::vector<SwizzleClaimResult> claims;  // minimum, chosen, then one per access when min > ideal
  bool proved() const;     // every claim proved
};

// The largest query built: beyond it every claim is `unknown` with the reason (the enumeration
// stands alone).
constexpr std::size_t kMaxCertifiedAddresses = 1 << 16;

// Precondition: `s` is swizzle_for's result (its classes, family and best as computed there).
// options.timeout_ms (0: none) bounds the whole certificate, not each proof.
SwizzleCertificate certify_swizzle_minimum(const SwizzleSynthesis& s, const ProofOptions& options);

// The lemma the exact-feasibility pass rests on: for every member of the family and every A, d in
// [0, 2^62) with A & d = 0 (with `disjoint`; without it the claim is false: a carry), Sw(A + d) =
// Sw(A) ^ Sw(d). certify_swizzle_minimum proves it (and reports it) whenever it uses it.
SwizzleClaimResult prove_swizzle_xor_lemma(SwizzleModes modes, const ProofOptions& options, bool disjoint);

// The certificate's report lines (each starting with two spaces).
std::string describe(const SwizzleCertificate& c);

}  // namespace cuteref::proofs
