// The swizzle that makes a shared-memory layout conflict-free (or as near as the family allows)
// for the tiled copies that read and write it: swizzle_for(SMEM, COPY [, S|D], ...).
//
// The family searched (finite, every member evaluated): the unswizzled SMEM, and
// Sw<B,M,S> o smem_ptr[Nb](unset) o SMEM for 1 <= B <= 5, 0 <= M <= 8, B <= S <= 10 (360 members;
// the swizzle acts on byte addresses, as CuTe's swizzle behind an smem_ptr does; negative S is
// not searched). A member whose swizzle splits some thread's access (the access would no longer be
// consecutive bytes) or an element is infeasible and skipped with its reason. The cost of a member
// is the sum of the wavefronts of every instruction every given copy executes on it (the model's
// exact count, equal to Nsight Compute's on the H100's 967 measured pairs): the copies' partitions
// of the unswizzled SMEM are computed once (copy_bank_conflicts) and each member moves their
// element offsets as the composed layout does (apply_composed), which equals bank_conflicts of the
// composed layout (the unit tests compare the two on every member). The
// answer is a member of least cost; ties go to the unswizzled layout, then to the swizzles TMA
// and GMMA can express (Sw<1,4,3> 32B, Sw<2,4,3> 64B, Sw<3,4,3> 128B, smaller B first), then to
// the smallest (B, M, S). The certificate: the family's size, how many members reach the
// minimum, the next-best cost and member; and the lower bound every layout obeys, the sum of the
// accesses' ideals (one wavefront per phase): when the minimum equals it, no layout at all does
// better.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atoms/copy_bank_conflicts.hpp"
#include "atoms/tiled_copy.hpp"
#include "layout.hpp"
#include "swizzle.hpp"

namespace cuteref {

// One access: a tiled copy's every instruction on SMEM (copy_bank_conflicts), or one warp-wide
// instruction whose thread t's value v is the element at SMEM(t, v) (smem_wavefronts' form:
// SMEM is then the address layout of shape (32, V)).
struct SwizzleAccess {
  TiledCopy copy;
  CopySide side = CopySide::Auto;
  std::optional<SmemInstruction> instruction;  // set: the instruction form, `bits` its element width
  int bits = 0;
};

struct SwizzleMember {
  std::optional<Swizzle> swizzle;          // nullopt: the unswizzled layout
  bool feasible = false;
  std::string infeasible_reason;
  std::vector<std::int64_t> wavefronts;    // per access
  std::int64_t total = 0;
  bool tma_gmma = false;                   // unswizzled, or a mode TMA / GMMA express
};

// Padding as the alternative to a swizzle: a rank-2 SMEM with one unit-stride mode whose other
// stride P grows to P + pad (pad = 1 .. the elements of 128 bytes); the least pad reaching the
// least total over those tried, and its cost in bytes (the padded layout's cosize minus SMEM's).
struct SwizzlePadding {
  bool tried = false;
  std::string why_not;  // when not tried
  std::int64_t pad = 0, total = 0, extra_bytes = 0;
  bool found = false;   // some padded layout was accepted by every access
};

struct SwizzleSynthesis {
  Layout smem{IntTuple::static_int(1), IntTuple::static_int(0)};
  int bits = 0;
  std::vector<SwizzleAccess> accesses;
  std::vector<std::string> access_names;   // e.g. "ldmatrix.x4 (source)"
  std::vector<std::int64_t> ideal;         // per access
  std::vector<std::int64_t> instructions;  // per access
  std::vector<SwizzleMember> family;       // every member, in search order (unswizzled first)
  std::size_t best = 0;                    // index into family
  std::optional<std::size_t> next_best;    // the least member of greater cost, if any
  std::int64_t members_at_minimum = 0, infeasible = 0;
  std::int64_t ideal_total = 0;
  SwizzlePadding padding;
};

// The layout Sw o smem_ptr[bits b](unset) o smem (or smem itself for the unswizzled member).
Value swizzled_smem(const Layout& smem, const std::optional<Swizzle>& sw, int bits);

// Preconditions (checked): at least one access; every access's element width is the same; each
// access's copy executes on SMEM as bank_conflicts requires (the unswizzled layout must be
// accepted: its diagnostic is given otherwise).
SwizzleSynthesis swizzle_for(const Layout& smem, const std::vector<SwizzleAccess>& accesses);

// The answer: the best member's layout.
Value swizzle_for_layout(const SwizzleSynthesis& s);

// The readable report (`cuteref synth swizzle`).
std::string describe(const SwizzleSynthesis& s);

}  // namespace cuteref
