// Shared-memory bank conflicts: how many wavefronts one warp-wide execution of a shared-memory
// instruction needs, for the addresses its threads hand in.
//
// The rule. Sources: the CUDA C++ Programming Guide ("Shared Memory", compute capability 5.x and
// later, which Hopper keeps): 32 banks, successive 32-bit words in successive banks, each bank
// one 32-bit word per cycle, a word read by several threads read once (multicast); the Nsight
// Compute Kernel Profiling Guide: a wavefront is the work the L1TEX data stage processes in one
// cycle, the wavefronts of one request are serialized; the PTX ISA: ldmatrix / stmatrix .xN
// take the 8 row addresses of matrix j from threads 8j..8j+7; an NVIDIA forum answer on
// compute capability 7.x: 128-bit loads whose threads Tn and Tn^1 (or Tn^2) all share an
// address are served in half the requests (register packing); and the Hopper counters
// (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/_op_st of single-instruction kernels,
// `cuteref gpu banks`, gpu/RESULTS.md), which decided what the documents leave open:
//
//   1. The warp's accesses are split into phases, each at most 128 bytes of data:
//        ld/st of 1, 2 or 4 bytes per thread: one phase, threads 0..31;
//        8 bytes per thread (b64, v2.b32):       two phases, threads 0..15 and 16..31;
//        16 bytes per thread (b128, v4.b32, v2.b64): four phases of 8 threads;
//        ldmatrix / stmatrix .xN: N phases, phase j the 8 rows (16 bytes each) whose addresses
//        threads 8j..8j+7 supply (the other threads' addresses are not read). Phases never
//        share a wavefront: four matrices over the same 8 rows still take 4.
//   2. Loads (not stores) of 8 or 16 bytes in which every accessing thread t has a partner t^1
//      with the same address, or every one a partner t^2, take phases of twice the threads:
//      8 bytes one phase of 32, 16 bytes two of 16 (Hopper: a v4 load of one address by all 32
//      threads takes 2 wavefronts, the same store 4).
//   3. A phase needs as many wavefronts as the largest number of DISTINCT 32-bit words any one
//      bank holds among the phase's accesses (a thread's access of W >= 4 bytes covers W/4
//      consecutive words; an access of 1 or 2 bytes lies in one word; threads accessing the
//      same word share it, for stores too), and at least 1.
//   4. The instruction needs the sum over its phases.
// So 32-bit loads at a stride of 2, 8, 32, 33 words need 2, 8, 32, 1 wavefronts; a conflict-free
// ldmatrix.x4 needs 4 (its ideal), one whose 8 rows of a matrix share 4 banks needs 4 x 8 = 32.
// Not covered: cp.async (its shared-memory writes are counted apart by the hardware; the
// counters are reported in gpu/RESULTS.md, not modeled).
//
// Preconditions (checked, a diagnostic naming the thread): each thread's values are its one
// access: consecutive elements, ascending, forming exactly the instruction's width (16 bytes
// for an ldmatrix / stmatrix row), aligned to it; byte addresses are non-negative.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "layout.hpp"
#include "swizzle.hpp"
#include "value.hpp"

namespace cuteref {

enum class SmemOp { Load, Store, LoadMatrix, StoreMatrix };

struct SmemInstruction {
  std::string name;       // PTX spelling without .sync.aligned.m8n8 / .shared, e.g. ld.shared.v4.b32, ldmatrix.x4.trans
  SmemOp op = SmemOp::Load;
  int access_bytes = 4;   // bytes one thread accesses (ld/st), or one row (16) for ldmatrix/stmatrix
  int matrices = 0;       // ldmatrix/stmatrix .x1/.x2/.x4
  bool transpose = false; // .trans (does not change the addresses)
};

// The instruction named by its PTX spelling: ld.shared.{b8,b16,b32,b64,b128,v2.b32,v4.b32,v2.b64},
// the same for st.shared, ldmatrix.x{1,2,4}[.trans], stmatrix.x{1,2,4}[.trans].
// Precondition (checked, the diagnostic lists the names): one of those.
SmemInstruction smem_instruction(std::string_view name);

// One thread's access (for ldmatrix/stmatrix: one row).
struct SmemAccess {
  int thread = 0;
  std::int64_t byte_address = 0;
  int bytes = 0;
};

// The element-width precondition of every shared-memory bank computation: `bits` is a positive
// multiple of 8 (shared memory is byte-addressed, so a bank is byte address / 4 % 32).
// Throws Error naming `fn` and the width otherwise.
void check_smem_element_bits(std::int64_t bits, const std::string& fn);

// The accesses of one warp-wide execution: thread t's values v = 0..V-1 are the elements at
// element offsets ADDR(t, v) (a layout or composed layout of shape (32, V), read at the
// coordinate (t, v)) of `bits`-bit elements. ADDR may also be an integer tuple of at most 32
// element offsets: thread t's access starts at ADDR[t] and covers the instruction's width.
// Preconditions (checked): ADDR has size 32 * V with mode 0 of size 32 (any rank >= 2 layout
// is read as (32, rest)); bits is a multiple of 8 (shared memory is byte-addressed) and
// V * bits is the instruction's access width in bits (for ldmatrix/stmatrix 128, one row);
// each thread's values are consecutive ascending elements aligned to the width.
std::vector<SmemAccess> smem_accesses(const SmemInstruction& instr, const Value& addr, int bits);
// The same from explicit per-thread element offsets: offsets[t][v], for threads 0..T-1 (T <= 32;
// the warp's other threads are inactive; ldmatrix/stmatrix need the 8N addressing threads).
std::vector<SmemAccess> smem_accesses(const SmemInstruction& instr, const std::vector<std::vector<std::int64_t>>& offsets,
                                      int bits);

// Which threads collide in a bank: the distinct words of the fullest bank of a phase.
struct BankWord {
  std::int64_t word = 0;       // byte address / 4
  std::vector<int> threads;    // the threads (or row-supplying threads) that access it
};
struct SmemPhase {
  std::vector<int> threads;        // the threads whose accesses the phase serves
  std::int64_t wavefronts = 0;
  int worst_bank = 0;              // a bank holding `wavefronts` distinct words
  std::vector<BankWord> worst_words;
};
struct SmemWavefronts {
  std::int64_t wavefronts = 0;  // the instruction's wavefronts
  std::int64_t ideal = 0;       // with no bank conflict: one per phase that has accesses
  bool packed = false;          // rule 2 applied
  std::vector<SmemPhase> phases;
};

SmemWavefronts smem_wavefronts(const SmemInstruction& instr, const std::vector<SmemAccess>& accesses);

// A readable account: per phase its threads, wavefronts and, when there are conflicts, the
// fullest bank with each distinct word and the threads on it.
std::string describe(const SmemInstruction& instr, const SmemWavefronts& w);

}  // namespace cuteref
