// Unit tests of the syntax tree's storage (syntax.hpp, parser.hpp): the shape the parser gives a
// text (kinds, offsets, names, children in order), one tree reused for text after text (as a
// batch does), a tree moved, and a tree after a failed parse. Offsets are counted by hand in
// each input (written next to each case).
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <utility>

#include "error.hpp"
#include "function_table.hpp"
#include "parser.hpp"

using namespace cuteref;

namespace {

int g_checks = 0;

using K = Node::Kind;

// `n` is of `kind`, starts at `offset` and has `children` children.
void expect_node(const Node& n, K kind, std::size_t offset, std::size_t children, const std::string& what) {
  ++g_checks;
  EXPECT_EQ(n.kind, kind) << what;
  EXPECT_EQ(n.offset, offset) << what;
  EXPECT_EQ(n.children.size(), children) << what;
}

// coalesce((3,(2,5)):(1,(3,6)))
//   0       8 9        18 19       28
// "coalesce" 0-7, '(' 8, the shape (3,(2,5)) 9-17 with leaves at 10, 13, 15, ':' 18, the stride
// (1,(3,6)) 19-27 with leaves at 20, 23, 25, ')' 28.
void expect_coalesce_tree(const Node& root) {
  expect_node(root, K::Call, 0, 1, "the call");
  EXPECT_EQ(root.name, "coalesce");
  const Node& layout = root.children[0];
  expect_node(layout, K::Layout, 9, 2, "the layout");
  EXPECT_EQ(layout.colon, 18u);
  const Node& shape = layout.children[0];
  const Node& stride = layout.children[1];
  expect_node(shape, K::Literal, 9, 0, "the shape");
  expect_node(stride, K::Literal, 19, 0, "the stride");
  using T = IntTuple;
  EXPECT_EQ(shape.basis(), T::tuple({T::integer(3), T::tuple({T::integer(2), T::integer(5)})}));
  EXPECT_EQ(stride.basis(), T::tuple({T::integer(1), T::tuple({T::integer(3), T::integer(6)})}));
  ASSERT_EQ(shape.payload->leaf_offsets.size(), 3u);
  EXPECT_EQ(shape.payload->leaf_offsets[0], 10u);
  EXPECT_EQ(shape.payload->leaf_offsets[1], 13u);
  EXPECT_EQ(shape.payload->leaf_offsets[2], 15u);
  ASSERT_EQ(stride.payload->leaf_offsets.size(), 3u);
  EXPECT_EQ(stride.payload->leaf_offsets[0], 20u);
  EXPECT_EQ(stride.payload->leaf_offsets[1], 23u);
  EXPECT_EQ(stride.payload->leaf_offsets[2], 25u);
  g_checks += 10;
}

// 1 + 2*3 - (4) << x
// 0   4 6   10     17
// One chain of + and - (precedence 5) under the shift (precedence 4): 1 at 0, 2*3 at 4 (2 at 4,
// 3 at 6), the 1-tuple (4) at 10 (a literal), x at 17.
void expect_arithmetic_tree(const Node& root) {
  expect_node(root, K::Binary, 0, 2, "the shift");
  EXPECT_EQ(root.ops(), "L");
  const Node& sum = root.children[0];
  expect_node(sum, K::Binary, 0, 3, "the sum");
  EXPECT_EQ(sum.ops(), "+-");
  expect_node(sum.children[0], K::Integer, 0, 0, "1");
  EXPECT_EQ(sum.children[0].integer, 1);
  const Node& product = sum.children[1];
  expect_node(product, K::Binary, 4, 2, "2*3");
  EXPECT_EQ(product.ops(), "*");
  expect_node(product.children[0], K::Integer, 4, 0, "2");
  expect_node(product.children[1], K::Integer, 6, 0, "3");
  expect_node(sum.children[2], K::Literal, 10, 0, "(4)");
  const Node& x = root.children[1];
  expect_node(x, K::Word, 17, 0, "x");
  EXPECT_EQ(x.name, "x");
  EXPECT_TRUE(x.is_variable_word());
  g_checks += 6;
}

const char* const kCoalesce = "coalesce((3,(2,5)):(1,(3,6)))";
const char* const kArithmetic = "1 + 2*3 - (4) << x";

}  // namespace

TEST(SyntaxTree, ShapeOfACallOfALayoutLiteral) {
  const SyntaxTree tree = parse_text(kCoalesce, ParseMode::Expression, &standard_functions());
  expect_coalesce_tree(tree.root());
}

TEST(SyntaxTree, ShapeOfAnArithmeticChain) {
  const SyntaxTree tree = parse_text(kArithmetic, ParseMode::Expression, &standard_functions());
  expect_arithmetic_tree(tree.root());
}

TEST(SyntaxTree, NamesNotSpeltAsOnePieceOfTheText) {
  // A word's template arguments lose their blanks; a dotted PTX spelling stays one word.
  // (SM80_X <K, MN>, ld.shared.v4.b32)
  //  1              17
  const SyntaxTree tree = parse_text("(SM80_X <K, MN>, ld.shared.v4.b32)", ParseMode::Expression, &standard_functions());
  const Node& root = tree.root();
  expect_node(root, K::Tuple, 0, 2, "the tuple");
  expect_node(root.children[0], K::Word, 1, 0, "the atom");
  EXPECT_EQ(root.children[0].name, "SM80_X<K,MN>");
  expect_node(root.children[1], K::Word, 17, 0, "the instruction");
  EXPECT_EQ(root.children[1].name, "ld.shared.v4.b32");
  EXPECT_FALSE(root.children[1].is_variable_word());
  g_checks += 3;
}

TEST(SyntaxTree, OneTreeReusedTextAfterText) {
  SyntaxTree tree;
  parse_text(kArithmetic, ParseMode::Expression, &standard_functions(), tree);
  expect_arithmetic_tree(tree.root());
  parse_text(kCoalesce, ParseMode::Expression, &standard_functions(), tree);
  expect_coalesce_tree(tree.root());
  // A failed parse: '(' at 8 is never closed (the diagnostic names it, column 9).
  try {
    parse_text("coalesce((3,(2,5)):(1,(3,6))", ParseMode::Expression, &standard_functions(), tree);
    ADD_FAILURE() << "an unbalanced '(' parsed";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.column(), 9u) << e.what();
  }
  ++g_checks;
  parse_text(kArithmetic, ParseMode::Expression, &standard_functions(), tree);
  expect_arithmetic_tree(tree.root());
}

TEST(SyntaxTree, AMovedTreeKeepsItsNodes) {
  SyntaxTree first = parse_text(kCoalesce, ParseMode::Expression, &standard_functions());
  const Node root = first.root();  // a view: valid while the tree's storage lives
  SyntaxTree second = std::move(first);
  expect_coalesce_tree(second.root());
  expect_coalesce_tree(root);
  // The application of a layout written as a literal: children {layout, argument}; the
  // argument list's parentheses are not a tuple, the argument is the integer 3.
  // (4,8):(1,4)(3)
  // 0    5      12
  SyntaxTree third;
  third = parse_text("(4,8):(1,4)(3)", ParseMode::Expression, &standard_functions());
  expect_node(third.root(), K::Apply, 0, 2, "the application");
  expect_node(third.root().children[0], K::Layout, 0, 2, "the layout");
  EXPECT_EQ(third.root().children[0].colon, 5u);
  expect_node(third.root().children[1], K::Integer, 12, 0, "3");
  EXPECT_EQ(third.root().children[1].integer, 3);
  ++g_checks;
}

TEST(SyntaxTree, ReportsTheChecks) {
  std::cout << "[ syntax tree ] " << g_checks << " checks of tree shapes\n";
  EXPECT_GT(g_checks, 0);
}
