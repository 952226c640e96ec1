// The descriptor grammar of seed 000: parsing, diagnostics, normalization, printing,
// round trip, and the layouts descriptors denote. Expected values are derived by hand
// from the grammar (columns counted in the text, 1-based) and from CuTe's ScaledBasis.
#include <gtest/gtest.h>

#include <iostream>
#include <functional>
#include <random>

#include "coordinates.hpp"
#include "descriptor.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "identity_layout.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace descriptor_test {

using namespace cuteref;

namespace {

Descriptor B(std::int64_t num, std::int64_t den, std::vector<int> dims) { return Descriptor::basis({num, den}, std::move(dims)); }
Descriptor G(std::vector<Descriptor> entries) { return Descriptor::group(std::move(entries)); }

// The column and message of the ParseError `f` throws.
template <class F>
std::pair<std::size_t, std::string> parse_error_of(F&& f) {
  try {
    f();
  } catch (const ParseError& e) {
    return {e.column(), e.what()};
  } catch (const Error& e) {
    return {0, std::string("not a ParseError: ") + e.what()};
  }
  return {0, "no error"};
}

}  // namespace

// The seed's examples that are valid descriptors.
TEST(Descriptor, SeedExamplesParse) {
  EXPECT_EQ(parse_descriptor("(1@0, 1@1)"), G({B(1, 1, {0}), B(1, 1, {1})}));
  EXPECT_EQ(parse_descriptor("(16@0, 1@1)"), G({B(16, 1, {0}), B(1, 1, {1})}));
  EXPECT_EQ(parse_descriptor("((1@0, 8@1), 1@2)"), G({G({B(1, 1, {0}), B(8, 1, {1})}), B(1, 1, {2})}));
  EXPECT_EQ(parse_descriptor("(1/2@0, 4@1)"), G({B(1, 2, {0}), B(4, 1, {1})}));  // parses; rejected by normalize
  EXPECT_EQ(parse_descriptor("(1@0@1)"), G({B(1, 1, {0, 1})}));
  EXPECT_EQ(parse_descriptor("()"), G({}));
}

TEST(Descriptor, ColumnsOfNodes) {
  // "((1@0, 8@1), 1@2)": '(' at 1, inner '(' at 2, 1@0 at 3, 8@1 at 8, 1@2 at 14.
  const Descriptor d = parse_descriptor("((1@0, 8@1), 1@2)");
  EXPECT_EQ(d.column(), 1u);
  EXPECT_EQ(d.entries()[0].column(), 2u);
  EXPECT_EQ(d.entries()[0].entries()[0].column(), 3u);
  EXPECT_EQ(d.entries()[0].entries()[1].column(), 8u);
  EXPECT_EQ(d.entries()[1].column(), 14u);
}

TEST(Descriptor, WhitespaceIsIgnoredBetweenTokens) {
  EXPECT_EQ(parse_descriptor(" ( 1 @ 0 ,\t-3 / 3 @ 1 @ 2 ) "), G({B(1, 1, {0}), B(-3, 3, {1, 2})}));
}

TEST(Descriptor, Diagnostics) {
  struct Case {
    const char* text;
    std::size_t column;
    const char* says;
  };
  const Case cases[] = {
      {"", 1, "empty descriptor"},
      {"   ", 4, "empty descriptor"},
      {"1@0", 1, "expected '('"},
      {"(1, 2)", 3, "expected '@' after the count 1"},
      {"(1.5@0)", 3, "expected '@'"},
      {"(1@)", 4, "expected a dimension"},
      {"(1@-1)", 4, "expected a dimension"},
      {"(1@0", 1, "unbalanced '('"},
      {"((1@0)", 1, "unbalanced '('"},
      {"(1@0, (2@1)", 1, "unbalanced '('"},
      {"(1@0))", 6, "unbalanced ')'"},
      {"(1@0) x", 7, "trailing text"},
      {"(1@0 2@1)", 6, "expected ',' or ')'"},
      {"(1@0,)", 6, "expected a descriptor entry"},
      {"(,)", 2, "expected a descriptor entry"},
      {"(x@0)", 2, "expected a descriptor entry"},
      {"(1/0@0)", 4, "zero denominator"},
      {"(1 / 0 @ 0)", 6, "zero denominator"},
      {"(1/-0@0)", 4, "zero denominator"},
      {"(1/@0)", 4, "digits of the denominator"},
      {"(99999999999999999999@0)", 2, "too large"},
      {"(9223372036854775808@0)", 2, "too large"},
      {"(1/99999999999999999999@0)", 4, "too large"},
      {"(1@1025)", 4, "too large"},
      {"(1@0@99999999999999999999)", 6, "too large"},
  };
  for (const Case& c : cases) {
    auto [column, message] = parse_error_of([&] { parse_descriptor(c.text); });
    EXPECT_EQ(column, c.column) << "'" << c.text << "': " << message;
    EXPECT_NE(message.find(c.says), std::string::npos) << "'" << c.text << "': " << message;
  }
  std::cout << "[ descriptor ] " << std::size(cases) << " malformed descriptors checked\n";
}

TEST(Descriptor, NumberLimitsAreInclusive) {
  EXPECT_EQ(parse_descriptor("(9223372036854775807@0)"), G({B(INT64_MAX, 1, {0})}));
  EXPECT_EQ(parse_descriptor("(-9223372036854775808@0)"), G({B(INT64_MIN, 1, {0})}));
  EXPECT_EQ(parse_descriptor("(1@1024)"), G({B(1, 1, {1024})}));
}

TEST(Descriptor, NestingLimit) {
  const int limit = kMaxDescriptorDepth;
  const std::string ok = std::string(limit, '(') + std::string(limit, ')');
  EXPECT_NO_THROW(parse_descriptor(ok));
  const std::string deep = std::string(limit + 1, '(') + std::string(limit + 1, ')');
  auto [column, message] = parse_error_of([&] { parse_descriptor(deep); });
  EXPECT_EQ(column, static_cast<std::size_t>(limit + 1));  // the first group too deep
  EXPECT_NE(message.find("nested deeper"), std::string::npos) << message;
  // A million unclosed groups is a diagnostic, not a stack overflow.
  EXPECT_THROW(parse_descriptor(std::string(1000000, '(')), ParseError);
  std::string many_dims = "(1";
  for (int i = 0; i <= limit; ++i) many_dims += "@0";
  EXPECT_THROW(parse_descriptor(many_dims + ")"), ParseError);
}

// Normalization by hand: 6/3 = 2, -4/2 = -2, 0/5 = 0, 3/-1 = -3; 2/2@0 is 1@0.
TEST(Descriptor, NormalizeReducesCounts) {
  EXPECT_EQ(normalize(parse_descriptor("(6/3@0, (-4/2@1, 0/5@2), 3/-1@0)")),
            G({B(2, 1, {0}), G({B(-2, 1, {1}), B(0, 1, {2})}), B(-3, 1, {0})}));
  const Descriptor two_halves = parse_descriptor("(2/2@0)");
  EXPECT_FALSE(is_normalized(two_halves));
  EXPECT_EQ(normalize(two_halves).to_string(), "(1@0)");
  EXPECT_TRUE(is_normalized(normalize(two_halves)));
}

TEST(Descriptor, NonIntegralCountIsRejectedNamingTheBasis) {
  // (1/2@0, 4@1): the basis 1/2@0 starts at column 2.
  auto [column, message] = parse_error_of([] { normalize(parse_descriptor("(1/2@0, 4@1)")); });
  EXPECT_EQ(column, 2u);
  EXPECT_NE(message.find("basis 1/2@0"), std::string::npos) << message;
  EXPECT_NE(message.find("does not normalize"), std::string::npos) << message;
  // 2/4 reduces to 1/2; the diagnostic gives both. The basis is at column 8.
  auto [c2, m2] = parse_error_of([] { normalize(parse_descriptor("(1@0, (2/4@1))")); });
  EXPECT_EQ(c2, 8u);
  EXPECT_NE(m2.find("2/4 = 1/2"), std::string::npos) << m2;
  auto [c3, m3] = parse_error_of([] { normalize(parse_descriptor("(3/-6@0)")); });
  EXPECT_NE(m3.find("3/-6 = -1/2"), std::string::npos) << m3;
  // No layout is ever produced from it.
  EXPECT_THROW(to_stride(parse_descriptor("(1/2@0, 4@1)")), ParseError);
  EXPECT_THROW(to_layout(parse_descriptor("(1/2@0, 4@1)"), parse_int_tuple("(2,2)")), ParseError);
  // Built in code (no column): a plain Error.
  EXPECT_THROW(normalize(G({B(1, 2, {0})})), Error);
}

TEST(Descriptor, OverflowingCountIsRejected) {
  // INT64_MIN / -1 = 2^63 does not fit.
  auto [column, message] = parse_error_of([] { normalize(parse_descriptor("(-9223372036854775808/-1@0)")); });
  EXPECT_EQ(column, 2u);
  EXPECT_NE(message.find("overflows"), std::string::npos) << message;
}

TEST(Descriptor, ConstructorPreconditions) {
  EXPECT_THROW(Descriptor::basis({1, 0}, {0}), Error);
  EXPECT_THROW(Descriptor::basis({1, 1}, {}), Error);
  EXPECT_THROW(Descriptor::basis({1, 1}, {-1}), Error);
  EXPECT_THROW(Descriptor::basis({1, 1}, {kMaxBasisDimension + 1}), Error);
}

TEST(Descriptor, PrintsInBasisNotation) {
  EXPECT_EQ(parse_descriptor("((1@0,8@1),1@2)").to_string(), "((1@0, 8@1), 1@2)");
  EXPECT_EQ(parse_descriptor("(1@0@1)").to_string(), "(1@0@1)");
  EXPECT_EQ(parse_descriptor("( )").to_string(), "()");
  EXPECT_EQ(parse_descriptor("(4/-2@3)").to_string(), "(4/-2@3)");
  EXPECT_EQ(normalize(parse_descriptor("(4/-2@3)")).to_string(), "(-2@3)");
}

// Round trip (seed: parse, normalize, print, parse gives the same layout), on hand-written
// texts and on random trees.
TEST(Descriptor, RoundTrip) {
  const char* texts[] = {"(1@0, 1@1)", "(16@0, 1@1)", "((1@0, 8@1), 1@2)", "(2/2@0)", "(1@0@1)", "()",
                         "(((())))", " ( -6/3 @ 2 @ 0 , ( ) ) ", "(0@0, -1@5@4@3)"};
  for (const char* t : texts) {
    const Descriptor first = normalize(parse_descriptor(t));
    const std::string printed = first.to_string();
    const Descriptor second = normalize(parse_descriptor(printed));
    EXPECT_EQ(first, second) << t;
    EXPECT_EQ(second.to_string(), printed) << t;
    EXPECT_TRUE(equivalent(parse_descriptor(t), parse_descriptor(printed))) << t;
  }
  std::mt19937_64 rng(12345);
  int checked = 0;
  std::function<Descriptor(int)> random_tree = [&](int depth) -> Descriptor {
    std::vector<Descriptor> entries;
    const int n = static_cast<int>(rng() % 4);
    for (int i = 0; i < n; ++i) {
      if (depth < 3 && rng() % 3 == 0) {
        entries.push_back(random_tree(depth + 1));
      } else {
        const std::int64_t den = static_cast<std::int64_t>(rng() % 5) + 1;
        const std::int64_t num = (static_cast<std::int64_t>(rng() % 41) - 20) * den;  // integral
        std::vector<int> dims(rng() % 3 + 1);
        for (int& d : dims) d = static_cast<int>(rng() % 6);
        entries.push_back(B(num, rng() % 2 ? den : -den, dims));
      }
    }
    return G(std::move(entries));
  };
  for (int k = 0; k < 2000; ++k, ++checked) {
    const Descriptor d = random_tree(0);
    ASSERT_EQ(parse_descriptor(d.to_string()), d) << d.to_string();
    const Descriptor n = normalize(d);
    ASSERT_EQ(normalize(parse_descriptor(n.to_string())), n) << d.to_string();
    ASSERT_EQ(from_stride(to_stride(d)), n) << d.to_string();
  }
  std::cout << "[ descriptor ] " << std::size(texts) << " texts and " << checked << " random trees round-tripped\n";
}

TEST(Descriptor, GroupingIsKept) {
  // Regrouping changes the shapes a descriptor pairs with; it is not an equivalence.
  EXPECT_FALSE(equivalent(parse_descriptor("(1@0)"), parse_descriptor("((1@0))")));
  EXPECT_TRUE(equivalent(parse_descriptor("(2/2@0, 8/4@1)"), parse_descriptor("(1@0, 2@1)")));
}

TEST(Descriptor, StrideAndLayout) {
  EXPECT_EQ(to_stride(parse_descriptor("((1@0, 8@1), 1@0@1)")).to_string(), "((1@0,8@1),1@0@1)");
  // (1@0, 1@1) is the stride of make_identity_layout((4,8)) (up to static flags).
  const IntTuple shape = parse_int_tuple("(4,8)");
  EXPECT_TRUE(to_stride(parse_descriptor("(1@0, 1@1)")).same_values(make_basis_like(shape)));
  // (4,8):(16@0,1@1) at 5 = (1,1): 16*E<0> + 1*E<1> = (16,1).
  EXPECT_TRUE(apply(to_layout(parse_descriptor("(16@0, 1@1)"), shape), IntTuple::integer(5))
                  .same_values(parse_int_tuple("(16,1)")));
  // ((2,4),3) at 23: 23 = 1 + 2*(3 + 4*2), coordinate ((1,3),2): 1*E<0> + 24*E<1> + 2*E<2>.
  EXPECT_TRUE(apply(to_layout(parse_descriptor("((1@0, 8@1), 1@2)"), parse_int_tuple("((2,4),3)")),
                    IntTuple::integer(23))
                  .same_values(parse_int_tuple("(1,24,2)")));
  // (1@0@1) is E<1,0>: (3):(1@0@1) at 2 is (0,(2)).
  EXPECT_TRUE(apply(to_layout(parse_descriptor("(1@0@1)"), parse_int_tuple("(3)")), IntTuple::integer(2))
                  .same_values(parse_int_tuple("(0,(2))")));
  // () is the stride of the empty layout ():(), of size 1.
  EXPECT_EQ(size_value(to_layout(parse_descriptor("()"), parse_int_tuple("()"))), 1);
  EXPECT_THROW(to_layout(parse_descriptor("(1@0)"), shape), Error);  // not congruent
  EXPECT_THROW(from_stride(parse_int_tuple("(1,2)")), Error);        // integer strides have no basis notation
  EXPECT_THROW(from_stride(IntTuple::basis(1, {0})), Error);         // the root must be a group
}

TEST(Descriptor, Explain) {
  const std::vector<std::string> want = {"mode (0,0): one step adds 1*E<0>", "mode (0,1): one step adds 8*E<1>",
                                         "mode (1): one step adds 1*E<1,0>"};
  EXPECT_EQ(explain(parse_descriptor("((1@0, 8/1@1), 1@0@1)")), want);
  EXPECT_TRUE(explain(parse_descriptor("()")).empty());
}

// The expression language's literal descriptor(...) keeps columns in the whole line.
TEST(Descriptor, ExpressionLiteral) {
  const FunctionTable* f = &standard_functions();
  EXPECT_EQ(parse_and_evaluate("descriptor(2/2@0, 1@1)", f).to_string(), "(1@0,1@1)");
  EXPECT_EQ(parse_and_evaluate("make_layout((4,8), descriptor(1@0, 1@1))(5)", f).to_string(), "(1,1)");
  // "descriptor(1/2@0, 4@1)": the basis starts at column 12.
  auto [column, message] = parse_error_of([&] { parse_and_evaluate("descriptor(1/2@0, 4@1)", f); });
  EXPECT_EQ(column, 12u);
  EXPECT_NE(message.find("1/2@0"), std::string::npos) << message;
  // "size(descriptor(1/0@0))": the zero denominator is at column 19.
  auto [c2, m2] = parse_error_of([&] { parse_and_evaluate("size(descriptor(1/0@0))", f); });
  EXPECT_EQ(c2, 19u);
  EXPECT_NE(m2.find("zero denominator"), std::string::npos) << m2;
  auto [c3, m3] = parse_error_of([&] { parse_and_evaluate("descriptor 1@0", f); });
  EXPECT_EQ(c3, 12u);
}

}  // namespace descriptor_test
