// The one definition of the wavefront count (smem_banks.hpp's rules 1-4), generic over the
// scalar type (scalar.hpp): the model runs it on CheckedInt, the proofs on Z3 bit-vectors
// (`cuteref prove 'smem_wavefronts(ldmatrix.x4, (T(8*i), ...), 16) == 4'`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scalar.hpp"

namespace cuteref {

// The wavefronts of one phase: max(1, the largest number of distinct units sharing a bank
// group). A unit is an access's aligned chunk: for an access of W >= 4 bytes the chunk of W
// bytes (units = byte address / W), whose W/4 words lie in the W/4 banks of group
// unit mod (128 / W); for W < 4 the 32-bit word (units = byte address / 4, group = unit mod 32).
// Distinct words in a bank are then distinct units in its group (equal units are one access,
// read or written once).
// Precondition: groups is a power of two; units are non-negative.
template <class Scalar>
Scalar phase_wavefronts(const std::vector<Scalar>& units, std::int64_t groups) {
  using Ops = ScalarOps<Scalar>;
  using Bool = typename Ops::Bool;
  const Scalar zero = Ops::constant(0), one = Ops::constant(1), mask = Ops::constant(groups - 1);
  std::vector<Scalar> group;
  for (const Scalar& u : units) group.push_back(u & mask);
  // first[j]: no earlier access has unit j's unit, so each distinct unit is counted once.
  std::vector<Bool> first;
  for (std::size_t j = 0; j < units.size(); ++j) {
    Bool f = units[j] == units[j];
    for (std::size_t k = 0; k < j; ++k) f = Ops::both(f, !(units[k] == units[j]));
    first.push_back(f);
  }
  Scalar best = one;
  for (std::size_t i = 0; i < units.size(); ++i) {
    Scalar count = zero;
    for (std::size_t j = 0; j < units.size(); ++j)
      count = count + Ops::select(Ops::both(first[j], group[j] == group[i]), one, zero);
    best = Ops::select(best < count, count, best);
  }
  return best;
}

// The instruction's wavefronts for the byte addresses of threads 0..31 (nullopt: the thread does
// not access; for ldmatrix/stmatrix .xN the addresses of threads 0..8N-1 are the rows):
//   access_bytes: 1, 2, 4, 8, 16 (ld/st) or 16 (a row); matrices: N for ldmatrix/stmatrix, else
//   0; load: the instruction reads shared memory (rule 2 applies to 8/16-byte loads).
// Rule 2's test (every accessing thread's partner t^1, or every one's t^2, at the same address)
// is a decision (a case split for the proofs). Preconditions (checked with require): addresses
// non-negative and aligned to the access.
template <class Scalar>
Scalar instruction_wavefronts(const std::vector<std::optional<Scalar>>& address, int access_bytes, int matrices, bool load) {
  using Ops = ScalarOps<Scalar>;
  for (const auto& a : address)
    if (a) {
      Ops::require(*a >= Ops::constant(0), [] { return std::string("smem_wavefronts: a byte address is negative"); });
      Ops::require((*a & Ops::constant(access_bytes - 1)) == Ops::constant(0),
                   [=] { return "smem_wavefronts: an access is not aligned to its " + std::to_string(access_bytes) + " bytes"; });
    }
  bool packed = false;
  if (matrices == 0 && load && access_bytes >= 8) {
    for (int k : {1, 2}) {
      bool partners = true;
      std::optional<typename Ops::Bool> same;
      for (std::size_t t = 0; t < address.size(); ++t) {
        if (!address[t]) continue;
        const std::size_t p = t ^ static_cast<std::size_t>(k);
        if (p >= address.size() || !address[p]) {
          partners = false;
          break;
        }
        const auto eq = *address[t] == *address[p];
        same = same ? Ops::both(*same, eq) : eq;
      }
      if (partners && same && Ops::decide(*same)) {
        packed = true;
        break;
      }
    }
  }
  int groups_per_warp = 1, per_phase = 32;
  if (matrices > 0) groups_per_warp = matrices, per_phase = 8;
  else if (access_bytes == 8) groups_per_warp = packed ? 1 : 2, per_phase = 32 / groups_per_warp;
  else if (access_bytes == 16) groups_per_warp = packed ? 2 : 4, per_phase = 32 / groups_per_warp;
  const std::int64_t unit_bytes = access_bytes < 4 ? 4 : access_bytes;
  const std::int64_t bank_groups = 128 / unit_bytes;
  Scalar total = Ops::constant(0);
  for (int g = 0; g < groups_per_warp; ++g) {
    std::vector<Scalar> units;
    for (int t = g * per_phase; t < (g + 1) * per_phase && t < static_cast<int>(address.size()); ++t)
      if (address[static_cast<std::size_t>(t)])
        units.push_back(Ops::lshr(*address[static_cast<std::size_t>(t)], Ops::constant(unit_bytes == 4 ? 2 : unit_bytes == 8 ? 3 : 4)));
    if (!units.empty()) total = total + phase_wavefronts(units, bank_groups);
  }
  return total;
}

}  // namespace cuteref
