// The swizzle that makes a shared-memory layout conflict-free (or as near as the family allows)
// for the tiled copies that read and write it: swizzle_for(SMEM, COPY [, S|D], ... [, TMA|GMMA]).
//
// The family searched (finite, every member evaluated; swizzle_family.hpp defines it): the
// unswizzled SMEM, and Sw<B,M,S> o smem_ptr[Nb](unset) o SMEM for 1 <= B <= 5, 0 <= M <= 8,
// B <= |S| <= 10, S of either sign (721 members; the swizzle acts on byte addresses, as CuTe's
// swizzle behind an smem_ptr does). With a TMA or GMMA side the family is the four modes those
// engines encode: none, Sw<1,4,3> (32B), Sw<2,4,3> (64B), Sw<3,4,3> (128B). A member whose
// swizzle splits some thread's access (the access would no longer be consecutive bytes) or an
// element is infeasible and skipped with its reason. The cost of a member is the sum of the
// wavefronts of every instruction every given copy executes on it (the model's exact count,
// equal to Nsight Compute's on the H100's 967 measured pairs): the copies' partitions of the
// unswizzled SMEM are computed once (copy_bank_conflicts), the instructions with the same lane
// offsets are counted once with their multiplicity, and each member moves their element offsets
// as the composed layout does (apply_composed), which equals bank_conflicts of the composed
// layout (the unit tests compare the two on every member).
// The answer is a member of least cost; ties go, in this order, to the unswizzled layout, to the
// swizzles TMA and GMMA can express (Sw<1,4,3> 32B, Sw<2,4,3> 64B, Sw<3,4,3> 128B, smaller B
// first), to the other members with S > 0 by (B, M, S), then to those with S < 0 by (B, M, |S|).
// The certificate: the family's size, how many members reach the minimum, the next-best cost and
// member, each access's least cost over the family; and the lower bound every layout obeys, the
// sum of the accesses' ideals (one wavefront per phase): when the minimum equals it, no layout
// at all does better. The Z3 proof that no member does better is proofs/swizzle_minimality.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atoms/copy_bank_conflicts.hpp"
#include "atoms/swizzle_family.hpp"
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

// Instructions of one access that address the same element offsets in every lane: evaluated
// once, counted `count` times. offsets: lane -> element offsets of its values on the unswizzled
// SMEM (for ldmatrix/stmatrix .xN only lanes 0..8N-1 address shared memory).
struct SwizzleInstructionClass {
  std::size_t access = 0;
  SmemInstruction instruction;
  std::vector<std::vector<std::int64_t>> offsets;
  std::int64_t count = 0;
};

struct SwizzleMember {
  std::optional<Swizzle> swizzle;          // nullopt: the unswizzled layout, (B,M,S) = (0,0,0)
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
  SwizzleModes modes = SwizzleModes::Any;
  std::vector<SwizzleAccess> accesses;
  std::vector<std::string> access_names;   // e.g. "ldmatrix.x4 (source)"
  std::vector<std::int64_t> ideal;         // per access
  std::vector<std::int64_t> instructions;  // per access
  std::vector<SwizzleInstructionClass> classes;  // every instruction of every access, grouped
  std::vector<std::int64_t> least;         // per access: its least wavefronts over the feasible members
  std::vector<std::int64_t> class_least;   // per class: one execution's least wavefronts over the feasible members
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
SwizzleSynthesis swizzle_for(const Layout& smem, const std::vector<SwizzleAccess>& accesses,
                             SwizzleModes modes = SwizzleModes::Any);

// The family in words, e.g. "the unswizzled layout and Sw<B,M,S> o smem_ptr[16b](unset) o SMEM
// for 1 <= B <= 5, ...".
std::string describe_family(SwizzleModes modes, int bits);

// A member's (B, M, S), the unswizzled layout's (0, 0, 0).
struct SwizzleTriple {
  int b = 0, m = 0, s = 0;
};
SwizzleTriple swizzle_triple(const SwizzleMember& m);

// The answer: the best member's layout.
Value swizzle_for_layout(const SwizzleSynthesis& s);

// The readable report (`cuteref synth swizzle`).
std::string describe(const SwizzleSynthesis& s);

}  // namespace cuteref
