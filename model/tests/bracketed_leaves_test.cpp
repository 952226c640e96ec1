// Unit tests of a layout's inline form (bracketed_leaves.hpp), the trees built from it on
// demand (layout.hpp) and LayoutWriter (layout_writer.hpp).
//
// The oracle is the tree representation itself: every tree of a bounded enumeration (tuples
// of 0-3 elements, up to 5 leaves, nesting up to depth 3, plus hand-built wide and deep ones)
// goes to the form and back, and two trees must have equal forms exactly when the trees are
// equal (IntTuple's own ==, static flags included). Which trees have a form is decided by hand
// from the definition: integer leaves only, no empty tuple, at most kInlineLeaves leaves, and
// nesting at most kInlineDepth.
#include <gtest/gtest.h>

#include "test_support.hpp"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "bracketed_leaves.hpp"
#include "composition.hpp"
#include "layout.hpp"
#include "layout_writer.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace bracketed_leaves_test {

using namespace cuteref;
using namespace cuteref::test;

// A tree's structure with placeholder leaves (0); leaf values are given later in leaf order.
// All structures with at most `leaves` leaves, tuples of at most 3 elements, depth <= depth.
// With allow_empty false, no tuple is empty.
std::vector<IntTuple> structures(int leaves, int depth, bool allow_empty = true) {
  std::vector<IntTuple> out{I(0)};
  if (depth == 0) return out;
  const std::vector<IntTuple> sub = structures(leaves, depth - 1, allow_empty);
  std::function<void(std::vector<IntTuple>&, int)> extend = [&](std::vector<IntTuple>& elems, int used) {
    if (allow_empty || !elems.empty()) out.push_back(IntTuple::tuple(elems));
    if (elems.size() == 3) return;
    for (const IntTuple& s : sub) {
      int count = 0;
      std::function<void(const IntTuple&)> leaves_of = [&](const IntTuple& t) {
        if (t.is_tuple()) for (const auto& e : t.elements()) leaves_of(e);
        else ++count;
      };
      leaves_of(s);
      if (used + count > leaves) continue;
      elems.push_back(s);
      extend(elems, used + count);
      elems.pop_back();
    }
  };
  std::vector<IntTuple> elems;
  extend(elems, 0);
  return out;
}

// The structure with its leaves numbered: leaf k is value(k), static when is_static(k).
IntTuple numbered(const IntTuple& s, int& k, const std::function<std::int64_t(int)>& value,
                  const std::function<bool(int)>& is_static) {
  if (!s.is_tuple()) {
    const int i = k++;
    return IntTuple::integer(value(i), is_static(i));
  }
  std::vector<IntTuple> e;
  for (const auto& x : s.elements()) e.push_back(numbered(x, k, value, is_static));
  return IntTuple::tuple(std::move(e));
}

struct Counts {
  int leaves = 0;
  bool empty_tuple = false;
};
void count(const IntTuple& t, Counts& c) {
  if (!t.is_tuple()) {
    ++c.leaves;
    return;
  }
  if (t.elements().empty()) c.empty_tuple = true;
  for (const auto& e : t.elements()) count(e, c);
}

// A layout's events (open, leaf, close) written to a LayoutWriter.
void write_tree(const IntTuple& shape, const IntTuple& stride, LayoutWriter& w) {
  if (!shape.is_tuple()) {
    w.leaf(FlatInt::of(shape), FlatInt::of(stride));
    return;
  }
  w.open();
  for (std::size_t i = 0; i < shape.rank(); ++i) write_tree(shape[i], stride[i], w);
  w.close();
}

TEST(BracketedLeaves, RoundTripAndEqualityOverEnumeratedTrees) {
  const std::vector<IntTuple> all = structures(5, 3);
  ASSERT_GT(all.size(), 1000u);
  std::vector<IntTuple> shapes, strides;
  std::vector<BracketedLeaves> forms;
  long checked = 0, held = 0;
  for (const IntTuple& s : all) {
    int k = 0, j = 0;
    const IntTuple shape = numbered(s, k, [](int i) { return i + 2; }, [](int i) { return i % 2 == 0; });
    const IntTuple stride = numbered(s, j, [](int i) { return 3 * i - 4; }, [](int i) { return i % 3 == 1; });
    Counts c;
    count(shape, c);
    const bool expect_form = !c.empty_tuple && c.leaves >= 1 && c.leaves <= static_cast<int>(kInlineLeaves);
    BracketedLeaves b;
    ASSERT_EQ(bracketed_leaves_of(shape, stride, b), expect_form) << shape.to_string();
    ++checked;
    if (!expect_form) continue;
    ++held;
    IntTuple shape2, stride2;
    trees_of(b, shape2, stride2);
    ASSERT_EQ(shape2, shape) << shape.to_string();
    ASSERT_EQ(stride2, stride) << stride.to_string();
    // The layout made from the form alone builds the same trees, and equals the one made from them.
    const Layout from_trees(shape, stride);
    ASSERT_NE(from_trees.leaves(), nullptr);
    const Layout from_form = detail::LayoutFromValidParts::make_leaves([&](BracketedLeaves& f) noexcept { f = b; });
    EXPECT_EQ(from_form, from_trees);
    EXPECT_EQ(from_form.shape(), shape);
    EXPECT_EQ(from_form.stride(), stride);
    // The writer fed the tree's events makes the same layout.
    EXPECT_EQ(write_layout([&](LayoutWriter& w) { write_tree(shape, stride, w); }), from_trees);
    shapes.push_back(shape);
    strides.push_back(stride);
    forms.push_back(b);
  }
  // Equal forms exactly when equal trees: the numbered leaves differ only by structure here,
  // so every pair of distinct structures must give distinct forms.
  long pairs = 0;
  for (std::size_t i = 0; i < forms.size(); ++i)
    for (std::size_t j = 0; j < forms.size(); ++j) {
      const bool same_trees = shapes[i] == shapes[j] && strides[i] == strides[j];
      ASSERT_EQ(forms[i] == forms[j], same_trees) << shapes[i].to_string() << " vs " << shapes[j].to_string();
      ++pairs;
    }
  std::printf("[ checked ] %ld enumerated trees (%ld with a form) round-tripped; %ld pairs: equal forms iff equal trees\n",
              checked, held, pairs);
}

TEST(BracketedLeaves, EveryTreeUpToTheInlineBoundHasOneForm) {
  // Trees without empty tuples, up to kInlineLeaves leaves, depth 3: each has a form, goes
  // back to itself, and no two of them share a form (a form's bytes as a map key).
  const std::vector<IntTuple> all = structures(static_cast<int>(kInlineLeaves), 3, false);
  ASSERT_GT(all.size(), 19000u);
  std::map<std::string, std::size_t> seen;
  long checked = 0;
  for (std::size_t t = 0; t < all.size(); ++t) {
    int k = 0, j = 0;
    const IntTuple shape = numbered(all[t], k, [](int i) { return 7 - i; }, [](int i) { return i % 3 == 0; });
    const IntTuple stride = numbered(all[t], j, [](int i) { return i * i; }, [](int i) { return i % 2 == 1; });
    BracketedLeaves b;
    ASSERT_TRUE(bracketed_leaves_of(shape, stride, b)) << shape.to_string();
    IntTuple shape2, stride2;
    trees_of(b, shape2, stride2);
    ASSERT_EQ(shape2, shape);
    ASSERT_EQ(stride2, stride);
    std::string key(reinterpret_cast<const char*>(b.opens), b.n);
    key.append(reinterpret_cast<const char*>(b.closes), b.n);
    const auto [it, fresh] = seen.emplace(key, t);
    ASSERT_TRUE(fresh) << shape.to_string() << " and " << all[it->second].to_string() << " share a form";
    ++checked;
  }
  std::printf("[ checked ] %ld trees of 1-%zu leaves: one form each, distinct, round-tripped\n", checked, kInlineLeaves);
}

TEST(BracketedLeaves, StaticFlagsAndValuesAreCompared) {
  // Same structure and values, one static flag different: different forms, different layouts.
  const Layout a(T({S(2), I(3)}), T({S(1), I(2)}));
  const Layout b(T({I(2), I(3)}), T({S(1), I(2)}));
  const Layout c(T({S(2), I(3)}), T({S(1), S(2)}));
  const Layout d(T({S(2), I(3)}), T({S(1), I(4)}));
  ASSERT_NE(a.leaves(), nullptr);
  EXPECT_FALSE(a == b);
  EXPECT_FALSE(a == c);
  EXPECT_FALSE(a == d);
  EXPECT_TRUE(a == Layout(T({S(2), I(3)}), T({S(1), I(2)})));
  // A leaf layout and its 1-tuple are different trees: (4):(1) is not 4:1.
  EXPECT_FALSE(Layout(I(4), I(1)) == Layout(T({I(4)}), T({I(1)})));
  EXPECT_TRUE(Layout(I(4), I(1)).leaves()->is_leaf());
  EXPECT_FALSE(Layout(T({I(4)}), T({I(1)})).leaves()->is_leaf());
}

TEST(BracketedLeaves, LayoutsWithoutAFormKeepTheirTrees) {
  // A scaled-basis stride, an empty tuple, nine leaves, nesting seventeen deep.
  const Layout basis(T({I(4), I(3)}), T({IntTuple::basis(1, {0}), IntTuple::basis(1, {1})}));
  const Layout empty(T({I(2), T({})}), T({I(1), T({})}));
  std::vector<IntTuple> nine_s, nine_d;
  for (int i = 0; i < 9; ++i) {
    nine_s.push_back(I(2));
    nine_d.push_back(I(1 << i));
  }
  const Layout nine(IntTuple::tuple(nine_s), IntTuple::tuple(nine_d));
  IntTuple deep_s = I(2), deep_d = I(1);
  for (int i = 0; i < kInlineDepth + 1; ++i) {
    deep_s = T({deep_s});
    deep_d = T({deep_d});
  }
  const Layout deep(deep_s, deep_d);
  IntTuple ok_s = I(2), ok_d = I(1);
  for (int i = 0; i < kInlineDepth; ++i) {
    ok_s = T({ok_s});
    ok_d = T({ok_d});
  }
  const Layout deepest_held(ok_s, ok_d);
  int checked = 0;
  for (const Layout* l : {&basis, &empty, &nine, &deep}) {
    EXPECT_EQ(l->leaves(), nullptr) << l->to_string();
    EXPECT_EQ(Layout(*l), *l);
    ++checked;
  }
  ASSERT_NE(deepest_held.leaves(), nullptr);
  EXPECT_EQ(deepest_held.shape(), ok_s);
  // The writer past the inline bounds builds the trees: nine leaves, seventeen deep.
  for (const Layout* l : {&nine, &deep, &deepest_held}) {
    const Layout written = write_layout([&](LayoutWriter& w) { write_tree(l->shape(), l->stride(), w); });
    EXPECT_EQ(written, *l) << l->to_string();
    EXPECT_EQ(written.shape(), l->shape());
    EXPECT_EQ(written.leaves() == nullptr, l->leaves() == nullptr);
    ++checked;
  }
  std::printf("[ checked ] %d layouts at and past the inline bounds\n", checked);
}

TEST(BracketedLeaves, WriterCopiesAFormAsItsEvents) {
  // LayoutWriter::form(b) against the tree's own events (write_tree): after p pending
  // opens, after a leaf or not, inside the inline bounds (the one-pass copy) and past them
  // (nine leaves, seventeen deep: the event path, spilling). Every result is also compared
  // with the layout made from its trees by hand.
  const std::vector<IntTuple> all = structures(4, 3, false);
  ASSERT_GT(all.size(), 100u);
  std::vector<Layout> operands;
  for (const IntTuple& s : all) {
    int k = 0, j = 0;
    operands.emplace_back(numbered(s, k, [](int i) { return i + 2; }, [](int i) { return i % 2 == 0; }),
                          numbered(s, j, [](int i) { return 5 * i + 1; }, [](int i) { return i % 3 == 2; }));
  }
  IntTuple deep_s = I(3), deep_d = I(2);
  for (int i = 0; i < kInlineDepth - 1; ++i) {  // fifteen deep: held as a form
    deep_s = T({deep_s});
    deep_d = T({deep_d});
  }
  operands.emplace_back(deep_s, deep_d);
  std::vector<IntTuple> eight_s, eight_d;
  for (int i = 0; i < 8; ++i) {
    eight_s.push_back(I(2));
    eight_d.push_back(I(1 << i));
  }
  operands.emplace_back(IntTuple::tuple(eight_s), IntTuple::tuple(eight_d));
  long checked = 0, spilled = 0;
  for (const Layout& m : operands) {
    ASSERT_NE(m.leaves(), nullptr) << m.to_string();
    for (int pending = 0; pending <= 2; ++pending)
      for (bool leaf_before : {false, true}) {
        const auto write = [&](bool as_form) {
          return write_layout([&](LayoutWriter& w) {
            w.open();
            if (leaf_before) w.leaf({7, true}, {0, false});
            for (int k = 0; k < pending; ++k) w.open();
            if (as_form) w.form(*m.leaves());
            else write_tree(m.shape(), m.stride(), w);
            for (int k = 0; k < pending; ++k) w.close();
            w.close();
          });
        };
        IntTuple s = m.shape(), d = m.stride();
        for (int k = 0; k < pending; ++k) {
          s = T({s});
          d = T({d});
        }
        const Layout by_hand = leaf_before ? Layout(T({IntTuple::static_int(7), s}), T({I(0), d})) : Layout(T({s}), T({d}));
        const Layout from_form = write(true);
        EXPECT_EQ(from_form, write(false)) << m.to_string() << " pending " << pending;
        EXPECT_EQ(from_form, by_hand) << m.to_string() << " pending " << pending;
        EXPECT_EQ(from_form.shape(), by_hand.shape());
        EXPECT_EQ(from_form.leaves() == nullptr, by_hand.leaves() == nullptr) << by_hand.to_string();
        spilled += from_form.leaves() == nullptr;
        ++checked;
      }
  }
  // make_layout_from_modes of two forms (LayoutWriter::form twice): the pair made from the
  // trees by hand, in and past the inline bounds (the eight-leaf and the deep operand).
  for (const Layout& m0 : operands)
    for (const Layout* m1 : {&operands.front(), &operands[operands.size() - 2], &operands.back()}) {
      const Layout by_hand(T({m0.shape(), m1->shape()}), T({m0.stride(), m1->stride()}));
      const Layout pair = make_layout_from_modes(m0, Layout(*m1));
      EXPECT_EQ(pair, by_hand) << m0.to_string() << " and " << m1->to_string();
      EXPECT_EQ(pair.shape(), by_hand.shape());
      EXPECT_EQ(pair.leaves() == nullptr, by_hand.leaves() == nullptr) << by_hand.to_string();
      spilled += pair.leaves() == nullptr;
      ++checked;
    }
  EXPECT_GT(spilled, 0);
  std::printf("[ checked ] %ld forms written after pending opens and leaves, and pairs of forms (%ld past the "
              "inline bounds)\n", checked, spilled);
}

TEST(BracketedLeaves, WriterRefusesAnEmptyTuple) {
  expect_error([] { write_layout([](LayoutWriter& w) {
                   w.open();
                   w.close();
                 }); },
               "without a leaf");
  expect_error([] { write_layout([](LayoutWriter& w) {
                   w.leaf({2, false}, {1, false});
                   w.open();
                   w.close();
                 }); },
               "without a leaf");
}

TEST(BracketedLeaves, TreesBuiltOnDemandSurviveCopiesMovesAndThreads) {
  // A result of the algebra holds only its form: composition((4,8):(8,1), (2,(2,2)):(1,(4,8))),
  // by hand: A is the column-major-by-rows layout with A(i) = 8*(i%4) + i/4 (32 entries);
  // B's leaves 2:1, 2:4, 2:8 each land in one mode of A's coalesced modes.
  const Layout r = composition(L("(4,8):(8,1)"), L("(2,(2,2)):(1,(4,8))"));
  const Layout expected = L("(2,(2,2)):(8,(1,2))");
  ASSERT_NE(r.leaves(), nullptr);
  // Copies and moves before the trees exist.
  Layout copy = r;
  Layout moved = std::move(copy);
  EXPECT_EQ(moved, expected);
  // Eight threads ask for the trees at once: each must read the whole trees (a thread that
  // returned before they were built would read () or a part).
  const Layout shared = composition(L("(4,8):(8,1)"), L("(2,(2,2)):(1,(4,8))"));
  ASSERT_NE(shared.leaves(), nullptr);
  std::vector<IntTuple> seen_shapes(8), seen_strides(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      seen_shapes[t] = shared.shape();
      seen_strides[t] = shared.stride();
    });
  for (auto& t : threads) t.join();
  for (int t = 0; t < 8; ++t) {
    EXPECT_EQ(seen_shapes[t], expected.shape());
    EXPECT_EQ(seen_strides[t], expected.stride());
  }
  EXPECT_EQ(shared.shape().to_string(), "(2,(2,2))");
  EXPECT_EQ(shared.stride(), expected.stride());
  // Copies and moves after: the trees come along; a moved-from layout with a form rebuilds them.
  Layout after = shared;
  EXPECT_EQ(after.shape(), expected.shape());
  Layout source = shared;
  Layout target = std::move(source);
  EXPECT_EQ(target.stride(), expected.stride());
  EXPECT_EQ(source.shape(), expected.shape());  // NOLINT(bugprone-use-after-move): valid, rebuilt
  Layout assigned = L("8:1");
  assigned = target;
  EXPECT_EQ(assigned, expected);
  assigned = L("(2,3):(3,1)");
  EXPECT_EQ(assigned.to_string(), "(2,3):(3,1)");
}

}  // namespace bracketed_leaves_test
