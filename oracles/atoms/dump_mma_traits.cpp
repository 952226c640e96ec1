// Vendor oracle: CuTe's MMA_Traits (Shape_MNK, ThrID, ALayout, BLayout, CLayout) for every MMA
// atom the model names (model/atoms/mma_atom.hpp), printed as `mma\tEXPR\tVALUE` lines for
// compare_atoms. Built with g++ against the CuTe headers of the nvidia-cutlass wheel.
#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm89.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/arch/mma_sm90_gmma_ext.hpp>
#include <cute/atom/mma_traits_sm90_gmma_ext.hpp>

#include <cstdio>

using namespace cute;

namespace {

template <class Op>
void show(const char* name) {
  using T = MMA_Traits<Op>;
  std::printf("mma\tmma_shape(%s)\t", name);
  print(typename T::Shape_MNK{});
  std::printf("\nmma\tmma_thrid(%s)\t", name);
  print(typename T::ThrID{});
  std::printf("\nmma\tmma_layout(%s, A)\t", name);
  print(typename T::ALayout{});
  std::printf("\nmma\tmma_layout(%s, B)\t", name);
  print(typename T::BLayout{});
  std::printf("\nmma\tmma_layout(%s, C)\t", name);
  print(typename T::CLayout{});
  std::printf("\n");
}

}  // namespace

// The N of every wgmma shape (multiples of 8 up to 256), and the integer ones (PTX ISA).
#define CUTEREF_N_ALL(X, ...)                                                                                 \
  X(8, __VA_ARGS__) X(16, __VA_ARGS__) X(24, __VA_ARGS__) X(32, __VA_ARGS__) X(40, __VA_ARGS__)              \
  X(48, __VA_ARGS__) X(56, __VA_ARGS__) X(64, __VA_ARGS__) X(72, __VA_ARGS__) X(80, __VA_ARGS__)             \
  X(88, __VA_ARGS__) X(96, __VA_ARGS__) X(104, __VA_ARGS__) X(112, __VA_ARGS__) X(120, __VA_ARGS__)          \
  X(128, __VA_ARGS__) X(136, __VA_ARGS__) X(144, __VA_ARGS__) X(152, __VA_ARGS__) X(160, __VA_ARGS__)        \
  X(168, __VA_ARGS__) X(176, __VA_ARGS__) X(184, __VA_ARGS__) X(192, __VA_ARGS__) X(200, __VA_ARGS__)        \
  X(208, __VA_ARGS__) X(216, __VA_ARGS__) X(224, __VA_ARGS__) X(232, __VA_ARGS__) X(240, __VA_ARGS__)        \
  X(248, __VA_ARGS__) X(256, __VA_ARGS__)
#define CUTEREF_N_INT(X, ...)                                                                                 \
  X(8, __VA_ARGS__) X(16, __VA_ARGS__) X(24, __VA_ARGS__) X(32, __VA_ARGS__) X(48, __VA_ARGS__)              \
  X(64, __VA_ARGS__) X(80, __VA_ARGS__) X(96, __VA_ARGS__) X(112, __VA_ARGS__) X(128, __VA_ARGS__)           \
  X(144, __VA_ARGS__) X(160, __VA_ARGS__) X(176, __VA_ARGS__) X(192, __VA_ARGS__) X(208, __VA_ARGS__)        \
  X(224, __VA_ARGS__) X(240, __VA_ARGS__) X(256, __VA_ARGS__)

// 16-bit atoms take the majorness of A and B; RS atoms read A (K-major) from registers.
#define CUTEREF_MAJ(N, T, SRC, MA, MB) \
  show<SM90_64x##N##x16_##T##_##SRC<GMMA::Major::MA, GMMA::Major::MB>>("SM90_64x" #N "x16_" #T "_" #SRC "<" #MA "," #MB ">");
#define CUTEREF_SIXTEEN(N, T)                                                                     \
  CUTEREF_MAJ(N, T, SS, K, K) CUTEREF_MAJ(N, T, SS, K, MN) CUTEREF_MAJ(N, T, SS, MN, K)           \
  CUTEREF_MAJ(N, T, SS, MN, MN) CUTEREF_MAJ(N, T, RS, K, K) CUTEREF_MAJ(N, T, RS, K, MN)
// K-major-only atoms with scale template arguments (tf32, fp8) and plain ones (integer).
#define CUTEREF_TN(N, K, T) \
  show<SM90_64x##N##x##K##_##T##_SS_TN<>>("SM90_64x" #N "x" #K "_" #T "_SS_TN"); \
  show<SM90_64x##N##x##K##_##T##_RS_TN<>>("SM90_64x" #N "x" #K "_" #T "_RS_TN");
#define CUTEREF_FP8(N, _) \
  CUTEREF_TN(N, 32, F16E4M3E4M3) CUTEREF_TN(N, 32, F16E4M3E5M2) CUTEREF_TN(N, 32, F16E5M2E4M3) \
  CUTEREF_TN(N, 32, F16E5M2E5M2) CUTEREF_TN(N, 32, F32E4M3E4M3) CUTEREF_TN(N, 32, F32E4M3E5M2) \
  CUTEREF_TN(N, 32, F32E5M2E4M3) CUTEREF_TN(N, 32, F32E5M2E5M2)
#define CUTEREF_INT_ONE(N, T, SRC) \
  show<SM90_64x##N##x32_##T##_##SRC##_TN>("SM90_64x" #N "x32_" #T "_" #SRC "_TN"); \
  show<SM90_64x##N##x32_##T##_##SRC##_TN_SATURATE>("SM90_64x" #N "x32_" #T "_" #SRC "_TN_SATURATE");
#define CUTEREF_INT(N, _)                                                                           \
  CUTEREF_INT_ONE(N, S32S8S8, SS) CUTEREF_INT_ONE(N, S32S8U8, SS) CUTEREF_INT_ONE(N, S32U8S8, SS)   \
  CUTEREF_INT_ONE(N, S32U8U8, SS) CUTEREF_INT_ONE(N, S32S8S8, RS) CUTEREF_INT_ONE(N, S32S8U8, RS)   \
  CUTEREF_INT_ONE(N, S32U8S8, RS) CUTEREF_INT_ONE(N, S32U8U8, RS)
#define CUTEREF_SM90_16(N, _) CUTEREF_SIXTEEN(N, F16F16F16) CUTEREF_SIXTEEN(N, F32F16F16) CUTEREF_SIXTEEN(N, F32BF16BF16)
#define CUTEREF_TF32(N, _) CUTEREF_TN(N, 8, F32TF32TF32)

#define CUTEREF_OP(NAME) show<NAME>(#NAME);

int main() {
  CUTEREF_OP(SM70_8x8x4_F16F16F16F16_NT) CUTEREF_OP(SM70_8x8x4_F16F16F16F16_TN)
  CUTEREF_OP(SM70_8x8x4_F16F16F16F16_NN) CUTEREF_OP(SM70_8x8x4_F16F16F16F16_TT)
  CUTEREF_OP(SM70_8x8x4_F32F16F16F32_NT) CUTEREF_OP(SM70_8x8x4_F32F16F16F32_TN)
  CUTEREF_OP(SM70_8x8x4_F32F16F16F32_NN) CUTEREF_OP(SM70_8x8x4_F32F16F16F32_TT)
  CUTEREF_OP(SM80_16x8x8_F16F16F16F16_TN) CUTEREF_OP(SM80_16x8x8_F32F16F16F32_TN)
  CUTEREF_OP(SM80_16x8x8_F32BF16BF16F32_TN) CUTEREF_OP(SM80_16x8x16_F16F16F16F16_TN)
  CUTEREF_OP(SM80_16x8x16_F32F16F16F32_TN) CUTEREF_OP(SM80_16x8x16_F32BF16BF16F32_TN)
  CUTEREF_OP(SM80_16x8x8_F32TF32TF32F32_TN) CUTEREF_OP(SM80_16x8x4_F32TF32TF32F32_TN)
  CUTEREF_OP(SM89_16x8x32_F32E4M3E4M3F32_TN) CUTEREF_OP(SM89_16x8x32_F32E4M3E5M2F32_TN)
  CUTEREF_OP(SM89_16x8x32_F32E5M2E4M3F32_TN) CUTEREF_OP(SM89_16x8x32_F32E5M2E5M2F32_TN)
  CUTEREF_OP(SM89_16x8x32_F16E4M3E4M3F16_TN) CUTEREF_OP(SM89_16x8x32_F16E4M3E5M2F16_TN)
  CUTEREF_OP(SM89_16x8x32_F16E5M2E4M3F16_TN) CUTEREF_OP(SM89_16x8x32_F16E5M2E5M2F16_TN)
  CUTEREF_OP(SM80_16x8x32_S32S8S8S32_TN) CUTEREF_OP(SM80_16x8x32_S32S8U8S32_TN)
  CUTEREF_OP(SM80_16x8x32_S32U8S8S32_TN) CUTEREF_OP(SM80_16x8x32_S32U8U8S32_TN)
  CUTEREF_OP(SM80_16x8x32_S32S8S8S32_TN_SATURATE) CUTEREF_OP(SM80_16x8x32_S32S8U8S32_TN_SATURATE)
  CUTEREF_OP(SM80_16x8x32_S32U8S8S32_TN_SATURATE) CUTEREF_OP(SM80_16x8x32_S32U8U8S32_TN_SATURATE)
  CUTEREF_N_ALL(CUTEREF_SM90_16, 0)
  CUTEREF_N_ALL(CUTEREF_TF32, 0)
  CUTEREF_N_ALL(CUTEREF_FP8, 0)
  CUTEREF_N_INT(CUTEREF_INT, 0)
  return 0;
}
