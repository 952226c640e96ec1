// Unit tests of IntTuple (int_tuple.hpp). Expected values are derived by hand from CuTe's
// definitions in int_tuple.hpp (rank, depth, product, flatten, congruent, weakly_congruent)
// and CuTe's printing convention (`_8` for Int<8>, `8` for a run-time int).
#include <gtest/gtest.h>

#include <cstdint>

#include "error.hpp"
#include "int_tuple.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace int_tuple_test {

using namespace cuteref;

namespace {

IntTuple I(std::int64_t v) { return IntTuple::integer(v); }
IntTuple S(std::int64_t v) { return IntTuple::static_int(v); }
IntTuple T(std::initializer_list<IntTuple> e) { return IntTuple::tuple(e); }

}  // namespace

TEST(IntTuple, PrintsStaticWithUnderscoreAndDynamicWithout) {
  // CuTe prints Int<8>{} as `_8` and int(8) as `8`.
  EXPECT_EQ(S(8).to_string(), "_8");
  EXPECT_EQ(I(8).to_string(), "8");
  EXPECT_EQ(I(-3).to_string(), "-3");
  EXPECT_EQ(S(-3).to_string(), "_-3");
  EXPECT_EQ(IntTuple::underscore().to_string(), "_");
  EXPECT_EQ(IntTuple().to_string(), "()");
  EXPECT_EQ(T({S(2), T({I(3), S(4)})}).to_string(), "(_2,(3,_4))");
  EXPECT_EQ(T({I(4)}).to_string(), "(4)");
}

TEST(IntTuple, PrintsScaledBasesInPrintedOrder) {
  // `1@0@1` is E<1,0>: the path is kept in printed order (innermost first).
  EXPECT_EQ(IntTuple::basis(1, {0, 1}).to_string(), "1@0@1");
  EXPECT_EQ(IntTuple::basis(16, {0}, true).to_string(), "_16@0");
  // An empty path is a plain integer.
  EXPECT_TRUE(IntTuple::basis(5, {}).is_integer());
  EXPECT_THROW(IntTuple::basis(1, {-1}), Error);
}

TEST(IntTuple, StaticFlagIsPartOfEqualityButNotOfSameValues) {
  EXPECT_NE(S(8), I(8));
  EXPECT_TRUE(S(8).same_values(I(8)));
  EXPECT_TRUE(T({S(2), I(3)}).same_values(T({I(2), S(3)})));
  EXPECT_FALSE(T({S(2), I(3)}).same_values(T({I(2), S(4)})));
  EXPECT_FALSE(T({I(2)}).same_values(I(2)));  // (2) is a tuple, 2 a leaf
}

TEST(IntTuple, RankAndDepth) {
  // CuTe: rank of a non-tuple is 1; depth of a non-tuple is 0; depth(()) == 1.
  EXPECT_EQ(I(5).rank(), 1u);
  EXPECT_EQ(I(5).depth(), 0);
  EXPECT_EQ(IntTuple().rank(), 0u);
  EXPECT_EQ(IntTuple().depth(), 1);
  const IntTuple t = T({I(2), T({I(3), T({I(4), I(5)})})});
  EXPECT_EQ(t.rank(), 2u);
  EXPECT_EQ(t.depth(), 3);
  // get<0> of an integer is the integer itself; anything else is out of range.
  EXPECT_EQ(I(5)[0], I(5));
  EXPECT_THROW(I(5)[1], Error);
  EXPECT_THROW(t[2], Error);
  EXPECT_EQ(t[1][1][0], I(4));
}

TEST(IntTuple, AllStaticHasUnderscoreHasBasis) {
  EXPECT_TRUE(T({S(2), T({S(3)})}).all_static());
  EXPECT_FALSE(T({S(2), T({I(3)})}).all_static());
  EXPECT_TRUE(IntTuple().all_static());  // vacuous
  EXPECT_TRUE(T({I(1), T({IntTuple::underscore()})}).has_underscore());
  EXPECT_FALSE(T({I(1), I(2)}).has_underscore());
  EXPECT_TRUE(T({I(1), IntTuple::basis(1, {1})}).has_basis());
  EXPECT_FALSE(T({I(1), I(2)}).has_basis());
}

TEST(IntTuple, ValueOfNonLeafIsAnError) {
  EXPECT_THROW(T({I(1)}).value(), Error);
  EXPECT_THROW(IntTuple::underscore().value(), Error);
}

TEST(IntTuple, Congruence) {
  // Congruent = same tree profile; leaf values do not matter.
  EXPECT_TRUE(congruent(I(2), I(7)));
  EXPECT_TRUE(congruent(T({I(2), T({I(3), I(4)})}), T({I(1), T({I(5), I(6)})})));
  EXPECT_FALSE(congruent(T({I(2), T({I(3), I(4)})}), T({I(1), I(5), I(6)})));
  EXPECT_FALSE(congruent(I(2), T({I(2)})));
  EXPECT_FALSE(congruent(T({I(2), I(3)}), T({I(2)})));
  EXPECT_TRUE(congruent(IntTuple(), IntTuple()));
  EXPECT_FALSE(congruent(IntTuple(), I(1)));
}

TEST(IntTuple, WeakCongruence) {
  // weakly_congruent(a, b): a leaf of `a` may stand for a whole subtree of `b`; not conversely.
  EXPECT_TRUE(weakly_congruent(I(1), T({I(2), T({I(3), I(4)})})));
  EXPECT_TRUE(weakly_congruent(T({I(1), I(2)}), T({I(2), T({I(3), I(4)})})));
  EXPECT_FALSE(weakly_congruent(T({I(2), T({I(3), I(4)})}), T({I(1), I(2)})));
  EXPECT_FALSE(weakly_congruent(T({I(1), I(2)}), T({I(1), I(2), I(3)})));
  EXPECT_FALSE(weakly_congruent(T({I(1)}), I(1)));
}

TEST(IntTuple, ProductPropagatesStaticness) {
  // product((_2,(_3,_4))) = Int<24>; one dynamic leaf makes the product dynamic.
  EXPECT_EQ(product(T({S(2), T({S(3), S(4)})})), S(24));
  EXPECT_EQ(product(T({S(2), I(3)})), I(6));
  // product(()) is the empty product _1.
  EXPECT_EQ(product(IntTuple()), S(1));
  EXPECT_EQ(product(I(5)), I(5));
  EXPECT_EQ(product(S(5)), S(5));
}

TEST(IntTuple, ProductOverflowIsAnError) {
  // 2^32 * 2^32 = 2^64 does not fit in int64.
  const std::int64_t big = std::int64_t{1} << 32;
  EXPECT_THROW(product(T({I(big), I(big)})), Error);
  // 2^31 * 2^31 = 2^62 fits.
  const std::int64_t half = std::int64_t{1} << 31;
  EXPECT_EQ(product(T({I(half), I(half)})), I(std::int64_t{1} << 62));
}

TEST(IntTuple, ProductOfNonIntegersIsAnError) {
  EXPECT_THROW(product(T({I(2), IntTuple::underscore()})), Error);
  EXPECT_THROW(product(T({I(2), IntTuple::basis(1, {0})})), Error);
}

TEST(IntTuple, Flatten) {
  // flatten((1,(2,(3,4)),5)) = (1,2,3,4,5); flatten of a leaf is the leaf; empty tuples vanish.
  EXPECT_EQ(flatten(T({I(1), T({S(2), T({I(3), I(4)})}), I(5)})), T({I(1), S(2), I(3), I(4), I(5)}));
  EXPECT_EQ(flatten(I(7)), I(7));
  EXPECT_EQ(flatten(IntTuple()), IntTuple());
  EXPECT_EQ(flatten(T({IntTuple(), I(2)})), T({I(2)}));
  EXPECT_EQ(flatten(T({T({I(3)})})), T({I(3)}));
}

TEST(IntTuple, LeafArithmeticPropagatesStaticness) {
  EXPECT_EQ(leaf_mul(S(2), S(3)), S(6));
  EXPECT_EQ(leaf_mul(S(2), I(3)), I(6));
  EXPECT_EQ(leaf_add(S(2), S(3)), S(5));
  EXPECT_EQ(leaf_add(I(2), S(-3)), I(-1));
  EXPECT_THROW(leaf_mul(I(INT64_MAX), I(2)), Error);
  EXPECT_THROW(leaf_add(I(INT64_MAX), I(1)), Error);
  EXPECT_THROW(leaf_mul(T({I(1)}), I(2)), Error);
}

TEST(IntTuple, Wrap) {
  EXPECT_EQ(wrap(I(3)), T({I(3)}));
  EXPECT_EQ(wrap(T({I(3), I(4)})), T({I(3), I(4)}));
  EXPECT_EQ(wrap(IntTuple()), IntTuple());
}

// Tuples are immutable values whose copies share storage: rebuilding a copy from its
// elements never changes the original (nor the tuple the elements came from).
TEST(IntTuple, CopiesAreIndependentValues) {
  const IntTuple original = T({I(1), T({I(2), S(3)})});
  IntTuple copy = original;
  std::vector<IntTuple> e = copy.elements().to_vector();
  e[0] = I(7);
  copy = IntTuple::tuple(std::move(e));
  EXPECT_EQ(original.to_string(), "(1,(2,_3))");
  EXPECT_EQ(copy.to_string(), "(7,(2,_3))");
  IntTuple inner_copy = original[1];
  std::vector<IntTuple> inner = inner_copy.elements().to_vector();
  inner.push_back(I(4));
  inner_copy = IntTuple::tuple(std::move(inner));
  EXPECT_EQ(original.to_string(), "(1,(2,_3))");
  EXPECT_EQ(inner_copy.to_string(), "(2,_3,4)");
  EXPECT_EQ(copy[1].to_string(), "(2,_3)");
  // Tuples of more elements than the node free lists pool (8), and the empty tuple.
  std::vector<IntTuple> many;
  for (int i = 0; i < 20; ++i) many.push_back(I(i));
  const IntTuple big = IntTuple::tuple(many);
  EXPECT_EQ(big.rank(), 20u);
  EXPECT_EQ(big[19], I(19));
  EXPECT_EQ(IntTuple().to_string(), "()");
  EXPECT_TRUE(IntTuple().elements().empty());
}

// Assigning a tuple one of its own elements (by copy or move) must read the element before
// the tuple's old storage is released.
TEST(IntTuple, AssignFromOwnElement) {
  IntTuple t = T({T({I(1), I(2)}), I(3)});
  t = t[0];
  EXPECT_EQ(t.to_string(), "(1,2)");
  IntTuple u = T({T({I(4), T({S(5)})}), I(6)});
  u = u[0];  // u holds the only reference to its node: the element outlives the release
  EXPECT_EQ(u.to_string(), "(4,(_5))");
  IntTuple v = T({I(8)});
  const IntTuple& same = v;  // through a reference: clang warns on a literal `v = v`
  v = same;                   // self-assignment keeps the value
  EXPECT_EQ(v.to_string(), "(8)");
}

}  // namespace int_tuple_test
