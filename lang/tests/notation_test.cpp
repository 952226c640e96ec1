// Unit tests of the notation parser and printer (notation.hpp): round trips of printed
// values, and the diagnostics of malformed input (a ParseError with the 1-based column of
// the offending character and what was expected). Columns are counted by hand in each
// input (written next to each case).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "error.hpp"
#include "function_table.hpp"
#include "make_layout.hpp"
#include "notation.hpp"

using namespace cuteref;

namespace {

IntTuple I(std::int64_t v, bool st = false) { return IntTuple::integer(v, st); }
IntTuple T(std::vector<IntTuple> e) { return IntTuple::tuple(std::move(e)); }

// Parses `text` as a full expression (with the function table), expecting a ParseError at
// `column` whose message contains `needle`.
void expect_parse_error(const std::string& text, std::size_t column, const std::string& needle) {
  try {
    Value v = parse_and_evaluate(text, &standard_functions());
    ADD_FAILURE() << "'" << text << "' parsed as " << v.to_string() << ", expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.column(), column) << "'" << text << "': " << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "'" << text << "': " << e.what();
  } catch (const Error& e) {
    ADD_FAILURE() << "'" << text << "' gave a non-parse Error: " << e.what();
  }
}

}  // namespace

TEST(Notation, ParsesLiterals) {
  EXPECT_EQ(parse_int_tuple("_8"), I(8, true));
  EXPECT_EQ(parse_int_tuple("8"), I(8));
  EXPECT_EQ(parse_int_tuple("-3"), I(-3));
  EXPECT_EQ(parse_int_tuple("_-3"), I(-3, true));
  EXPECT_EQ(parse_int_tuple("()"), IntTuple());
  EXPECT_EQ(parse_int_tuple("(4)"), T({I(4)}));
  EXPECT_EQ(parse_int_tuple(" ( 2 ,\t( _3 , 4 ) ) "), T({I(2), T({I(3, true), I(4)})}));
  EXPECT_EQ(parse_int_tuple("(_,1)"), T({IntTuple::underscore(), I(1)}));
  EXPECT_EQ(parse_int_tuple("-9223372036854775808"), I(INT64_MIN));
  EXPECT_EQ(parse_int_tuple("9223372036854775807"), I(INT64_MAX));
  const Layout l = parse_layout("((2,2),3):((1,4),8)");
  EXPECT_EQ(l.shape(), T({T({I(2), I(2)}), I(3)}));
  EXPECT_EQ(l.stride(), T({T({I(1), I(4)}), I(8)}));
  // Scaled bases: 1@0@1 keeps the printed path; 1/2@0 with an exact quotient is allowed
  // only when it normalizes: 4/2@0 == 2@0.
  EXPECT_EQ(parse_layout("(4,3):(1@0,1@0@1)").stride(), T({IntTuple::basis(1, {0}), IntTuple::basis(1, {0, 1})}));
  EXPECT_EQ(parse_layout("4:4/2@0").stride(), IntTuple::basis(2, {0}));
}

TEST(Notation, RoundTripPrintParse) {
  // Many layouts, built programmatically (not by the parser): nested profiles, static and
  // dynamic leaves, negative and zero strides, scaled bases.
  std::vector<IntTuple> shape_leaves{I(1), I(4), I(3, true), I(8, true), I(1024)};
  std::vector<IntTuple> stride_leaves{I(0), I(1, true), I(-2), I(64), I(0, true), IntTuple::basis(1, {1}),
                                      IntTuple::basis(16, {0}, true), IntTuple::basis(2, {0, 1})};
  int checked = 0;
  auto check = [&](const Layout& l) {
    const std::string printed = l.to_string();
    const Layout back = parse_layout(printed);
    EXPECT_EQ(back, l) << printed;
    EXPECT_EQ(back.to_string(), printed);
    ++checked;
  };
  for (const auto& s0 : shape_leaves)
    for (const auto& d0 : stride_leaves) {
      check(Layout(s0, d0));
      for (const auto& s1 : shape_leaves)
        for (const auto& d1 : stride_leaves) {
          check(Layout(T({s0, s1}), T({d0, d1})));
          check(Layout(T({T({s0, s1}), s0}), T({T({d0, d1}), d1})));
          check(Layout(T({s1, T({s0, T({s1})})}), T({d1, T({d0, T({d0})})})));
        }
    }
  check(Layout(IntTuple(), IntTuple()));
  check(Layout(T({IntTuple(), I(2)}), T({IntTuple(), I(1)})));
  // Integer tuples round-trip too.
  for (const char* t : {"_8", "-5", "()", "(())", "((1,_2),(),(_,3))", "(4)"}) {
    EXPECT_EQ(parse_int_tuple(t).to_string(), t);
    ++checked;
  }
  // Swizzles and composed layouts (the vendor's smem_ptr token included) print as parsed.
  for (const char* t : {"Sw<3,4,3>", "Sw<0,4,3>", "Sw<2,1,-3>", "Sw<3,4,3> o (8,64):(64,_1)",
                        "Sw<3,4,3> o 32 o (8,64):(64,1)", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"}) {
    EXPECT_EQ(parse_and_evaluate(t, nullptr).to_string(), t);
    ++checked;
  }
  std::printf("[notation] round trip: %d values checked\n", checked);
  // 5*8 leaf layouts, 40*40*3 two-leaf layouts, 2 empty-mode layouts, 6 tuples, 6 swizzles.
  EXPECT_EQ(checked, 40 + 4800 + 2 + 6 + 6);
}

TEST(Notation, EmptyInput) {
  expect_parse_error("", 1, "empty input");
  // Whitespace only: the error points past the blanks.
  expect_parse_error("   ", 4, "empty input");
}

TEST(Notation, UnbalancedParentheses) {
  // "(4,3" : the '(' at column 1 is never closed.
  expect_parse_error("(4,3", 1, "unbalanced '('");
  // "(4,3):(1,4" : the stride's '(' at column 7 is never closed.
  expect_parse_error("(4,3):(1,4", 7, "unbalanced '('");
  // "((4,3)" : the outer '(' at column 1.
  expect_parse_error("((4,3)", 1, "unbalanced '('");
  // ")" : column 1.
  expect_parse_error(")", 1, "unbalanced ')'");
  // "(4,3))" : one ')' too many at column 6, trailing text.
  expect_parse_error("(4,3))", 6, "trailing text");
  // "(" alone (the batch example).
  expect_parse_error("(", 1, "unbalanced '('");
}

TEST(Notation, TrailingText) {
  // "(4,3):(1,4))": column 12.
  expect_parse_error("(4,3):(1,4))", 12, "trailing text");
  // "8:1 x" : column 5.
  expect_parse_error("8:1 x", 5, "trailing text");
  // "(4,3)x" : column 6.
  expect_parse_error("(4,3)x", 6, "trailing text");
  // "(4 3)": column 4 expected ',' or ')'.
  expect_parse_error("(4 3)", 4, "expected ',' or ')'");
}

TEST(Notation, NonCongruentShapeAndStride) {
  // "(4,3):(1)": the stride starts at column 7.
  expect_parse_error("(4,3):(1)", 7, "not congruent");
  // "(4,3):1": column 7.
  expect_parse_error("(4,3):1", 7, "not congruent");
  // "8:(1,2)": column 3.
  expect_parse_error("8:(1,2)", 3, "not congruent");
  // "((2,2),3):(1,4,8)": column 11.
  expect_parse_error("((2,2),3):(1,4,8)", 11, "not congruent");
}

TEST(Notation, ZeroOrNegativeShape) {
  // The error points at the offending leaf: "(4,0):(1,4)" the 0 at column 4.
  expect_parse_error("(4,0):(1,4)", 4, "positive");
  expect_parse_error("(4,-2):(1,4)", 4, "positive");
  expect_parse_error("0:1", 1, "positive");
  expect_parse_error("_0:_1", 1, "positive");
  // "((2,2),(3,0)):((1,2),(4,12))": the 0 is the 4th leaf, at column 11.
  expect_parse_error("((2,2),(3,0)):((1,2),(4,12))", 11, "positive");
  // " ( 4 , 0 ) : ( 1 , 4 )": blanks count, the 0 is at column 8.
  expect_parse_error(" ( 4 , 0 ) : ( 1 , 4 )", 8, "positive");
  // A shape computed by a call has no literal to point at: the ':' (column 14).
  expect_parse_error("(size(8:1),0):(1,8)", 14, "positive");
  // A '_' in a shape: "_:1" col 2.
  expect_parse_error("_:1", 2, "'_'");
}

TEST(Notation, SixtyFourBitOverflowLiterals) {
  // 2^63 = 9223372036854775808 does not fit: the literal starts at column 1.
  expect_parse_error("9223372036854775808", 1, "too large for 64 bits");
  // In a tuple: "(1,99999999999999999999)": digits start at column 4.
  expect_parse_error("(1,99999999999999999999)", 4, "too large for 64 bits");
  // Static: "_9223372036854775808": digits start at column 2.
  expect_parse_error("_9223372036854775808", 2, "too large for 64 bits");
  // As a stride: "4:-9223372036854775809": digits start at column 4.
  expect_parse_error("4:-9223372036854775809", 4, "too large for 64 bits");
}

TEST(Notation, BadStrides) {
  // "(4,3):(1,_)": the '_' at column 10 is not a stride.
  expect_parse_error("(4,3):(1,_)", 10, "not a stride");
  // "4:1@": a digit expected at column 5.
  expect_parse_error("4:1@", 5, "expected a digit");
  // "4:1/2@0": 1/2 does not normalize; the count starts at column 3.
  expect_parse_error("4:1/2@0", 3, "does not normalize");
  // "4:2/0@0": the zero denominator at column 5.
  expect_parse_error("4:2/0@0", 5, "zero denominator");
  // "4:4/2" without '@' is not a scaled basis: in EXPR it divides (4 / 2 = 2, by hand); a
  // literal has no arithmetic (the '/' at column 4).
  EXPECT_EQ(parse_and_evaluate("4:4/2", &standard_functions()).to_string(), "4:2");
  try {
    (void)parse_layout("4:4/2");
    ADD_FAILURE() << "parse_layout accepted arithmetic";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.column(), 4u) << e.what();
  }
  // "1@0" outside a stride: the '@' at column 2.
  expect_parse_error("1@0", 2, "only allowed as a stride");
  // "4:x": column 3.
  expect_parse_error("4:x", 3, "expected a stride");
}

TEST(Notation, BadSwizzles) {
  // Sw<3,4,2>: |S| < B violates CuTe's precondition; reported at the 'S' of "Sw" (column 1).
  expect_parse_error("Sw<3,4,2>", 1, "|S| must be >= B");
  // Sw<-1,4,3>: B < 0.
  expect_parse_error("Sw<-1,4,3>", 1, "B (number of bits) must be >= 0");
  // Sw<3,4: ',' expected at the end, column 7.
  expect_parse_error("Sw<3,4", 7, "expected ','");
  // Sw<3,4,3: '>' expected at column 9.
  expect_parse_error("Sw<3,4,3", 9, "expected '>'");
  // Sw<99,4,3>: 99 out of range, starts at column 4.
  expect_parse_error("Sw<99,4,3>", 4, "out of range");
  // Sw<3,4,3> o : a layout expected after 'o' (end of input at column 12).
  expect_parse_error("Sw<3,4,3> o ", 13, "expected an expression");
  // Sw<3,4,3> o (2,3): not a layout; the term starts at column 13.
  expect_parse_error("Sw<3,4,3> o (2,3)", 13, "expected a layout");
}

TEST(Notation, SmemPtrTokens) {
  // smem_ptr alone: only allowed as the offset of a composed layout (column 1).
  expect_parse_error("smem_ptr[16b](unset)", 1, "only allowed as the offset");
  // "Sw<3,4,3> o smem_ptr[16x](unset) o 8:1": 's' of smem_ptr at 13, '[' at 21, "16" at
  // 22-23, the 'x' at column 24.
  expect_parse_error("Sw<3,4,3> o smem_ptr[16x](unset) o 8:1", 24, "expected 'b'");
  // Unclosed '(' of the token at column 26.
  expect_parse_error("Sw<3,4,3> o smem_ptr[16b](unset", 26, "unbalanced '('");
  // Width 0 at column 22.
  expect_parse_error("Sw<3,4,3> o smem_ptr[0b](unset) o 8:1", 22, "element width");
  // Missing the second 'o': column 34 (end of the token at 33, then a blank).
  expect_parse_error("Sw<3,4,3> o smem_ptr[16b](unset) 8:1", 34, "expected 'o'");
  // A well-formed token parses and keeps its element width.
  Value v = parse_and_evaluate("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", nullptr);
  ASSERT_TRUE(v.is_composed());
  const auto& c = std::get<ComposedLayout>(v.data);
  ASSERT_TRUE(c.offset.has_value());
  EXPECT_EQ(c.offset->pointer_element_bits, 16);
  EXPECT_EQ(c.layout, parse_layout("(8,64):(64,1)"));
}

TEST(Notation, LiteralParsersRejectOtherKinds) {
  EXPECT_THROW(parse_layout("(4,3)"), ParseError);
  EXPECT_THROW(parse_int_tuple("4:1"), ParseError);
  // Without a function table, calls are rejected at the name (column 1).
  try {
    parse_and_evaluate("size(8:1)", nullptr);
    ADD_FAILURE() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.column(), 1u);
  }
}

TEST(Notation, FunctionCallDiagnostics) {
  // Unknown function at column 1; wrong argument count at the name (column 1).
  expect_parse_error("foo(1)", 1, "unknown function 'foo'");
  // A templated name is an atom's, never applied: refused before evaluation (it once parsed as
  // the application of a name, which prove, on a claim with variables, answered `refuted`).
  expect_parse_error("get<1>((2,3))", 1, "unknown function 'get<1>' (an atom's name is not applied; CuTe's get<I>(t) is mode(t, I))");
  expect_parse_error("size(SM90_64x64x16_F32BF16BF16_SS<K,K> (1))", 6, "unknown function 'SM90_64x64x16_F32BF16BF16_SS<K,K>'");
  expect_parse_error("size(8:1, 2)", 1, "wrong number of arguments");
  // "size 8:1": '(' expected after the name at column 6.
  expect_parse_error("size 8:1", 6, "expected '('");
  // Evaluation errors are Errors (not ParseErrors) that name the column of the call:
  // cosize of a tuple is a type error of argument 1.
  try {
    parse_and_evaluate("cosize((4,3))", &standard_functions());
    ADD_FAILURE() << "expected an Error";
  } catch (const ParseError& e) {
    ADD_FAILURE() << "a type error is not a parse error: " << e.what();
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("column 1"), std::string::npos) << m;
    EXPECT_NE(m.find("must be a layout"), std::string::npos) << m;
  }
}

TEST(Notation, DeepNestingIsADiagnosticNotACrash) {
  // 256 levels are accepted: (((...(1)...))) parses to nested 1-tuples.
  const std::string ok = std::string(256, '(') + "1" + std::string(256, ')');
  EXPECT_EQ(parse_int_tuple(ok).depth(), 256);
  // The 257th '(' (column 257) is rejected; 200000 levels would exhaust the stack otherwise.
  expect_parse_error(std::string(300, '(') + "1" + std::string(300, ')'), 257, "nested deeper than 256");
  expect_parse_error(std::string(200000, '('), 257, "nested deeper than 256");
  // In a stride: "8:" then the 257th '(' at column 2 + 257.
  expect_parse_error("8:" + std::string(300, '(') + "1" + std::string(300, ')'), 259, "nested deeper than 256");
  // A chain of compositions nests without parentheses: each "Sw<0,4,3> o " is 12 columns and
  // the 257th term starts at column 12*257 + 1.
  std::string chain;
  for (int i = 0; i < 300; ++i) chain += "Sw<0,4,3> o ";
  expect_parse_error(chain + "8:1", 12 * 257 + 1, "nested deeper than 256");
}

// The CuTe DSL's printouts paste into the model: it prints a swizzle as S<B,M,S> (CuTe C++
// as Sw<B,M,S>) and static integers without '_'. The values below are the DSL's own
// printouts (nvidia-cutlass-dsl 4.8.1); what they mean is read by hand.
TEST(Notation, AcceptsCuteDslPrintouts) {
  const FunctionTable* table = &standard_functions();
  // S<3,4,3> o 0 o (8,64):(64,1): the 128-byte swizzle atom of 16-bit K-major GMMA tiles.
  EXPECT_EQ(parse_and_evaluate("S<3,4,3> o 0 o (8,64):(64,1)", table).to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
  EXPECT_EQ(parse_and_evaluate("S<2,0,-3>", table).to_string(), "Sw<2,0,-3>");
  // S<3,4,3>(128): bit 7 (in [M+S, M+S+B) = [7,10)) is XOR-ed into bit 4: 128 + 16 = 144.
  EXPECT_EQ(parse_and_evaluate("S<3,4,3>(128)", table).to_string(), "144");
  // The DSL's identity layout prints its scaled bases as 1@0, 1@1.
  EXPECT_EQ(parse_and_evaluate("(4,8):(1@0,1@1)", table).to_string(), "(4,8):(1@0,1@1)");
}

// The DSL prints an integer known only at run time as '?': a clear refusal, at its column.
TEST(Notation, RefusesTheDslDynamicPlaceholder) {
  expect_parse_error("(?,8):(1,?)", 2, "known only at run time");     // the '?' in the shape, column 2
  expect_parse_error("(4,8):(1,?)", 10, "known only at run time");    // in the stride: ( 4 , 8 ) : ( 1 , ? -> 10
  expect_parse_error("S<3,4,3> o ? o 8:1", 12, "known only at run time");  // the offset, column 12
}

// mode(T, i) on a result tuple picks an element: slice_and_offset's (layout, offset).
TEST(Notation, ModeOfAResultTuple) {
  const FunctionTable* table = &standard_functions();
  // (4,8):(1,4) at (_,3): the column 3, 4 elements of stride 1 starting at 3*4 = 12.
  EXPECT_EQ(parse_and_evaluate("mode(slice_and_offset((_,3), (4,8):(1,4)), 0)", table).to_string(), "(4):(1)");
  EXPECT_EQ(parse_and_evaluate("mode(slice_and_offset((_,3), (4,8):(1,4)), 1)", table).to_string(), "12");
  EXPECT_THROW(parse_and_evaluate("mode(slice_and_offset((_,3), (4,8):(1,4)), 2)", table), Error);
}

// The DSL 4.8.1 prints Swizzle<2,0,-3> as `S<2,0,-3` (no '>'): pasted, the diagnostic says
// so, at the first character after the shift (S < 2 , 0 , - 3 blank o: the o is column 10).
TEST(Notation, DiagnosesTheDslNegativeShiftPrint) {
  expect_parse_error("S<2,0,-3 o 0 o 8:1", 10, "without it: write S<2,0,-3>");
}

// `(E)` groups an arithmetic result and makes a 1-tuple of anything else. A negated operand is
// not an arithmetic result: `(-x)` is a 1-tuple as `(x)` and `(-5)` are, so that a variable's
// value written in its place keeps the claim's meaning. Expected values by hand.
TEST(Notation, ANegatedOperandInParenthesesIsATuple) {
  const FunctionTable* table = &standard_functions();
  int checked = 0;
  for (const auto& [text, want] : std::vector<std::pair<std::string, std::string>>{
           {"(-5)", "(-5)"},                 // a negative literal: CuTe's print of the 1-tuple
           {"(- 5)", "(-5)"},                // the negation of 5: the same 1-tuple
           {"(--5)", "(5)"},                 // negated twice, still an operand
           {"(-size(4:1))", "(-4)"},         // a negated application, as (size(4:1)) is (4)
           {"(size(4:1))", "(4)"},
           {"(-(2*3))", "-6"},               // a negated arithmetic result groups
           {"(-2*3)", "-6"},                 // (-2)*3: a binary operation groups
           {"(- 2 + 3)", "1"},
           {"(4):(- 2)", "(4):(-2)"},        // a rank-1 layout, as (4):(-2) is
           {"0 - -5", "5"},
       }) {
    EXPECT_EQ(parse_and_evaluate(text, table).to_string(), want) << text;
    ++checked;
  }
  // Both spellings refused alike where a 1-tuple cannot be an operand.
  for (const std::string text : {"0 - (-5)", "0 - (- 5)"}) {
    EXPECT_THROW(parse_and_evaluate(text, table), Error) << text;
    ++checked;
  }
  std::printf("[ checked ] %d parenthesized negations\n", checked);
}
