// Bank conflicts of a tiled copy: every shared-memory instruction the copy executes on a
// shared-memory tensor, warp by warp, with its wavefronts (smem_banks.hpp).
//
// The instruction is the atom's: ldmatrix.xN[.trans] (the tensor is the source), stmatrix.xN
// [.trans] (the destination), UniversalCopy<uintN_t> ld.shared or st.shared of N bits
// (b8, b16, b32, v2.b32, v4.b32). cp.async is refused: on the H100 its shared-memory writes
// follow neither the st.shared rule nor the ld/st counters (gpu/RESULTS.md).
// Thread t of the tiled copy is lane t % 32 of warp t / 32; its j-th atom call (colexicographic
// over FrgX and the Rest modes of partition_S/D) is the warp's j-th instruction, whose values
// are the atom's FrgV values of that call.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "atoms/smem_banks.hpp"
#include "atoms/tiled_copy.hpp"
#include "value.hpp"

namespace cuteref {

enum class CopySide { Auto, Source, Destination };

struct CopyInstructionBanks {
  std::int64_t warp = 0;
  std::int64_t call = 0;                           // the atom call's index within the thread
  std::vector<std::vector<std::int64_t>> offsets;  // lane -> element offsets of its values
  SmemWavefronts wavefronts;
};

struct CopyBankConflicts {
  SmemInstruction instruction;
  bool source = true;  // the tensor is the copy's source (partition_S) or destination
  int bits = 0;
  std::int64_t count = 0;  // the instructions executed
  std::vector<CopyInstructionBanks> instructions;  // each of them (empty from bank_conflicts_streamed)
  std::int64_t wavefronts = 0, ideal = 0;
};

// Preconditions (checked): the tensor is a layout or composed layout that partition_S/D
// accepts; the atom is not cp.async; it reads or writes shared memory on the chosen side (Auto picks the side
// above; UniversalCopy defaults to the source, i.e. loads); each thread's values of one call
// are one access (smem_accesses' preconditions).
CopyBankConflicts bank_conflicts(const TiledCopy& tc, const Value& smem, CopySide side = CopySide::Auto);

// The same, keeping no instruction: each is handed to `visit` (in warp, then call order) and
// dropped, so that memory stays bounded by one warp's instruction whatever the tensor's size
// (2^24 elements, the enumeration bound, are 2^19 byte loads). The result's `instructions` is empty.
using CopyInstructionVisitor = std::function<void(const SmemInstruction&, const CopyInstructionBanks&)>;
CopyBankConflicts bank_conflicts_streamed(const TiledCopy& tc, const Value& smem, CopySide side,
                                          const CopyInstructionVisitor& visit);

// The readable account: instruction by instruction (conflicting ones in full), then the totals
// line. describe_instruction and describe_totals are its two parts (for a streamed account,
// which knows the totals last).
std::string describe(const CopyBankConflicts& b);
std::string describe_totals(const CopyBankConflicts& b);
std::string describe_instruction(const SmemInstruction& instruction, const CopyInstructionBanks& ib);

}  // namespace cuteref
