// Partitions and slices of swizzled (composed) layouts keep the swizzle and carry the offset
// inside the layout (composed_advance.hpp, tiled_mma.hpp); functions that cannot keep the
// swizzle refuse with a reason. Expected values: hand derivations in the comments, and CuTe's
// physical element offsets printed by oracles/atoms/dump_tiled_mma (the swizzled_partition
// lines), quoted where used.
#include <gtest/gtest.h>

#include <string>

#include "atoms/tiled_mma.hpp"
#include "composed_advance.hpp"
#include "coordinates.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace composed_partition_test {

using namespace cuteref;

namespace {

Value eval(const std::string& text) { return parse_and_evaluate(text, &standard_functions()); }

ComposedLayout composed(const std::string& text) {
  const Value v = eval(text);
  if (!v.is_composed()) throw Error(text + " is not a composed layout");
  return std::get<ComposedLayout>(v.data);
}

std::string error_of(const std::string& text) {
  try {
    return "no error: " + eval(text).to_string();
  } catch (const Error& e) {
    return e.what();
  }
}

const char* kSeedTile = "tile_to_shape(gmma_atom(MN, SW128, 16), (128,64,3))";

}  // namespace

TEST(ComposedPartition, IssueExampleKeepsTheSwizzle) {
  // The issue's example: thread 0 of one SM90 64x64x16 MN-major atom over a 128x64x3 MN-major
  // SW128 half_t stage. The tiling is the plain partition of the inner layout (checked against
  // CuTe in tiled_mma_test); the swizzle and the smem_ptr token stay.
  const Value v = eval(std::string("partition_A(make_tiled_mma(SM90_64x64x16_F16F16F16_SS<MN,MN>), 0, ") + kSeedTile + ")");
  ASSERT_TRUE(v.is_composed()) << v.to_string();
  EXPECT_EQ(v.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,(_8,2)),2,4,(_1,3)):((_1,(_64,1024)),_512,2048,(_0,8192))");
  // Index 64: inner offset 64 (mode (8,2) stride 64) -> byte 128 -> bit 7 is a source bit of the
  // 128-byte swizzle, XOR-ed into bit 4 -> byte 144 -> element 72. The plain layout gives 64.
  EXPECT_EQ(evaluate_at(v, 64).value(), 72);
  EXPECT_EQ(evaluate_at(v, 0).value(), 0);
}

TEST(ComposedPartition, NonZeroThreadOffsetMovesTheSwizzleToElements) {
  // Two warpgroups along M: thread 128 (warpgroup 1) starts at M = 64, which in the MN-major
  // SW128 tile (64,2):(1,512) is element 512. The smem_ptr token cannot carry an advance, so the
  // swizzle moves to element units: 128-byte Sw<3,4,3> on bytes of 16-bit elements is
  // Sw<3,3,3> on elements.
  const ComposedLayout c = composed(std::string("partition_A(make_tiled_mma(SM90_64x64x16_F16F16F16_SS<MN,MN>, (2,1,1):(1,2,2)), 128, ") +
                                    kSeedTile + ")");
  EXPECT_EQ(c.swizzle, Swizzle(3, 3, 3));
  ASSERT_TRUE(c.offset && c.offset->value);
  EXPECT_EQ(c.offset->value->value(), 512);
  // Index 64: inner 64, element 576 = 512 + 64 -> bits 6..8 = 001 -> XOR into bits 3..5 -> 584.
  // Physically: byte 1152 has bit 7 set -> XOR bit 4 -> byte 1168 = element 584.
  EXPECT_EQ(apply_composed(c, 64), 584);
  // The same function as thread 0's partition of the same tile moved by 512 elements: index 0
  // maps to 512 (bits 6..8 of 512 are 000).
  EXPECT_EQ(apply_composed(c, 0), 512);
}

TEST(ComposedPartition, Sm80SwizzledOperandEveryThreadOffsetMeetsTheSwizzle) {
  // CUTLASS's SM80 idiom: Swizzle<3,3,3> on element offsets over 8 x 64 K-major half_t rows.
  // Thread t of SM80_16x8x16 holds A(m, k) for m = t/4 (+8), k = 2*(t%4) (+1, +8, +9).
  const std::string tiled = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1):(_1,_2,_0))";
  const std::string a = "Sw<3,3,3> o _0 o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))";
  // Thread 1: (0,2), (0,3) -> 2, 3 (bits 6..8 zero); (8,2) -> 514: bits 6..8 of 514 are 000 ->
  // 514. CuTe's offsets (dump_tiled_mma): 2,3,514,515,10,11,522,523,...
  const Value t1 = eval("partition_A(" + tiled + ", 1, " + a + ")");
  ASSERT_TRUE(t1.is_composed()) << t1.to_string();
  const std::int64_t cute_t1[] = {2, 3, 514, 515, 10, 11, 522, 523};
  for (std::int64_t i = 0; i < 8; ++i) EXPECT_EQ(evaluate_at(t1, i).value(), cute_t1[i]) << "index " << i;
  // Thread 4: (1,0) -> 64: bits 6..8 = 001 -> XOR into bits 3..5 -> 72; (9,0) -> 576 -> 584.
  const Value t4 = eval("partition_A(" + tiled + ", 4, " + a + ")");
  EXPECT_EQ(evaluate_at(t4, 0).value(), 72);
  EXPECT_EQ(evaluate_at(t4, 1).value(), 73);
  EXPECT_EQ(evaluate_at(t4, 2).value(), 584);
  // Dropping the swizzle would give 64, 65, 576: the check sees it.
  const Partition plain = partition_A(make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), parse_layout("(_2,_2,_1):(_1,_2,_0)")),
                                      4, composed(a).layout);
  EXPECT_EQ(plain.offset + apply_index(plain.layout, 0), 64);
}

TEST(ComposedPartition, AdvanceKeepsOrConvertsTheOffset) {
  const ComposedLayout gmma = composed("Sw<3,4,3> o smem_ptr[16b](unset) o (64,8):(1,64)");
  const Layout inner = parse_layout("8:64");
  // No advance: the token stays (a GMMA layout stays one).
  EXPECT_EQ(advance_composed(gmma, inner, 0).to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o 8:64");
  // Advance 8 elements of 16 bits: Sw<3,4,3> on bytes = Sw<3,3,3> on elements.
  const ComposedLayout moved = advance_composed(gmma, inner, 8);
  EXPECT_EQ(moved.to_string(), "Sw<3,3,3> o 8 o 8:64");
  // Index 1: element 8 + 64 = 72 = 0b1001000 -> bits 6..8 = 001 XOR-ed into bits 3..5 clears
  // bit 3 -> 64; physically byte 144 has bit 7 set -> XOR bit 4 -> byte 128 -> element 64.
  EXPECT_EQ(apply_composed(moved, 1), 64);
  EXPECT_EQ(apply_composed(moved, 0), 8);
  // 8-bit elements: Sw<2,4,3> on bytes is itself on elements; 32-bit: Sw<1,4,3> -> Sw<1,2,3>.
  EXPECT_EQ(advance_composed(composed("Sw<2,4,3> o smem_ptr[8b](unset) o 32:1"), inner, 1).swizzle, Swizzle(2, 4, 3));
  EXPECT_EQ(advance_composed(composed("Sw<1,4,3> o smem_ptr[32b](unset) o 32:1"), inner, 1).swizzle, Swizzle(1, 2, 3));
  // An integer offset adds: 3 + 5.
  EXPECT_EQ(advance_composed(composed("Sw<2,1,2> o 3 o (8,4):(4,1)"), inner, 5).to_string(), "Sw<2,1,2> o 8 o 8:64");
  // 128-bit elements are 16 bytes: Sw<1,0,3> moves byte bit 3 into bit 0, both inside the element
  // and bit 3 always 0: the identity on elements (CuTe's upcast<16> gives Swizzle<0,0,3>).
  EXPECT_EQ(advance_composed(composed("Sw<1,0,3> o smem_ptr[128b](unset) o 32:1"), inner, 1).swizzle, Swizzle(0, 0, 3));
  // Sw<1,2,3> moves byte bit 5 (outside) into bit 2 (inside): no element form, refused.
  EXPECT_THROW(advance_composed(composed("Sw<1,2,3> o smem_ptr[128b](unset) o 32:1"), inner, 1), Error);
}

TEST(ComposedPartition, SlicesModesAndCoordinates) {
  const std::string x = "Sw<3,4,3> o smem_ptr[16b](unset) o ((64,2),(8,8)):((1,512),(64,1024))";
  // slice_and_offset((_,1)): the column mode at 1 is inner offset 64; the token cannot carry it,
  // so Sw<3,3,3> o 64 o ((64,2)):((1,512)) (the slice keeps the mode's tuple, as for plain
  // layouts), and the pointer offset is 0.
  EXPECT_EQ(eval("slice_and_offset((_,1), " + x + ")").to_string(), "(Sw<3,3,3> o 64 o ((64,2)):((1,512)),_0)");
  // mode and group_modes keep the swizzle and the token.
  EXPECT_EQ(eval("mode(" + x + ", 1)").to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (8,8):(64,1024)");
  EXPECT_EQ(eval("group_modes(" + x + ", 0, 2)").to_string(),
            "Sw<3,4,3> o smem_ptr[16b](unset) o (((64,2),(8,8))):(((1,512),(64,1024)))");
  // A coordinate: (1, 1) -> inner 1 + 64 = 65 -> byte 130, bit 7 -> byte 146 -> element 73.
  EXPECT_EQ(eval(x + "((1,1))").to_string(), "73");
  EXPECT_EQ(eval(x + "(129)").to_string(), "73");  // index 129 is coordinate (1, 1) of (128, 64)
}

// upcast / downcast / recast of a composed layout are defined (recast_composed.hpp: the swizzle
// moves with the unit) and tested in model/tests/recast_composed_test.cpp.
TEST(ComposedPartition, RefusalsSayWhy) {
  const std::string x = "Sw<3,4,3> o smem_ptr[16b](unset) o (64,8):(1,64)";
  EXPECT_NE(error_of(x + "(_,1)").find("use slice_and_offset"), std::string::npos) << error_of(x + "(_,1)");
  for (const char* fn : {"select(X, 0)", "filter(X)", "prepend(X, 2:1)"}) {
    std::string expr = fn;
    expr.replace(expr.find('X'), 1, x);
    EXPECT_NE(error_of(expr).find("would drop the swizzle"), std::string::npos) << expr << ": " << error_of(expr);
  }
  // The inverses are defined for Sw o 0 o L (inverse_composed.hpp); behind the pointer token the
  // swizzle acts on bytes, so there is no inverse of element offsets.
  for (const char* fn : {"right_inverse(X)", "left_inverse(X)"}) {
    std::string expr = fn;
    expr.replace(expr.find('X'), 1, x);
    EXPECT_NE(error_of(expr).find("acts on byte addresses"), std::string::npos) << expr << ": " << error_of(expr);
  }
  // A register fragment of a swizzled SM80 operand: refused (CuTe orders it by the decayed slice).
  const std::string tiled = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1):(_1,_2,_0))";
  const std::string frag = "make_fragment_A(" + tiled + ", partition_A(" + tiled + ", 0, Sw<3,3,3> o _0 o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))))";
  EXPECT_NE(error_of(frag).find("not modelled"), std::string::npos) << error_of(frag);
  // The SS descriptor layout of a swizzled GMMA partition: the inner layout's, in 16-byte units;
  // CuTe's make_fragment_A of the seed's tCsA (tiled_mma_test, vendor oracle) is
  // (_1,_2,_4,(_1,_3)):(_0,_64,_256,(_0,_1024)).
  const Value desc = eval(std::string("make_fragment_A(make_tiled_mma(SM90_64x64x16_F16F16F16_SS<MN,MN>), "
                                      "partition_A(make_tiled_mma(SM90_64x64x16_F16F16F16_SS<MN,MN>), 0, ") +
                          kSeedTile + "))");
  EXPECT_TRUE(functional_equal(desc, Value(parse_layout("(_1,_2,_4,(_1,_3)):(_0,_64,_256,(_0,_1024))"))).holds) << desc.to_string();
}

}  // namespace composed_partition_test
