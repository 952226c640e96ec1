#include "notation.hpp"

#include <cctype>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "checked_math.hpp"
#include "descriptor.hpp"
#include "enumeration_budget.hpp"
#include "equality.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

class Parser {
 public:
  Parser(std::string_view text, const FunctionTable* functions) : text_(text), functions_(functions) {}

  Value parse_complete() {
    skip_ws();
    if (at_end()) fail("empty input: expected an expression");
    Value v = parse_comparison();
    skip_ws();
    if (!at_end()) fail(std::string("unexpected trailing text starting with '") + peek() + "'");
    // A bare word means something only as an argument (an atom name, an enum word): on its
    // own it is most likely a misspelt function or value, so it is not echoed back.
    if (v.is_symbol())
      throw ParseError(1, "unknown name '" + std::get<Symbol>(v.data).name +
                              "' (a bare word is only meaningful as an argument, e.g. an MMA atom name)");
    return v;
  }

 private:
  std::string_view text_;
  const FunctionTable* functions_;
  std::size_t pos_ = 0;
  std::size_t nesting_ = 0;  // nesting levels being parsed (see NestingGuard)
  // Where the stride tree being parsed has its first F2 leaf and its first integer leaf.
  struct StrideKinds {
    std::optional<std::size_t> first_f2, first_integer;
  };
  StrideKinds stride_kinds_;

  // Nesting deeper than this is rejected, so that bad input cannot exhaust the stack (here or
  // in the recursive IntTuple operations that follow).
  static constexpr std::size_t kMaxNesting = kMaxExpressionNesting;

  // Counts one level of nesting (a '(' or a composition's term) at `open` while alive.
  struct NestingGuard {
    Parser& p;
    NestingGuard(Parser& parser, std::size_t open) : p(parser) {
      if (++p.nesting_ > kMaxNesting)
        p.fail_at(open, "expression nested deeper than " + std::to_string(kMaxNesting) + " levels");
    }
    ~NestingGuard() { --p.nesting_; }
  };

  bool at_end() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  std::size_t column() const { return pos_ + 1; }
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(column(), what); }
  [[noreturn]] void fail_at(std::size_t pos, const std::string& what) const { throw ParseError(pos + 1, what); }

  void skip_ws() {
    while (!at_end() && (peek() == ' ' || peek() == '\t')) ++pos_;
  }
  std::string describe_next() const {
    if (at_end()) return "end of input";
    return std::string("'") + peek() + "'";
  }
  void expect(char c, const std::string& context) {
    skip_ws();
    if (peek() != c) fail(std::string("expected '") + c + "' " + context + ", found " + describe_next());
    ++pos_;
  }

  // Runs `f`, turning an evaluation Error into one that names the column of `start`.
  template <class F>
  Value evaluating_at(std::size_t start, F&& f) {
    try {
      return f();
    } catch (const ParseError&) {
      throw;
    } catch (const Error& e) {
      throw Error("column " + std::to_string(start + 1) + ": " + e.what());
    }
  }

  Value parse_comparison() {
    const std::size_t start = pos_;
    Value lhs = parse_postfix();
    skip_ws();
    if (peek() == '=' && peek(1) == '=') {
      pos_ += 2;
      skip_ws();
      if (at_end()) fail("expected an expression after '=='");
      Value rhs = parse_postfix();
      return evaluating_at(start, [&] { return Value(functional_equal(lhs, rhs)); });
    }
    return lhs;
  }

  // primary { "(" args ")" }: application or slicing of a layout / swizzle.
  Value parse_postfix() {
    const std::size_t start = pos_;
    Value v = parse_primary();
    for (;;) {
      skip_ws();
      if (peek() != '(') return v;
      const std::size_t open = pos_;
      std::vector<Value> args = parse_arguments("of an application");
      if (!functions_) fail_at(open, "application is not allowed in a literal");
      v = evaluating_at(start, [&] { return apply_value(v, args); });
    }
  }

  Value apply_value(const Value& target, const std::vector<Value>& args) {
    std::vector<Value> call_args{target};
    if (args.size() == 1) call_args.push_back(args[0]);
    else call_args.push_back(make_tuple_value(args));
    const FunctionSpec* spec = functions_->find("__apply__");
    if (!spec) throw Error("application is not available");
    return spec->call(call_args);
  }

  // "(" [expr {"," expr}] ")"
  std::vector<Value> parse_arguments(const std::string& context) {
    skip_ws();
    const std::size_t open = pos_;
    expect('(', context);
    NestingGuard guard(*this, open);
    std::vector<Value> args;
    skip_ws();
    if (peek() == ')') {
      ++pos_;
      return args;
    }
    for (;;) {
      skip_ws();
      if (at_end()) fail_at(open, "unbalanced '(': no matching ')' before end of input");
      args.push_back(parse_comparison());
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ')') {
        ++pos_;
        return args;
      }
      if (at_end()) fail_at(open, "unbalanced '(': no matching ')' before end of input");
      fail("expected ',' or ')' " + context + ", found " + describe_next());
    }
  }

  static bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
  static bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

  Value parse_primary() {
    skip_ws();
    if (at_end()) fail("expected an expression, found end of input");
    const char c = peek();
    if (c == '(') {
      const std::size_t start = pos_;
      return maybe_layout(parse_tuple(), start);
    }
    if (c == '_' || c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      const std::size_t start = pos_;
      IntTuple leaf = parse_int_leaf_or_underscore();
      skip_ws();
      if (peek() == '@' || peek() == '/') fail("a scaled basis is only allowed as a stride");
      return maybe_layout(Value(leaf), start);
    }
    if (is_ident_start(c)) return parse_identifier_form();
    if (c == ')') fail("unbalanced ')': no matching '('");
    refuse_dynamic_placeholder();
    fail(std::string("expected an integer, '_', '(' or a name, found '") + c + "'");
  }

  // A tuple literal or parenthesized list of expressions.
  Value parse_tuple() {
    const std::size_t open = pos_;
    std::vector<Value> elements = parse_arguments("in a tuple");
    (void)open;
    return make_tuple_value(std::move(elements));
  }

  // shape ":" stride, if a ':' follows an integer tuple.
  Value maybe_layout(Value shape_value, std::size_t shape_start) {
    skip_ws();
    if (peek() != ':') return shape_value;
    const std::size_t colon = pos_;
    if (!shape_value.is_int_tuple()) fail("a layout's shape must be an integer tuple, not " + shape_value.kind_name());
    ++pos_;
    const IntTuple& shape = std::get<IntTuple>(shape_value.data);
    if (shape.has_underscore()) fail_at(colon, "a layout's shape cannot contain '_'");
    const std::size_t stride_start = pos_;
    skip_ws();
    const std::size_t stride_col = pos_;
    stride_kinds_ = {};
    IntTuple stride = parse_stride_tree();
    const bool f2_strides = stride_kinds_.first_f2.has_value();
    (void)stride_start;
    check_shape_leaves(shape, shape_start, colon);
    if (!congruent(shape, stride))
      fail_at(stride_col, "stride " + stride.to_string() + " is not congruent with shape " + shape.to_string());
    if (f2_strides) return Value(F2Layout(shape, stride));
    return Value(Layout(shape, stride));
  }

  // Rejects a shape leaf < 1, pointing at that leaf's literal in the shape's text
  // [shape_start, colon); if the shape was not written as literals (a call inside it), at the
  // ':'.
  void check_shape_leaves(const IntTuple& shape, std::size_t shape_start, std::size_t colon) {
    std::vector<IntTuple> leaves;
    flatten_into(shape, leaves);
    for (std::size_t k = 0; k < leaves.size(); ++k) {
      if (leaves[k].value() >= 1) continue;
      fail_at(literal_position(shape_start, colon, k).value_or(colon),
              "shape leaf " + leaves[k].to_string() + " must be a positive integer (CuTe has no empty or negative modes)");
    }
  }

  // Position of the k-th integer literal in text_[begin, end), if that text holds only
  // literals, parentheses, commas and blanks.
  std::optional<std::size_t> literal_position(std::size_t begin, std::size_t end, std::size_t k) const {
    std::size_t seen = 0;
    for (std::size_t p = begin; p < end;) {
      const char c = text_[p];
      if (c == '(' || c == ')' || c == ',' || c == ' ' || c == '\t') {
        ++p;
        continue;
      }
      if (c != '_' && c != '-' && !std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      if (seen++ == k) return p;
      ++p;
      while (p < end && (text_[p] == '-' || std::isdigit(static_cast<unsigned char>(text_[p])))) ++p;
    }
    return std::nullopt;
  }

  std::int64_t parse_digits(bool negative) {
    const std::size_t start = pos_;
    if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected a digit, found " + describe_next());
    // Accumulate as a negative number to reach INT64_MIN.
    std::int64_t v = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      const int d = peek() - '0';
      if (v < (std::numeric_limits<std::int64_t>::min() + d) / 10)
        fail_at(start, "integer literal too large for 64 bits");
      v = v * 10 - d;
      ++pos_;
    }
    if (!negative) {
      if (v == std::numeric_limits<std::int64_t>::min()) fail_at(start, "integer literal too large for 64 bits");
      v = -v;
    }
    return v;
  }

  // The CuTe DSL prints an integer known only at run time as '?': there is no value to
  // compute with, so it is refused with what to write instead.
  void refuse_dynamic_placeholder() {
    if (peek() == '?')
      fail("'?' is how the CuTe DSL prints an integer known only at run time; it has no value here: "
           "write the run-time value (e.g. 8 for a dynamic 8)");
  }

  // ["_"] ["-"] digits | "_"
  IntTuple parse_int_leaf_or_underscore() {
    skip_ws();
    bool is_static = false;
    if (peek() == '_') {
      ++pos_;
      is_static = true;
      if (peek() != '-' && !std::isdigit(static_cast<unsigned char>(peek()))) return IntTuple::underscore();
    }
    bool negative = false;
    if (peek() == '-') {
      negative = true;
      ++pos_;
    }
    return IntTuple::integer(parse_digits(negative), is_static);
  }

  // A stride tree: integers, scaled bases, tuples of them.
  IntTuple parse_stride_tree() {
    skip_ws();
    if (peek() == '(') {
      const std::size_t open = pos_;
      NestingGuard guard(*this, open);
      ++pos_;
      std::vector<IntTuple> elems;
      skip_ws();
      if (peek() == ')') {
        ++pos_;
        return IntTuple::tuple(std::move(elems));
      }
      for (;;) {
        elems.push_back(parse_stride_tree());
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        if (peek() == ')') {
          ++pos_;
          return IntTuple::tuple(std::move(elems));
        }
        if (at_end()) fail_at(open, "unbalanced '(': no matching ')' before end of input");
        fail("expected ',' or ')' in a stride tuple, found " + describe_next());
      }
    }
    const std::size_t start = pos_;
    refuse_dynamic_placeholder();
    if (peek() == 'F') return parse_f2_stride_leaf();
    if (peek() != '_' && peek() != '-' && !std::isdigit(static_cast<unsigned char>(peek())))
      fail("expected a stride (integer, scaled basis, F2 value `F9` or tuple), found " + describe_next());
    IntTuple leaf = parse_int_leaf_or_underscore();
    if (leaf.is_underscore()) fail_at(start, "'_' is not a stride");
    std::int64_t value = leaf.value();
    skip_ws();
    if (peek() == '/') {
      ++pos_;
      skip_ws();
      const std::size_t den_pos = pos_;
      std::int64_t den = parse_digits(false);
      if (den == 0) fail_at(den_pos, "zero denominator in a scaled-basis count");
      if (value % den != 0)
        fail_at(start, "rational stride " + std::to_string(value) + "/" + std::to_string(den) +
                           " does not normalize to an integer");
      value /= den;
      skip_ws();
      if (peek() != '@') fail("expected '@' after a fractional count (a fraction is only allowed in a scaled basis)");
    }
    std::vector<int> path;
    while (peek() == '@') {
      if (path.size() == kMaxBasisIndices)
        fail("a scaled basis with more than " + std::to_string(kMaxBasisIndices) + " indices ('@')");
      ++pos_;
      skip_ws();
      const std::size_t dim_pos = pos_;
      std::int64_t d = parse_digits(false);
      if (d > 1024) fail_at(dim_pos, "basis dimension " + std::to_string(d) + " is too large (at most 1024)");
      path.push_back(static_cast<int>(d));
      skip_ws();
    }
    // A zero integer stride is F0 among F2 strides (PyCuTe adds an F2 to the integer 0); any
    // other integer or scaled basis is not.
    if (value != 0 || !path.empty()) {
      if (stride_kinds_.first_f2) fail_mixed_strides(start);
      if (!stride_kinds_.first_integer) stride_kinds_.first_integer = start;
    }
    return IntTuple::basis(value, std::move(path), leaf.is_static());
  }

  // PyCuTe's F2 stride `F9` (model/f2/f2_layout.hpp): stored as the integer leaf 9; the layout
  // it belongs to becomes an F2Layout (maybe_layout). Every stride of one layout is an F2 value
  // (or the integer 0, F0) or none is: PyCuTe cannot add an F2 to a non-zero integer either.
  IntTuple parse_f2_stride_leaf() {
    const std::size_t start = pos_;
    if (stride_kinds_.first_integer) fail_mixed_strides(*stride_kinds_.first_integer);
    if (!stride_kinds_.first_f2) stride_kinds_.first_f2 = start;
    ++pos_;
    if (!std::isdigit(static_cast<unsigned char>(peek())))
      fail("expected the digits of an F2 stride (e.g. F9), found " + describe_next());
    const std::int64_t value = parse_digits(false);
    skip_ws();
    if (peek() == '@') fail("an F2 stride cannot be a scaled basis");
    return IntTuple::integer(value);
  }

  [[noreturn]] void fail_mixed_strides(std::size_t at) {
    fail_at(at, "a layout's strides are all F2 values (`F9`, or 0) or all integers: F2 and non-zero integer "
                "strides cannot be mixed (an F2 value and a non-zero integer have no sum)");
  }

  std::string parse_identifier() {
    const std::size_t start = pos_;
    while (is_ident_char(peek())) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  Value parse_identifier_form() {
    const std::size_t start = pos_;
    const std::string name = parse_identifier();
    // Sw<B,M,S> is CuTe C++'s print of a swizzle, S<B,M,S> the CuTe DSL's.
    if ((name == "Sw" || name == "S") && peek() == '<') return parse_swizzle_form(start);
    if (name == "descriptor") return parse_descriptor_form();
    if (name == "smem_ptr") fail_at(start, "an smem_ptr token is only allowed as the offset of a composed layout");
    if (name == "LayoutLeft") return Value(MajorTag{false});
    if (name == "LayoutRight") return Value(MajorTag{true});
    if (!functions_) fail_at(start, "expected a literal, found the name '" + name + "'");
    const FunctionSpec* spec = name.rfind("__", 0) == 0 ? nullptr : functions_->find(name);
    skip_ws();
    if (peek() != '(') {
      // A bare word that is not a call is a Symbol (an atom name or an enum word); CuTe's
      // template arguments `<K,MN>` stay part of it, without blanks.
      if (spec) fail("expected '(' after the function name '" + name + "'");
      return Value(Symbol{name + parse_dotted_suffix() + parse_template_arguments()});
    }
    if (!spec) fail_at(start, "unknown function '" + name + "'");
    std::vector<Value> args = parse_arguments("in the arguments of " + name);
    if (args.size() < spec->min_args || args.size() > spec->max_args)
      fail_at(start, name + ": wrong number of arguments: got " + std::to_string(args.size()) + ", expected " +
                         spec->signature);
    return evaluating_at(start, [&] { return spec->call(args); });
  }

  // descriptor GROUP: a layout descriptor (descriptor.hpp) in its own grammar, whose value
  // is its normalized stride tree. Diagnostics keep their columns in the whole line.
  Value parse_descriptor_form() {
    skip_ws();
    if (peek() != '(') fail("expected '(' after 'descriptor' (a descriptor is a group such as (1@0, 1@1))");
    Descriptor d = parse_descriptor_group(text_, pos_);
    return Value(to_stride(d));
  }

  // A PTX instruction spelling continues a bare word with ".word" parts (ld.shared.v4.b32,
  // ldmatrix.x4.trans): returned verbatim ("" if absent).
  std::string parse_dotted_suffix() {
    std::string out;
    while (peek() == '.' && pos_ + 1 < text_.size() && is_ident_char(text_[pos_ + 1])) {
      out += '.';
      ++pos_;
      out += parse_identifier();
    }
    return out;
  }

  // ["<" words separated by "," ">"], returned verbatim without blanks ("" if absent).
  std::string parse_template_arguments() {
    if (peek() != '<') return "";
    const std::size_t open = pos_;
    std::string out = "<";
    ++pos_;
    while (!at_end() && peek() != '>') {
      const char c = peek();
      if (!(is_ident_char(c) || c == ',' || c == ':' || c == ' ' || c == '\t'))
        fail(std::string("unexpected '") + c + "' in template arguments");
      if (c != ' ' && c != '\t') out += c;
      ++pos_;
    }
    if (at_end()) fail_at(open, "unbalanced '<': no matching '>' before end of input");
    ++pos_;
    return out + ">";
  }

  int parse_small_int(const std::string& what) {
    skip_ws();
    const std::size_t start = pos_;
    bool negative = false;
    if (peek() == '-') {
      negative = true;
      ++pos_;
    }
    std::int64_t v = parse_digits(negative);
    if (v < -64 || v > 64) fail_at(start, what + " " + std::to_string(v) + " is out of range [-64, 64]");
    return static_cast<int>(v);
  }

  Value parse_swizzle_form(std::size_t start) {
    ++pos_;  // '<'
    int b = parse_small_int("swizzle B");
    expect(',', "between swizzle parameters");
    int m = parse_small_int("swizzle M");
    expect(',', "between swizzle parameters");
    int s = parse_small_int("swizzle S");
    skip_ws();
    if (peek() != '>' && text_[start + 1] == '<' && s < 0)  // spelled S<...>, the DSL's way
      fail("expected '>' closing the swizzle parameters (the CuTe DSL 4.8.1 prints a swizzle with a negative "
           "shift without it: write S<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + ">)");
    expect('>', "closing the swizzle parameters");
    Swizzle sw = [&] {
      try {
        return Swizzle(b, m, s);
      } catch (const ParseError&) {
        throw;
      } catch (const Error& e) {
        throw ParseError(start + 1, e.what());
      }
    }();
    skip_ws();
    if (!(peek() == 'o' && !is_ident_char(peek(1)))) return Value(sw);
    ++pos_;
    skip_ws();
    NestingGuard guard(*this, pos_);  // `Sw o Sw o ...` recurses without parentheses
    std::optional<ComposedOffset> offset;
    if (text_.substr(pos_, 8) == "smem_ptr") {
      offset = parse_smem_ptr();
      expect_composition_o();
    }
    const std::size_t term_pos = pos_;
    Value term = parse_primary();
    skip_ws();
    if (!offset && term.is_int_tuple() && peek() == 'o' && !is_ident_char(peek(1))) {
      const IntTuple& t = std::get<IntTuple>(term.data);
      if (!t.is_integer()) fail_at(term_pos, "the offset of a composed layout must be an integer");
      offset = ComposedOffset{t, "", 0};
      expect_composition_o();
      skip_ws();
      const std::size_t layout_pos = pos_;
      term = parse_primary();
      if (!term.is_layout()) fail_at(layout_pos, "expected a layout after the offset of a composed layout");
    }
    if (!term.is_layout()) fail_at(term_pos, "expected a layout (or an offset) after 'o' in a composed layout, found " + term.kind_name());
    return Value(ComposedLayout{sw, offset, std::get<Layout>(term.data)});
  }

  void expect_composition_o() {
    skip_ws();
    if (!(peek() == 'o' && !is_ident_char(peek(1))))
      fail("expected 'o' (composition) after the offset of a composed layout, found " + describe_next());
    ++pos_;
    skip_ws();
  }

  // smem_ptr[16b](unset): the vendor's print of a swizzled smem pointer flag.
  ComposedOffset parse_smem_ptr() {
    const std::size_t start = pos_;
    pos_ += 8;
    if (peek() != '[') fail("expected '[' after smem_ptr");
    ++pos_;
    const std::size_t bits_pos = pos_;
    std::int64_t bits = parse_digits(false);
    if (peek() != 'b') fail("expected 'b' after the element width of smem_ptr");
    ++pos_;
    if (peek() != ']') fail("expected ']' after the element width of smem_ptr");
    ++pos_;
    if (bits < 1 || bits > 1024) fail_at(bits_pos, "smem_ptr element width must be in [1, 1024] bits");
    if (peek() != '(') fail("expected '(' after smem_ptr[...]");
    const std::size_t open = pos_;
    ++pos_;
    // CuTe prints its unset pointer flag (smem_ptr_flag_bits, pointer_flagged.hpp) as exactly
    // `smem_ptr[Nb](unset)`; nothing else stands in a composed layout's offset.
    static constexpr std::string_view unset = "unset)";
    for (std::size_t k = 0; k < unset.size(); ++k, ++pos_) {
      if (at_end()) fail_at(open, "unbalanced '(' in smem_ptr token (CuTe prints smem_ptr[Nb](unset))");
      if (peek() != unset[k])
        fail(std::string("expected '") + unset[k] + "' of smem_ptr[" + std::to_string(bits) +
             "b](unset) (the only pointer CuTe prints as a composed layout's offset), found " + describe_next());
    }
    return ComposedOffset{std::nullopt, std::string(text_.substr(start, pos_ - start)), static_cast<int>(bits)};
  }
};

}  // namespace

Value parse_and_evaluate(std::string_view text, const FunctionTable* functions) {
  if (text.size() > kMaxExpressionBytes)
    throw ParseError(kMaxExpressionBytes + 1, "the expression is " + std::to_string(text.size()) +
                                                  " bytes, longer than the limit of " +
                                                  std::to_string(kMaxExpressionBytes) + " bytes");
  const EnumerationBudgetScope budget;
  return Parser(text, functions).parse_complete();
}

IntTuple parse_int_tuple(std::string_view text) {
  Value v = parse_and_evaluate(text, nullptr);
  if (!v.is_int_tuple()) throw ParseError(1, "expected an integer tuple, found " + v.kind_name());
  return std::get<IntTuple>(v.data);
}

Layout parse_layout(std::string_view text) {
  Value v = parse_and_evaluate(text, nullptr);
  if (!v.is_layout()) throw ParseError(1, "expected a layout, found " + v.kind_name());
  return std::get<Layout>(v.data);
}

}  // namespace cuteref
