// Regression tests of issue 17 (hostile input) at the model's level: each input once crashed,
// hung or was silently accepted; each now ends in the diagnostic named here (the key words
// of its message) or in a correct answer derived by hand in the comment.
#include <gtest/gtest.h>

#include <string>

#include "descriptor.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "test_support.hpp"

using namespace cuteref;
using cuteref::test::expect_error;

namespace {

std::string eval(const std::string& expr) {
  return parse_and_evaluate(expr, &standard_functions()).to_string();
}

void expect_eval_error(const std::string& expr, const std::string& needle) {
  SCOPED_TRACE(expr);
  expect_error([&] { eval(expr); }, needle);
}

}  // namespace

// idx2crd / crd2idx divided by a zero or negative extent (SIGFPE; INT64_MIN / -1 too). A
// shape outside a layout literal now passes the same check as a layout's shape.
TEST(Hardening, ShapesOutsideLayoutsArePositiveIntegers) {
  const std::string bad = "which is not positive", not_int = "which is not an integer";
  expect_eval_error("idx2crd(5, (0,4))", "idx2crd: shape (0,4) has the leaf 0, " + bad);
  expect_eval_error("crd2idx(5, (0,4), (1,1))", "crd2idx: shape (0,4) has the leaf 0, " + bad);
  expect_eval_error("crd2idx(5, (0,4))", "crd2idx: shape (0,4) has the leaf 0, " + bad);
  expect_eval_error("idx2crd(-9223372036854775808, (-1,4))", "idx2crd: shape (-1,4) has the leaf -1, " + bad);
  // Leaf shapes too: crd2idx(5, 0, 1) was 5, idx2crd(5, -3) was 5.
  expect_eval_error("crd2idx(5, 0, 1)", "crd2idx: shape 0 has the leaf 0, " + bad);
  expect_eval_error("idx2crd(5, -3)", "idx2crd: shape -3 has the leaf -3, " + bad);
  // `_` is no extent: idx2crd(3, (2,_)) was (1,1).
  expect_eval_error("idx2crd(3, (2,_))", "idx2crd: shape (2,_) has the leaf _, " + not_int);
  // size((0,4)) was 0, size((-1,4)) was -4; make_basis_like((0,-3)) was (_1@0,_1@1).
  expect_eval_error("size((0,4))", "size: shape (0,4) has the leaf 0, " + bad);
  expect_eval_error("size((-1,4))", "size: shape (-1,4) has the leaf -1, " + bad);
  expect_eval_error("make_basis_like((0,-3))", "make_basis_like: shape (0,-3) has the leaf 0, " + bad);
  // Basis-valued shapes (a stride tree used as a shape) name the basis leaf.
  expect_eval_error("size(stride((2,2):(1@0,1@1)))", "size: shape (1@0,1@1) has the leaf 1@0, " + not_int);
  expect_eval_error("idx2crd(3, stride((2,2):(1@0,1@1)))", "idx2crd: shape (1@0,1@1) has the leaf 1@0, " + not_int);
  expect_eval_error("make_basis_like(stride((2,2):(1@0,1@1)))", "make_basis_like: shape (1@0,1@1) has the leaf 1@0");
  expect_eval_error("crd2idx((1,1), stride((2,2):(1@0,1@1)))", "crd2idx: shape (1@0,1@1) has the leaf 1@0");
  // A stride that does not fit the shape: crd2idx(1, (2,2), (1)).
  expect_eval_error("crd2idx(1, (2,2), (1))", "crd2idx: stride (1) is not congruent with shape (2,2)");
  // Valid shapes still answer (by hand: 5 = 1 + 2*2 in (2,4) is (1,2); (1,2) in (2,4):(1,2)
  // is 1*1 + 2*2 = 5; () has size 1, as CuTe's product of nothing).
  EXPECT_EQ(eval("idx2crd(5, (2,4))"), "(1,2)");
  EXPECT_EQ(eval("crd2idx((1,2), (2,4), (1,2))"), "5");
  EXPECT_EQ(eval("size(())"), "_1");
  EXPECT_EQ(eval("make_basis_like((2,3))"), "(_1@0,_1@1)");
}

// A scaled basis with 10,000 indices overflowed the stack (composition's profile, evaluation,
// printing recurse once per index). At most kMaxBasisIndices = 256 indices, as the descriptor
// grammar's depth; the parser names the column of the first '@' beyond the bound.
TEST(Hardening, ScaledBasisIndicesAreBounded) {
  std::string at256, at10000;
  for (int i = 0; i < 256; ++i) at256 += "@0";
  for (int i = 0; i < 10000; ++i) at10000 += "@0";
  // "composition(8:1, 4:1" is 20 bytes; 256 "@0" take columns 21..532, the 257th '@' is 533.
  expect_eval_error("composition(8:1, 4:1" + at10000 + ")", "column 533: a scaled basis with more than 256 indices");
  expect_eval_error("coalesce(4:1" + at10000 + ")", "a scaled basis with more than 256 indices");
  // 256 indices are fine: a one-mode layout coalesces to itself.
  EXPECT_EQ(eval("coalesce(4:1" + at256 + ")"), "4:1" + at256);
  // The bound is the IntTuple's: a basis built by a function (not the parser) is held to it.
  expect_error([] { IntTuple::basis(1, std::vector<int>(257, 0)); }, "257 indices, more than the limit of 256");
  EXPECT_EQ(IntTuple::basis(1, std::vector<int>(256, 0)).basis_path().size(), 256u);
}

// A 50 MB line allocated until std::bad_alloc. One expression is at most 1 MiB of text.
TEST(Hardening, ExpressionTextIsBounded) {
  const std::string big = "(" + std::string(std::size_t{1} << 20, ' ') + "1)";
  expect_eval_error(big, "column 1048577: the expression is 1048579 bytes, longer than the limit of 1048576 bytes");
  expect_error([&] { parse_descriptor(big); }, "longer than the limit of 1048576 bytes");
  // Just under the bound it is parsed: 1 MiB of blanks around 1 is the integer 1.
  EXPECT_EQ(eval(std::string((std::size_t{1} << 20) - 1, ' ') + "1"), "1");
}
