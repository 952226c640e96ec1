// Values of the CLI expression language (DESIGN.md "The command-line contract"):
// integer tuples (integers, tuples, `_`), layouts, F2 layouts (model/f2), swizzles, composed layouts, booleans
// with an explanation (`A == B`), and mixed tuples (tilers such as `(4:1, 8:2)`, or
// results such as slice_and_offset's `(layout, offset)`).
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "f2_layout.hpp"
#include "int_tuple.hpp"
#include "layout.hpp"
#include "swizzle.hpp"

namespace cuteref {

struct Value;

struct MixedTuple {
  std::vector<Value> elements;
};

struct Verdict {
  bool holds;
  std::string reason;  // empty when holds
};

// A bare word that names no function, e.g. an MMA atom `SM90_64x128x16_F32F16F16_SS` or
// the `K` of gmma_atom(K, SW64, 8); the functions that take one give it its meaning.
struct Symbol {
  std::string name;
};

// The tags LayoutLeft / LayoutRight of make_layout(shape, tag).
struct MajorTag {
  bool row_major;
};

struct Value {
  std::variant<IntTuple, Layout, Swizzle, ComposedLayout, Verdict, MixedTuple, MajorTag, Symbol, F2Layout> data;

  Value(IntTuple t) : data(std::move(t)) {}
  Value(Layout l) : data(std::move(l)) {}
  Value(Swizzle s) : data(std::move(s)) {}
  Value(ComposedLayout c) : data(std::move(c)) {}
  Value(Verdict v) : data(std::move(v)) {}
  Value(MixedTuple m) : data(std::move(m)) {}
  Value(MajorTag t) : data(t) {}
  Value(Symbol s) : data(std::move(s)) {}
  Value(F2Layout l) : data(std::move(l)) {}

  bool is_int_tuple() const { return std::holds_alternative<IntTuple>(data); }
  bool is_layout() const { return std::holds_alternative<Layout>(data); }
  bool is_swizzle() const { return std::holds_alternative<Swizzle>(data); }
  bool is_composed() const { return std::holds_alternative<ComposedLayout>(data); }
  bool is_mixed_tuple() const { return std::holds_alternative<MixedTuple>(data); }
  bool is_symbol() const { return std::holds_alternative<Symbol>(data); }
  bool is_f2_layout() const { return std::holds_alternative<F2Layout>(data); }

  // A short name of the kind, for diagnostics ("a layout", "an integer tuple", ...).
  std::string kind_name() const;
  // CuTe notation.
  std::string to_string() const;
  // Appends it to `out`, stopping early once out is longer than `limit` (IntTuple::append_text).
  void append_text(std::string& out, std::size_t limit = SIZE_MAX) const;
};

// Build a tuple value from elements: an IntTuple if every element is one, else mixed.
Value make_tuple_value(std::vector<Value> elements);

}  // namespace cuteref
