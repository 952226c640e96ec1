// Regression tests of issue 17 (hostile input) at the model's level: each input once crashed,
// hung or was silently accepted; each now ends in the diagnostic named here (the key words
// of its message) or in a correct answer derived by hand in the comment.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "coalesce.hpp"
#include "composition_swizzle.hpp"
#include "coordinates.hpp"
#include "descriptor.hpp"
#include "diagnostic_text.hpp"
#include "enumeration_budget.hpp"
#include "function_table.hpp"
#include "mode_comparison.hpp"
#include "notation.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace hardening_test {

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
  std::string big = "(";  // appended: "(" + string&& trips GCC 12's bogus -Wrestrict (GCC bug 105651)
  big += std::string(std::size_t{1} << 20, ' ') + "1)";
  expect_eval_error(big, "column 1048577: the expression is 1048579 bytes, longer than the limit of 1048576 bytes");
  expect_error([&] { parse_descriptor(big); }, "longer than the limit of 1048576 bytes");
  // Just under the bound it is parsed: 1 MiB of blanks around 1 is the integer 1.
  EXPECT_EQ(eval(std::string((std::size_t{1} << 20) - 1, ' ') + "1"), "1");
}

// compare_by_modes against enumeration (the definition: equal size and equal value at every
// index) over a universe of small layouts: flat, rank 1..3, extents 1..4, strides -1..4, and
// pairs of equal size, among them each layout against its own coalesced form (equal by
// coalesce's post-condition) and a re-grouping with one mode split in two. Each decided answer
// must be the enumeration's, the first difference its first differing index.
TEST(Hardening, ModeComparisonAgreesWithEnumeration) {
  std::vector<Layout> universe;
  const std::int64_t extents[] = {1, 2, 3, 4}, strides[] = {-1, 0, 1, 2, 3, 4};
  for (int r = 1; r <= 3; ++r) {
    std::vector<std::size_t> se(r, 0), st(r, 0);
    for (;;) {
      std::vector<IntTuple> sh, sd;
      for (int k = 0; k < r; ++k) sh.push_back(IntTuple::integer(extents[se[k]])), sd.push_back(IntTuple::integer(strides[st[k]]));
      universe.emplace_back(IntTuple::tuple(sh), IntTuple::tuple(sd));
      int k = 0;
      for (; k < r; ++k) {
        if (++st[k] < std::size(strides)) break;
        st[k] = 0;
        if (++se[k] < std::size(extents)) break;
        se[k] = 0;
      }
      if (k == r) break;
    }
  }
  std::map<std::int64_t, std::vector<std::size_t>> by_size;
  for (std::size_t i = 0; i < universe.size(); ++i) by_size[size_value(universe[i])].push_back(i);
  std::size_t decided = 0, equal = 0, undecided = 0;
  auto check = [&](const Layout& a, const Layout& b) {
    const ModeComparison c = compare_by_modes(a, b);
    std::int64_t first = -1;
    for (std::int64_t i = 0; i < size_value(a) && first < 0; ++i)
      if (apply_index(a, i) != apply_index(b, i)) first = i;
    if (c.result == ModeComparison::Result::Undecided) {
      ++undecided;
      return;
    }
    ++decided;
    if (first < 0) ++equal;
    ASSERT_EQ(c.result == ModeComparison::Result::Equal, first < 0) << a.to_string() << " vs " << b.to_string();
    if (first >= 0) {
      ASSERT_EQ(c.first_difference, first) << a.to_string() << " vs " << b.to_string();
    }
  };
  std::uint64_t seed = 12345;
  auto next = [&](std::size_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::size_t>((seed >> 33) % n);
  };
  for (const Layout& a : universe) {
    check(a, coalesce(a));
    // Split the first mode of extent 4 into (2,2) with strides (d, 2d): the same function.
    std::vector<IntTuple> sh, sd;
    bool split = false;
    for (std::size_t k = 0; k < rank(a); ++k) {
      const std::int64_t s = a.shape()[k].value(), d = a.stride()[k].value();
      if (!split && s == 4) {
        sh.push_back(IntTuple::tuple({IntTuple::integer(2), IntTuple::integer(2)}));
        sd.push_back(IntTuple::tuple({IntTuple::integer(d), IntTuple::integer(2 * d)}));
        split = true;
      } else {
        sh.push_back(IntTuple::integer(s));
        sd.push_back(IntTuple::integer(d));
      }
    }
    if (split) check(a, Layout(IntTuple::tuple(sh), IntTuple::tuple(sd)));
    const auto& same = by_size[size_value(a)];
    for (int t = 0; t < 20; ++t) check(a, universe[same[next(same.size())]]);
  }
  std::printf("[ checked ] %zu layouts, %zu pairs decided by modes (%zu equal), %zu undecided (modes not lined up)\n",
              universe.size(), decided, equal, undecided);
  EXPECT_GT(decided, 100000u);
  EXPECT_GT(equal, 10000u);
  EXPECT_GT(undecided, 0u);
}

// `==` on 2^26-element layouts enumerated for ~50 s. Layouts with integer strides are compared
// by their modes at any size; the rest enumerate at most 2^22 indices, then name the bound.
TEST(Hardening, EqualityIsBounded) {
  // (8192,8192):(1,8192) is the identity on [0, 2^26): equal to 67108864:1. The transposed
  // (8192,8192):(8192,1) maps 1 to 8192, so index 1 is the first difference.
  EXPECT_EQ(eval("(8192,8192):(1,8192) == 67108864:1"), "true");
  EXPECT_EQ(eval("(8192,8192):(8192,1) == 67108864:1"), "false: at index 1: left gives 8192, right gives 1");
  // Modes 2 and 3 do not line up: enumerated (6 indices): (2,3):(3,1) maps 1 -> 3, (3,2):(2,1)
  // maps 1 -> 2.
  EXPECT_EQ(eval("(2,3):(3,1) == (3,2):(2,1)"), "false: at index 1: left gives 3, right gives 2");
  // Composed layouts with the same swizzle and offset are compared by their inner layouts (a
  // swizzle is a bijection), at any size; with different swizzles they are enumerated.
  EXPECT_EQ(eval("Sw<3,4,3> o (8192,8192):(1,8192) == Sw<3,4,3> o 67108864:1"), "true");
  expect_eval_error("Sw<3,4,3> o (8192,8192):(1,8192) == Sw<2,4,3> o 67108864:1",
                    "==: size 67108864 is more than the 4194304 indices compared one by one");
  // 8192 and 8193 do not divide each other, and these do not coalesce.
  expect_eval_error("(8192,8193):(2,1) == (8193,8192):(2,1)", "more than the 4194304 indices compared one by one");
  // Values that overflow int64 are still reported as enumeration reports them.
  expect_eval_error("(2,2):(4611686018427387904,4611686018427387904) == (2,2):(4611686018427387904,4611686018427387904)",
                    "arithmetic overflow");
}

// tile_to_shape was quadratic in the target's rank (the block was padded one mode at a time),
// as are other algorithms in some rank (make_ordered_layout, composition's modes against
// modes, coordinates of scaled bases). A tuple has at most 4,096 elements; tile_to_shape pads
// in one step.
TEST(Hardening, TupleRankIsBounded) {
  auto ones = [](int n) {
    std::string s = "(";
    for (int i = 0; i < n; ++i) s += i ? ",1" : "1";
    return s + ")";
  };
  const std::string over = "a tuple of 5000 elements, more than the limit of 4096";
  expect_eval_error("tile_to_shape(1:1, " + ones(5000) + ")", over);
  expect_eval_error("make_ordered_layout(" + ones(5000) + ", " + ones(5000) + ")", over);
  expect_eval_error("size(" + ones(5000) + ")", over);
  // Mixed tuples (tilers) too: 5,000 layouts.
  std::string tiler = "(";
  for (int i = 0; i < 5000; ++i) tiler += i ? ",1:1" : "1:1";
  expect_eval_error("logical_divide(1:1, " + tiler + "))", over);
  // Flattening a nested shape builds a tuple of all its leaves: 2 x 4,000 leaves.
  expect_eval_error("flatten((" + ones(4000) + "," + ones(4000) + "))", "a tuple of 8000 elements");
  // At the bound: tile_to_shape(1:1, (1,...,1)) has the target's rank, 4,096 (by definition:
  // one mode per target mode), and size 1 (dynamic: the target's leaves are).
  EXPECT_EQ(eval("rank(tile_to_shape(1:1, " + ones(4096) + "))"), "_4096");
  EXPECT_EQ(eval("size(tile_to_shape(1:1, " + ones(4096) + "))"), "1");
}

namespace {
// The definition of crd2idx with scaled-basis strides, materialized term by term (the model's
// previous evaluation): each term's value is built as a whole (v@d is a (d+1)-tuple) and
// added to the running sum by the rules of arithmetic tuples.
IntTuple reference_basis_value(std::int64_t v, bool st, const std::vector<int>& path) {
  IntTuple t = IntTuple::integer(v, st);
  for (int d : path) {
    std::vector<IntTuple> e(static_cast<std::size_t>(d) + 1, IntTuple::static_int(0));
    e[static_cast<std::size_t>(d)] = t;
    t = IntTuple::tuple(std::move(e));
  }
  return t;
}
IntTuple reference_add(const IntTuple& a, const IntTuple& b) {
  if (a.is_integer() && b.is_integer()) return leaf_add(a, b);
  if (a.is_integer() && a.value() == 0) return b;
  if (b.is_integer() && b.value() == 0) return a;
  if (a.is_integer() || b.is_integer()) throw Error("mixed");
  std::vector<IntTuple> r;
  for (std::size_t i = 0; i < std::max(a.rank(), b.rank()); ++i)
    r.push_back(i >= a.rank() ? b[i] : i >= b.rank() ? a[i] : reference_add(a[i], b[i]));
  return IntTuple::tuple(std::move(r));
}
IntTuple reference_crd2idx(std::int64_t index, const IntTuple& shape, const IntTuple& stride) {
  if (!shape.is_tuple()) {
    // (Static flags are not compared: same_values below.)
    const std::int64_t v = index * stride.value();
    return stride.is_basis() ? reference_basis_value(v, false, stride.basis_path()) : IntTuple::integer(v);
  }
  IntTuple sum = IntTuple::static_int(0);
  for (std::size_t i = 0; i < shape.rank(); ++i) {
    const std::int64_t m = product(shape[i]).value();
    const std::int64_t digit = i + 1 < shape.rank() ? index % m : index;
    sum = reference_add(sum, reference_crd2idx(digit, shape[i], stride[i]));
    index /= m;
  }
  return sum;
}
}  // namespace

// Evaluating scaled-basis strides built every term's padded value and re-added the whole sum
// per term: make_identity_layout of 120 modes of 4,096 leaves took 15 s at one index. Now the
// sum is built in place; the answers are the definition's (above) on random small layouts
// with scaled-basis strides (nested, mixed static/dynamic, zero and negative counts), every
// index; mixed integer/basis strides fail where the definition fails.
TEST(Hardening, ScaledBasisEvaluationIsTheDefinition) {
  std::uint64_t seed = 77;
  auto rnd = [&](std::uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::int64_t>((seed >> 33) % n);
  };
  std::size_t values = 0, errors = 0;
  for (int rep = 0; rep < 400; ++rep) {
    std::vector<IntTuple> sh, sd;
    const int r = 1 + static_cast<int>(rnd(4));
    for (int k = 0; k < r; ++k) {
      auto leaf_stride = [&] {
        if (rnd(8) == 0) return IntTuple::integer(rnd(3));  // an integer stride among bases
        std::vector<int> path;
        for (int p = 0, n = 1 + static_cast<int>(rnd(3)); p < n; ++p) path.push_back(static_cast<int>(rnd(4)));
        return IntTuple::basis(rnd(5) - 1, path, rnd(2) == 0);
      };
      if (rnd(3) == 0) {
        sh.push_back(IntTuple::tuple({IntTuple::integer(1 + rnd(3)), IntTuple::integer(1 + rnd(3))}));
        sd.push_back(IntTuple::tuple({leaf_stride(), leaf_stride()}));
      } else {
        sh.push_back(IntTuple::integer(1 + rnd(4)));
        sd.push_back(leaf_stride());
      }
    }
    const Layout l(IntTuple::tuple(sh), IntTuple::tuple(sd));
    for (std::int64_t i = 0; i < size_value(l); ++i) {
      std::optional<IntTuple> want;
      try {
        want = reference_crd2idx(i, l.shape(), l.stride());
      } catch (const Error&) {
      }
      try {
        const IntTuple got = apply(l, IntTuple::integer(i));
        ASSERT_TRUE(want.has_value()) << l.to_string() << " at " << i << " gave " << got.to_string();
        ASSERT_TRUE(got.same_values(*want)) << l.to_string() << " at " << i << ": " << got.to_string() << " vs "
                                            << want->to_string();
        ++values;
      } catch (const Error& e) {
        ASSERT_FALSE(want.has_value()) << l.to_string() << " at " << i << ": " << e.what();
        ++errors;
      }
    }
  }
  std::printf("[ checked ] %zu values of scaled-basis layouts against the definition, %zu failing alike\n", values,
              errors);
  EXPECT_GT(values, 2000u);
  EXPECT_GT(errors, 50u);
  // The slow case: 120 modes of (1,...,1,2) (4,096 leaves each). Index 1 is the coordinate with
  // a 1 at the last leaf of the first mode: idx2crd(1, shape), as for any identity layout.
  std::string group = "(";
  for (int i = 0; i < 4095; ++i) group += "1,";
  group += "2)";
  std::string shape = "(";
  for (int i = 0; i < 120; ++i) shape += (i ? "," : "") + group;
  shape += ")";
  const Value got = parse_and_evaluate("make_identity_layout(" + shape + ")(1)", &standard_functions());
  const Value want = parse_and_evaluate("idx2crd(1, " + shape + ")", &standard_functions());
  ASSERT_TRUE(got.is_int_tuple() && want.is_int_tuple());
  EXPECT_TRUE(std::get<IntTuple>(got.data).same_values(std::get<IntTuple>(want.data)));
}

// smem_ptr[16b](...) accepted any text up to ')'. CuTe prints its unset pointer flag, the only
// pointer that stands as a composed layout's offset, as exactly smem_ptr[Nb](unset)
// (cute/pointer_flagged.hpp); anything else is refused at its first differing column.
TEST(Hardening, SmemPointerIsTheVendorsFlag) {
  const std::string prefix = "Sw<3,4,3> o smem_ptr[16b](";  // '(' is column 26
  expect_eval_error(prefix + "hello) o (8,64):(64,1)", "column 27: expected 'u' of smem_ptr[16b](unset)");
  expect_eval_error(prefix + "0x7f00) o (8,64):(64,1)", "column 27: expected 'u'");
  expect_eval_error(prefix + " unset) o (8,64):(64,1)", "column 27: expected 'u'");
  expect_eval_error(prefix + "unse) o (8,64):(64,1)", "column 31: expected 't'");
  expect_eval_error(prefix + "unset o (8,64):(64,1)", "column 32: expected ')'");
  expect_eval_error(prefix + "unse", "column 26: unbalanced '(' in smem_ptr token");
  EXPECT_EQ(eval(prefix + "unset) o (8,64):(64,1)"), "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)");
}

// One line could call element-by-element operations (each bounded at 2^22 elements) thousands
// of times: 100 calls of composition(2^22:1, Sw<3,4,3>) in a 4 KB line took 5.7 s. One
// expression may enumerate 2^24 elements in all: four such checks, and the fifth call, at its
// column, is refused.
TEST(Hardening, EnumerationIsBoundedPerExpression) {
  const std::string call = "size(composition(4194304:1, Sw<3,4,3>))";
  EXPECT_EQ(eval("(" + call + "," + call + "," + call + "," + call + ")"), "(4194304,4194304,4194304,4194304)");
  const std::string five = "(" + call + "," + call + "," + call + "," + call + "," + call + ")";
  // The fifth call (39 characters and a comma each) starts at column 2 + 4 * 40 = 162, its
  // composition at 162 + 5 = 167.
  expect_eval_error(five, "column 167: composition: enumerating 4194304 more elements would pass the 16777216");
  // The refusal is marked as the budget's (prove then counts the point too large to check, not
  // refuted), and the mark lasts until the next evaluation opens a budget.
  EXPECT_TRUE(enumeration_budget_spent());
  // The budget belongs to one evaluation: the next one starts afresh.
  EXPECT_EQ(eval(call), "4194304");
  EXPECT_FALSE(enumeration_budget_spent());
  // An operation's own bound is a refusal of the input, not the budget's.
  expect_eval_error("composition(8388608:1, Sw<3,4,3>)", "the domain has 8388608 elements");
  EXPECT_FALSE(enumeration_budget_spent());
  // == is charged too: after four checks, a comparison of 2^22 elements that cannot be decided
  // by modes (a swizzle against none) finds nothing left.
  expect_eval_error("(" + call + "," + call + "," + call + "," + call + ", Sw<1,4,5> o 0 o 4194304:1 == 4194304:1)",
                    "==: enumerating 4194304 more elements would pass the 16777216 elements one expression may "
                    "enumerate in all (16777216 used by its earlier operations)");
  // Used directly (no evaluation open), the model's C++ API has only each operation's own bound.
  const Layout a = cuteref::test::L("4194304:1");
  for (int i = 0; i < 5; ++i) EXPECT_EQ(size_value(composition(a, Swizzle(3, 4, 3)).layout), 4194304);
}

// A diagnostic quoted a lone non-ASCII lead byte raw (`８:1`: "found '\xef'", the first byte of
// the three of U+FF18), which is not text in any encoding a terminal expects. Bytes that are
// not part of a well-formed UTF-8 character are escaped as the control bytes are; whole
// characters stay. Byte sequences from RFC 3629's table, by hand.
TEST(Hardening, DiagnosticsEscapeBytesOutsideUtf8Characters) {
  EXPECT_EQ(printable("found '\xef'"), "found '\\xef'");
  EXPECT_EQ(printable("\xef\xbc\x98:1"), "\xef\xbc\x98:1");          // U+FF18, whole
  EXPECT_EQ(printable("\xef\xbc:1"), "\\xef\\xbc:1");                // cut short
  EXPECT_EQ(printable("\xc3\xa9"), "\xc3\xa9");                      // U+00E9
  EXPECT_EQ(printable("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");      // U+1F600
  EXPECT_EQ(printable("\x80"), "\\x80");                             // a stray continuation byte
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(printable("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");           // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate, U+D800
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // U+110000, past Unicode
  EXPECT_EQ(printable("\xff\x7f\x1b"), "\\xff\\x7f\\x1b");
  // Through the parser: the lone byte is the one the diagnostic names.
  expect_error([] { parse_and_evaluate("\xef\xbc\x98:1", &standard_functions()); }, "found '\\xef'");
  // A shortened diagnostic is cut between characters: 6,143 bytes of 'a' and U+FF18 (bytes
  // 6,143..6,145) keep the head at 6,143 bytes instead of 6,144; 10,146 bytes in all, the tail
  // is the last 1,024, so 10,146 - 1,024 - 6,143 = 2,979 bytes are left out.
  const std::string text = std::string(6143, 'a') + "\xef\xbc\x98" + std::string(4000, 'b');
  EXPECT_EQ(shortened(text), std::string(6143, 'a') + " ... [2979 bytes left out] ... " + std::string(1024, 'b'));
}

}  // namespace hardening_test
