// Rebuilds a layout's trees from its leaves and nesting (bracketed_leaves.hpp's form, or a
// LayoutWriter's leaves past the inline bound): leaf i is preceded by opens(i) tuple openings
// and followed by closes(i) closings, read as one token stream `( ( leaf ) leaf ) ...`.
#pragma once

#include <cstddef>

#include "int_tuple.hpp"
#include "small_vector.hpp"

namespace cuteref {

namespace detail {

// Source: size(), opens(i), closes(i), shape(i), stride(i) (FlatInt).
template <class Source>
class BracketParser {
 public:
  explicit BracketParser(const Source& src) : src_(src) { enter_leaf(); }

  // The next tree in the stream. @pre the stream holds one: its tuples are closed and not empty.
  void node(IntTuple& shape, IntTuple& stride) {
    if (opens_left_ > 0) {
      --opens_left_;
      SmallVector<IntTuple, 8> shapes, strides;
      while (!at_close()) {
        IntTuple s, d;
        node(s, d);
        shapes.push_back(std::move(s));
        strides.push_back(std::move(d));
      }
      --closes_left_;
      if (closes_left_ == 0) next_leaf();
      shape = IntTuple::tuple_moved(shapes.data(), shapes.size());
      stride = IntTuple::tuple_moved(strides.data(), strides.size());
      return;
    }
    shape = src_.shape(i_).tuple();
    stride = src_.stride(i_).tuple();
    after_leaf_ = true;
    closes_left_ = src_.closes(i_);
    if (closes_left_ == 0) next_leaf();
  }

 private:
  bool at_close() const { return after_leaf_ && closes_left_ > 0; }
  void next_leaf() {
    ++i_;
    enter_leaf();
  }
  void enter_leaf() {
    after_leaf_ = false;
    closes_left_ = 0;
    opens_left_ = i_ < src_.size() ? src_.opens(i_) : 0;
  }

  const Source& src_;
  std::size_t i_ = 0;
  unsigned opens_left_ = 0, closes_left_ = 0;
  bool after_leaf_ = false;
};

}  // namespace detail

// The trees of the whole stream (one tree). @pre as BracketParser::node, and src.size() >= 1.
template <class Source>
void parse_bracketed(const Source& src, IntTuple& shape, IntTuple& stride) {
  detail::BracketParser<Source> parser(src);
  parser.node(shape, stride);
}

}  // namespace cuteref
