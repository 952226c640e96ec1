// MMA atoms: the thread/value layouts of the tensor-core instructions, as CuTe's MMA_Traits
// state them, looked up by CuTe's Operation struct names.
//
// An atom computes D = A * B + C on an M x N x K tile. Its layouts are functions
//   ThrID   : logical thread id          -> thread index in the warp / warpgroup
//   ALayout : (logical thread, value id) -> m + k * M   (column-major index into M x K)
//   BLayout : (logical thread, value id) -> n + k * N   (column-major index into N x K)
//   CLayout : (logical thread, value id) -> m + n * M   (column-major index into M x N)
// For SS GMMA (operands read from shared memory through descriptors), every thread sees the
// whole A (or B) tile: the layout is (128, (M, K)) : (0, (1, M)).
#pragma once

#include <string>
#include <string_view>

#include <optional>

#include "atoms/umma_instr_desc.hpp"
#include "int_tuple.hpp"
#include "layout.hpp"

namespace cuteref {

// Which of an operand's two modes is contiguous in shared memory (CuTe's GMMA::Major).
enum class GmmaMajor { K, MN };

std::string to_string(GmmaMajor m);

struct MmaAtom {
  std::string name;      // the Operation name as given, majorness normalized (SM90 16-bit: `<K,K>` form)
  int arch = 0;          // 70, 80, 89, 90 or 100
  std::int64_t m = 0, n = 0, k = 0;
  IntTuple shape_mnk;    // (_M,_N,_K)
  Layout thr_id{IntTuple::static_int(1), IntTuple::static_int(0)};
  Layout a_layout{IntTuple::static_int(1), IntTuple::static_int(0)};
  Layout b_layout{IntTuple::static_int(1), IntTuple::static_int(0)};
  Layout c_layout{IntTuple::static_int(1), IntTuple::static_int(0)};
  // Element types in PTX spelling: f16 bf16 tf32 f32 e4m3 e5m2 s8 u8 s32.
  std::string type_d, type_a, type_b, type_c;
  GmmaMajor major_a = GmmaMajor::K, major_b = GmmaMajor::K;  // SM90 only; K for the others
  bool a_in_registers = false;                                // SM90 RS (and all SM70/SM80)
  // SM100 (tcgen05.mma) only: the CTAs one MMA spans (1, or 2 for the _2x1SM_ atoms), A read
  // from tensor memory (_TS), and the instruction descriptor the atom's traits hold.
  int cta_group = 1;
  bool a_in_tmem = false;
  std::optional<UmmaInstrDescriptor> umma_idesc;
};

// The atom named by CuTe's Operation struct name, e.g. `SM70_8x8x4_F32F16F16F32_NT`,
// `SM80_16x8x16_F32BF16BF16F32_TN`, `SM90_64x128x16_F32F16F16_SS`, `SM90_64x128x16_F16F16F16_SS<MN,K>`,
// `SM90_64x96x32_S32S8U8_RS_TN`, `SM90_64x256x8_F32TF32TF32_SS_TN`, and the SM100 tcgen05.mma
// atoms of umma_mma_atom.hpp (`SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>`).
// Precondition (checked, Error naming the part): the name is one CuTe defines — SM70 8x8x4
// F16/F32 accumulators NT/TN/NN/TT; SM80 16x8x8 and 16x8x16 f16/bf16, 16x8x8 tf32, 16x8x32 s8/u8;
// SM90 64xNxK with the N, K, type combinations the PTX ISA allows for wgmma; majorness MN only
// for 16-bit SS operands (A of an RS atom is K-major).
MmaAtom mma_atom(std::string_view name);

// Bits of a PTX element type name (f16 -> 16, tf32 -> 32, e4m3 -> 8, e2m3 -> 6, ...).
int mma_element_bits(const std::string& type);

// The SS GMMA operand layout (128 threads, (rows, K) values) : (0, (1, rows)).
Layout gmma_smem_operand_layout(std::int64_t rows, std::int64_t k);

// The SM90 accumulator layout of a 64 x N tile (N a multiple of 8).
Layout gmma_accumulator_layout(std::int64_t n);

}  // namespace cuteref
