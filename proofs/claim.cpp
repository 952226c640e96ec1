#include "claim.hpp"

#include <cctype>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>

#include "atoms/smem_banks.hpp"
#include "atoms/smem_banks_generic.hpp"
#include "coalesce_generic.hpp"
#include "composed_eval.hpp"
#include "cosize_generic.hpp"
#include "coordinates.hpp"
#include "divisibility_substitution.hpp"
#include "replay_points.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "input_limits.hpp"
#include "layout_eval.hpp"
#include "notation.hpp"
#include "prover.hpp"
#include "swizzle.hpp"
#include "swizzle_eval.hpp"
#include "symbolic_algebra.hpp"
#include "symbolic_f2.hpp"
#include "symbolic_layout.hpp"
#include "symbolic_recast.hpp"
#include "symbolic_scalar.hpp"
#include "symbolic_swizzle_composition.hpp"
#include "symbolic_typed_inverse.hpp"

namespace cuteref::proofs {

namespace {

// A claim the evaluator cannot state symbolically: the verdict is `unknown`.
struct Unsupported : Error {
  using Error::Error;
};

// ---- scalar helpers, for both the symbolic and the concrete (replay) evaluation ------

std::optional<std::int64_t> concrete_of(const CheckedInt& v) { return v.v; }
std::optional<std::int64_t> concrete_of(const SymInt& v) {
  if (v.lo == v.hi) return static_cast<std::int64_t>(v.lo);
  return std::nullopt;
}

template <class Scalar>
Scalar bit_or(const Scalar& a, const Scalar& b) {
  return (a ^ b) ^ (a & b);  // a | b from the scalar interface's & and ^
}

// ---- values ------------------------------------------------------------------------

// Which leaves of a tree are CuTe's static integers (written `_N`), congruent to the tree.
using StaticFlags = ScalarTuple<bool>;

template <class Scalar>
struct Val {
  enum class Kind { Int, Tuple, Layout, Swizzle, Composed, Tiler, Model } kind = Kind::Int;
  std::optional<Scalar> i;
  ScalarTuple<Scalar> t, stride;  // Tuple: t; Layout and Composed: t is the shape
  // The static flags of t and stride (Tuple, Layout, Composed), absent where the evaluation
  // does not track them (the result of an operation on symbolic values other than upcast and
  // downcast); `int_static`: an Int written `_N`.
  std::optional<StaticFlags> t_static, stride_static;
  bool int_static = false;
  int b = 0, m = 0, s = 0;        // Swizzle, Composed (not checked for legality: claims may be false)
  // Composed: the offset slot, an integer (`offset`) or an smem_ptr token (`pointer`), or neither.
  std::optional<Scalar> offset;
  bool offset_static = false;
  std::optional<ComposedOffset> pointer;
  std::optional<Value> model;     // anything else, concrete
  std::vector<Val> parts;         // Tiler: a tuple of layouts, integers and tuples, some symbolic
  bool grouped = false;           // an arithmetic expression (for `(a*b)` as a grouping)
};

// The flags of an IntTuple's leaves.
StaticFlags static_flags_of(const IntTuple& t) {
  if (!t.is_tuple()) return StaticFlags::of(t.is_static());
  std::vector<StaticFlags> e;
  for (const auto& x : t.elements()) e.push_back(static_flags_of(x));
  return StaticFlags::tuple(std::move(e));
}

// `flags`: the tree's static flags, or null (every leaf dynamic).
template <class Scalar>
std::optional<IntTuple> lower_tuple(const ScalarTuple<Scalar>& t, const StaticFlags* flags) {
  if (!t.is_tuple()) {
    auto c = concrete_of(*t.leaf);
    if (!c) return std::nullopt;
    return IntTuple::integer(*c, flags && *flags->leaf);
  }
  std::vector<IntTuple> e;
  for (std::size_t k = 0; k < t.elements.size(); ++k) {
    auto l = lower_tuple(t.elements[k], flags ? &(*flags)[k] : nullptr);
    if (!l) return std::nullopt;
    e.push_back(*l);
  }
  return IntTuple::tuple(std::move(e));
}

// The model's Value of a concrete Val (nullopt if some leaf is symbolic). `with_flags`: static
// leaves print as `_N` (the model's value); without, every leaf is a run-time value (to
// compare values only).
template <class Scalar>
std::optional<Value> lower(const Val<Scalar>& v, bool with_flags = true) {
  using K = typename Val<Scalar>::Kind;
  auto flags = [&](const std::optional<StaticFlags>& f) { return with_flags && f ? &*f : nullptr; };
  switch (v.kind) {
    case K::Int: {
      auto c = concrete_of(*v.i);
      if (!c) return std::nullopt;
      return Value(IntTuple::integer(*c, with_flags && v.int_static));
    }
    case K::Tuple: {
      auto t = lower_tuple(v.t, flags(v.t_static));
      if (!t) return std::nullopt;
      return Value(*t);
    }
    case K::Layout:
    case K::Composed: {
      auto sh = lower_tuple(v.t, flags(v.t_static)), st = lower_tuple(v.stride, flags(v.stride_static));
      if (!sh || !st) return std::nullopt;
      Layout l(*sh, *st);
      if (v.kind == K::Layout) return Value(std::move(l));
      std::optional<ComposedOffset> offset = v.pointer;
      if (v.offset) {
        auto c = concrete_of(*v.offset);
        if (!c) return std::nullopt;
        offset = ComposedOffset{IntTuple::integer(*c, with_flags && v.offset_static), "", 0};
      }
      return Value(ComposedLayout{Swizzle(v.b, v.m, v.s), offset, std::move(l)});
    }
    case K::Swizzle: return Value(Swizzle(v.b, v.m, v.s));
    case K::Tiler: {
      std::vector<Value> values;
      for (const auto& part : v.parts) {
        auto l = lower(part, with_flags);
        if (!l) return std::nullopt;
        values.push_back(*l);
      }
      return make_tuple_value(std::move(values));
    }
    case K::Model: return *v.model;
  }
  return std::nullopt;
}

template <class Scalar>
Val<Scalar> lift(const Value& value) {
  using K = typename Val<Scalar>::Kind;
  Val<Scalar> v;
  if (value.is_int_tuple()) {
    const IntTuple& t = std::get<IntTuple>(value.data);
    if (t.is_integer()) {
      v.kind = K::Int;
      v.i = ScalarOps<Scalar>::constant(t.value());
      v.int_static = t.is_static();
      return v;
    }
    if (!t.has_basis() && !t.has_underscore() && t.is_tuple()) {
      v.kind = K::Tuple;
      v.t = to_scalar_tuple<Scalar>(t);
      v.t_static = static_flags_of(t);
      return v;
    }
  }
  const Layout* layout = value.is_layout() ? &std::get<Layout>(value.data)
                         : value.is_composed() ? &std::get<ComposedLayout>(value.data).layout : nullptr;
  if (layout && !layout->has_basis_strides()) {
    v.kind = value.is_layout() ? K::Layout : K::Composed;
    v.t = to_scalar_tuple<Scalar>(layout->shape());
    v.stride = to_scalar_tuple<Scalar>(layout->stride());
    v.t_static = static_flags_of(layout->shape());
    v.stride_static = static_flags_of(layout->stride());
    if (value.is_composed()) {
      const ComposedLayout& c = std::get<ComposedLayout>(value.data);
      v.b = c.swizzle.bits(), v.m = c.swizzle.base(), v.s = c.swizzle.shift();
      if (c.offset && c.offset->value) {
        v.offset = ScalarOps<Scalar>::constant(c.offset->value->value());
        v.offset_static = c.offset->value->is_static();
      } else {
        v.pointer = c.offset;
      }
    }
    return v;
  }
  if (value.is_swizzle()) {
    const Swizzle& sw = std::get<Swizzle>(value.data);
    v.kind = K::Swizzle;
    v.b = sw.bits(), v.m = sw.base(), v.s = sw.shift();
    return v;
  }
  v.kind = K::Model;
  v.model = value;
  return v;
}

// Layouts and composed layouts: compared as functions on [0, size).
template <class Scalar>
bool function_like(const Val<Scalar>& v) {
  using K = typename Val<Scalar>::Kind;
  return v.kind == K::Layout || v.kind == K::Composed ||
         (v.kind == K::Model && (v.model->is_composed() || v.model->is_f2_layout()));
}
template <class Scalar>
Scalar size_of(const Val<Scalar>& v) {
  using K = typename Val<Scalar>::Kind;
  if (v.kind == K::Layout || v.kind == K::Composed) return tuple_product<Scalar>(v.t);
  if (v.model->is_f2_layout()) return ScalarOps<Scalar>::constant(size_value(std::get<F2Layout>(v.model->data)));
  return tuple_product<Scalar>(std::get<ComposedLayout>(v.model->data).layout.shape());
}
// F(i) for a concrete F2 layout: the model's application (f2_eval.hpp), symbolic or not.
template <class Scalar>
Scalar f2_value_at(const F2Layout& f, const Scalar& i) {
  if constexpr (std::is_same_v<Scalar, SymInt>) return sym_f2_apply(f, i);
  else return CheckedInt(apply_index(f, i.v));
}
// L(i), or C(i) = Sw(O + L(i)) by the model's composed_eval.hpp, or an F2 layout's F(i).
template <class Scalar>
Scalar value_at(const Val<Scalar>& v, const Scalar& i) {
  using K = typename Val<Scalar>::Kind;
  if (v.kind == K::Layout) return crd2idx_index(i, v.t, v.stride);
  if (v.kind == K::Composed)
    return composed_value_of_parts(Swizzle(v.b, v.m, v.s), v.offset, v.pointer ? v.pointer->pointer_element_bits : 0,
                                   v.t, v.stride, i);
  if (v.model->is_f2_layout()) return f2_value_at(std::get<F2Layout>(v.model->data), i);
  return composed_value(std::get<ComposedLayout>(v.model->data), i);
}

// ---- the evaluator (parser and evaluation in one pass, as the model's) ------------------

// A name the claim may call: the model's functions, less the parser's internal `__` ones
// (which EXPR does not accept either).
bool is_function(const std::string& name) { return name.rfind("__", 0) != 0 && standard_functions().find(name) != nullptr; }

// The end (just past '>') of the template argument list that opens at `at`, blanks before it
// allowed, or npos: `<half_t,half_t,float,128,256,K,K>` after an atom name, words, commas and
// colons as the model's notation reads them into the atom's Symbol. Its words are not variables.
std::size_t template_arguments_end(std::string_view text, std::size_t at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  if (at + 1 >= text.size() || text[at] != '<' || text[at + 1] == '<') return std::string_view::npos;
  for (std::size_t k = at + 1; k < text.size(); ++k) {
    const char c = text[k];
    if (c == '>') return k + 1;
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != ',' && c != ':' && c != ' ' && c != '\t')
      return std::string_view::npos;
  }
  return std::string_view::npos;
}

template <class Scalar>
class Evaluator {
 public:
  using V = Val<Scalar>;
  using K = typename V::Kind;
  using Ops = ScalarOps<Scalar>;

  Evaluator(std::string_view text, const std::map<std::string, Scalar>& vars) : text_(text), vars_(vars) {}

  V parse_side() {
    V v = layout_level();
    skip();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return v;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  const std::map<std::string, Scalar>& vars_;
  std::size_t nesting_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw ParseError(pos_ + 1, what);
  }
  // One level of nesting (parentheses, a call's or application's arguments, Sw<...>, a unary
  // minus) while alive: beyond kMaxExpressionNesting the claim is rejected, so that no claim
  // exhausts the stack of this recursive-descent evaluator.
  // `open` is the position of the token that opens the level (for the diagnostic's column).
  struct Nested {
    Evaluator& e;
    Nested(Evaluator& evaluator, std::size_t open) : e(evaluator) {
      if (e.nesting_ == kMaxExpressionNesting)
        throw ParseError(open + 1, "expression nested deeper than " + std::to_string(kMaxExpressionNesting) + " levels");
      ++e.nesting_;
    }
    ~Nested() { --e.nesting_; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;
  };
  void skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(std::string_view tok) {
    skip();
    if (text_.substr(pos_, tok.size()) == tok) {
      pos_ += tok.size();
      return true;
    }
    return false;
  }
  void expect(char c, const char* where) {
    if (!accept(std::string_view(&c, 1))) fail(std::string("expected '") + c + "' " + where);
  }
  char peek() {
    skip();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }

  Scalar as_int(const V& v, const char* what) {
    if (v.kind != K::Int) fail(std::string(what) + ": expected an integer");
    return *v.i;
  }
  static V of_int(Scalar s, bool grouped = true) {
    V v;
    v.kind = K::Int;
    v.i = std::move(s);
    v.grouped = grouped;
    return v;
  }

  // The layout SHAPE:STRIDE (integers or tuples, with their static flags), checked as the
  // model's Layout is.
  V layout_of_parts(const V& shape, const V& stride) {
    if (stride.kind == K::Model && mentions_f2_stride(*stride.model)) return f2_layout_of_parts(shape, *stride.model);
    auto tree = [&](const V& v) -> ScalarTuple<Scalar> {
      if (v.kind == K::Int) return ScalarTuple<Scalar>::of(*v.i);
      if (v.kind == K::Tuple) return v.t;
      if (v.kind == K::Model && mentions_f2_stride(*v.model))
        throw Unsupported("an F2 layout (XOR strides Fk) in a claim with variables: the claim language evaluates "
                          "integer strides only; an F2 layout is evaluated where its side has no variable");
      fail("a layout's shape and stride must be integers or tuples");
    };
    V l;
    l.kind = K::Layout;
    l.t = tree(shape);
    l.stride = tree(stride);
    l.t_static = flags_of_val(shape);
    l.stride_static = flags_of_val(stride);
    check_layout(l.t, l.stride);
    return l;
  }

  // layout_level ::= expr [":" expr]
  V layout_level() {
    V shape = expr();
    if (!accept(":")) return shape;
    V stride = expr();
    V l = layout_of_parts(shape, stride);
    while (peek() == '(') {
      ++pos_;
      std::vector<V> args = arguments();
      if (args.size() != 1 || args[0].kind != K::Int)
        throw Unsupported("only application to one integer is supported on symbolic values");
      l = apply(l, *args[0].i);
    }
    return l;
  }
  // An F2 layout SHAPE:(F..) written in a claim: the model's F2Layout (its checks), applied
  // and compared by the model's F2 application; its extents must be concrete.
  V f2_layout_of_parts(const V& shape, const Value& stride) {
    const std::optional<Value> sh = lower(shape);
    if (!sh || !sh->is_int_tuple())
      throw Unsupported("an F2 layout (XOR strides Fk) with symbolic extents: the claim language applies and compares "
                        "F2 layouts of concrete shape and strides, at symbolic indices");
    std::function<IntTuple(const Value&)> f2_tree = [&](const Value& v) -> IntTuple {
      if (v.is_mixed_tuple()) {
        std::vector<IntTuple> e;
        for (const auto& x : std::get<MixedTuple>(v.data).elements) e.push_back(f2_tree(x));
        return IntTuple::tuple(std::move(e));
      }
      if (v.is_symbol() && mentions_f2_stride(v)) return IntTuple::integer(std::stoll(std::get<Symbol>(v.data).name.substr(1)));
      if (v.is_int_tuple() && std::get<IntTuple>(v.data).is_integer() && std::get<IntTuple>(v.data).value() == 0)
        return IntTuple::integer(0);  // PyCuTe's integer 0: F0
      fail("an F2 layout's strides must be F2 values (F0, F1, ...) or 0");
    };
    try {
      return lift<Scalar>(Value(F2Layout(std::get<IntTuple>(sh->data), f2_tree(stride))));
    } catch (const std::out_of_range&) {
      fail("an F2 stride does not fit in 64 bits");
    }
  }
  // Whether a value read as a stride is, or holds, an F2 stride `Fk` (PyCuTe's XOR strides,
  // which the model's EXPR reads and this language does not).
  static bool mentions_f2_stride(const Value& v) {
    if (v.is_symbol()) {
      const std::string& n = std::get<Symbol>(v.data).name;
      return n.size() >= 2 && n[0] == 'F' && n.find_first_not_of("0123456789", 1) == std::string::npos;
    }
    if (v.is_mixed_tuple())
      for (const auto& e : std::get<MixedTuple>(v.data).elements)
        if (mentions_f2_stride(e)) return true;
    return false;
  }
  // The static flags of an Int or Tuple used as a shape or stride (absent where not tracked).
  static std::optional<StaticFlags> flags_of_val(const V& v) {
    if (v.kind == K::Int) return StaticFlags::of(v.int_static);
    return v.t_static;
  }
  // Whether every leaf of a flag tree is static (CuTe's all_static).
  static bool all_of_flags(const StaticFlags& f) {
    if (!f.is_tuple()) return *f.leaf;
    for (const auto& e : f.elements)
      if (!all_of_flags(e)) return false;
    return true;
  }
  // Whether v's static flags are known (always, for what is not a tree).
  static bool flags_tracked(const V& v) {
    if (v.kind == K::Tuple) return v.t_static.has_value();
    if (v.kind == K::Layout || v.kind == K::Composed) return v.t_static && v.stride_static;
    return true;
  }
  // The model's Layout invariants: congruent, every shape leaf >= 1.
  void check_layout(const ScalarTuple<Scalar>& sh, const ScalarTuple<Scalar>& st) {
    if (sh.is_tuple() != st.is_tuple() || sh.rank() != st.rank()) fail("shape and stride are not congruent");
    if (!sh.is_tuple()) {
      Ops::require(*sh.leaf >= Ops::constant(1), [] { return std::string("a layout's shape leaves must be >= 1"); });
      return;
    }
    for (std::size_t k = 0; k < sh.rank(); ++k) check_layout(sh[k], st[k]);
  }

  // C++ precedence: | ^ & (<< >>) (+ -) (* / %)
  V expr() { return bit_or_level(); }
  V bit_or_level() {
    V a = bit_xor_level();
    while (peek() == '|') {
      ++pos_;
      V b = bit_xor_level();
      a = of_int(bit_or(as_int(a, "|"), as_int(b, "|")));
    }
    return a;
  }
  V bit_xor_level() {
    V a = bit_and_level();
    while (peek() == '^') {
      ++pos_;
      V b = bit_and_level();
      a = of_int(as_int(a, "^") ^ as_int(b, "^"));
    }
    return a;
  }
  V bit_and_level() {
    V a = shift_level();
    while (peek() == '&') {
      ++pos_;
      V b = shift_level();
      a = of_int(as_int(a, "&") & as_int(b, "&"));
    }
    return a;
  }
  V shift_level() {
    V a = additive();
    for (;;) {
      if (accept("<<")) a = of_int(Ops::shl(as_int(a, "<<"), as_int(additive(), "<<")));
      else if (accept(">>")) {
        const Scalar x = as_int(a, ">>");
        Ops::require(x >= Ops::constant(0), [] { return std::string(">> of a negative value"); });
        a = of_int(Ops::lshr(x, as_int(additive(), ">>")));
      } else return a;
    }
  }
  V additive() {
    V a = multiplicative();
    for (;;) {
      const char c = peek();
      if (c != '+' && c != '-') return a;
      ++pos_;
      V b = multiplicative();
      a = of_int(c == '+' ? as_int(a, "+") + as_int(b, "+") : as_int(a, "-") - as_int(b, "-"));
    }
  }
  V multiplicative() {
    V a = unary();
    for (;;) {
      const char c = peek();
      if (c != '*' && c != '/' && c != '%') return a;
      ++pos_;
      V b = unary();
      const Scalar x = as_int(a, "arithmetic"), y = as_int(b, "arithmetic");
      a = of_int(c == '*' ? x * y : c == '/' ? x / y : x % y);
    }
  }
  V unary() {
    skip();
    if (peek() == '-' && pos_ + 1 < text_.size() && !std::isdigit(static_cast<unsigned char>(text_[pos_ + 1]))) {
      const Nested level(*this, pos_);
      ++pos_;
      return of_int(Ops::constant(0) - as_int(unary(), "-"));
    }
    return postfix();
  }
  V postfix() {
    V v = primary();
    // `S:D(x)` applies the layout: a tuple or an integer (a stride) leaves its '(' to
    // layout_level; an integer cannot be applied.
    while (peek() == '(' && v.kind != K::Tuple && v.kind != K::Int &&
           !(v.kind == K::Model && mentions_f2_stride(*v.model))) {
      ++pos_;
      std::vector<V> args = arguments();
      if (args.size() != 1 || args[0].kind != K::Int)
        throw Unsupported("only application to one integer is supported on symbolic values");
      v = apply(v, *args[0].i);
    }
    return v;
  }
  std::vector<V> arguments() {  // after '(' up to and including ')'
    const Nested level(*this, pos_ - 1);
    std::vector<V> args;
    if (accept(")")) return args;
    for (;;) {
      args.push_back(layout_level());
      if (accept(")")) return args;
      expect(',', "between arguments");
    }
  }

  V apply(const V& f, const Scalar& x) {
    if (f.kind == K::Layout) {
      Ops::require(x >= Ops::constant(0), [] { return std::string("layout application: the index is negative"); });
      return of_int(crd2idx_index(x, f.t, f.stride), false);
    }
    if (f.kind == K::Swizzle)
      return of_int(swizzle_value(x, Ops::constant(f.b), Ops::constant(f.m), Ops::constant(f.s)), false);
    if (f.kind == K::Composed || (f.kind == K::Model && (f.model->is_composed() || f.model->is_f2_layout()))) {
      Ops::require(x >= Ops::constant(0), [] { return std::string("layout application: the index is negative"); });
      return of_int(value_at(f, x), false);
    }
    fail("this value cannot be applied to an index");
  }

  V primary() {
    if constexpr (std::is_same_v<Scalar, SymInt>) current_scope().check_deadline();
    skip();
    if (pos_ >= text_.size()) fail("unexpected end of the expression");
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      std::vector<V> elems = arguments();
      // `(a*b)`: a grouping of an arithmetic expression; `(x)`, `(4)`: a 1-tuple, as CuTe.
      if (elems.size() == 1 && elems[0].kind == K::Int && elems[0].grouped) return elems[0];
      return tuple_of(elems);
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' ||
        (c == '_' && pos_ + 1 < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])) || text_[pos_ + 1] == '-'))) {
      const bool written_static = c == '_';  // CuTe's _N: a compile-time integer
      if (written_static) ++pos_;
      const std::size_t start = pos_;
      if (text_[pos_] == '-') ++pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      const std::string digits(text_.substr(start, pos_ - start));
      if (digits == "-" || digits.empty()) fail("expected digits");
      try {
        V literal = of_int(Ops::constant(std::stoll(digits)), false);
        literal.int_static = written_static;
        return literal;
      } catch (const std::out_of_range&) {
        fail("integer " + digits + " does not fit in 64 bits");
      }
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
      const std::string name(text_.substr(start, pos_ - start));
      if (name == "Sw" && peek() == '<') return swizzle();
      if (peek() == '(' && is_function(name)) {
        ++pos_;
        return call(name, arguments());
      }
      auto it = vars_.find(name);
      if (it != vars_.end()) return of_int(it->second, false);
      // A PTX instruction word (ldmatrix.x4, ld.shared.v4.b32) or an upper-case word (K, SW128,
      // an atom name): a Symbol, as in the model's language.
      std::string word = name;
      while (pos_ + 1 < text_.size() && text_[pos_] == '.' && std::isalnum(static_cast<unsigned char>(text_[pos_ + 1]))) {
        const std::size_t part = ++pos_;
        while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
        word += "." + std::string(text_.substr(part, pos_ - part));
      }
      if (word != name || std::isupper(static_cast<unsigned char>(name[0]))) {
        // An atom's template arguments are part of its Symbol, without blanks (as in EXPR; the
        // DSL's swizzle S<B,M,S> is not an atom).
        if (const std::size_t end = template_arguments_end(text_, pos_); name != "S" && end != std::string_view::npos) {
          for (const char c : text_.substr(pos_, end - pos_))
            if (c != ' ' && c != '\t') word += c;
          pos_ = end;
        }
        return lift<Scalar>(Value(Symbol{word}));
      }
      pos_ = start;
      fail("unknown name '" + name + "'");
    }
    fail("unexpected '" + std::string(1, c) + "'");
  }

  V tuple_of(const std::vector<V>& elems) {
    V v;
    v.kind = K::Tuple;
    std::vector<ScalarTuple<Scalar>> e;
    std::vector<StaticFlags> flags;
    bool flags_known = true;
    for (const auto& x : elems) {
      if (x.kind == K::Int || x.kind == K::Tuple) {
        e.push_back(x.kind == K::Int ? ScalarTuple<Scalar>::of(*x.i) : x.t);
        const std::optional<StaticFlags> f = flags_of_val(x);
        if (f) flags.push_back(*f);
        flags_known = flags_known && f.has_value();
      } else {
        // A tuple of layouts (a tiler): a concrete model value, or a symbolic tiler.
        std::vector<Value> values;
        for (const auto& y : elems) {
          auto l = lower(y);
          if (!l) {
            for (const auto& z : elems)
              if (z.kind != K::Int && z.kind != K::Tuple && z.kind != K::Layout && z.kind != K::Tiler)
                throw Unsupported("a tuple of layouts with symbolic leaves and an element that is not a layout, an integer or a tuple");
            V tiler;
            tiler.kind = K::Tiler;
            tiler.parts = elems;
            return tiler;
          }
          values.push_back(*l);
        }
        return lift<Scalar>(make_tuple_value(std::move(values)));
      }
    }
    v.t = ScalarTuple<Scalar>::tuple(std::move(e));
    if (flags_known) v.t_static = StaticFlags::tuple(std::move(flags));
    return v;
  }

  V swizzle() {
    const Nested level(*this, pos_);
    expect('<', "after Sw");
    auto param = [&](const char* what) {
      V p = expr();
      auto c = p.kind == K::Int ? concrete_of(*p.i) : std::nullopt;
      if (!c) throw Unsupported(std::string("a symbolic swizzle parameter ") + what);
      return static_cast<int>(*c);
    };
    V v;
    v.kind = K::Swizzle;
    v.b = param("B");
    expect(',', "between swizzle parameters");
    v.m = param("M");
    expect(',', "between swizzle parameters");
    v.s = param("S");
    expect('>', "closing the swizzle parameters");
    // Bounds that keep the generic code's shifts meaningful, and the model's own legality
    // check (Swizzle's constructor: |S| >= B), so that a claim accepts what the model accepts
    // whether or not its arguments are symbolic. (Illegal swizzles are refuted by the law
    // swizzle_illegal_refuted, on the generic swizzle function.)
    if (v.b < 0 || v.m < 0 || v.b > 63 || v.m > 63 || v.s < -63 || v.s > 63 || v.m + std::abs(v.s) + v.b > 63)
      fail("swizzle parameters out of range (0 <= B, M and fields within 63 bits)");
    try {
      (void)Swizzle(v.b, v.m, v.s);
    } catch (const Error& e) {
      fail(e.what());
    }
    if (peek() != 'o' || (pos_ + 1 < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_ + 1])) ||
                                                     text_[pos_ + 1] == '_')))
      return v;
    ++pos_;
    return composed(v);
  }

  // The rest of `Sw<B,M,S> o [OFFSET o] LAYOUT` after the first `o`, as the model's parser
  // reads it (notation.cpp): OFFSET an integer (symbolic allowed), LAYOUT a primary with an
  // optional `:STRIDE`; an application `(x)` after it applies the composed layout.
  V composed(const V& sw) {
    V c = sw;
    c.kind = K::Composed;
    skip();
    if (text_.substr(pos_, 8) == "smem_ptr")
      throw Unsupported("a composed layout with an smem_ptr offset in a claim with variables: the claim language "
                        "reads integer offsets only; write this side without variables");
    V term = composed_term();
    if (term.kind == K::Int && peek() == 'o') {
      ++pos_;
      c.offset = *term.i;
      c.offset_static = term.int_static;
      term = composed_term();
      if (term.kind != K::Layout) fail("expected a layout after the offset of a composed layout");
    }
    if (term.kind != K::Layout) fail("expected a layout (or an offset) after 'o' in a composed layout");
    c.t = std::move(term.t);
    c.stride = std::move(term.stride);
    c.t_static = std::move(term.t_static);
    c.stride_static = std::move(term.stride_static);
    return c;
  }
  // PRIMARY [":" PRIMARY]: a layout, or an integer (an offset).
  V composed_term() {
    V shape = primary();
    if (!accept(":")) return shape;
    return layout_of_parts(shape, primary());
  }

  // A symbolic layout with its static flags (recast's operands). `fn` names the operation
  // for the diagnostic when the flags are not tracked.
  static SymFlaggedLayout flagged(const Val<SymInt>& l, const char* fn) {
    if (!l.t_static || !l.stride_static)
      throw Unsupported(std::string("`") + fn + "` of a layout computed on symbolic values by another operation: which "
                        "of its leaves are static (CuTe's _N, which " + fn + " reads) is tracked only for layouts "
                        "written in the claim and results of upcast and downcast");
    return {with_flags(l.t, *l.t_static), with_flags(l.stride, *l.stride_static)};
  }
  static Val<SymInt> flagged_layout_of(const SymFlaggedLayout& l) {
    Val<SymInt> v;
    v.kind = Val<SymInt>::Kind::Layout;
    v.t = values_of(l.shape);
    v.stride = values_of(l.stride);
    v.t_static = flags_of(l.shape);
    v.stride_static = flags_of(l.stride);
    return v;
  }

  // smem_wavefronts(INSTR, (a0, a1, ...), BITS) with symbolic element offsets: the model's generic
  // count (smem_banks_generic.hpp) on the lanes' byte addresses.
  V wavefronts(const std::vector<V>& args) {
    const auto instr = lower(args[0]);
    const auto bits_value = lower(args[2]);
    if (!instr || !instr->is_symbol() || !bits_value || !bits_value->is_int_tuple())
      throw Unsupported("smem_wavefronts on symbolic values takes a concrete instruction and element width");
    const SmemInstruction in = smem_instruction(std::get<Symbol>(instr->data).name);
    const std::int64_t bits = std::get<IntTuple>(bits_value->data).value();
    if (bits < 8 || bits % 8 != 0 || (8 * in.access_bytes) % bits != 0)
      fail("smem_wavefronts: the element width must be a multiple of 8 bits dividing the access");
    const bool matrix = in.op == SmemOp::LoadMatrix || in.op == SmemOp::StoreMatrix;
    const std::size_t lanes = matrix ? static_cast<std::size_t>(8 * in.matrices) : args[1].t.rank();
    if (!args[1].t.is_tuple() || args[1].t.rank() < lanes || args[1].t.rank() > 32)
      fail("smem_wavefronts: ADDR must be a tuple of at most 32 element offsets, one per thread");
    std::vector<std::optional<Scalar>> address(lanes);
    for (std::size_t t = 0; t < lanes; ++t) {
      if (args[1].t[t].is_tuple()) fail("smem_wavefronts: ADDR's entries must be integers");
      address[t] = *args[1].t[t].leaf * Ops::constant(bits / 8);
    }
    return of_int(instruction_wavefronts<Scalar>(address, in.access_bytes, matrix ? in.matrices : 0, in.op == SmemOp::Load), false);
  }

  V call(const std::string& name, const std::vector<V>& args) {
    // The arity check of the model's parser (notation.cpp): the table's functions index
    // their arguments unchecked (a missing one was an uncaught std::out_of_range or a null
    // reference, found by fuzz/).
    const FunctionSpec& spec = *standard_functions().find(name);
    if (args.size() < spec.min_args || args.size() > spec.max_args)
      fail(name + ": wrong number of arguments: got " + std::to_string(args.size()) + ", expected " + spec.signature);
    std::vector<Value> values;
    bool concrete = true;
    // The functions whose answer depends on which leaves are static (CuTe decides them at
    // compile time) get concrete arguments only where those flags are known: a result of a
    // symbolic operation that happens to be concrete on a branch has no tracked flags.
    const bool reads_static_flags = name == "downcast" || name == "recast" || name == "right_inverse" ||
                                    name == "max_common_vector" || name == "max_common_layout";
    for (const auto& a : args) {
      auto l = reads_static_flags && !flags_tracked(a) ? std::nullopt : lower(a);
      if (!l) {
        concrete = false;
        break;
      }
      values.push_back(*l);
    }
    if (concrete) return lift<Scalar>(standard_functions().find(name)->call(values));
    if (name == "coalesce" && args.size() == 1 && args[0].kind == K::Layout) {
      auto [shape, stride] = coalesce_tree(args[0].t, args[0].stride, ScalarCoalesceOps<Scalar>{});
      V v;
      v.kind = K::Layout;
      v.t = std::move(shape);
      v.stride = std::move(stride);
      return v;
    }
    if (name == "filter" && args.size() == 1 && args[0].kind == K::Layout) {
      // The model's filter (coalesce.cpp): filter_flat_modes on the flattened modes.
      std::vector<ScalarTuple<Scalar>> shape_leaves, stride_leaves;
      flatten_leaves(args[0].t, shape_leaves);
      flatten_leaves(args[0].stride, stride_leaves);
      std::vector<Scalar> shapes, strides;
      for (std::size_t k = 0; k < shape_leaves.size(); ++k) {
        shapes.push_back(*shape_leaves[k].leaf);
        strides.push_back(*stride_leaves[k].leaf);
      }
      filter_flat_modes<ScalarLeaf<Scalar>>(shapes, strides);
      V v;
      v.kind = K::Layout;
      if (shapes.size() == 1) {
        v.t = ScalarTuple<Scalar>::of(shapes[0]);
        v.stride = ScalarTuple<Scalar>::of(strides[0]);
        return v;
      }
      v.t = ScalarTuple<Scalar>{};
      v.stride = ScalarTuple<Scalar>{};
      for (std::size_t k = 0; k < shapes.size(); ++k) {
        v.t.elements.push_back(ScalarTuple<Scalar>::of(shapes[k]));
        v.stride.elements.push_back(ScalarTuple<Scalar>::of(strides[k]));
      }
      return v;
    }
    if (name == "cosize" && args.size() == 1 && (args[0].kind == K::Layout || args[0].kind == K::Composed)) {
      // The model's cosize (core/layout.cpp; a composed layout's is its layout's): CosizeSum
      // over the leaf modes, left to right.
      std::vector<ScalarTuple<Scalar>> shape_leaves, stride_leaves;
      flatten_leaves(args[0].t, shape_leaves);
      flatten_leaves(args[0].stride, stride_leaves);
      CosizeSum<ScalarLeaf<Scalar>> sum;
      for (std::size_t k = 0; k < shape_leaves.size(); ++k) sum.add(*shape_leaves[k].leaf, *stride_leaves[k].leaf);
      return of_int(sum.result(), false);
    }
    if (name == "size" && args.size() == 1 && args[0].kind == K::Composed) return of_int(tuple_product<Scalar>(args[0].t), false);
    if (name == "size" && args.size() == 1 && (args[0].kind == K::Layout || args[0].kind == K::Tuple)) {
      // The model's size of a shape requires its leaves >= 1 (a layout's were checked when
      // it was built).
      if (args[0].kind == K::Tuple) {
        std::vector<ScalarTuple<Scalar>> leaves;
        flatten_leaves(args[0].t, leaves);
        for (const auto& l : leaves)
          Ops::require(*l.leaf >= Ops::constant(1), [] { return std::string("size: a shape's leaves must be >= 1"); });
      }
      return of_int(tuple_product<Scalar>(args[0].t), false);
    }
    if (name == "smem_wavefronts" && args.size() == 3 && args[1].kind == K::Tuple) return wavefronts(args);
    if constexpr (std::is_same_v<Scalar, SymInt>) {
      // downcast: the model's, with the static flags the claim wrote; a layout without a
      // static _1 stride is refused by the model for every value of the variables, so its
      // diagnostic is the claim's error (not caught below as `unknown`).
      if (name == "downcast" && args.size() == 2 && args[0].kind == K::Layout && args[1].kind == K::Int)
        return flagged_layout_of(sym_downcast(flagged(args[0], "downcast"), *args[1].i));
      if (name == "recast" && args.size() == 3 && args[0].kind == K::Layout && args[1].kind == K::Int &&
          args[2].kind == K::Int) {
        const auto old_bits = concrete_of(*args[1].i), new_bits = concrete_of(*args[2].i);
        if (!old_bits || !new_bits) throw Unsupported("recast with symbolic element widths (CuTe's are types' sizes)");
        return flagged_layout_of(sym_recast(flagged(args[0], "recast"), *old_bits, *new_bits));
      }
      // The model's generic complement / composition / logical_divide (symbolic_algebra.hpp);
      // what they do not cover yet is `unknown`, not an error.
      auto layout_of = [](const SymLayout& l) {
        V v;
        v.kind = K::Layout;
        v.t = l.shape;
        v.stride = l.stride;
        return v;
      };
      const bool two_layouts = args.size() == 2 && args[0].kind == K::Layout && args[1].kind == K::Layout;
      try {
        if (name == "complement" && args.size() == 2 && args[0].kind == K::Layout &&
            (args[1].kind == K::Int || args[1].kind == K::Tuple)) {
          std::vector<SymInt> cotarget;
          if (args[1].kind == K::Int) {
            cotarget.push_back(*args[1].i);
          } else {
            std::vector<ScalarTuple<Scalar>> leaves;
            flatten_leaves(args[1].t, leaves);
            for (const auto& l : leaves) cotarget.push_back(*l.leaf);
          }
          return layout_of(sym_complement({args[0].t, args[0].stride}, cotarget));
        }
        if (name == "composition" && two_layouts)
          return layout_of(sym_composition({args[0].t, args[0].stride}, {args[1].t, args[1].stride}));
        // composition(S o O o L, B) = S o O o (L o B), as the model's (composition.cpp).
        if (name == "composition" && args.size() == 2 && args[0].kind == K::Composed && args[1].kind == K::Layout) {
          V c = args[0];
          const SymLayout inner = sym_composition({args[0].t, args[0].stride}, {args[1].t, args[1].stride});
          c.t = inner.shape;
          c.stride = inner.stride;
          c.t_static.reset();
          c.stride_static.reset();
          return c;
        }
        if (name == "composition" && args.size() == 2 && args[0].kind == K::Layout && args[1].kind == K::Composed &&
            !args[1].pointer) {
          const SymSwizzledLayout r = sym_composition_through_swizzle(
              {args[0].t, args[0].stride}, Swizzle(args[1].b, args[1].m, args[1].s), args[1].offset, {args[1].t, args[1].stride});
          V c;
          c.kind = K::Composed;
          c.b = r.swizzle.bits(), c.m = r.swizzle.base(), c.s = r.swizzle.shift();
          c.offset = Ops::constant(0);  // the model's static _0
          c.offset_static = true;
          c.t = r.layout.shape;
          c.stride = r.layout.stride;
          return c;
        }
        if (name == "composition" && args.size() == 2 && args[1].kind == K::Composed)
          throw Unsupported("composition(A, S o O o L) with symbolic parts and A not a layout, or an smem_ptr offset: "
                            "composition(L, Sw o O o B) and composition(S o O o L, B) are proved");
        // A tiler (tiler.cpp): a layout, an integer n (the layout n:_1) or a tuple of integers,
        // element i applied to mode i.
        std::function<SymTiler(const ScalarTuple<SymInt>&)> integer_tiler = [&](const ScalarTuple<SymInt>& t) {
          if (t.is_tuple()) {
            std::vector<SymTiler> elements;
            for (const auto& e : t.elements) elements.push_back(integer_tiler(e));
            return SymTiler::of_tuple(std::move(elements));
          }
          Ops::require(*t.leaf >= Ops::constant(1), [] { return std::string("an integer tiler must be >= 1"); });
          return SymTiler::of_layout(SymLayout{ScalarTuple<SymInt>::of(*t.leaf), ScalarTuple<SymInt>::of(Ops::constant(1))});
        };
        std::function<std::optional<SymTiler>(const V&)> tiler_of = [&](const V& t) -> std::optional<SymTiler> {
          if (t.kind == K::Tiler) {
            std::vector<SymTiler> elements;
            for (const auto& part : t.parts) {
              const std::optional<SymTiler> e = tiler_of(part);
              if (!e) return std::nullopt;
              elements.push_back(*e);
            }
            return SymTiler::of_tuple(std::move(elements));
          }
          if (t.kind == K::Layout) return SymTiler::of_layout(SymLayout{t.t, t.stride});
          if (t.kind == K::Int) return integer_tiler(ScalarTuple<SymInt>::of(*t.i));
          if (t.kind == K::Tuple) return integer_tiler(t.t);
          return std::nullopt;
        };
        const SymLayout first{args[0].t, args[0].stride};
        if (name == "composition" && args.size() == 2 && args[0].kind == K::Layout)
          if (const std::optional<SymTiler> tiler = tiler_of(args[1]))
            return layout_of(sym_composition_by_tiler(first, *tiler));
        if (name == "coalesce" && args.size() == 2 && args[0].kind == K::Layout) {
          if (args[1].kind == K::Int || args[1].kind == K::Tuple)
            return layout_of(sym_coalesce_by_profile(first, args[1].kind == K::Int ? SymTuple::of(*args[1].i) : args[1].t));
          if (args[1].kind == K::Model && args[1].model->is_int_tuple())
            return layout_of(sym_coalesce_by_profile(first, std::get<IntTuple>(args[1].model->data)));
        }
        const std::pair<const char*, TilerForm> forms[] = {
            {"logical", TilerForm::Logical}, {"zipped", TilerForm::Zipped}, {"tiled", TilerForm::Tiled}, {"flat", TilerForm::Flat}};
        for (const auto& [form, f] : forms) {
          const bool divide = name == std::string(form) + "_divide", product = name == std::string(form) + "_product";
          if (!(divide || product) || args.size() != 2 || args[0].kind != K::Layout) continue;
          const std::optional<SymTiler> tiler = tiler_of(args[1]);
          if (!tiler) break;
          return layout_of(divide ? sym_divide(first, *tiler, f) : sym_product(first, *tiler, f));
        }
        if ((name == "blocked_product" || name == "raked_product") && two_layouts)
          return layout_of(sym_blocked_product(first, {args[1].t, args[1].stride}, name == "blocked_product"));
        if (name == "right_inverse_full" && args.size() == 1 && args[0].kind == K::Layout)
          return layout_of(sym_right_inverse(first));
        if (name == "right_inverse" && args.size() == 1 && args[0].kind == K::Layout)
          return flagged_layout_of(sym_right_inverse_typed(flagged(args[0], "right_inverse")));
        if (name == "max_common_vector" && two_layouts) return of_int(sym_max_common_vector(first, {args[1].t, args[1].stride}), false);
        if (name == "max_common_layout" && two_layouts) return layout_of(sym_max_common_layout(first, {args[1].t, args[1].stride}));
        if (name == "left_inverse" && args.size() == 1 && args[0].kind == K::Layout)
          return layout_of(sym_left_inverse(first));
        if (name == "upcast" && args.size() == 2 && args[0].kind == K::Layout && args[1].kind == K::Int)
          return flagged_layout_of(sym_upcast(flagged(args[0], "upcast"), *args[1].i));
        if (name == "tile_to_shape" && args.size() == 2 && args[0].kind == K::Layout &&
            (args[1].kind == K::Tuple || args[1].kind == K::Int))
        {
          // The model checks divisibility when every leaf of the target is static; a target
          // whose flags are not tracked (computed by a symbolic operation) cannot be decided.
          const std::optional<StaticFlags> target_flags = flags_of_val(args[1]);
          if (!target_flags)
            throw Unsupported("tile_to_shape with a target computed on symbolic values: whether its leaves are static "
                              "(CuTe then requires divisibility) is not tracked");
          return layout_of(sym_tile_to_shape(first,
                                             args[1].kind == K::Tuple ? args[1].t : ScalarTuple<SymInt>::of(*args[1].i),
                                             all_of_flags(*target_flags)));
        }
      } catch (const Unsupported&) {
        throw;
      } catch (const Error& e) {
        throw Unsupported(e.what());
      }
    }
    throw Unsupported("`" + name + "` on symbolic arguments (symbolically: coalesce(L), size(L), complement(L, M), "
                      "composition(A, B), the divides and products of a layout by a layout, an integer or a tuple of them, "
                      "blocked_product, raked_product, right_inverse_full, left_inverse, tile_to_shape(L, SHAPE), upcast(L, n), "
                      "downcast(L, n), filter(L), cosize(L), composition(S o O o L, B) and size(C) of a composed layout)");
  }
};

// ---- equality --------------------------------------------------------------------------

// Two layouts with the same flat modes once the modes of size 1 are dropped (each is a
// case split) are the same function: a mode of size 1 contributes only its coordinate 0, and
// a nested layout is the function of its flattened modes (colexicographic digits; proved for
// depth 2 by the nested coalesce laws).
// A sufficient condition for `==` (SymbolicScope::set_sufficient_goal), false when the
// numbers of modes differ.
z3::expr same_modes(const Val<SymInt>& a, const Val<SymInt>& b) {
  auto modes = [](const Val<SymInt>& v) {
    std::vector<ScalarTuple<SymInt>> shapes, strides;
    flatten_leaves(v.t, shapes);
    flatten_leaves(v.stride, strides);
    std::vector<std::pair<SymInt, SymInt>> kept;
    for (std::size_t k = 0; k < shapes.size(); ++k)
      if (!ScalarOps<SymInt>::decide(*shapes[k].leaf == ScalarOps<SymInt>::constant(1)))
        kept.emplace_back(*shapes[k].leaf, *strides[k].leaf);
    return kept;
  };
  const auto ma = modes(a), mb = modes(b);
  z3::context& ctx = current_scope().ctx();
  if (ma.size() != mb.size()) return ctx.bool_val(false);
  z3::expr all = ctx.bool_val(true);
  for (std::size_t k = 0; k < ma.size(); ++k)
    all = all && ma[k].first == mb[k].first && ma[k].second == mb[k].second;
  return all;
}

// Two composed layouts with the same swizzle and offset slot are the same function where
// their layouts are (S(O + L(i)) depends on i through L(i) only): the condition on the outer
// parts, false where they differ in structure.
z3::expr same_swizzle_and_offset(const Val<SymInt>& a, const Val<SymInt>& b) {
  z3::context& ctx = current_scope().ctx();
  if (a.b != b.b || a.m != b.m || a.s != b.s || a.pointer != b.pointer || a.offset.has_value() != b.offset.has_value())
    return ctx.bool_val(false);
  return a.offset ? (*a.offset == *b.offset) : ctx.bool_val(true);
}

std::string describe(const Val<CheckedInt>& v) {
  auto l = lower(v);
  return l ? l->to_string() : "?";
}

// Where two concrete sides differ, said in words, or nothing where they agree. Layouts are
// compared as functions: equal sizes, then equal values at every index of a layout of at most
// kWholeIndices elements, otherwise at the first and last kEndIndices and kSpreadIndices spread
// between (a bounded check per point; Z3's proof is about every index). Other values compare by
// value (not static flags).
std::optional<std::string> first_difference(const Val<CheckedInt>& a, const Val<CheckedInt>& b) {
  if (function_like(a) && function_like(b)) {
    const std::int64_t na = size_of(a).v, nb = size_of(b).v;
    if (na != nb) return "the sizes differ: " + std::to_string(na) + " and " + std::to_string(nb);
    constexpr std::int64_t kWholeIndices = 1024, kEndIndices = 128, kSpreadIndices = 256;
    auto differs_at = [&](std::int64_t i) -> std::optional<std::string> {
      const std::int64_t va = value_at(a, CheckedInt(i)).v, vb = value_at(b, CheckedInt(i)).v;
      if (va == vb) return std::nullopt;
      return "at index " + std::to_string(i) + ": lhs(" + std::to_string(i) + ") = " + std::to_string(va) + ", rhs(" +
             std::to_string(i) + ") = " + std::to_string(vb);
    };
    if (na <= kWholeIndices) {
      for (std::int64_t i = 0; i < na; ++i)
        if (auto d = differs_at(i)) return d;
      return std::nullopt;
    }
    for (std::int64_t i = 0; i < kEndIndices; ++i)
      if (auto d = differs_at(i)) return d;
    for (std::int64_t i = na - kEndIndices; i < na; ++i)
      if (auto d = differs_at(i)) return d;
    for (std::int64_t k = 0; k < kSpreadIndices; ++k)
      if (auto d = differs_at(kEndIndices + (na - 2 * kEndIndices) / kSpreadIndices * k)) return d;
    return std::nullopt;
  }
  const auto la = lower(a, false), lb = lower(b, false);  // values, not static flags
  if (!la || !lb) return "a side has no concrete value";
  if (la->to_string() == lb->to_string()) return std::nullopt;
  return "lhs = " + describe(a) + ", rhs = " + describe(b);
}

// ---- the command -----------------------------------------------------------------------

struct Side {
  std::string text;
  bool has_variables;
};

// Split at the top-level `==`.
std::pair<std::string, std::string> split_claim(const std::string& claim) {
  int depth = 0;
  for (std::size_t k = 0; k + 1 < claim.size(); ++k) {
    if (claim[k] == '(') ++depth;
    if (claim[k] == ')') --depth;
    if (depth == 0 && claim[k] == '=' && claim[k + 1] == '=')
      return {claim.substr(0, k), claim.substr(k + 2)};
  }
  throw Error("the claim must have the form EXPR == EXPR");
}

// An --assume text split at its top-level comparison: {lhs, op, rhs}, or op empty for a
// predicate call (divides, admissible, defined, injective). `<<`, `>>` and Sw<...> are not comparisons.
struct Assumption {
  std::string lhs, op, rhs;
};
Assumption split_assumption(const std::string& text) {
  int depth = 0;
  for (std::size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth != 0) continue;
    if (text.compare(k, 3, "Sw<") == 0) {  // skip the swizzle's parameters
      const std::size_t close = text.find('>', k);
      if (close == std::string::npos) break;
      k = close;
      continue;
    }
    if ((c == '<' || c == '>') && k + 1 < text.size() && text[k + 1] == c) {
      ++k;
      continue;
    }
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
      const std::size_t n = std::char_traits<char>::length(op);
      if (text.compare(k, n, op) == 0) return {text.substr(0, k), op, text.substr(k + n)};
    }
  }
  for (const char* fn : {"divides", "admissible", "defined", "injective"}) {
    std::size_t k = 0;
    while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k]))) ++k;
    const std::size_t n = std::char_traits<char>::length(fn);
    if (text.compare(k, n, fn) != 0) continue;
    std::size_t open = k + n;
    while (open < text.size() && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
    const std::size_t close = text.find_last_of(')');
    if (open < text.size() && text[open] == '(' && close != std::string::npos && close > open &&
        text.find_first_not_of(" \t", close + 1) == std::string::npos)
      return {fn, "", text.substr(open + 1, close - open - 1)};
  }
  throw Error("--assume '" + text + "': expected EXPR OP EXPR (OP one of == != < <= > >=), divides(A, B), "
              "admissible(A, B), defined(EXPR) or injective(L)");
}

// "A, B" split at its top-level comma.
std::pair<std::string, std::string> split_claim_arguments(const std::string& args, const std::string& text) {
  int depth = 0;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (args[k] == '(' || args[k] == '<') ++depth;
    if (args[k] == ')' || args[k] == '>') --depth;
    if (depth == 0 && args[k] == ',') return {args.substr(0, k), args.substr(k + 1)};
  }
  throw Error("--assume '" + text + "': expected two arguments");
}

// The free variables: lower-case names that are not functions, `o`, or `Sw`, are not
// followed by '(', and are not an atom's template arguments (`SM100_MMA_F16BF16_SS<half_t,...>`).
std::set<std::string> free_variables(const std::string& text) {
  std::set<std::string> vars;
  for (std::size_t k = 0; k < text.size();) {
    if (std::isalpha(static_cast<unsigned char>(text[k])) || text[k] == '_') {
      const std::size_t start = k;
      while (k < text.size() && (std::isalnum(static_cast<unsigned char>(text[k])) || text[k] == '_')) ++k;
      const std::string name = text.substr(start, k - start);
      if (std::isupper(static_cast<unsigned char>(name[0])) && name != "Sw" && name != "S") {
        if (const std::size_t end = template_arguments_end(text, k); end != std::string_view::npos) k = end;
        continue;
      }
      std::size_t j = k;
      while (j < text.size() && std::isspace(static_cast<unsigned char>(text[j]))) ++j;
      const bool called = j < text.size() && (text[j] == '(' || text[j] == '[');  // f(...), smem_ptr[...]
      const bool prev_bracket = start > 0 && (text[start - 1] == '[');  // smem_ptr[16b]
      // a part of a PTX instruction word such as ldmatrix.x4.trans
      const bool dotted = (start > 0 && text[start - 1] == '.') ||
                          (k + 1 < text.size() && text[k] == '.' && std::isalpha(static_cast<unsigned char>(text[k + 1])));
      // smem_ptr[16b](unset): the vendor's pointer flag, not a variable.
      const bool pointer_flag = name == "unset" && start >= 2 && text[start - 1] == '(' && text[start - 2] == ']';
      if (std::islower(static_cast<unsigned char>(name[0])) && !called && name != "o" && !is_function(name) &&
          !prev_bracket && !dotted && !pointer_flag && name.find_first_not_of("0123456789") != std::string::npos &&
          !(name.size() > 1 && std::isdigit(static_cast<unsigned char>(name[0]))))
        vars.insert(name);
    } else if (std::isdigit(static_cast<unsigned char>(text[k]))) {
      while (k < text.size() && std::isalnum(static_cast<unsigned char>(text[k]))) ++k;  // 16b
    } else {
      ++k;
    }
  }
  return vars;
}

struct VariableRange {
  std::int64_t lo = 0, hi = INT64_MAX;
};

// One `--where` text: "v in [lo,hi]", blanks allowed around the tokens (at least one after v
// and after `in`), v a lower-case name, lo and hi 64-bit decimal integers with lo <= hi. A
// scanner, not a regular expression: std::regex recursed once per character (a 30,000-byte
// --where overflowed the stack).
std::pair<std::string, VariableRange> parse_one_where(const std::string& w) {
  std::size_t k = 0;
  auto fail = [&](const std::string& what) -> void {
    throw Error("--where '" + w + "': column " + std::to_string(k + 1) + ": " + what + " (expected 'v in [lo,hi]')");
  };
  auto blanks = [&] {
    const std::size_t start = k;
    while (k < w.size() && std::isspace(static_cast<unsigned char>(w[k]))) ++k;
    return k > start;
  };
  auto literal = [&](char c) {
    blanks();
    if (k >= w.size() || w[k] != c) fail(std::string("expected '") + c + "'");
    ++k;
  };
  auto integer = [&]() -> std::int64_t {
    blanks();
    const std::size_t start = k;
    const bool negative = k < w.size() && w[k] == '-';
    if (negative) ++k;
    if (k >= w.size() || !std::isdigit(static_cast<unsigned char>(w[k]))) fail("expected an integer");
    std::int64_t v = 0;  // accumulated as a negative number to reach INT64_MIN
    for (; k < w.size() && std::isdigit(static_cast<unsigned char>(w[k])); ++k) {
      const int d = w[k] - '0';
      if (v < (std::numeric_limits<std::int64_t>::min() + d) / 10) {
        k = start;
        fail("bound does not fit in 64 bits");
      }
      v = v * 10 - d;
    }
    if (!negative) {
      if (v == std::numeric_limits<std::int64_t>::min()) {
        k = start;
        fail("bound does not fit in 64 bits");
      }
      v = -v;
    }
    return v;
  };
  blanks();
  const std::size_t name_start = k;
  if (k >= w.size() || !std::islower(static_cast<unsigned char>(w[k]))) fail("expected a lower-case variable name");
  while (k < w.size() && (std::isalnum(static_cast<unsigned char>(w[k])) || w[k] == '_')) ++k;
  const std::string name = w.substr(name_start, k - name_start);
  if (!blanks() || w.compare(k, 2, "in") != 0) fail("expected 'in' after the variable");
  k += 2;
  if (!blanks()) fail("expected a blank after 'in'");
  literal('[');
  VariableRange r;
  r.lo = integer();
  literal(',');
  r.hi = integer();
  literal(']');
  blanks();
  if (k != w.size()) fail("unexpected text after ']'");
  if (r.lo > r.hi) throw Error("--where '" + w + "': empty range");
  return {name, r};
}

std::map<std::string, VariableRange> parse_where(const std::vector<std::string>& where) {
  std::map<std::string, VariableRange> out;
  std::map<std::string, std::string> text_of;
  for (const auto& w : where) {
    auto [name, range] = parse_one_where(w);
    if (auto seen = text_of.find(name); seen != text_of.end())
      throw Error("--where names '" + name + "' twice ('" + seen->second + "' and '" + w +
                  "'): give one range per variable");
    text_of.emplace(name, w);
    out.emplace(name, range);
  }
  return out;
}

// A side without variables is the model's EXPR; one that the EXPR language does not parse
// may still be the claim language's (integer arithmetic such as `1 + 1`), evaluated the
// claim's way. Otherwise the model's diagnostic stands.
template <class Scalar>
Val<Scalar> evaluate_side(const Side& side, const std::map<std::string, Scalar>& vars) {
  if (side.has_variables) return Evaluator<Scalar>(side.text, vars).parse_side();
  try {
    return lift<Scalar>(parse_and_evaluate(side.text, &standard_functions()));
  } catch (const ParseError&) {
    try {
      return Evaluator<Scalar>(side.text, vars).parse_side();
    } catch (const Error&) {
    }
    throw;
  }
}

// divides(A, B) means A >= 1 and B % A == 0. A divisor without variables that is not
// positive (divides(0, B), divides(-2, B)) would make the hypothesis false everywhere (or, read
// mathematically, mean something else: B == 0, 2 | B); such a request is malformed, not a
// hypothesis to prove anything from.
void require_meaningful_divisor(const std::string& text, const Assumption& parts) {
  const std::string divisor = split_claim_arguments(parts.rhs, text).first;
  if (!free_variables(divisor).empty()) return;
  const Val<CheckedInt> d = evaluate_side(Side{divisor, false}, std::map<std::string, CheckedInt>{});
  if (d.kind != Val<CheckedInt>::Kind::Int)
    throw Error("--assume '" + text + "': the divisor of divides(A, B) must be an integer");
  if (d.i->v < 1) {
    const std::string magnitude = std::to_string(-static_cast<unsigned long long>(d.i->v));  // no overflow at INT64_MIN
    throw Error("--assume '" + text + "': the divisor is " + std::to_string(d.i->v) +
                "; divides(A, B) takes a divisor A >= 1 (" +
                (d.i->v == 0 ? std::string("for B == 0, write that")
                             : "for B divisible by " + magnitude + ", write divides(" + magnitude + ", B)") + ")");
  }
}

// A request's claim and --where texts parsed (prove and evaluate_claim_concretely): the two
// sides, the free variables and their ranges. Throws Error for a malformed request.
struct ParsedClaim {
  Side lhs, rhs;
  std::set<std::string> names;
  std::map<std::string, VariableRange> ranges;
};

ParsedClaim parse_claim(const std::string& claim, const std::vector<std::string>& where,
                        const std::vector<std::string>& assume = {}) {
  if (claim.size() > kMaxExpressionBytes)
    throw Error("the claim is " + std::to_string(claim.size()) + " bytes, longer than the limit of " +
                std::to_string(kMaxExpressionBytes) + " bytes");
  ParsedClaim p;
  auto [l, r] = split_claim(claim);
  p.names = free_variables(claim);
  p.lhs = {l, !free_variables(l).empty()};
  p.rhs = {r, !free_variables(r).empty()};
  p.ranges = parse_where(where);
  for (const auto& a : assume) {
    const Assumption parts = split_assumption(a);
    for (const auto& n : free_variables(parts.op.empty() ? parts.rhs : parts.lhs + " " + parts.rhs))
      if (!p.names.count(n)) throw Error("--assume '" + a + "' names '" + n + "', which is not a variable of the claim");
    if (parts.op.empty() && parts.lhs == "divides") require_meaningful_divisor(a, parts);
  }
  for (const auto& [n, _] : p.ranges)
    if (!p.names.count(n)) throw Error("--where names '" + n + "', which is not a variable of the claim");
  return p;
}

// An F2 stride token `Fk` (a word F followed by digits): F2 layouts evaluate by XOR.
bool mentions_f2_token(const std::string& claim) {
  for (std::size_t k = 0; k + 1 < claim.size(); ++k)
    if (claim[k] == 'F' && std::isdigit(static_cast<unsigned char>(claim[k + 1])) &&
        (k == 0 || !(std::isalnum(static_cast<unsigned char>(claim[k - 1])) || claim[k - 1] == '_')))
      return true;
  return false;
}

bool needs_bits(const std::string& claim) {
  return claim.find("Sw<") != std::string::npos || mentions_f2_token(claim) || claim.find_first_of("&|^") != std::string::npos ||
         claim.find("smem_wavefronts") != std::string::npos || claim.find("gmma_atom") != std::string::npos ||
         claim.find("<<") != std::string::npos || claim.find(">>") != std::string::npos;
}

}  // namespace

std::pair<Value, Value> concrete_sides(const std::string& claim, const std::map<std::string, std::int64_t>& values) {
  auto [l, r] = split_claim(claim);
  std::map<std::string, CheckedInt> concrete;
  for (const auto& n : free_variables(claim)) {
    auto it = values.find(n);
    if (it == values.end()) throw Error("no value for the claim's variable '" + n + "'");
    concrete.emplace(n, CheckedInt(it->second));
  }
  const Side lhs{l, !free_variables(l).empty()}, rhs{r, !free_variables(r).empty()};
  auto a = lower(evaluate_side(lhs, concrete)), b = lower(evaluate_side(rhs, concrete));
  if (!a || !b) throw Error("a side of the claim has no concrete value");
  return {*a, *b};
}

double parse_timeout_seconds(const std::string& text) {
  const std::string range = "[0.001, " + std::to_string(static_cast<long long>(kMaxProveTimeoutSeconds)) + "]";
  auto fail = [&](const std::string& why) -> void {
    throw Error("--timeout '" + text + "': " + why + " (a decimal number of seconds in " + range + ")");
  };
  // digits ['.' digits]: no sign, exponent, hexadecimal, nan or inf (std::stod takes them all,
  // and a prefix such as the 1 of "1abc").
  std::size_t k = 0, digits = 0;
  while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k, ++digits;
  if (k < text.size() && text[k] == '.') {
    ++k;
    while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k, ++digits;
  }
  if (digits == 0 || k != text.size()) fail("not a decimal number");
  if (text.size() > 32) fail("too long");
  const double seconds = std::stod(text);
  if (!(seconds >= 0.001) || seconds > kMaxProveTimeoutSeconds) fail("out of range");
  return seconds;
}

namespace {

int prove_checked(const ProveRequest& req, std::ostream& out, std::ostream& err, ProofOutcome* outcome_out);

// What a proof quantified over, said after `proved`: each variable's range, the index of
// layout equality, the fixed structure of the claim, and the model's branch cases.
std::string quantification(const std::set<std::string>& names, const std::map<std::string, VariableRange>& ranges,
                           bool layouts, const ProofOutcome& outcome) {
  std::string q;
  for (const auto& n : names) {
    const auto it = ranges.find(n);
    q += (q.empty() ? "every " : ", ") + n + " in ";
    if (it == ranges.end()) q += "[0, 2^63-1] (every non-negative int64)";
    // std::string first: GCC 12 at -O3 misreads `"[" + std::string&&` as an overlapping copy (-Wrestrict)
    else q += std::string("[") + std::to_string(it->second.lo) + ", " + std::to_string(it->second.hi) + "]";
  }
  if (q.empty()) q = "no variable (a concrete claim)";
  if (layouts) q += "; every index 0 <= i < size";
  q += "; ranks and nesting as written in the claim; " + std::to_string(outcome.reachable_paths) +
       " case(s) of the model's branches, each reachable and proved";
  if (outcome.unreachable_paths)
    q += "; " + std::to_string(outcome.unreachable_paths) + " more unreachable under the ranges and hypotheses";
  if (outcome.undecided_paths)
    q += "; " + std::to_string(outcome.undecided_paths) + " more proved whose reachability Z3 did not decide";
  return q;
}

// `l OP r` and divides(d, n) (d >= 1, n % d == 0), once for the symbolic statement of a
// hypothesis (T = SymInt: a Z3 formula) and its check on the concrete model (T = int64: a
// bool). OP is one of == != < <= > >=, as split_assumption returns it.
template <class T>
auto compared(const std::string& op, const T& l, const T& r) {
  if (op == "==") return l == r;
  if (op == "!=") return !(l == r);
  if (op == "<") return l < r;
  if (op == "<=") return !(r < l);
  if (op == ">") return r < l;
  return l >= r;
}
template <class T>
auto divides_value(const T& d, const T& n, const T& zero, const T& one) {
  return d >= one && n % d == zero;
}

// States one --assume text as hypotheses of the proof: its comparison, and every side
// condition its evaluation records (the model accepts the expressions it names).
void assume(const std::string& text, const std::map<std::string, SymInt>& vars, SymbolicScope& scope) {
  using K = Val<SymInt>::Kind;
  using Ops = ScalarOps<SymInt>;
  const Assumption a = split_assumption(text);
  const std::size_t before = scope.obligations().size();
  auto side = [&](const std::string& t) { return evaluate_side(Side{t, !free_variables(t).empty()}, vars); };
  auto integer = [&](const Val<SymInt>& v) -> SymInt {
    if (v.kind != K::Int) throw Unsupported("--assume '" + text + "': only integers are compared");
    return *v.i;
  };
  z3::expr h = scope.ctx().bool_val(true);
  if (!a.op.empty()) {
    const SymInt l = integer(side(a.lhs)), r = integer(side(a.rhs));
    h = compared(a.op, l, r);
  } else if (a.lhs == "defined") {
    (void)side(a.rhs);
  } else if (a.lhs == "injective") {
    if (scope.encoding() != Encoding::Int64Range)
      throw Unsupported("--assume '" + text + "': injective(L) is a quantified formula, stated only in the integer "
                        "encoding, and this claim has bit operations");
    const Val<SymInt> v = side(a.rhs);
    if (v.kind == K::Layout) h = injective(SymLayout{v.t, v.stride});
    else if (v.kind == K::Model && v.model && v.model->is_layout()) h = injective(::cuteref::proofs::lift(std::get<Layout>(v.model->data)));
    else throw Error("--assume '" + text + "': injective takes a layout with integer strides");
  } else {
    const auto [x, y] = split_claim_arguments(a.rhs, text);
    if (a.lhs == "divides") {
      const SymInt d = integer(side(x)), n = integer(side(y));
      h = divides_value(d, n, Ops::constant(0), Ops::constant(1));
    } else {  // admissible
      (void)side("composition(" + x + ", " + y + ")");
    }
  }
  for (const Obligation& o : scope.take_obligations_after(before)) scope.add_hypothesis(z3::implies(o.guard, o.condition));
  scope.add_hypothesis(h);
}

// Whether one --assume text holds at a counterexample's values, on the concrete model (a
// refutation is printed only where every hypothesis does). Throws Error where the model
// rejects an expression the assumption names, or injective(L) is too large to enumerate.
bool assumption_holds(const std::string& text, const std::map<std::string, CheckedInt>& values) {
  using K = Val<CheckedInt>::Kind;
  const Assumption a = split_assumption(text);
  auto side = [&](const std::string& t) { return evaluate_side(Side{t, !free_variables(t).empty()}, values); };
  auto integer = [&](const Val<CheckedInt>& v) {
    if (v.kind != K::Int) throw Error("--assume '" + text + "': only integers are compared");
    return v.i->v;
  };
  if (!a.op.empty()) {
    const std::int64_t l = integer(side(a.lhs)), r = integer(side(a.rhs));
    return compared(a.op, l, r);
  }
  if (a.lhs == "defined") {
    try {
      (void)side(a.rhs);
    } catch (const Error&) {
      return false;
    }
    return true;
  }
  if (a.lhs == "injective") {
    const std::optional<Value> v = lower(side(a.rhs));
    if (!v || !v->is_layout()) throw Error("--assume '" + text + "': injective takes a layout");
    const Layout& l = std::get<Layout>(v->data);
    constexpr std::int64_t kLimit = std::int64_t{1} << 22;
    const std::int64_t n = size_value(l);
    if (n > kLimit) throw Error("--assume '" + text + "': " + std::to_string(n) + " elements, too many to check");
    std::set<std::int64_t> image;
    for (std::int64_t i = 0; i < n; ++i)
      if (!image.insert(apply_index(l, i)).second) return false;
    return true;
  }
  const auto [x, y] = split_claim_arguments(a.rhs, text);
  if (a.lhs == "divides") {
    const std::int64_t d = integer(side(x)), m = integer(side(y));
    return divides_value<std::int64_t>(d, m, 0, 1);
  }
  try {  // admissible
    (void)side("composition(" + x + ", " + y + ")");
  } catch (const Error&) {
    return false;
  }
  return true;
}

// The concrete replay of a proved claim (replay_points.hpp): at each point, the hypotheses are
// checked on the concrete model (a point where one fails is not in the claim's domain), then
// both sides are evaluated by the model and compared. A point where the model refuses a side
// or the sides differ contradicts the proof.
struct Replay {
  std::size_t points = 0;        // points replayed
  std::size_t in_domain = 0;     // ... where every hypothesis holds: both sides compared
  std::size_t uncheckable = 0;   // ... where a hypothesis could not be checked (injective(L) too large)
  bool whole_box = false;
  bool out_of_time = false;
  std::map<std::string, std::int64_t> failed_at;  // the first contradicting point
  std::string failure;                            // what the model says there
};

Replay replay_proved(const Side& lhs, const Side& rhs, const std::vector<std::string>& assume,
                     const std::set<std::string>& names, const std::map<std::string, VariableRange>& ranges,
                     const std::map<std::string, std::int64_t>& witness,
                     std::chrono::steady_clock::time_point deadline) {
  std::vector<std::pair<std::string, std::pair<std::int64_t, std::int64_t>>> box;
  for (const auto& n : names) {
    const VariableRange r = ranges.count(n) ? ranges.at(n) : VariableRange{};
    box.push_back({n, {r.lo, r.hi}});
  }
  ReplayPoints chosen = replay_points(box);
  Replay out;
  out.whole_box = chosen.whole_box;
  if (!chosen.whole_box && !witness.empty()) {  // Z3's point where the hypotheses hold
    std::map<std::string, std::int64_t> w;
    for (const auto& n : names) w[n] = witness.count(n) ? witness.at(n) : 0;
    chosen.points.push_back(std::move(w));
  }
  for (const auto& point : chosen.points) {
    if (std::chrono::steady_clock::now() > deadline) {
      out.out_of_time = true;
      return out;
    }
    ++out.points;
    std::map<std::string, CheckedInt> values;
    for (const auto& [n, v] : point) values.emplace(n, CheckedInt(v));
    bool holds = true, checkable = true;
    for (const auto& text : assume) {
      try {
        holds = assumption_holds(text, values);
      } catch (const Error&) {
        checkable = false;
      }
      if (!holds || !checkable) break;
    }
    if (!checkable) ++out.uncheckable;
    if (!holds || !checkable) continue;
    ++out.in_domain;
    try {
      const Val<CheckedInt> a = evaluate_side(lhs, values), b = evaluate_side(rhs, values);
      if (const std::optional<std::string> d = first_difference(a, b)) out.failure = "the model's two sides differ: " + *d;
    } catch (const Error& e) {
      out.failure = std::string("the model rejects this input: ") + e.what();
    }
    if (!out.failure.empty()) {
      out.failed_at = point;
      return out;
    }
  }
  return out;
}

// Owns the solver's scope; leaves it allocated when asked (ProveRequest::leak_solver_context),
// kept reachable from a static list so that a leak checker does not report what is left on
// purpose (the proof may run on a thread that has ended by the time the process exits).
struct ScopeHolder {
  std::unique_ptr<SymbolicScope> scope;
  bool leak;
  ~ScopeHolder() {
    if (!leak) return;
    static std::mutex kept_mutex;
    static auto* kept = new std::vector<std::unique_ptr<SymbolicScope>>;  // never destroyed
    const std::lock_guard<std::mutex> lock(kept_mutex);
    kept->push_back(std::move(scope));
  }
};

}  // namespace

int prove_command(const ProveRequest& req, std::ostream& out, std::ostream& err, ProofOutcome* outcome_out) {
  try {
    return prove_checked(req, out, err, outcome_out);
  } catch (const std::bad_alloc&) {
    err << "error: out of memory while proving the claim\n";
    return kProveFailure;
  } catch (const z3::exception& e) {
    err << "error: Z3 failed: " << shortened(printable(e.msg())) << "\n";
    return kProveFailure;
  }
}

namespace {

int prove_checked(const ProveRequest& req, std::ostream& out, std::ostream& err, ProofOutcome* outcome_out) {
  const auto start = std::chrono::steady_clock::now();
  Side lhs, rhs;
  std::map<std::string, VariableRange> ranges;
  std::set<std::string> names;
  try {
    if (!(req.timeout_s >= 0.001) || req.timeout_s > kMaxProveTimeoutSeconds)
      throw Error("the time limit must be in [0.001, " +
                  std::to_string(static_cast<long long>(kMaxProveTimeoutSeconds)) + "] seconds");
    ParsedClaim parsed = parse_claim(req.claim, req.where, req.assume);
    lhs = std::move(parsed.lhs);
    rhs = std::move(parsed.rhs);
    names = std::move(parsed.names);
    ranges = std::move(parsed.ranges);
  } catch (const Error& e) {
    err << "error: " << shortened(e.what()) << "\n";
    return kProveUsage;
  }
  const auto deadline = start + std::chrono::milliseconds(static_cast<long long>(std::ceil(req.timeout_s * 1000)));
  bool bits = needs_bits(req.claim);
  for (const auto& a : req.assume) bits = bits || needs_bits(a);  // the hypotheses share the encoding
  const Encoding encoding = bits ? Encoding::BitVector64 : Encoding::Int64Range;
  ScopeHolder holder{std::make_unique<SymbolicScope>(encoding), req.leak_solver_context};
  SymbolicScope& scope = *holder.scope;
  std::vector<z3::expr> domain;
  std::map<std::string, SymInt> vars;
  std::vector<ProofVariable> reported;
  for (const auto& n : names) {
    const VariableRange r = ranges.count(n) ? ranges.at(n) : VariableRange{};
    vars.emplace(n, scope.ranged_variable(n, r.lo, r.hi, domain));
  }
  if (encoding == Encoding::Int64Range) {
    std::vector<DivisibilityFact> facts;
    for (const auto& text : req.assume) {
      try {
        const Assumption a = split_assumption(text);
        if (a.op.empty() && a.lhs == "divides") {
          const auto [d, v] = split_claim_arguments(a.rhs, text);
          facts.push_back({d, v});
        }
      } catch (const Error&) {
        // malformed: diagnosed where the hypotheses are stated, below
      }
    }
    write_dividends_as_multiples(facts, vars, scope, domain);
  }
  for (const auto& n : names) reported.push_back({n, vars.at(n).e});
  const SymInt index = scope.ranged_variable("index", 0, INT64_MAX, domain);
  reported.push_back({"index", index.e});
  bool layouts = false;
  ProofOutcome outcome;
  try {
    ProofOptions options;
    options.timeout_ms = static_cast<unsigned>(std::ceil(req.timeout_s * 1000));
    options.keep_smt2 = !req.smt2_file.empty() || outcome_out != nullptr;
    outcome = prove(scope, domain, reported, [&]() -> z3::expr {
      using K = Val<SymInt>::Kind;
      for (const auto& text : req.assume) assume(text, vars, scope);
      const Val<SymInt> a = evaluate_side(lhs, vars), b = evaluate_side(rhs, vars);
      if (function_like(a) && function_like(b)) {
        layouts = true;
        if (a.kind == K::Layout && b.kind == K::Layout) scope.set_sufficient_goal(same_modes(a, b));
        if (a.kind == K::Composed && b.kind == K::Composed) {
          const z3::expr same_outer = same_swizzle_and_offset(a, b);
          if (!same_outer.is_false()) scope.set_sufficient_goal(same_outer && same_modes(a, b));
        }
        const SymInt na = size_of(a), nb = size_of(b);
        const z3::expr in_domain = index < na;
        scope.push_guard(in_domain);
        SymInt i = index;
        if (i.hi > na.hi - 1) i.hi = na.hi - 1;
        const SymInt va = value_at(a, i), vb = value_at(b, i);
        scope.pop_guard();
        return na == nb && z3::implies(in_domain, va == vb);
      }
      if (a.kind == K::Int && b.kind == K::Int) return *a.i == *b.i;
      if (a.kind == K::Tuple && b.kind == K::Tuple) {
        return structurally_equal(a.t, b.t);
      }
      throw Unsupported("cannot compare these two kinds of values symbolically");
    }, options);
  } catch (const Unsupported& e) {
    out << "unknown: " << shortened(e.what()) << "\n";
    return kProveUnknown;
  } catch (const Error& e) {
    err << "error: " << shortened(e.what()) << "\n";  // the claim is malformed or the model rejects it
    return kProveUsage;
  }
  if (outcome_out) *outcome_out = outcome;
  if (!req.smt2_file.empty()) {
    std::ofstream f(req.smt2_file);
    f << smt2_script(outcome);
    f.close();
    if (!f) {
      err << "error: could not write the queries to " << req.smt2_file << "\n";
      return kProveIoError;
    }
  }
  if (outcome.status == ProofStatus::Vacuous) {
    out << "vacuous: " << outcome.reason << "\n";
    for (const auto& a : req.assume) out << "  assuming: " << a << "\n";
    return kProveVacuous;
  }
  if (outcome.status == ProofStatus::Proved) {
    // Defence in depth: the model itself must agree at the replayed points of the box.
    const Replay replay = replay_proved(lhs, rhs, req.assume, names, ranges, outcome.witness, deadline);
    if (replay.out_of_time) {
      out << "unknown: timeout: Z3 proved every case, and the time limit was reached during the concrete replay (after "
          << replay.points << " point(s))\n";
      return kProveUnknown;
    }
    if (!replay.failure.empty()) {
      out << "refuted:\n";
      for (const auto& [n, v] : replay.failed_at) out << "  " << n << " = " << v << "\n";
      out << "  " << shortened(replay.failure) << "\n"
          << "  (found by the concrete replay: Z3 reported no counterexample; the model decides)\n";
      return kProveRefuted;
    }
    out << "proved (" << static_cast<long long>(outcome.ms + 0.5) << " ms)\n"
        << "  for: " << quantification(names, ranges, layouts, outcome) << "\n"
        << "  replayed: the model agrees at " << replay.in_domain << " point(s)";
    if (!req.assume.empty()) out << " where the hypotheses hold, of " << replay.points;
    out << (replay.whole_box ? " (the whole box)" : " (corners and deterministic points of the box)");
    if (replay.uncheckable) out << "; " << replay.uncheckable << " point(s) whose hypotheses are too large to check";
    out << "\n";
    for (const auto& a : req.assume) out << "  assuming: " << a << "\n";
    return kProveProved;
  }
  if (outcome.status == ProofStatus::Unknown) {
    out << "unknown: " << outcome.reason << "\n";
    return kProveUnknown;
  }
  // Refuted: replay on the concrete model before printing anything.
  std::map<std::string, CheckedInt> concrete;
  std::ostringstream report;
  report << "refuted:\n";
  for (const auto& n : names) {
    concrete.emplace(n, CheckedInt(outcome.values.at(n)));
    report << "  " << n << " = " << outcome.values.at(n) << "\n";
  }
  for (const auto& text : req.assume) {
    bool holds = false;
    try {
      holds = assumption_holds(text, concrete);
    } catch (const Error& e) {
      out << "unknown: Z3's counterexample could not be checked against --assume '" << text
          << "': " << shortened(e.what()) << "\n";
      return kProveUnknown;
    }
    if (!holds) {
      out << "unknown: Z3's counterexample violates --assume '" << text << "' on the concrete model\n";
      return kProveUnknown;
    }
  }
  try {
    const Val<CheckedInt> a = evaluate_side(lhs, concrete), b = evaluate_side(rhs, concrete);
    bool differs = false;
    if (function_like(a) && function_like(b)) {
      const std::int64_t na = size_of(a).v, nb = size_of(b).v;
      report << "  lhs = " << describe(a) << " (size " << na << ")\n  rhs = " << describe(b) << " (size " << nb << ")\n";
      if (na != nb) {
        differs = true;
        report << "  the sizes differ\n";
      } else {
        const std::int64_t i = outcome.values.count("index") ? outcome.values.at("index") : 0;
        if (i >= 0 && i < na) {
          const std::int64_t va = value_at(a, CheckedInt(i)).v, vb = value_at(b, CheckedInt(i)).v;
          report << "  index = " << i << ": lhs(" << i << ") = " << va << ", rhs(" << i << ") = " << vb << "\n";
          differs = va != vb;
        }
      }
    } else {
      report << "  lhs = " << describe(a) << "\n  rhs = " << describe(b) << "\n";
      auto la = lower(a, false), lb = lower(b, false);  // values, not static flags
      differs = !la || !lb || la->to_string() != lb->to_string();
    }
    if (!differs) {
      out << "unknown: Z3's counterexample did not replay on the concrete model (both sides agree there)\n";
      return kProveUnknown;
    }
  } catch (const Error& e) {
    // The model rejects the input: a refutation only if the solver said a side condition failed.
    if (outcome.failed_side_condition.empty()) {
      out << "unknown: Z3's counterexample did not replay: the model says: " << shortened(e.what()) << "\n";
      return kProveUnknown;
    }
    report << "  the model rejects this input: " << shortened(e.what()) << "\n";
  }
  out << report.str();
  return kProveRefuted;
}

}  // namespace

}  // namespace cuteref::proofs

namespace cuteref::proofs {

std::string replay_on_model(const ProveRequest& request) {
  const ParsedClaim p = parse_claim(request.claim, request.where, request.assume);
  const Replay r = replay_proved(p.lhs, p.rhs, request.assume, p.names, p.ranges, {},
                                 std::chrono::steady_clock::time_point::max());
  if (r.failure.empty()) return "agrees at " + std::to_string(r.in_domain) + " point(s) of " + std::to_string(r.points);
  std::string at;
  for (const auto& [n, v] : r.failed_at) at += (at.empty() ? "" : ", ") + n + " = " + std::to_string(v);
  return "contradicted at " + at + ": " + r.failure;
}

std::string evaluate_claim_concretely(const std::string& claim, const std::vector<std::string>& where,
                                      bool at_upper_bound) {
  const ParsedClaim p = parse_claim(claim, where);
  std::map<std::string, CheckedInt> concrete;
  for (const auto& n : p.names) {
    const VariableRange range = p.ranges.count(n) ? p.ranges.at(n) : VariableRange{};
    concrete.emplace(n, CheckedInt(at_upper_bound ? range.hi : range.lo));
  }
  try {
    const Val<CheckedInt> a = evaluate_side(p.lhs, concrete), b = evaluate_side(p.rhs, concrete);
    if (!function_like(a) || !function_like(b)) {
      if (!lower(a, false) || !lower(b, false)) return "unsupported: a side is not concrete";
    }
    const std::optional<std::string> d = first_difference(a, b);
    return d ? "differ: " + *d : "equal";
  } catch (const Unsupported& e) {
    return std::string("unsupported: ") + e.what();
  }
}

}  // namespace cuteref::proofs
