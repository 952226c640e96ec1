// The syntax tree of EXPR and CLAIM text (lang/parser.hpp builds it, once, for every reader):
// `cuteref eval` evaluates it over the model's values (lang/evaluator.hpp) and `cuteref prove`
// over symbolic ones (proofs/symbolic_evaluator.hpp). Each node keeps the 0-based offset of
// its first character, so that a diagnostic names the column the text has.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "int_tuple.hpp"
#include "swizzle.hpp"

namespace cuteref {

struct Node {
  enum class Kind {
    Integer,      // `8`, `_8` (static), `-3`: `integer`, `is_static`
    Underscore,   // `_` (a slice's free mode)
    Word,         // a bare word: a variable where bound (`x`), otherwise a Symbol (`K`, `SW128`,
                  // `ld.shared.v4.b32`, `SM90_64x64x16_F32BF16BF16_SS<K,K>`): `name`
    Tuple,        // `(e0, e1, ...)`, `()`, `(4)` a 1-tuple: `children`
    Literal,      // a tuple written with integers only, `(4,(2,_8))`: its value `basis`, and
                  // `leaf_offsets` where each leaf starts (most of what a layout is written with)
    Group,        // `(a*b)`: a parenthesized arithmetic expression, not a 1-tuple: children[0]
    Layout,       // SHAPE ":" STRIDE: children {shape, stride}; `colon` the offset of ':'
    Basis,        // a scaled-basis stride leaf `2@1`, `1/2@0@1`: `basis` (stride position only)
    F2Stride,     // an F2 stride leaf `F9`: `integer` (stride position only)
    Swizzle,      // `Sw<B,M,S>` / `S<B,M,S>`: children {B, M, S}; `dsl_spelling` for S<...>
    Composed,     // SWIZZLE "o" [OFFSET "o"] LAYOUT: children {swizzle, layout} or
                  // {swizzle, offset, layout}; an smem_ptr offset is `pointer`
    Descriptor,   // `descriptor(...)`: its stride tree `basis`, parsed by descriptor.hpp
    MajorTag,     // `LayoutLeft` / `LayoutRight`: `integer` 0 / 1
    Call,         // NAME "(" args ")": `name`, `children`
    Apply,        // TARGET "(" args ")": children {target, args...}
    Negate,       // "-" unary: children[0]
    Binary,       // a left-associative chain of one precedence level, c0 op0 c1 op1 c2 ...:
                  // `children` (two or more) and `ops()` (one fewer), each one character of
                  // + - * / % & | ^ and L (<<), R (>>) (a chain, not a nest: a sum of 10^5
                  // terms has depth 1)
    Compare,      // children {lhs, rhs}: `name` the operator, one of == != < <= > >=
  };
  Kind kind = Kind::Integer;
  std::size_t offset = 0;  // of the node's first character in the text
  std::int64_t integer = 0;
  bool is_static = false;
  bool dsl_spelling = false;
  std::size_t colon = 0;
  // A Word's or Call's name; a Compare's operator; a Binary chain's operator codes (`ops()`).
  std::string name;
  // The literal payload (Basis, Descriptor, Literal; a Composed layout's smem_ptr), shared: a
  // node is moved through every level of the parser and stays small.
  struct Payload {
    IntTuple value;                        // Basis, Descriptor, Literal
    std::vector<std::size_t> leaf_offsets;  // Literal
    std::optional<ComposedOffset> pointer;  // Composed
  };
  std::shared_ptr<const Payload> payload;
  std::vector<Node> children;

  const std::string& ops() const { return name; }
  const IntTuple& basis() const { return payload->value; }
  const std::optional<ComposedOffset>& pointer() const;

  std::size_t column() const { return offset + 1; }
  // Whether a Word may name a variable of a claim: a lower-case word with no dotted part and
  // no template arguments.
  bool is_variable_word() const;
};

// The text of a Binary operator code ("<<" for 'L', ">>" for 'R', else the character).
std::string binary_operator_text(char code);

// The names of the variable words of a tree (claims: its free variables), each once.
void collect_variable_words(const Node& node, std::vector<std::string>& names);

// Whether the tree holds a variable word.
bool mentions_variable(const Node& node);

}  // namespace cuteref
