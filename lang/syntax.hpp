// The syntax tree of EXPR and CLAIM text (lang/parser.hpp builds it, once, for every reader):
// `cuteref eval` evaluates it over the model's values (lang/evaluator.hpp) and `cuteref prove`
// over symbolic ones (proofs/symbolic_evaluator.hpp). Each node keeps the 0-based offset of
// its first character, so that a diagnostic names the column the text has. A Node is a view
// into the SyntaxTree that parse_text filled: it is valid while that tree lives and holds no
// other parse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "int_tuple.hpp"
#include "swizzle.hpp"

namespace cuteref {

struct Node;

// A node's children: a contiguous run of the tree's node pool (SyntaxTree). Valid while the tree
// lives; a Node is a small value that may be copied freely within that lifetime.
class NodeRange {
 public:
  NodeRange() noexcept = default;
  NodeRange(const std::vector<Node>* pool, std::uint32_t first, std::uint32_t size) noexcept
      : pool_(pool), first_(first), size_(size) {}
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  const Node* begin() const noexcept;
  const Node* end() const noexcept;
  const Node& operator[](std::size_t i) const noexcept;
  const Node& front() const noexcept { return (*this)[0]; }
  const Node& back() const noexcept { return (*this)[size_ - 1]; }

 private:
  const std::vector<Node>* pool_ = nullptr;
  std::uint32_t first_ = 0, size_ = 0;
};

// Where each leaf of a Literal starts in the text, in the order of its leaves.
class LeafOffsets {
 public:
  LeafOffsets() noexcept = default;
  LeafOffsets(const std::vector<std::size_t>* all, std::size_t first, std::size_t size) noexcept
      : all_(all), first_(first), size_(size) {}
  std::size_t size() const noexcept { return size_; }
  std::size_t operator[](std::size_t k) const noexcept { return (*all_)[first_ + k]; }

 private:
  const std::vector<std::size_t>* all_ = nullptr;
  std::size_t first_ = 0, size_ = 0;
};

// One node of a syntax tree: a view into the SyntaxTree that holds it (its name, children and
// literal payload live there), trivially copyable so that the parser moves it at no cost.
struct Node {
  enum class Kind : std::uint8_t {
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
  // The literal payload of Basis, Descriptor and Literal nodes and of a Composed layout's
  // smem_ptr, held by the tree.
  struct Payload {
    IntTuple value;                         // Basis, Descriptor, Literal
    LeafOffsets leaf_offsets;               // Literal
    std::optional<ComposedOffset> pointer;  // Composed
  };

  Kind kind = Kind::Integer;
  bool is_static = false;
  bool dsl_spelling = false;
  std::size_t offset = 0;  // of the node's first character in the text
  std::size_t colon = 0;
  std::int64_t integer = 0;
  // A Word's or Call's name; a Compare's operator; a Binary chain's operator codes (`ops()`).
  std::string_view name;
  NodeRange children;
  const Payload* payload = nullptr;

  std::string_view ops() const { return name; }
  const IntTuple& basis() const { return payload->value; }
  const std::optional<ComposedOffset>& pointer() const;

  std::size_t column() const { return offset + 1; }
  // Whether a Word may name a variable of a claim: a lower-case word with no dotted part and
  // no template arguments.
  bool is_variable_word() const;
};

static_assert(std::is_trivially_copyable_v<Node>, "the parser moves nodes as plain values");

inline const Node* NodeRange::begin() const noexcept { return pool_ ? pool_->data() + first_ : nullptr; }
inline const Node* NodeRange::end() const noexcept { return pool_ ? pool_->data() + first_ + size_ : nullptr; }
inline const Node& NodeRange::operator[](std::size_t i) const noexcept { return (*pool_)[first_ + i]; }

class TreeParser;

// A parsed text: its nodes (each node's children one contiguous run of the pool, the root last),
// the text they name, and their literal payloads, all in one block that stays where it is when
// the tree is moved. clear() keeps the storage's capacity, so that one tree reused line after
// line (a batch) allocates nothing for its nodes.
class SyntaxTree {
 public:
  SyntaxTree();
  SyntaxTree(SyntaxTree&&) noexcept = default;
  SyntaxTree& operator=(SyntaxTree&&) noexcept = default;
  SyntaxTree(const SyntaxTree&) = delete;
  SyntaxTree& operator=(const SyntaxTree&) = delete;
  ~SyntaxTree();

  // @pre the tree holds a parse (parse_text filled it).
  const Node& root() const { return storage_->nodes.back(); }

 private:
  friend class TreeParser;
  struct Storage {
    std::string text;                // the parsed text: names are views of it
    std::vector<Node> nodes;         // the pool
    std::vector<Node> pending;       // children parsed, their parent not yet (a stack)
    std::deque<std::string> names;   // names not spelt as one piece of the text
    std::deque<Node::Payload> payloads;
    std::vector<std::size_t> leaf_offsets;
    std::vector<IntTuple> pending_tuples;        // a literal tuple's elements while it is read
    std::vector<std::int64_t> pending_leaves;    // and its leaves' values
    void clear();
  };
  std::unique_ptr<Storage> storage_;
};

// The text of a Binary operator code ("<<" for 'L', ">>" for 'R', else the character).
std::string binary_operator_text(char code);

// The names of the variable words of a tree (claims: its free variables), each once.
void collect_variable_words(const Node& node, std::vector<std::string>& names);

// Whether the tree holds a variable word.
bool mentions_variable(const Node& node);

}  // namespace cuteref
