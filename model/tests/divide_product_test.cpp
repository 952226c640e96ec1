// Unit tests of the divide and product families and tile_to_shape.
//
// Expected values come from hand derivations (written next to each case), from CuTe's
// documentation examples, or from the vendor oracle (CuTe C++ 4.2 headers, a small program
// printing the result; CuTe prints static leaves as `_n`, compared here as functions).
// The enumeration tests check the defining equalities on every index.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "coalesce.hpp"
#include "complement.hpp"
#include "composition.hpp"
#include "coordinates.hpp"
#include "divide.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "make_layout.hpp"
#include "notation.hpp"
#include "product.hpp"
#include "tile_to_shape.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace divide_product_test {

using namespace cuteref;

namespace {

Layout L(const char* text) { return parse_layout(text); }
IntTuple T(const char* text) { return parse_int_tuple(text); }
// A tiler written in the expression language: `(3:3, (2,4):(1,8))`, `(4,2)`, `(_,3)`, ...
Value Tiler(const char* text) { return parse_and_evaluate(text, nullptr); }

::testing::AssertionResult same_function(const Layout& got, const Layout& want) {
  const Verdict v = functional_equal(Value(got), Value(want));
  if (v.holds) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got.to_string() << ", want " << want.to_string() << ": "
                                       << v.reason;
}

::testing::AssertionResult same_function(const ComposedLayout& got, const ComposedLayout& want) {
  const Verdict v = functional_equal(Value(got), Value(want));
  if (v.holds) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got.to_string() << ", want " << want.to_string() << ": "
                                       << v.reason;
}

// Expects `f` to throw an Error whose message contains every one of `needles`.
template <class F>
::testing::AssertionResult throws_containing(F f, std::vector<std::string> needles) {
  try {
    f();
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const auto& n : needles)
      if (msg.find(n) == std::string::npos)
        return ::testing::AssertionFailure() << "diagnostic '" << msg << "' lacks '" << n << "'";
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "no diagnostic";
}

std::int64_t offset(const Layout& l, const IntTuple& coord) { return apply(l, coord).value(); }
IntTuple I(std::int64_t v) { return IntTuple::integer(v); }

}  // namespace

// ---------------------------------------------------------------------------------------
// logical_divide, hand-derived and documented values

// CuTe's documentation 1-D example (also required to hold against seed 000's derivation).
// A = (4,2,3):(2,1,8) does not coalesce (4*2 != 1, 2*1 != 8), so the cotarget is (4,2,3).
// complement(4:2, (4,2,3)): the hole below stride 2 is 2:1; the rest starts at 2*4 = 8,
// ceil_div((4,2,3), 8) = (1,1,3) -> 3:8; so T* = (2,3):(1,8).
// A o 4:2 visits indices 0,2,4,6 -> offsets 0,4,1,5 = (2,2):(4,1);
// A o (2,3):(1,8) visits 1 -> 2 and 8 -> 8 = (2,3):(2,8).
TEST(LogicalDivide, DocumentedOneDimensionalExample) {
  const Layout r = logical_divide(L("(4,2,3):(2,1,8)"), L("4:2"));
  EXPECT_TRUE(same_function(r, L("((2,2),(2,3)):((4,1),(2,8))")));
  EXPECT_EQ(rank(r), 2u);
  EXPECT_EQ(size_value(mode(r, 0)), 4);
  EXPECT_EQ(size_value(mode(r, 1)), 6);
}

// Seed 000's one-mode example, which is right: complement(32:1, 128) = 4:32.
TEST(LogicalDivide, SeedOneModeExample) {
  EXPECT_TRUE(same_function(logical_divide(L("128:1"), L("32:1")), L("(32,4):(1,32)")));
}

// size(T) does not divide size(A): complement(4:1, 6) = ceil(6/4) = 2 tiles at stride 4,
// so the result has size 8 and its second tile reaches offsets 6 and 7, past A's domain.
// CuTe C++ prints (4,2):(_1,4) for this (vendor oracle), so the model does the same.
TEST(LogicalDivide, ExtendsPastTheDomainAsCuTeDoes) {
  EXPECT_TRUE(same_function(logical_divide(L("6:1"), L("4:1")), L("(4,2):(1,4)")));
  // complement(3:1, 8) = 3:3 (ceil(8/3) = 3); vendor: (_3,_3):(_1,_3).
  EXPECT_TRUE(same_function(logical_divide(L("8:1"), L("3:1")), L("(3,3):(1,3)")));
  // T = (2,2):(1,3) reaches {0,1,3,4}: complement(T, 5) has the hole 3/2 rounded down to 1
  // and a rest of ceil(5/6) = 1, so T* is trivial and the result has size 4: A(2) is left out.
  // Vendor: ((_2,_2),_1):((_1,_3),_0).
  EXPECT_TRUE(same_function(logical_divide(L("5:1"), L("(2,2):(1,3)")), L("((2,2),1):((1,3),0)")));
}

// A = (3,2):(1,4) keeps its shape under coalesce. complement(2:2, (3,2)): hole 2:1; the rest
// starts at 4, ceil_div((3,2), 4) = (ceil(3/4), ceil(2/ceil(4/3))) = (1,1): T* = 2:1.
// A o (2:2, 2:1) would need A(2 + 1) == A(2) + A(1), but index 3 carries into A's second
// mode (A(3) = 4, not 3). CuTe C++ returns (_2,_2):(_2,_1) anyway (value 3 at index 3); the
// model rejects it with composition's diagnostic, naming the divide and its operands.
TEST(LogicalDivide, RejectedWhereCuTeResultIsNoComposition) {
  EXPECT_TRUE(throws_containing([] { logical_divide(L("(3,2):(1,4)"), L("2:2")); },
                                {"logical_divide((3,2):(1,4), 2:2)", "composition"}));
}

// CuTe's documentation 2-D example; values printed by the vendor oracle.
TEST(LogicalDivide, DocumentedTwoDimensionalExampleAllForms) {
  const Layout a = L("(9,(4,8)):(59,(13,1))");
  const Value tiler = Tiler("(3:3, (2,4):(1,8))");
  EXPECT_TRUE(same_function(logical_divide(a, tiler), L("((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))")));
  EXPECT_TRUE(same_function(zipped_divide(a, tiler), L("((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))")));
  EXPECT_TRUE(same_function(tiled_divide(a, tiler), L("((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))")));
  EXPECT_TRUE(same_function(flat_divide(a, tiler), L("(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))")));
  EXPECT_EQ(rank(zipped_divide(a, tiler)), 2u);
  EXPECT_EQ(rank(tiled_divide(a, tiler)), 3u);
  EXPECT_EQ(rank(flat_divide(a, tiler)), 4u);
}

// Integer-tuple tiler on a row-major (16,8):(8,1), by mode:
//   16:8 / 4:1: complement(4:1, 16) = 4:4, 16:8 o (4,4):(1,4) = (4,4):(8,32);
//   8:1 / 2:1: complement(2:1, 8) = 4:2 -> (2,4):(1,2).
// zipped gathers the tiles (4:8, 2:1) and the rests (4:32, 4:2).
TEST(LogicalDivide, IntegerTupleTiler) {
  const Layout a = L("(16,8):(8,1)");
  EXPECT_TRUE(same_function(logical_divide(a, Tiler("(4,2)")), L("((4,4),(2,4)):((8,32),(1,2))")));
  EXPECT_TRUE(same_function(zipped_divide(a, Tiler("(4,2)")), L("((4,2),(4,4)):((8,1),(32,2))")));
}

// Modes beyond the tiler are kept; `_` keeps a mode. (8,6,5):(1,8,48) by (_,3): mode 1
// 6:8 / 3:1 = (3,2):(8,24) (complement(3:1, 6) = 2:3); modes 0 and 2 unchanged.
// zipped_divide((8,6,5), (2,3)) gathers tiles (2:1, 3:8) and rests (4:2, 2:24, 5:48);
// vendor: ((2,3),(4,2,5)):((_1,8),(2,24,48)).
TEST(LogicalDivide, KeptModesAndUnderscore) {
  const Layout a = L("(8,6,5):(1,8,48)");
  EXPECT_TRUE(same_function(logical_divide(a, Tiler("(_,3)")), L("(8,(3,2),5):(1,(8,24),48)")));
  EXPECT_TRUE(same_function(zipped_divide(a, Tiler("(2,3)")), L("((2,3),(4,2,5)):((1,8),(2,24,48))")));
  EXPECT_TRUE(same_function(tiled_divide(a, Tiler("(2,3)")), L("((2,3),4,2,5):((1,8),2,24,48)")));
  EXPECT_TRUE(same_function(flat_divide(a, Tiler("(2,3)")), L("(2,3,4,2,5):(1,8,2,24,48)")));
  EXPECT_EQ(rank(tiled_divide(a, Tiler("(2,3)"))), 4u);
  EXPECT_EQ(rank(flat_divide(a, Tiler("(2,3)"))), 5u);
  // `_` alone is no division at all.
  EXPECT_TRUE(same_function(logical_divide(a, Tiler("_")), a));
}

// A nested tiler: vendor zipped_divide((8,(2,3),5), (2:4, (2,3))) =
// ((_2,(2,3)),((_4,1),(1,1),5)):((_4,(8,16)),((_1,_8),(16,48),48)).
TEST(LogicalDivide, NestedTiler) {
  const Layout a = L("(8,(2,3),5):(1,(8,16),48)");
  EXPECT_TRUE(same_function(zipped_divide(a, Tiler("(2:4, (2,3))")),
                            L("((2,(2,3)),((4,1),(1,1),5)):((4,(8,16)),((1,8),(16,48),48))")));
}

TEST(LogicalDivide, Diagnostics) {
  // Too many modes in the tiler (CuTe: static_assert "Too many modes in tiler").
  EXPECT_TRUE(throws_containing([] { logical_divide(L("(4,4):(1,4)"), Tiler("(2,2,2)")); },
                                {"logical_divide", "too many modes", "(2,2,2)", "(4,4):(1,4)"}));
  // n:_1 needs n >= 1.
  EXPECT_TRUE(throws_containing([] { logical_divide(L("8:1"), Tiler("0")); }, {"logical_divide", ">= 1"}));
  // A non-injective tiler has no complement (CuTe: "Non-injective Layout detected").
  EXPECT_TRUE(throws_containing([] { logical_divide(L("16:1"), L("(2,2):(1,1)")); },
                                {"logical_divide(16:1, (2,2):(1,1))"}));
  // Not a tiler.
  EXPECT_TRUE(throws_containing([] { logical_divide(L("16:1"), Value(Swizzle(3, 4, 3))); },
                                {"logical_divide", "tiler"}));
  // zipped_divide under `_` needs a rank-2 mode to split (CuTe does not compile otherwise).
  EXPECT_TRUE(throws_containing([] { zipped_divide(L("(8,6):(1,8)"), Tiler("(_,3)")); }, {"zipped_divide", "rank-2"}));
  // (6,4):(1,10) by 4:1: the rest 8:4 would have to step over mode 0 (size 6) by 4, which
  // 4 does not divide: A o 8:4 is no layout. CuTe C++ (static) silently returns
  // (_4,(_2,_4)):(_1,(_4,_10)), whose element (0,(0,1)) is 10 although A(8) = 12; the model
  // rejects it with composition's diagnostic.
  EXPECT_TRUE(throws_containing([] { logical_divide(L("(6,4):(1,10)"), L("4:1")); },
                                {"logical_divide((6,4):(1,10), 4:1)"}));
}

// ---------------------------------------------------------------------------------------
// logical_product and friends

// complement(128:1, 128 * cosize(4:32)) = complement(128:1, 128*97) = 97:128, and
// 97:128 o 4:32 = 4:4096. Seed 000 claims (128,4):(1,128) (wrongly scaling B by |A|).
TEST(LogicalProduct, SeedExamplesCorrected) {
  EXPECT_TRUE(same_function(logical_product(L("128:1"), L("4:32")), L("(128,4):(1,4096)")));
  // complement(128:1, 128*4) = 4:128, 4:128 o 4:1 = 4:128. Seed 000 calls this product
  // ill-defined; it is the ordinary repetition of A four times.
  EXPECT_TRUE(same_function(logical_product(L("128:1"), L("4:1")), L("(128,4):(1,128)")));
}

// CuTe's documentation 1-D example. complement((2,2):(4,1), 4*6): sorted modes 2:1, 2:4;
// holes: 1/1 = 1 (none), 4/2 = 2 at stride 2; rest ceil(24/8) = 3 at stride 8 ->
// (2,3):(2,8); composed with 6:1 it stays (2,3):(2,8).
TEST(LogicalProduct, DocumentedExamples) {
  EXPECT_TRUE(same_function(logical_product(L("(2,2):(4,1)"), L("6:1")), L("((2,2),(2,3)):((4,1),(2,8))")));
  // B = (4,2):(2,1), cosize 8: complement((2,2):(4,1), 32) = (2,4):(2,8); composed with
  // 4:2 it visits 0,2,4,6 -> 0,8,16,24 = 4:8, and 2:1 -> 2:2. Vendor: ((_2,_2),(_4,_2)):((_4,_1),(_8,_2)).
  EXPECT_TRUE(
      same_function(logical_product(L("(2,2):(4,1)"), L("(4,2):(2,1)")), L("((2,2),(4,2)):((4,1),(8,2))")));
  // tiled/flat with a layout tiler: regroupings of the same (vendor).
  EXPECT_TRUE(same_function(tiled_product(L("(2,2):(4,1)"), Value(L("(4,2):(2,1)"))), L("((2,2),4,2):((4,1),8,2)")));
  EXPECT_TRUE(same_function(flat_product(L("(2,2):(4,1)"), Value(L("(4,2):(2,1)"))), L("(2,2,4,2):(4,1,8,2)")));
}

// By-mode products are products of each mode on its own (vendor):
// zipped_product((8,6,5), (2,3)) = ((_8,_6),(_2,_3,_5)):((_1,_8),(_8,_1,_48)).
// Mode 1: complement(6:8, 6*3) = 8:1 (the holes below stride 8), 8:1 o 3:1 = 3:1: the copies
// of mode 1 overlap mode 0's offsets.
TEST(LogicalProduct, ByModeForms) {
  const Layout a = L("(8,6,5):(1,8,48)");
  EXPECT_TRUE(same_function(logical_product(a, Tiler("(2,3)")), L("((8,2),(6,3),5):((1,8),(8,1),48)")));
  EXPECT_TRUE(same_function(zipped_product(a, Tiler("(2,3)")), L("((8,6),(2,3,5)):((1,8),(8,1,48))")));
  EXPECT_TRUE(same_function(tiled_product(a, Tiler("(2,3)")), L("((8,6),2,3,5):((1,8),8,1,48)")));
  EXPECT_TRUE(same_function(flat_product(a, Tiler("(2,3)")), L("(8,6,2,3,5):(1,8,8,1,48)")));
  // vendor: logical_product((8,6,5), (_,3)) = (_8,(_6,_3),_5):(_1,(_8,_1),_48)
  EXPECT_TRUE(same_function(logical_product(a, Tiler("(_,3)")), L("(8,(6,3),5):(1,(8,1),48)")));
}

// CuTe's documentation blocked/raked example (vendor values):
// blocked_product((2,5):(5,1), (3,4):(1,3)) = ((_2,_3),(_5,_4)):((_5,_10),(_1,_30)),
// raked_product = ((_3,_2),(_4,_5)):((_10,_5),(_30,_1)).
TEST(BlockedRaked, DocumentedExample) {
  const Layout a = L("(2,5):(5,1)"), b = L("(3,4):(1,3)");
  EXPECT_TRUE(same_function(blocked_product(a, b), L("((2,3),(5,4)):((5,10),(1,30))")));
  EXPECT_TRUE(same_function(raked_product(a, b), L("((3,2),(4,5)):((10,5),(30,1))")));
}

// Ranks differ: the shorter operand is padded with _1:_0 (vendor values).
// blocked_product((2,5), 3) = ((_2,_3),(_5,_1)):((_1,_10),(_2,_0)): complement((2,5):(1,2), 30)
// = 3:10 and B' = (3,1):(1,0).
// blocked_product(2, (3,4)) = ((_2,_3),(_1,_4)):((_1,_2),(_0,_6)).
// Rank 1: blocked_product(4, 2) = ((_4,_2)):((_1,_4)), raked = ((_2,_4)):((_4,_1)).
TEST(BlockedRaked, RankPaddingAndRankOne) {
  EXPECT_TRUE(same_function(blocked_product(L("(2,5):(1,2)"), L("3:1")), L("((2,3),(5,1)):((1,10),(2,0))")));
  EXPECT_TRUE(same_function(blocked_product(L("2:1"), L("(3,4):(1,3)")), L("((2,3),(1,4)):((1,2),(0,6))")));
  EXPECT_TRUE(same_function(raked_product(L("2:1"), L("(3,4):(1,3)")), L("((3,2),(4,1)):((2,1),(6,0))")));
  const Layout r1 = blocked_product(L("4:1"), L("2:1"));
  EXPECT_EQ(rank(r1), 1u);
  EXPECT_TRUE(same_function(r1, L("((4,2)):((1,4))")));
  EXPECT_TRUE(same_function(raked_product(L("4:1"), L("2:1")), L("((2,4)):((4,1))")));
  // A leaf block whose copies compose to a tuple: complement(2:2, 2*4) = (2,2):(1,4),
  // composed with 4:1 it stays (2,2):(1,4). CuTe C++ does not compile this (rank mismatch in
  // its zip); the model keeps the copies as one mode.
  const Layout r2 = blocked_product(L("2:2"), L("4:1"));
  EXPECT_EQ(rank(r2), 1u);
  EXPECT_TRUE(same_function(r2, L("((2,(2,2))):((2,(1,4)))")));
}

// CuTe's append<R>(layout) (tuple_algorithms.hpp, applied to shape and stride): a layout of rank R
// is returned as it is (a non-tuple with R = 1 stays a non-tuple); a lower rank gets _1:_0 modes.
TEST(BlockedRaked, AppendToRank) {
  EXPECT_EQ(append_to_rank(L("4:1"), 1).to_string(), "4:1");
  EXPECT_EQ(append_to_rank(L("(4,2):(1,4)"), 2).to_string(), "(4,2):(1,4)");
  EXPECT_EQ(append_to_rank(L("4:1"), 2).to_string(), "(4,_1):(1,_0)");
  EXPECT_EQ(append_to_rank(L("(4,2):(1,4)"), 3).to_string(), "(4,2,_1):(1,4,_0)");
  std::cout << "[ product ] 4 append_to_rank cases checked\n";
}

// ---------------------------------------------------------------------------------------
// tile_to_shape

// (2,3):(1,2) to (4,9): copies (2,3), tiler (2,3):(1,2) of cosize 6; complement((2,3):(1,2),
// 6*6) = 6:6, 6:6 o (2,3):(1,2) = (2,3):(6,12); blocked: ((2,2),(3,3)):((1,6),(2,12)).
TEST(TileToShape, ColumnMajorCopies) {
  const Layout block = L("(_2,_3):(_1,_2)");
  EXPECT_TRUE(same_function(tile_to_shape(block, T("(_4,_9)")), L("((2,2),(3,3)):((1,6),(2,12))")));
  // Row-major copies: tiler (2,3):(3,1), complement(.., 6*6) = 6:6 -> (2,3):(18,6)
  // (vendor with LayoutRight and with Step<_1,_0>: ((_2,_2),(_3,_3)):((_1,_18),(_2,_6))).
  EXPECT_TRUE(same_function(tile_to_shape(block, T("(_4,_9)"), TileOrder{true, std::nullopt}),
                            L("((2,2),(3,3)):((1,18),(2,6))")));
  EXPECT_TRUE(same_function(tile_to_shape(block, T("(_4,_9)"), TileOrder{false, T("(_1,_0)")}),
                            L("((2,2),(3,3)):((1,18),(2,6))")));
  // A third mode and an explicit order (vendor):
  // ((_2,_2),(_3,_3),(_1,_2)):((_1,_36),(_2,_12),(_0,_6)).
  EXPECT_TRUE(same_function(tile_to_shape(block, T("(_4,_9,_2)"), TileOrder{false, T("(_2,_1,_0)")}),
                            L("((2,2),(3,3),(1,2)):((1,36),(2,12),(0,6))")));
  // A hierarchical target mode counts by its product (vendor): ((_2,_2),(_2,_2)):((_1,_4),(_2,_8)).
  EXPECT_TRUE(same_function(tile_to_shape(L("(2,2):(1,2)"), T("((_2,_2),_4)")), L("((2,2),(2,2)):((1,4),(2,8))")));
}

// CuTe checks divisibility only for a static target; with a dynamic one it rounds the copies
// up: (5,9) gives ceil(5/2) = 3 and 3 copies; vendor: ((_2,3),(_3,3)):((_1,_6),(_2,18)).
TEST(TileToShape, DynamicTargetRoundsUpAsCuTe) {
  const Layout r = tile_to_shape(L("(_2,_3):(_1,_2)"), T("(5,9)"));
  EXPECT_TRUE(same_function(r, L("((2,3),(3,3)):((1,6),(2,18))")));
  EXPECT_EQ(size_value(r), 54);
}

// The GMMA 128-byte swizzle atom for 16-bit K-major operands, tiled to a 128x64 and a
// 64x128x3 buffer (vendor):
//   Sw<3,4,3> o _0 o ((_8,_16),(_64,_1)):((_64,_512),(_1,_0))
//   Sw<3,4,3> o _0 o ((_8,_8),(_64,_2),(_1,_3)):((_64,_512),(_1,_4096),(_0,_8192))
TEST(TileToShape, ComposedLayoutKeepsTheSwizzle) {
  const auto atom = std::get<ComposedLayout>(parse_and_evaluate("Sw<3,4,3> o (8,64):(64,1)", nullptr).data);
  const auto want1 = std::get<ComposedLayout>(
      parse_and_evaluate("Sw<3,4,3> o ((8,16),(64,1)):((64,512),(1,0))", nullptr).data);
  const auto want2 = std::get<ComposedLayout>(
      parse_and_evaluate("Sw<3,4,3> o ((8,8),(64,2),(1,3)):((64,512),(1,4096),(0,8192))", nullptr).data);
  EXPECT_TRUE(same_function(tile_to_shape(atom, T("(_128,_64)")), want1));
  EXPECT_TRUE(same_function(tile_to_shape(atom, T("(_64,_128,_3)")), want2));
  // vendor: logical_divide(atom, (4,16)) = Sw<3,4,3> o _0 o ((_4,_2),(_16,_4)):((_64,_256),(_1,_16))
  const auto want3 = std::get<ComposedLayout>(
      parse_and_evaluate("Sw<3,4,3> o ((4,2),(16,4)):((64,256),(1,16))", nullptr).data);
  EXPECT_TRUE(same_function(logical_divide(atom, Tiler("(4,16)")), want3));
}

TEST(TileToShape, Diagnostics) {
  EXPECT_TRUE(throws_containing([] { tile_to_shape(L("(_2,_3):(_1,_2)"), T("(_5,_9)")); },
                                {"tile_to_shape((_2,_3):(_1,_2), (_5,_9))", "does not divide", "mode 0"}));
  EXPECT_TRUE(throws_containing([] { tile_to_shape(L("(2,3,4):(1,2,6)"), T("(8,8)")); },
                                {"tile_to_shape", "rank of layout must be <= rank of target shape"}));
  EXPECT_TRUE(throws_containing([] { tile_to_shape(L("(2,3):(1,2)"), T("(4,0)")); }, {"tile_to_shape", ">= 1"}));
}

// ---------------------------------------------------------------------------------------
// Enumeration checks of the defining equalities over many operand pairs

namespace {

const std::vector<const char*> kLayouts = {
    "8:1",         "12:2",          "24:1",        "(4,2,3):(2,1,8)",  "(16,8):(8,1)", "(2,2):(4,1)",
    "(4,6):(1,4)", "(3,4):(4,1)",   "(2,3,4):(12,1,3)", "((2,2),4):((1,8),2)", "(8,(2,3)):(1,(8,16))",
    "(6,4):(1,6)", "(4,4):(1,8)",   "(2,5):(5,1)", "5:1",              "(3,2):(1,4)",  "(32,2):(1,64)",
    "_1:_0",       "(4,3):(1,0)"};

const std::vector<const char*> kTilers = {"1:1",   "2:1",        "4:1",         "4:2",       "3:1",    "6:1",
                                          "2:3",   "8:1",        "(2,2):(1,4)", "(2,3):(3,1)", "(2,2):(2,1)",
                                          "2:4",   "(4,2):(2,1)", "12:1",        "(2,2):(1,3)"};

}  // namespace

// logical_divide(A, T) == composition(A, make_layout(T, complement(T, size(A)))) as functions
// whenever A coalesces to one mode (then the cotargets shape(coalesce(A)) and size(A) are the
// same); in all cases mode 0 == composition(A, T), mode 1 == composition(A, complement), and
// the divide fails exactly when one of those fails. zipped, tiled and flat divides with a
// layout tiler are the same function as logical_divide.
TEST(Enumeration, LogicalDivideDefinition) {
  int checked = 0, rejected = 0;
  for (const char* as : kLayouts) {
    for (const char* ts : kTilers) {
      const Layout a = L(as), t = L(ts);
      SCOPED_TRACE(std::string("logical_divide(") + as + ", " + ts + ")");
      Layout r = a;
      try {
        r = logical_divide(a, t);
      } catch (const Error&) {
        ++rejected;
        // The divide is rejected only if the definition's pieces are.
        bool pieces_ok = true;
        try {
          composition(a, make_layout_from_modes({t, complement(t, coalesce(a).shape())}));
        } catch (const Error&) {
          pieces_ok = false;
        }
        EXPECT_FALSE(pieces_ok);
        continue;
      }
      ++checked;
      const Layout rest = complement(t, coalesce(a).shape());
      EXPECT_EQ(rank(r), 2u);
      EXPECT_TRUE(same_function(mode(r, 0), composition(a, t)));
      EXPECT_TRUE(same_function(mode(r, 1), composition(a, rest)));
      EXPECT_EQ(size_value(r), size_value(t) * size_value(rest));
      if (rank(coalesce(a)) == 1 && !coalesce(a).shape().is_tuple()) {
        const Layout by_size = composition(a, make_layout_from_modes({t, complement(t, size(a))}));
        EXPECT_TRUE(same_function(r, by_size));
      }
      const Value tv(t);
      EXPECT_TRUE(same_function(zipped_divide(a, tv), r));
      EXPECT_TRUE(same_function(tiled_divide(a, tv), r));
      EXPECT_TRUE(same_function(flat_divide(a, tv), r));
    }
  }
  std::cout << "[ logical_divide definition: " << checked << " pairs checked on every index, " << rejected
            << " rejected with their pieces ]\n";
  EXPECT_GT(checked, 100);
}

// With a tuple tiler (t0, t1) on a rank >= 2 layout, zipped/tiled/flat divides hold the same
// modes as logical_divide, regrouped: every (tile, rest) coordinate maps to the same offset.
TEST(Enumeration, TupleTilerRegroupings) {
  const std::vector<const char*> layouts = {"(16,8):(8,1)", "(8,6,5):(1,8,48)", "(4,12):(12,1)", "(8,(2,3)):(1,(8,16))",
                                            "(6,4,2):(1,6,24)"};
  const std::vector<const char*> tilers = {"(2,2)", "(4,3)", "(2:2, 2:1)", "((2,2):(1,4), 1)", "(8, _)", "(1,2)"};
  int points = 0, pairs = 0;
  for (const char* as : layouts) {
    for (const char* ts : tilers) {
      const Layout a = L(as);
      const Value tiler = Tiler(ts);
      SCOPED_TRACE(std::string("divide(") + as + ", " + ts + ")");
      Layout ld = a;
      try {
        ld = logical_divide(a, tiler);
      } catch (const Error&) {
        continue;
      }
      const bool second_divided = std::string(ts).find('_') == std::string::npos;
      if (!second_divided) {
        // `_` keeps mode 1 whole, so zipped_divide can only split it if it has rank 2.
        if (rank(mode(a, 1)) != 2) {
          EXPECT_THROW(zipped_divide(a, tiler), Error);
          continue;
        }
      }
      ++pairs;
      const Layout z = zipped_divide(a, tiler), td = tiled_divide(a, tiler), fd = flat_divide(a, tiler);
      const Layout m0 = mode(ld, 0), m1 = mode(ld, 1);
      const std::int64_t t0 = size_value(mode(m0, 0)), r0 = size_value(mode(m0, 1));
      const std::int64_t t1 = size_value(mode(m1, 0)), r1 = size_value(mode(m1, 1));
      std::int64_t kept = 1;
      for (std::size_t k = 2; k < rank(ld); ++k) kept *= size_value(mode(ld, k));
      for (std::int64_t c = 0; c < kept; ++c)
        for (std::int64_t j1 = 0; j1 < r1; ++j1)
          for (std::int64_t j0 = 0; j0 < r0; ++j0)
            for (std::int64_t i1 = 0; i1 < t1; ++i1)
              for (std::int64_t i0 = 0; i0 < t0; ++i0) {
                std::vector<IntTuple> lc{IntTuple::tuple({I(i0), I(j0)}), IntTuple::tuple({I(i1), I(j1)})};
                std::vector<IntTuple> rest{I(j0), I(j1)}, flat{I(i0), I(i1), I(j0), I(j1)};
                std::vector<IntTuple> tiled{IntTuple::tuple({I(i0), I(i1)}), I(j0), I(j1)};
                // the kept modes (rank(ld) - 2 of them) from the single index c
                std::int64_t q = c;
                for (std::size_t k = 2; k < rank(ld); ++k) {
                  const std::int64_t s = size_value(mode(ld, k));
                  const IntTuple ck = I(k + 1 == rank(ld) ? q : q % s);
                  q /= s;
                  lc.push_back(ck);
                  rest.push_back(ck);
                  flat.push_back(ck);
                  tiled.push_back(ck);
                }
                const std::int64_t want = offset(ld, IntTuple::tuple(lc));
                EXPECT_EQ(offset(z, IntTuple::tuple({IntTuple::tuple({I(i0), I(i1)}), IntTuple::tuple(rest)})), want);
                EXPECT_EQ(offset(td, IntTuple::tuple(tiled)), want);
                EXPECT_EQ(offset(fd, IntTuple::tuple(flat)), want);
                ++points;
              }
    }
  }
  std::cout << "[ tuple-tiler regroupings: " << pairs << " pairs, " << points << " coordinates checked ]\n";
  EXPECT_GT(pairs, 15);
}

// logical_product(A, B) == make_layout(A, composition(complement(A, size(A)*cosize(B)), B));
// size == size(A) * size(B); mode 0 is A; injective A and B give an injective product;
// zipped/tiled/flat with a layout tiler are the same function.
TEST(Enumeration, LogicalProductDefinition) {
  int checked = 0, rejected = 0, injective = 0;
  for (const char* as : kLayouts) {
    for (const char* bs : kTilers) {
      const Layout a = L(as), b = L(bs);
      SCOPED_TRACE(std::string("logical_product(") + as + ", " + bs + ")");
      Layout r = a;
      try {
        r = logical_product(a, b);
      } catch (const Error&) {
        ++rejected;
        continue;
      }
      ++checked;
      EXPECT_EQ(size_value(r), size_value(a) * size_value(b));
      EXPECT_EQ(mode(r, 0), a);
      const Layout c = complement(a, IntTuple::integer(size_value(a) * cosize(b).value()));
      EXPECT_TRUE(same_function(mode(r, 1), composition(c, b)));
      // A is injective when its offsets are distinct; B's tilers all are.
      std::set<std::int64_t> seen_a;
      for (std::int64_t i = 0; i < size_value(a); ++i) seen_a.insert(apply_index(a, i));
      if (static_cast<std::int64_t>(seen_a.size()) == size_value(a)) {
        std::set<std::int64_t> seen;
        for (std::int64_t i = 0; i < size_value(r); ++i) seen.insert(apply_index(r, i));
        EXPECT_EQ(static_cast<std::int64_t>(seen.size()), size_value(r)) << "product of injective layouts collides";
        ++injective;
      }
      const Value bv(b);
      EXPECT_TRUE(same_function(zipped_product(a, bv), r));
      EXPECT_TRUE(same_function(tiled_product(a, bv), r));
      EXPECT_TRUE(same_function(flat_product(a, bv), r));
    }
  }
  std::cout << "[ logical_product definition: " << checked << " pairs checked (" << injective
            << " injective), " << rejected << " rejected ]\n";
  EXPECT_GT(checked, 100);
}

// blocked_product(A, B)((a0,j0),(a1,j1),..) == P((a0,a1,..),(j0,j1,..)) and
// raked_product(A, B)((j0,a0),(j1,a1),..) == the same, where P = logical_product(A', B') of
// the padded operands; so sizes are size(A)*size(B), rank max(rank A, rank B), and the
// images of blocked, raked and P agree.
TEST(Enumeration, BlockedAndRakedProducts) {
  const std::vector<const char*> blocks = {"(2,2):(1,2)", "(2,5):(5,1)", "4:1", "(2,3):(3,1)", "(4,2):(1,4)",
                                           "2:2",         "(3,2,2):(1,3,6)", "(2,2):(2,1)", "(8,4):(4,1)", "(4):(1)"};
  const std::vector<const char*> tilers = {"(3,4):(1,3)", "2:1",         "(2,2):(2,1)", "(2,2,2):(1,2,4)",
                                           "(4,2):(1,4)", "3:1",         "(3):(1)"};
  int pairs = 0, points = 0;
  for (const char* as : blocks) {
    for (const char* bs : tilers) {
      const Layout a = L(as), b = L(bs);
      SCOPED_TRACE(std::string("blocked/raked(") + as + ", " + bs + ")");
      Layout blocked = a, raked = a;
      try {
        blocked = blocked_product(a, b);
        raked = raked_product(a, b);
      } catch (const Error&) {
        continue;
      }
      ++pairs;
      const std::size_t r = std::max(rank(a), rank(b));
      const Layout ap = append_to_rank(a, r), bp = append_to_rank(b, r);
      const Layout p = logical_product(ap, bp);
      EXPECT_EQ(rank(blocked), r);
      EXPECT_EQ(rank(raked), r);
      EXPECT_EQ(size_value(blocked), size_value(a) * size_value(b));
      EXPECT_EQ(size_value(raked), size_value(a) * size_value(b));
      std::vector<std::int64_t> ext_a, ext_b;
      for (std::size_t i = 0; i < r; ++i) {
        ext_a.push_back(size_value(mode(ap, i)));
        ext_b.push_back(size_value(mode(bp, i)));
        EXPECT_EQ(size_value(mode(blocked, i)), ext_a.back() * ext_b.back());
      }
      // Enumerate (a_i) and (j_i) per mode.
      std::int64_t total_a = 1, total_b = 1;
      for (std::size_t i = 0; i < r; ++i) total_a *= ext_a[i], total_b *= ext_b[i];
      std::multiset<std::int64_t> img_b, img_r, img_p;
      for (std::int64_t x = 0; x < total_a; ++x)
        for (std::int64_t y = 0; y < total_b; ++y) {
          std::vector<IntTuple> ai, ji, bm, rm;
          std::int64_t qx = x, qy = y;
          for (std::size_t i = 0; i < r; ++i) {
            ai.push_back(I(qx % ext_a[i]));
            ji.push_back(I(qy % ext_b[i]));
            qx /= ext_a[i];
            qy /= ext_b[i];
            bm.push_back(IntTuple::tuple({ai.back(), ji.back()}));
            rm.push_back(IntTuple::tuple({ji.back(), ai.back()}));
          }
          const IntTuple pa = r == 1 && !ap.shape().is_tuple() ? ai[0] : IntTuple::tuple(ai);
          const IntTuple pj = r == 1 && !bp.shape().is_tuple() ? ji[0] : IntTuple::tuple(ji);
          const std::int64_t want = offset(p, IntTuple::tuple({pa, pj}));
          EXPECT_EQ(offset(blocked, IntTuple::tuple(bm)), want);
          EXPECT_EQ(offset(raked, IntTuple::tuple(rm)), want);
          img_p.insert(want);
          ++points;
        }
      for (std::int64_t i = 0; i < size_value(blocked); ++i) img_b.insert(apply_index(blocked, i));
      for (std::int64_t i = 0; i < size_value(raked); ++i) img_r.insert(apply_index(raked, i));
      EXPECT_EQ(img_b, img_p);
      EXPECT_EQ(img_r, img_p);
    }
  }
  std::cout << "[ blocked/raked products: " << pairs << " pairs, " << points << " coordinates checked ]\n";
  EXPECT_GT(pairs, 40);
}

// tile_to_shape(block, shape) == blocked_product(block', make_layout(copies)), with the result
// compatible with the target shape (mode i has size product(shape_i)) for divisible targets.
TEST(Enumeration, TileToShape) {
  const std::vector<const char*> blocks = {"(2,3):(1,2)", "(8,64):(64,1)", "(4,2):(2,1)", "4:1", "(2,(2,2)):(4,(1,2))"};
  const std::vector<const char*> shapes = {"(8,12)", "(16,64,3)", "(64,128)", "(4,6,2)", "(8,8)"};
  int checked = 0;
  for (const char* bs : blocks) {
    for (const char* ss : shapes) {
      const Layout block = L(bs);
      const IntTuple shape = T(ss);
      SCOPED_TRACE(std::string("tile_to_shape(") + bs + ", " + ss + ")");
      bool divisible = rank(block) <= shape.rank();
      const Layout padded = divisible ? append_to_rank(block, shape.rank()) : block;
      std::vector<IntTuple> copies;
      for (std::size_t i = 0; divisible && i < shape.rank(); ++i) {
        const std::int64_t b = size_value(mode(padded, i)), t = product(shape[i]).value();
        if (t % b != 0) divisible = false;
        copies.push_back(I(t / std::max<std::int64_t>(b, 1)));
      }
      if (!divisible) {
        // These targets are dynamic: a rank mismatch is an error, a non-dividing block rounds up.
        if (rank(block) > shape.rank()) {
          EXPECT_THROW(tile_to_shape(block, shape), Error);
        }
        continue;
      }
      ++checked;
      const Layout r = tile_to_shape(block, shape);
      EXPECT_EQ(rank(r), shape.rank());
      for (std::size_t i = 0; i < shape.rank(); ++i) EXPECT_EQ(size_value(mode(r, i)), product(shape[i]).value());
      EXPECT_TRUE(same_function(r, blocked_product(padded, make_layout(IntTuple::tuple(copies)))));
    }
  }
  std::cout << "[ tile_to_shape: " << checked << " cases checked ]\n";
  EXPECT_GT(checked, 10);
}

}  // namespace divide_product_test
