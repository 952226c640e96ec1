// Unit tests of coalesce, filter_zeros and filter (coalesce.hpp). Expected values of the
// named cases are derived by hand from CuTe's definitions (layout.hpp): coalesce flattens,
// drops size-1 modes and merges adjacent modes (s0:d0, s1:d1) when d1 == s0 * d0; with a
// profile it coalesces each mode at the profile's leaves (modes past the profile are kept);
// filter_zeros gives every stride-0 mode the shape _1; filter = coalesce(filter_zeros(L)).
// The enumeration checks coalesce's post-conditions over every small layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "coalesce.hpp"
#include "coalesce_generic.hpp"
#include "layout_eval.hpp"
#include "coordinates.hpp"
#include "error.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace coalesce_test {

using namespace cuteref;

namespace {

IntTuple I(std::int64_t v) { return IntTuple::integer(v); }
IntTuple T(std::vector<IntTuple> e) { return IntTuple::tuple(std::move(e)); }
Layout L(const char* text) { return parse_layout(text); }
IntTuple C(const char* text) { return parse_int_tuple(text); }

}  // namespace

TEST(Coalesce, Whole) {
  // (2,(1,6)):(1,(6,2)) flattens to (2,1,6):(1,6,2); the 1 drops; 2*1 == 2 merges -> 12:1.
  EXPECT_EQ(coalesce(L("(2,(1,6)):(1,(6,2))")), L("12:1"));
  // Static everywhere: _12:_1 (CuTe prints exactly this).
  EXPECT_EQ(coalesce(L("(_2,(_1,_6)):(_1,(_6,_2))")).to_string(), "_12:_1");
  // (2,4):(4,1): 2*4 = 8 != 1, no merge (the order of modes is colexicographic).
  EXPECT_EQ(coalesce(L("(2,4):(4,1)")), L("(2,4):(4,1)"));
  // (2,4):(8,1): 16 != 1, no merge.
  EXPECT_EQ(coalesce(L("(2,4):(8,1)")), L("(2,4):(8,1)"));
  // (4,3):(1,4): 4*1 == 4 merges -> 12:1.
  EXPECT_EQ(coalesce(L("(4,3):(1,4)")), L("12:1"));
  // Size-1 modes drop even with a stride: (_2,_1):(_3,_7) -> _2:_3.
  EXPECT_EQ(coalesce(L("(_2,_1):(_3,_7)")).to_string(), "_2:_3");
  // All size 1: _1:_0.
  EXPECT_EQ(coalesce(L("(_1,_1):(_3,_7)")).to_string(), "_1:_0");
  // Broadcast modes merge too: (2,3):(0,0) -> 6:0 (0 == 2*0).
  EXPECT_EQ(coalesce(L("(2,3):(0,0)")), L("6:0"));
  // Negative strides: (2,2):(-1,-2): -2 == 2*-1 -> 4:-1.
  EXPECT_EQ(coalesce(L("(2,2):(-1,-2)")), L("4:-1"));
  // Scaled bases merge when the basis matches: (2,3):(1@0,2@0) -> 6:1@0; not across bases.
  EXPECT_EQ(coalesce(L("(2,3):(1@0,2@0)")).to_string(), "6:1@0");
  EXPECT_EQ(coalesce(L("(2,3):(1@0,2@1)")).to_string(), "(2,3):(1@0,2@1)");
}

TEST(Coalesce, ByModeWithProfile) {
  // Profile (_1,_1): each top-level mode coalesced on its own: (2,(1,6)) -> (2, 6:2).
  EXPECT_EQ(coalesce(L("(_2,(_1,_6)):(_1,(_6,_2))"), C("(_1,_1)")).to_string(), "(_2,_6):(_1,_2)");
  // Modes do not merge across the profile's boundary: (4,3):(1,4) stays 2-mode.
  EXPECT_EQ(coalesce(L("(4,3):(1,4)"), C("(1,1)")), L("(4,3):(1,4)"));
  // A leaf profile coalesces the whole layout.
  EXPECT_EQ(coalesce(L("(4,3):(1,4)"), C("1")), L("12:1"));
  // Modes past the profile's rank are kept as they are: profile (1) on rank 2.
  EXPECT_EQ(coalesce(L("((2,2),(3,1)):((1,2),(4,9))"), C("(1)")), L("(4,(3,1)):(1,(4,9))"));
  // Nested profile ((1,1),1): mode 0 coalesced per sub-mode, mode 1 whole.
  EXPECT_EQ(coalesce(L("(((2,1),2),(3,1)):(((1,5),2),(4,9))"), C("((1,1),1)")), L("((2,2),3):((1,2),4)"));
  // An all-size-1 mode becomes _1:_0 but keeps its place.
  EXPECT_EQ(coalesce(L("(4,(1,1)):(1,(3,5))"), C("(1,1)")).to_string(), "(4,_1):(1,_0)");
  EXPECT_THROW(coalesce(L("(4,3):(1,4)"), C("(1,1,1)")), Error);
}

TEST(FilterZeros, KeepsProfile) {
  // (4,3):(1,0): the stride-0 mode gets shape _1; rank stays 2.
  EXPECT_EQ(filter_zeros(L("(4,3):(1,0)")).to_string(), "(4,_1):(1,0)");
  EXPECT_EQ(filter_zeros(L("((2,3),4):((0,1),3)")).to_string(), "((_1,3),4):((0,1),3)");
  EXPECT_EQ(filter_zeros(L("(4,3):(1,4)")), L("(4,3):(1,4)"));
}

TEST(Filter, RemovesBroadcastAndUnitModes) {
  // (4,3):(1,0) -> (4,_1):(1,0) -> 4:1.
  EXPECT_EQ(filter(L("(4,3):(1,0)")), L("4:1"));
  // (_4,_3,_2):(_0,_1,_3) -> (_1,_3,_2):(_0,_1,_3) -> _3:_1 then _2:_3 merges (3*1 == 3) -> _6:_1.
  EXPECT_EQ(filter(L("(_4,_3,_2):(_0,_1,_3)")).to_string(), "_6:_1");
  // All broadcast: _1:_0.
  EXPECT_EQ(filter(L("(4,3):(0,0)")).to_string(), "_1:_0");
}

namespace {

// All small layouts: ranks 1..3 flat, plus the nested profiles ((a,b),c) and (a,(b,c)),
// shapes in {1,2,3,4}, strides in {0,1,2,3,4,6,8,-1,-2}.
std::vector<Layout> small_layouts() {
  const std::vector<std::int64_t> shapes{1, 2, 3, 4};
  const std::vector<std::int64_t> strides{0, 1, 2, 3, 4, 6, 8, -1, -2};
  std::vector<Layout> out;
  for (auto s0 : shapes)
    for (auto d0 : strides) {
      out.emplace_back(I(s0), I(d0));
      for (auto s1 : shapes)
        for (auto d1 : strides) {
          out.emplace_back(T({I(s0), I(s1)}), T({I(d0), I(d1)}));
          for (auto s2 : shapes)
            for (auto d2 : strides) {
              if (d2 < 0) continue;  // keeps the count moderate
              out.emplace_back(T({I(s0), I(s1), I(s2)}), T({I(d0), I(d1), I(d2)}));
              out.emplace_back(T({T({I(s0), I(s1)}), I(s2)}), T({T({I(d0), I(d1)}), I(d2)}));
              out.emplace_back(T({I(s0), T({I(s1), I(s2)})}), T({I(d0), T({I(d1), I(d2)})}));
            }
        }
    }
  return out;
}

}  // namespace

TEST(Coalesce, EnumerationOfPostConditions) {
  int layouts = 0;
  long points = 0;
  for (const Layout& l : small_layouts()) {
    const Layout c = coalesce(l);
    ++layouts;
    // Same size, depth <= 1.
    ASSERT_EQ(size_value(c), size_value(l)) << l.to_string() << " -> " << c.to_string();
    ASSERT_LE(depth(c), 1) << l.to_string() << " -> " << c.to_string();
    // Same function on the domain.
    for (std::int64_t i = 0; i < size_value(l); ++i, ++points)
      ASSERT_EQ(apply_index(c, i), apply_index(l, i)) << l.to_string() << " -> " << c.to_string() << " at " << i;
    // Idempotent.
    ASSERT_EQ(coalesce(c), c) << l.to_string() << " -> " << c.to_string();
    // Maximal: no size-1 mode (unless the result is the single _1:_0) and no mergeable pair.
    std::vector<IntTuple> s, d;
    flatten_into(c.shape(), s);
    flatten_into(c.stride(), d);
    if (s.size() == 1 && s[0].value() == 1) {
      ASSERT_EQ(c.to_string(), "_1:_0") << l.to_string();
      continue;
    }
    for (std::size_t k = 0; k < s.size(); ++k) ASSERT_GT(s[k].value(), 1) << l.to_string() << " -> " << c.to_string();
    for (std::size_t k = 0; k + 1 < s.size(); ++k)
      ASSERT_NE(d[k + 1].value(), s[k].value() * d[k].value()) << l.to_string() << " -> " << c.to_string();
  }
  std::printf("[coalesce] enumeration: %d layouts, %ld points checked\n", layouts, points);
  EXPECT_GT(layouts, 10000);
}

// A layout of more than kInlineLeaves (8) leaves has no inline form and takes coalesce's path
// over flat vectors (coalesce_flat_ints), not the form's. By hand:
// (2,3,1,4,2,2,2,2,2,2):(1,2,99,6,100,200,400,800,1600,3200): 2:1 and 3:2 merge (2*1 == 2)
// to 6:1; 1:99 drops; 4:6 merges (6*1 == 6) to 24:1; 2:100 starts a mode (24 != 100) and each
// 2:2^k*100 merges into it: 64:100.
TEST(Coalesce, PastTheInlineForm) {
  EXPECT_EQ(coalesce(L("(2,3,1,4,2,2,2,2,2,2):(1,2,99,6,100,200,400,800,1600,3200)")).to_string(), "(24,64):(1,100)");
  EXPECT_EQ(coalesce(L("(2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256)")).to_string(), "512:1");
  EXPECT_EQ(coalesce(L("(1,1,1,1,1,1,1,1,1):(3,3,3,3,3,3,3,3,3)")).to_string(), "_1:_0");
  // Every small layout of the enumeration, widened by nine dynamic size-1 modes (so the
  // whole has more than 8 leaves): the size-1 modes drop, so coalesce gives what it gives
  // on the small layout alone (its form's path), static flags included.
  int layouts = 0;
  for (const Layout& l : small_layouts()) {
    const Layout wide = cuteref::test::widened(l);
    ASSERT_EQ(wide.leaves(), nullptr) << wide.to_string();
    ASSERT_EQ(coalesce(wide), coalesce(l)) << wide.to_string();
    ++layouts;
  }
  std::printf("[coalesce] past the inline form: %d layouts checked against their forms' path\n", layouts);
  EXPECT_GT(layouts, 10000);
}

TEST(Filter, EnumerationPreservesTheImage) {
  // filter(L) has the same set of offsets as L, no stride-0 mode, and filter is idempotent.
  int layouts = 0;
  for (const Layout& l : small_layouts()) {
    const Layout f = filter(l);
    ++layouts;
    std::vector<std::int64_t> a, b;
    for (std::int64_t i = 0; i < size_value(l); ++i) a.push_back(apply_index(l, i));
    for (std::int64_t i = 0; i < size_value(f); ++i) b.push_back(apply_index(f, i));
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    std::vector<std::int64_t> b_sorted = b;
    std::sort(b_sorted.begin(), b_sorted.end());
    b_sorted.erase(std::unique(b_sorted.begin(), b_sorted.end()), b_sorted.end());
    ASSERT_EQ(a, b_sorted) << l.to_string() << " -> " << f.to_string();
    ASSERT_EQ(filter(f), f) << l.to_string() << " -> " << f.to_string();
  }
  std::printf("[filter] enumeration: %d layouts checked\n", layouts);
}

// The generic algorithm (coalesce_generic.hpp) on CheckedInt leaves, the instantiation that
// mirrors the proofs' symbolic one: for every flat layout of rank <= 3 with shapes 1..3 and
// strides -2..2, its result evaluates like the input at every index (enumeration) and has
// the same leaves as the model's coalesce.
TEST(Coalesce, GenericInstantiationOnCheckedInt) {
  using T = ScalarTuple<CheckedInt>;
  std::size_t checked = 0;
  for (int rank = 1; rank <= 3; ++rank) {
    std::vector<int> sh(rank, 1), st(rank, -2);
    for (;;) {
      std::vector<IntTuple> ls, ld;
      std::vector<T> gs, gd;
      for (int k = 0; k < rank; ++k) {
        ls.push_back(IntTuple::integer(sh[k]));
        ld.push_back(IntTuple::integer(st[k]));
        gs.push_back(T::of(sh[k]));
        gd.push_back(T::of(st[k]));
      }
      const Layout l(IntTuple::tuple(ls), IntTuple::tuple(ld));
      const auto [cs, cd] = coalesce_tree(T::tuple(gs), T::tuple(gd), ScalarCoalesceOps<CheckedInt>{});
      const Layout model = coalesce(l);
      ASSERT_EQ(tuple_product<CheckedInt>(cs).v, size_value(l)) << l.to_string();
      for (std::int64_t i = 0; i < size_value(l); ++i)
        ASSERT_EQ(crd2idx_index(CheckedInt(i), cs, cd).v, apply_index(l, i)) << l.to_string() << " at " << i;
      std::vector<T> leaves;
      flatten_leaves(cs, leaves);
      std::vector<IntTuple> model_leaves;
      flatten_into(model.shape(), model_leaves);
      ASSERT_EQ(leaves.size(), model_leaves.size()) << l.to_string();
      for (std::size_t k = 0; k < leaves.size(); ++k) ASSERT_EQ(leaves[k].leaf->v, model_leaves[k].value());
      ++checked;
      int k = 0;
      for (; k < rank; ++k) {
        if (st[k] < 2) { ++st[k]; break; }
        st[k] = -2;
      }
      if (k < rank) continue;
      for (k = 0; k < rank; ++k) {
        if (sh[k] < 3) { ++sh[k]; break; }
        sh[k] = 1;
      }
      if (k == rank) break;
    }
  }
  std::printf("[ coalesce ] generic instantiation: %zu layouts checked\n", checked);
  EXPECT_GT(checked, 0u);
}

}  // namespace coalesce_test
