// Layout descriptors: the textual basis notation of seed 000 ("Descriptor Grammar").
//
//   layout ::= group
//   group  ::= "(" [ entry { "," entry } ] ")"
//   entry  ::= group | basis
//   basis  ::= count "@" dim { "@" dim }
//   count  ::= int | int "/" int
//   dim    ::= uint                       at most kMaxBasisDimension
//   int    ::= [ "-" ] digit { digit }    within 64-bit signed range
//   uint   ::= digit { digit }
// Whitespace (spaces, tabs) may stand between any two tokens, never inside a number.
//
// Meaning. A descriptor is a stride tree of scaled bases, the form CuTe gives the strides
// of identity-like layouts: make_identity_layout((4,8)) prints (4,8):(_1@0,_1@1), and
// (1@0, 1@1) is its stride. A group is a tuple mode, a basis `N@d...` is the stride leaf
// N * E<...>: one step along that mode adds N to the codomain coordinate the basis names.
// Dimension lists read as CuTe prints ScaledBasis: innermost index first, so `1@0@1` is
// E<1,0>, the coordinate (0,(1)) (value 1 at position 0 of the sub-tuple at position 1).
// A descriptor alone fixes the linear map, not the domain: to_layout pairs it with a
// shape congruent with it (shape:stride), exactly as CuTe pairs make_basis_like(shape)
// with shape. `()` is the empty stride of the empty layout ():().
//
// Normalization reduces every count to an integer: 2/2@0 becomes 1@0. A count that does
// not reduce to an integer (1/2@0) has no integer stride; it is rejected with a
// diagnostic naming the basis, never rounded, dropped or lowered. Grouping is kept as
// written: it is the mode structure a shape must be congruent with, so regrouping would
// change which layouts the descriptor describes.
//
// Round trip: for every text t that parses and normalizes,
//   normalize(parse_descriptor(to_string(normalize(parse_descriptor(t))))) == normalize(parse_descriptor(t)).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "int_tuple.hpp"
#include "layout.hpp"

namespace cuteref {

// Largest dimension index a basis may name (the coordinate it denotes has dim+1 entries).
inline constexpr int kMaxBasisDimension = 1024;
// Deepest nesting of groups, and most dimensions in one basis, the parser accepts.
inline constexpr int kMaxDescriptorDepth = 256;

// A basis count as written: numerator / denominator (denominator 1 when no '/' was written).
struct DescriptorCount {
  std::int64_t numerator = 0;
  std::int64_t denominator = 1;
  bool operator==(const DescriptorCount&) const = default;
  std::string to_string() const;  // "3" or "6/2"
};

// A descriptor node: a group of entries, or a basis with a count and a dimension list
// (printed order, innermost first). `column` is the 1-based column where the node starts
// in the text it was parsed from (0 if built in code); diagnostics name it.
class Descriptor {
 public:
  enum class Kind : std::uint8_t { Group, Basis };

  // Preconditions (checked, Error): denominator != 0; 1 <= dims.size() <= kMaxDescriptorDepth;
  // each dim in [0, kMaxBasisDimension].
  static Descriptor basis(DescriptorCount count, std::vector<int> dims, std::size_t column = 0);
  static Descriptor group(std::vector<Descriptor> entries, std::size_t column = 0);

  Kind kind() const { return kind_; }
  bool is_group() const { return kind_ == Kind::Group; }
  bool is_basis() const { return kind_ == Kind::Basis; }
  const std::vector<Descriptor>& entries() const { return entries_; }  // group only
  const DescriptorCount& count() const { return count_; }             // basis only
  const std::vector<int>& dims() const { return dims_; }              // basis only
  std::size_t column() const { return column_; }

  // Same tree, same counts as written (6/2 != 3/1), same dims; columns are ignored.
  bool operator==(const Descriptor& o) const;

  // Basis notation, seed style: "((1@0, 8@1), 1@2)", counts as written.
  std::string to_string() const;

 private:
  Kind kind_ = Kind::Group;
  std::vector<Descriptor> entries_;
  DescriptorCount count_;
  std::vector<int> dims_;
  std::size_t column_ = 0;
};

// Parses a complete descriptor (surrounding whitespace allowed).
// Throws ParseError (1-based column, what was expected) for: empty input, text not
// starting with '(', a missing '@' after a count, a missing dimension, a zero
// denominator, a number outside 64-bit range, a dimension above kMaxBasisDimension,
// nesting deeper than kMaxDescriptorDepth, unbalanced '(' or ')', and trailing text.
Descriptor parse_descriptor(std::string_view text);

// Parses one group starting at text[pos] (after optional whitespace) and advances `pos`
// past its ')'. Columns in diagnostics are positions in the whole `text`, so a descriptor
// embedded in a longer line (the expression language's `descriptor(...)`) is reported
// where it stands. Trailing text is the caller's business.
Descriptor parse_descriptor_group(std::string_view text, std::size_t& pos);

// Reduces every count to an integer (denominator 1).
// Throws ParseError at the basis' column (Error if it has none) naming the basis when its
// count is not an integer (e.g. "basis 1/2@0: count 1/2 does not normalize to an
// integer"), and Error on 64-bit overflow (-9223372036854775808/-1).
Descriptor normalize(const Descriptor& d);

// True iff every count has denominator 1.
bool is_normalized(const Descriptor& d);

// Equal after normalization. Throws as normalize.
bool equivalent(const Descriptor& a, const Descriptor& b);

// The stride tree of a descriptor: groups become tuples, N@d... becomes the scaled-basis
// leaf N@d... (dynamic). Normalizes first; throws as normalize.
IntTuple to_stride(const Descriptor& d);

// The descriptor of a stride tree. Precondition (Error): the root is a tuple and every
// leaf is a scaled basis (a plain integer stride has no basis notation).
Descriptor from_stride(const IntTuple& stride);

// shape : to_stride(d). Precondition (Error): shape is congruent with the descriptor and
// its leaves are integers >= 1.
Layout to_layout(const Descriptor& d, const IntTuple& shape);

// One line per basis leaf of the normalized descriptor, in order: its mode position and
// what one step along it adds, e.g. "mode (0,1): one step adds 8*E<1>" (E<...> outermost index first).
std::vector<std::string> explain(const Descriptor& d);

}  // namespace cuteref
