#include "parser.hpp"

#include <cctype>
#include <limits>

#include "descriptor.hpp"
#include "error.hpp"
#include "input_limits.hpp"

namespace cuteref {

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

}  // namespace

// Builds the tree bottom-up: a parsed node is a value on the C++ stack or on `pending`; making
// a node with children moves them from `pending` into the pool as one run.
class TreeParser {
 public:
  // parse_text's body (TreeParser may reach the tree's storage).
  static void parse_into(std::string_view text, ParseMode mode, const FunctionTable* functions, SyntaxTree& tree);

  // @pre tree's storage is cleared; the text is copied into it (the names are views of it).
  TreeParser(SyntaxTree::Storage& storage, std::string_view text, ParseMode mode, const FunctionTable* functions)
      : s_(storage), mode_(mode), functions_(mode == ParseMode::Literal ? nullptr : functions) {
    s_.text.assign(text.data(), text.size());
    text_ = s_.text;
  }

  // Parses the whole text; the root is appended to the pool last.
  void parse_complete() {
    skip_ws();
    if (at_end()) fail("empty input: expected an expression");
    const Node n = relation();
    skip_ws();
    if (!at_end()) fail(std::string("unexpected trailing text starting with '") + peek() + "'");
    s_.nodes.push_back(n);
  }

 private:
  SyntaxTree::Storage& s_;
  std::string_view text_;
  ParseMode mode_;
  const FunctionTable* functions_;
  std::size_t pos_ = 0;
  std::size_t nesting_ = 0;
  // Inside the stride of a layout (scaled bases and F2 values are leaves there), and where its
  // first F2 leaf and first non-zero integer leaf are (they cannot be mixed).
  bool in_stride_ = false;
  std::optional<std::size_t> first_f2_, first_integer_;

  // Counts one level of nesting at `open` while alive, so that no text exhausts the stack
  // (here or in the recursive evaluation that follows).
  struct NestingGuard {
    TreeParser& p;
    NestingGuard(TreeParser& parser, std::size_t open) : p(parser) {
      if (++p.nesting_ > kMaxExpressionNesting)
        p.fail_at(open, "expression nested deeper than " + std::to_string(kMaxExpressionNesting) + " levels");
    }
    ~NestingGuard() { --p.nesting_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;
  };

  bool at_end() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(pos_ + 1, what); }
  [[noreturn]] void fail_at(std::size_t pos, const std::string& what) const { throw ParseError(pos + 1, what); }
  void skip_ws() {
    while (!at_end() && (peek() == ' ' || peek() == '\t')) ++pos_;
  }
  std::string describe_next() const { return at_end() ? "end of input" : std::string("'") + peek() + "'"; }
  void expect(char c, const std::string& context) {
    skip_ws();
    if (peek() != c) fail(std::string("expected '") + c + "' " + context + ", found " + describe_next());
    ++pos_;
  }
  bool composition_o_next() const { return peek() == 'o' && !is_ident_char(peek(1)); }

  static Node make(Node::Kind kind, std::size_t offset) {
    Node n;
    n.kind = kind;
    n.offset = offset;
    return n;
  }
  // `n` with the children pending above `base` (in order), which move into the pool.
  Node adopt(Node n, std::size_t base) {
    const std::size_t count = s_.pending.size() - base;
    const std::size_t first = s_.nodes.size();
    if (first + count > std::numeric_limits<std::uint32_t>::max())
      fail("the expression has more nodes than the parser can hold");
    s_.nodes.insert(s_.nodes.end(), s_.pending.begin() + static_cast<std::ptrdiff_t>(base), s_.pending.end());
    s_.pending.resize(base);
    n.children = NodeRange(&s_.nodes, static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(count));
    return n;
  }
  std::size_t pending_mark() const { return s_.pending.size(); }
  void pend(const Node& n) { s_.pending.push_back(n); }
  Node binary(Node::Kind kind, std::string_view op, const Node& lhs, const Node& rhs) {
    const std::size_t base = pending_mark();
    pend(lhs);
    pend(rhs);
    Node n = make(kind, lhs.offset);
    n.name = op;
    return adopt(n, base);
  }
  // A name not spelt as one piece of the text, kept by the tree.
  std::string_view keep(std::string name) {
    s_.names.push_back(std::move(name));
    return s_.names.back();
  }
  const Node::Payload* keep(Node::Payload payload) {
    s_.payloads.push_back(std::move(payload));
    return &s_.payloads.back();
  }

  // ---- relations and arithmetic (C++'s precedence) ----------------------------------

  Node relation() {
    Node lhs = expr();
    skip_ws();
    static constexpr const char* kOps[] = {"==", "!=", "<=", ">=", "<", ">"};
    for (const char* op : kOps) {
      const std::string_view o(op);
      if (text_.substr(pos_, o.size()) != o) continue;
      if (o == "<" && peek(1) == '<') break;
      if (o == ">" && peek(1) == '>') break;
      if (mode_ == ParseMode::Literal) fail("a comparison is not allowed in a literal");
      if (o != "==" && mode_ != ParseMode::Hypothesis)
        fail("'" + std::string(o) + "' compares only in a hypothesis (--assume); an expression compares with '=='");
      pos_ += o.size();
      skip_ws();
      if (at_end()) fail("expected an expression after '" + std::string(o) + "'");
      const Node rhs = expr();
      return binary(Node::Kind::Compare, o, lhs, rhs);
    }
    return lhs;
  }

  // bitor [":" stride] {"(" args ")"}
  Node expr() {
    const Node shape = bit_or();
    skip_ws();
    if (peek() != ':') return shape;
    return applications(layout(shape, &TreeParser::bit_or));
  }

  // SHAPE ":" STRIDE with the ':' next, the stride read by `operand` (bit_or in an expression,
  // primary in a composed layout's term) as a stride: its leaves may be scaled bases and F2
  // values, which cannot be mixed with non-zero integers in one layout.
  Node layout(const Node& shape, Node (TreeParser::*operand)()) {
    const std::size_t colon = pos_;
    ++pos_;
    const bool outer = !in_stride_;
    if (outer) first_f2_.reset(), first_integer_.reset();
    in_stride_ = true;
    skip_ws();
    const Node stride = (this->*operand)();
    if (outer) in_stride_ = false;
    Node n = binary(Node::Kind::Layout, {}, shape, stride);
    n.colon = colon;
    return n;
  }

  Node applications(Node target) {
    for (;;) {
      skip_ws();
      if (peek() != '(') return target;
      if (mode_ == ParseMode::Literal) fail("application is not allowed in a literal");
      const std::size_t base = pending_mark();
      pend(target);
      arguments("of an application");
      target = adopt(make(Node::Kind::Apply, target.offset), base);
    }
  }

  // The binary operator at pos_ and its precedence (C++'s: | 1, ^ 2, & 3, << >> 4, + - 5,
  // * / % 6), as its one-character code (<< is 'L', >> 'R'); 0 where none starts. `<` or `>`
  // alone is not one.
  int binary_operator(char& code) const {
    switch (peek()) {
      case '|': code = '|'; return 1;
      case '^': code = '^'; return 2;
      case '&': code = '&'; return 3;
      case '<': code = 'L'; return peek(1) == '<' ? 4 : 0;
      case '>': code = 'R'; return peek(1) == '>' ? 4 : 0;
      case '+': case '-': code = peek(); return 5;
      case '*': case '/': case '%': code = peek(); return 6;
      default: return 0;
    }
  }

  // Operands joined by operators of precedence >= `lowest`, by precedence climbing: each run of
  // one precedence is one Binary chain (left-associative), its operands of higher precedence.
  Node arithmetic(int lowest) {
    Node lhs = unary();
    for (;;) {
      skip_ws();
      char code = 0;
      const int level = binary_operator(code);
      if (level == 0 || level < lowest) return lhs;
      if (mode_ == ParseMode::Literal) fail("arithmetic is not allowed in a literal");
      const std::size_t base = pending_mark();
      pend(lhs);
      std::string ops;
      for (;;) {
        const std::size_t at = pos_;
        pos_ += (code == 'L' || code == 'R') ? 2 : 1;
        skip_ws();
        if (at_end()) fail_at(at, "expected an operand after '" + binary_operator_text(code) + "'");
        ops.push_back(code);
        pend(arithmetic(level + 1));
        skip_ws();
        char next = 0;
        if (binary_operator(next) != level) break;
        code = next;
      }
      Node chain = make(Node::Kind::Binary, lhs.offset);
      chain.name = keep(std::move(ops));
      lhs = adopt(chain, base);
    }
  }
  Node bit_or() { return arithmetic(1); }
  Node shift() { return arithmetic(4); }

  Node unary() {
    skip_ws();
    if (peek() == '-' && !is_digit(peek(1))) {
      if (mode_ == ParseMode::Literal) fail("arithmetic is not allowed in a literal");
      const std::size_t at = pos_;
      NestingGuard guard(*this, at);
      ++pos_;
      const std::size_t base = pending_mark();
      pend(unary());
      return adopt(make(Node::Kind::Negate, at), base);
    }
    return postfix();
  }

  // primary {"(" args ")"}: a literal tuple or integer is not applied (the ':' of a layout may
  // follow it, and then the layout is).
  Node postfix() {
    const Node n = primary();
    if (n.kind == Node::Kind::Tuple || n.kind == Node::Kind::Literal || n.kind == Node::Kind::Integer ||
        n.kind == Node::Kind::Group ||
        n.kind == Node::Kind::Basis || n.kind == Node::Kind::F2Stride || (n.kind == Node::Kind::Word && n.is_variable_word()))
      return n;
    return applications(n);
  }

  // "(" [relation {"," relation}] ")" with the '(' next: the arguments are pending, their
  // number returned. `context` and `name` together say where (for a diagnostic).
  std::size_t arguments(std::string_view context, std::string_view name = {}) {
    skip_ws();
    const std::size_t open = pos_;
    if (peek() != '(') expect('(', std::string(context) + std::string(name));
    ++pos_;
    NestingGuard guard(*this, open);
    const bool stride_outside = in_stride_;
    in_stride_ = false;  // a call's or application's arguments are expressions of their own
    std::size_t count = 0;
    skip_ws();
    if (peek() == ')') {
      ++pos_;
      in_stride_ = stride_outside;
      return count;
    }
    for (;;) {
      skip_ws();
      if (at_end()) fail_at(open, "unbalanced '(': no matching ')' before end of input");
      pend(mode_ == ParseMode::Literal ? expr() : relation_in_argument());
      ++count;
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ')') {
        ++pos_;
        in_stride_ = stride_outside;
        return count;
      }
      if (at_end()) fail_at(open, "unbalanced '(': no matching ')' before end of input");
      fail("expected ',' or ')' " + std::string(context) + std::string(name) + ", found " + describe_next());
    }
  }
  // An argument may compare with `==` (EXPR's `f(A == B)`), never with the hypothesis operators.
  Node relation_in_argument() {
    const ParseMode saved = mode_;
    if (mode_ == ParseMode::Hypothesis) mode_ = ParseMode::Expression;
    Node n = relation();
    mode_ = saved;
    return n;
  }

  // A tuple's elements, pending; their number returned. Inside a stride they stay stride leaves.
  std::size_t tuple_elements(std::size_t open) {
    NestingGuard guard(*this, open);
    ++pos_;
    std::size_t count = 0;
    skip_ws();
    if (peek() == ')') {
      ++pos_;
      return count;
    }
    for (;;) {
      skip_ws();
      if (at_end()) fail_at(open, "unbalanced '(': no matching ')' before end of input");
      pend(mode_ == ParseMode::Literal || in_stride_ ? expr() : relation_in_argument());
      ++count;
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ')') {
        ++pos_;
        return count;
      }
      if (at_end()) fail_at(open, "unbalanced '(': no matching ')' before end of input");
      fail(std::string("expected ',' or ')' ") + (in_stride_ ? "in a stride tuple" : "in a tuple") + ", found " +
           describe_next());
    }
  }

  // ---- primaries -----------------------------------------------------------------------

  // An arithmetic result, which `(n)` groups: a binary operation, a group, or a negation of
  // one. A negated operand (`-x`, `- 5`, `-size(L)`) is not: `(-x)` is a 1-tuple as `(x)`
  // and `(-5)` are, so that writing a variable's value in its place keeps the meaning (CuTe
  // prints the 1-tuple of -5 as `(-5)`).
  static bool is_arithmetic(Node n) {
    while (n.kind == Node::Kind::Negate) n = n.children[0];
    return n.kind == Node::Kind::Binary || n.kind == Node::Kind::Group;
  }

  Node primary() {
    skip_ws();
    if (at_end()) fail("expected an expression, found end of input");
    const char c = peek();
    const std::size_t start = pos_;
    if (c == '(') {
      if (std::optional<Node> literal = literal_tuple()) return *literal;
      const std::size_t base = pending_mark();
      const std::size_t count = tuple_elements(start);
      const bool group = count == 1 && is_arithmetic(s_.pending.back());
      return adopt(make(group ? Node::Kind::Group : Node::Kind::Tuple, start), base);
    }
    if (is_ident_start(c) || (c == '_' && (is_ident_start(peek(1)) || peek(1) == '_'))) return identifier_form();
    if (c == '_' || c == '-' || is_digit(c)) return in_stride_ ? stride_leaf() : integer_literal(true);
    if (c == ')') fail("unbalanced ')': no matching '('");
    refuse_dynamic_placeholder();
    fail(std::string("expected an integer, '_', '(' or a name, found '") + c + "'");
  }

  // A tuple of integer literals only, read straight into its IntTuple; nullopt, with pos_
  // unchanged, where anything else appears in it (then the general path reads it). Its value is
  // what the general path gives; it only spares a node per leaf.
  std::optional<Node> literal_tuple() {
    const std::size_t start = pos_;
    const std::size_t first_offset = s_.leaf_offsets.size();
    s_.pending_leaves.clear();
    if (!literal_tuple_at(0)) {
      pos_ = start;
      s_.pending_tuples.clear();
      s_.leaf_offsets.resize(first_offset);
      return std::nullopt;
    }
    const std::size_t leaves = s_.leaf_offsets.size() - first_offset;
    if (in_stride_)
      for (std::size_t k = 0; k < leaves; ++k)
        note_integer_leaf(s_.pending_leaves[k], false, s_.leaf_offsets[first_offset + k]);
    Node n = make(Node::Kind::Literal, start);
    n.payload = keep(Node::Payload{std::move(s_.pending_tuples.back()),
                                   LeafOffsets(&s_.leaf_offsets, first_offset, leaves), std::nullopt});
    s_.pending_tuples.pop_back();
    return n;
  }
  // Reads one literal tuple onto pending_tuples (its leaves' offsets onto leaf_offsets, their
  // values onto pending_leaves); false where anything else appears in it.
  bool literal_tuple_at(std::size_t depth) {
    if (nesting_ + depth + 1 > kMaxExpressionNesting) return false;  // the general path reports it
    ++pos_;  // '('
    const std::size_t base = s_.pending_tuples.size();
    skip_ws();
    if (peek() != ')') {
      for (;;) {
        skip_ws();
        if (peek() == '(') {
          if (!literal_tuple_at(depth + 1)) return false;
        } else {
          const std::size_t at = pos_;
          const bool is_static = peek() == '_';
          if (is_static) ++pos_;
          const bool negative = peek() == '-';
          if (negative) ++pos_;
          if (!is_digit(peek())) return false;
          const std::int64_t v = digits(negative);
          s_.leaf_offsets.push_back(at);
          s_.pending_leaves.push_back(v);
          s_.pending_tuples.push_back(IntTuple::integer(v, is_static));
        }
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        if (peek() != ')') return false;
        break;
      }
    }
    ++pos_;
    IntTuple t = IntTuple::tuple_moved(s_.pending_tuples.data() + base, s_.pending_tuples.size() - base);
    s_.pending_tuples.resize(base);
    s_.pending_tuples.push_back(std::move(t));
    return true;
  }

  std::int64_t digits(bool negative) {
    const std::size_t start = pos_;
    if (!is_digit(peek())) fail("expected a digit, found " + describe_next());
    std::int64_t v = 0;  // accumulated as a negative number to reach INT64_MIN
    while (is_digit(peek())) {
      const int d = peek() - '0';
      if (v < (std::numeric_limits<std::int64_t>::min() + d) / 10) fail_at(start, "integer literal too large for 64 bits");
      v = v * 10 - d;
      ++pos_;
    }
    if (!negative) {
      if (v == std::numeric_limits<std::int64_t>::min()) fail_at(start, "integer literal too large for 64 bits");
      v = -v;
    }
    return v;
  }

  // ["_"] ["-"] digits | "_". `refuse_basis`: outside a stride, a following '@' is an error.
  Node integer_literal(bool refuse_basis) {
    const std::size_t start = pos_;
    bool is_static = false;
    if (peek() == '_') {
      ++pos_;
      is_static = true;
      if (peek() != '-' && !is_digit(peek())) return make(Node::Kind::Underscore, start);
    }
    bool negative = false;
    if (peek() == '-') {
      negative = true;
      ++pos_;
    }
    Node n = make(Node::Kind::Integer, start);
    n.integer = digits(negative);
    n.is_static = is_static;
    if (refuse_basis) {
      skip_ws();
      if (peek() == '@') fail("a scaled basis is only allowed as a stride");
    }
    return n;
  }

  // An integer leaf of a stride, which may be a scaled basis: count ["/" den] "@" dim {"@" dim}.
  Node stride_leaf() {
    const std::size_t start = pos_;
    Node leaf = integer_literal(false);
    if (leaf.kind == Node::Kind::Underscore) fail_at(start, "'_' is not a stride");
    std::int64_t value = leaf.integer;
    skip_ws();
    if (peek() == '/') {
      // `1/2@0` is a scaled basis; `16/2` an integer division
      std::size_t k = pos_ + 1;
      while (k < text_.size() && (text_[k] == ' ' || text_[k] == '\t')) ++k;
      std::size_t d = k;
      while (d < text_.size() && is_digit(text_[d])) ++d;
      while (d < text_.size() && (text_[d] == ' ' || text_[d] == '\t')) ++d;
      if (d == k || d >= text_.size() || text_[d] != '@') {
        note_integer_leaf(value, false, start);
        return leaf;
      }
      ++pos_;
      skip_ws();
      const std::size_t den_pos = pos_;
      const std::int64_t den = digits(false);
      if (den == 0) fail_at(den_pos, "zero denominator in a scaled-basis count");
      if (value % den != 0)
        fail_at(start, "rational stride " + std::to_string(value) + "/" + std::to_string(den) +
                           " does not normalize to an integer");
      value /= den;
      skip_ws();
    }
    if (peek() != '@') {
      note_integer_leaf(value, false, start);
      return leaf;
    }
    std::vector<int> path;
    while (peek() == '@') {
      if (path.size() == kMaxBasisIndices)
        fail("a scaled basis with more than " + std::to_string(kMaxBasisIndices) + " indices ('@')");
      ++pos_;
      skip_ws();
      const std::size_t dim_pos = pos_;
      const std::int64_t d = digits(false);
      if (d > 1024) fail_at(dim_pos, "basis dimension " + std::to_string(d) + " is too large (at most 1024)");
      path.push_back(static_cast<int>(d));
      skip_ws();
    }
    note_integer_leaf(value, true, start);
    Node b = make(Node::Kind::Basis, start);
    b.payload = keep(Node::Payload{IntTuple::basis(value, std::move(path), leaf.is_static), {}, std::nullopt});
    return b;
  }

  // A zero integer stride is F0 among F2 strides (PyCuTe adds an F2 to the integer 0); any
  // other integer or scaled basis is not.
  void note_integer_leaf(std::int64_t value, bool is_basis, std::size_t at) {
    if (value == 0 && !is_basis) return;
    if (first_f2_) fail_mixed_strides(at);
    if (!first_integer_) first_integer_ = at;
  }

  // PyCuTe's F2 stride `F9`: the layout it belongs to is an F2 layout, its other strides F2
  // values or 0.
  Node f2_stride_leaf(std::size_t start) {
    if (first_integer_) fail_mixed_strides(*first_integer_);
    if (!first_f2_) first_f2_ = start;
    ++pos_;
    if (!is_digit(peek())) fail("expected the digits of an F2 stride (e.g. F9), found " + describe_next());
    Node n = make(Node::Kind::F2Stride, start);
    n.integer = digits(false);
    skip_ws();
    if (peek() == '@') fail("an F2 stride cannot be a scaled basis");
    return n;
  }

  [[noreturn]] void fail_mixed_strides(std::size_t at) {
    fail_at(at, "a layout's strides are all F2 values (`F9`, or 0) or all integers: F2 and non-zero integer "
                "strides cannot be mixed (an F2 value and a non-zero integer have no sum)");
  }

  // The CuTe DSL prints an integer known only at run time as '?': there is no value to compute
  // with, so it is refused with what to write instead.
  void refuse_dynamic_placeholder() {
    if (peek() == '?')
      fail("'?' is how the CuTe DSL prints an integer known only at run time; it has no value here: "
           "write the run-time value (e.g. 8 for a dynamic 8)");
  }

  std::string_view identifier() {
    const std::size_t start = pos_;
    while (is_ident_char(peek())) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  Node identifier_form() {
    const std::size_t start = pos_;
    if (in_stride_ && peek() == 'F' && (is_digit(peek(1)) || !is_ident_char(peek(1)))) {
      std::size_t k = pos_ + 1;
      while (k < text_.size() && is_digit(text_[k])) ++k;
      if (k >= text_.size() || !is_ident_char(text_[k])) return f2_stride_leaf(start);
    }
    const std::string_view name = identifier();
    const std::size_t after_name = pos_;
    skip_ws();
    // Sw<B,M,S> is CuTe C++'s print of a swizzle, S<B,M,S> the CuTe DSL's.
    if ((name == "Sw" || name == "S") && peek() == '<') return swizzle_form(start, name == "S");
    if (name == "descriptor") return descriptor_form(start);
    if (name == "smem_ptr") fail_at(start, "an smem_ptr token is only allowed as the offset of a composed layout");
    if (name == "LayoutLeft" || name == "LayoutRight") {
      Node n = make(Node::Kind::MajorTag, start);
      n.integer = name == "LayoutRight";
      return n;
    }
    if (mode_ == ParseMode::Literal) fail_at(start, "expected a literal, found the name '" + std::string(name) + "'");
    const FunctionSpec* spec = name.substr(0, 2) == "__" ? nullptr : functions_->find(name);
    // `8:a(x)`: in a stride, a word that names no function is a value, and the '(' applies the
    // layout.
    const bool stride_word = in_stride_ && !spec && std::islower(static_cast<unsigned char>(name[0]));
    if (peek() == '(' && !stride_word) {
      if (!spec) fail_at(start, "unknown function '" + std::string(name) + "'");
      const std::size_t base = pending_mark();
      const std::size_t count = arguments("in the arguments of ", name);
      if (count < spec->min_args || count > spec->max_args)
        fail_at(start, std::string(name) + ": wrong number of arguments: got " + std::to_string(count) +
                           ", expected " + spec->signature);
      Node call = make(Node::Kind::Call, start);
      call.name = name;
      return adopt(call, base);
    }
    if (spec) fail("expected '(' after the function name '" + std::string(name) + "'");
    // A bare word: CuTe's template arguments `<K,MN>` and a PTX spelling's ".part"s stay part
    // of it, without blanks.
    pos_ = after_name;
    Node w = make(Node::Kind::Word, start);
    skip_dotted_suffix();
    w.name = text_.substr(start, pos_ - start);
    const std::size_t before_template = pos_;
    skip_ws();
    if (peek() == '<' && peek(1) != '<' && template_arguments_apply(w.name)) {
      w.name = keep(std::string(w.name) + template_arguments());
      // A name with template arguments is an atom's, never applied (CuTe's get<I>(t) is mode(t, I)).
      const std::size_t after_template = pos_;
      skip_ws();
      if (peek() == '(')
        fail_at(start, "unknown function '" + std::string(w.name) + "' (an atom's name is not applied" +
                           (w.name.substr(0, 4) == "get<" ? "; CuTe's get<I>(t) is mode(t, I))" : ")"));
      pos_ = after_template;
    } else {
      pos_ = before_template;
    }
    return w;
  }

  // Whether a '<' after a word opens its template arguments: always in EXPR; in a hypothesis,
  // where `a < b` compares, only when a '>' closes a list of words first.
  bool template_arguments_apply(std::string_view word) const {
    if (mode_ != ParseMode::Hypothesis || std::isupper(static_cast<unsigned char>(word[0]))) return true;
    for (std::size_t k = pos_ + 1; k < text_.size(); ++k) {
      const char c = text_[k];
      if (c == '>') return true;
      if (!is_ident_char(c) && c != ',' && c != ':' && c != ' ' && c != '\t') return false;
    }
    return false;
  }

  // A PTX instruction spelling continues a word with ".word" parts (ld.shared.v4.b32).
  void skip_dotted_suffix() {
    while (peek() == '.' && pos_ + 1 < text_.size() && is_ident_char(text_[pos_ + 1])) {
      ++pos_;
      identifier();
    }
  }

  // "<" words separated by "," ">", returned verbatim without blanks.
  std::string template_arguments() {
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

  // descriptor GROUP: a layout descriptor in its own grammar (descriptor.hpp), whose value is
  // its normalized stride tree; its diagnostics keep their columns in the whole line.
  Node descriptor_form(std::size_t start) {
    skip_ws();
    if (peek() != '(') fail("expected '(' after 'descriptor' (a descriptor is a group such as (1@0, 1@1))");
    Node n = make(Node::Kind::Descriptor, start);
    n.payload = keep(Node::Payload{to_stride(parse_descriptor_group(text_, pos_)), {}, std::nullopt});
    return n;
  }

  // "<" B "," M "," S ">" ["o" [OFFSET "o"] LAYOUT]
  Node swizzle_form(std::size_t start, bool dsl_spelling) {
    ++pos_;  // '<'
    Node sw = make(Node::Kind::Swizzle, start);
    sw.dsl_spelling = dsl_spelling;
    const bool stride_outside = in_stride_;
    in_stride_ = false;
    const std::size_t parameters = pending_mark();
    for (int k = 0; k < 3; ++k) {
      if (k) expect(',', "between swizzle parameters");
      skip_ws();
      pend(shift());  // not `>`: it closes the list
    }
    sw = adopt(sw, parameters);
    in_stride_ = stride_outside;
    skip_ws();
    if (peek() != '>' && dsl_spelling && sw.children[2].kind == Node::Kind::Integer && sw.children[2].integer < 0)
      fail("expected '>' closing the swizzle parameters (the CuTe DSL 4.8.1 prints a swizzle with a negative "
           "shift without it: write S<" + std::to_string(sw.children[0].integer) + "," +
           std::to_string(sw.children[1].integer) + "," + std::to_string(sw.children[2].integer) + ">)");
    expect('>', "closing the swizzle parameters");
    const std::size_t before_o = pos_;
    skip_ws();
    if (!composition_o_next()) {
      pos_ = before_o;
      return sw;
    }
    ++pos_;
    skip_ws();
    NestingGuard guard(*this, pos_);  // `Sw o Sw o ...` recurses without parentheses
    Node composed = make(Node::Kind::Composed, start);
    const std::size_t base = pending_mark();
    pend(sw);
    if (text_.substr(pos_, 8) == "smem_ptr") {
      composed.payload = keep(Node::Payload{IntTuple::integer(0), {}, smem_pointer()});
      expect_composition_o();
    }
    Node term = composed_term();
    skip_ws();
    if (!composed.payload && term.kind != Node::Kind::Layout && composition_o_next()) {
      pend(term);  // the offset
      expect_composition_o();
      term = composed_term();
    }
    pend(term);
    return adopt(composed, base);
  }

  // PRIMARY [":" STRIDE]: a layout, or an offset.
  Node composed_term() {
    skip_ws();
    const Node shape = primary();
    skip_ws();
    if (peek() != ':') return shape;
    return layout(shape, &TreeParser::primary);
  }

  void expect_composition_o() {
    skip_ws();
    if (!composition_o_next())
      fail("expected 'o' (composition) after the offset of a composed layout, found " + describe_next());
    ++pos_;
    skip_ws();
  }

  // smem_ptr[16b](unset): CuTe's print of its unset pointer flag (smem_ptr_flag_bits); nothing
  // else stands in a composed layout's offset.
  ComposedOffset smem_pointer() {
    const std::size_t start = pos_;
    pos_ += 8;
    if (peek() != '[') fail("expected '[' after smem_ptr");
    ++pos_;
    const std::size_t bits_pos = pos_;
    const std::int64_t bits = digits(false);
    if (peek() != 'b') fail("expected 'b' after the element width of smem_ptr");
    ++pos_;
    if (peek() != ']') fail("expected ']' after the element width of smem_ptr");
    ++pos_;
    if (bits < 1 || bits > 1024) fail_at(bits_pos, "smem_ptr element width must be in [1, 1024] bits");
    if (peek() != '(') fail("expected '(' after smem_ptr[...]");
    const std::size_t open = pos_;
    ++pos_;
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

std::string binary_operator_text(char code) {
  if (code == 'L') return "<<";
  if (code == 'R') return ">>";
  return std::string(1, code);
}

const std::optional<ComposedOffset>& Node::pointer() const {
  static const std::optional<ComposedOffset> none;
  return payload ? payload->pointer : none;
}

bool Node::is_variable_word() const {
  return kind == Kind::Word && !name.empty() && std::islower(static_cast<unsigned char>(name[0])) &&
         name.find_first_of(".<") == std::string_view::npos;
}

void collect_variable_words(const Node& node, std::vector<std::string>& names) {
  if (node.is_variable_word()) {
    for (const auto& n : names)
      if (n == node.name) return;
    names.emplace_back(node.name);
    return;
  }
  for (const Node& c : node.children) collect_variable_words(c, names);
}

bool mentions_variable(const Node& node) {
  if (node.is_variable_word()) return true;
  for (const Node& c : node.children)
    if (mentions_variable(c)) return true;
  return false;
}

SyntaxTree::SyntaxTree() : storage_(std::make_unique<Storage>()) {}
SyntaxTree::~SyntaxTree() = default;

void SyntaxTree::Storage::clear() {
  nodes.clear();
  pending.clear();
  names.clear();
  payloads.clear();
  leaf_offsets.clear();
  pending_tuples.clear();
  pending_leaves.clear();
}

void TreeParser::parse_into(std::string_view text, ParseMode mode, const FunctionTable* functions, SyntaxTree& tree) {
  if (!tree.storage_) tree.storage_ = std::make_unique<SyntaxTree::Storage>();
  SyntaxTree::Storage& storage = *tree.storage_;
  storage.clear();
  if (text.size() > kMaxExpressionBytes)
    throw ParseError(kMaxExpressionBytes + 1, "the expression is " + std::to_string(text.size()) +
                                                  " bytes, longer than the limit of " +
                                                  std::to_string(kMaxExpressionBytes) + " bytes");
  try {
    TreeParser(storage, text, mode, functions).parse_complete();
  } catch (...) {
    storage.clear();
    throw;
  }
}

void parse_text(std::string_view text, ParseMode mode, const FunctionTable* functions, SyntaxTree& tree) {
  TreeParser::parse_into(text, mode, functions, tree);
}

SyntaxTree parse_text(std::string_view text, ParseMode mode, const FunctionTable* functions) {
  SyntaxTree tree;
  parse_text(text, mode, functions, tree);
  return tree;
}

}  // namespace cuteref
