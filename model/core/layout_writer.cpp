#include "layout_writer.hpp"

#include "bracket_parser.hpp"
#include "error.hpp"

namespace cuteref {

void LayoutWriter::spill() {
  spilling_ = true;
  spilled_.reserve(inline_.n + 1u);
  for (std::size_t i = 0; i < inline_.n; ++i)
    spilled_.push_back({inline_.shape(i), inline_.stride(i), inline_.opens[i], inline_.closes[i]});
}

void LayoutWriter::throw_empty_tuple() {
  throw Error("internal error: LayoutWriter::close() of a tuple without a leaf (the algebra writes no empty tuple)");
}

void LayoutWriter::finish(Layout& result) const {
  if (!spilling_) return;
  struct Source {
    const std::vector<Spilled>& v;
    std::size_t size() const { return v.size(); }
    unsigned opens(std::size_t i) const { return v[i].opens; }
    unsigned closes(std::size_t i) const { return v[i].closes; }
    FlatInt shape(std::size_t i) const { return v[i].shape; }
    FlatInt stride(std::size_t i) const { return v[i].stride; }
  };
  IntTuple shape, stride;
  parse_bracketed(Source{spilled_}, shape, stride);
  result = detail::LayoutFromValidParts::make(std::move(shape), std::move(stride));
}

Layout flat_layout(const FlatInt* shapes, const FlatInt* strides, std::size_t n) {
  if (n > kInlineLeaves)
    return detail::LayoutFromValidParts::make(tuple_of_flat(shapes, n), tuple_of_flat(strides, n));
  return detail::LayoutFromValidParts::make_leaves([&](BracketedLeaves& b) noexcept {
    b.n = static_cast<std::uint8_t>(n);
    for (std::size_t i = 0; i < n; ++i) b.set_leaf(i, shapes[i], strides[i]);
    if (n > 1) {
      b.opens[0] = 1;
      b.closes[n - 1] = 1;
    }
  });
}

bool append_layout_leaves(const Layout& l, FlatInts& shapes, FlatInts& strides) {
  if (const BracketedLeaves* b = l.leaves()) {
    b->copy_leaves(shapes.append_uninitialized(b->n), strides.append_uninitialized(b->n));
    return true;
  }
  append_flat_ints(l.shape(), shapes);  // shape leaves are integers: a layout invariant
  return append_flat_ints(l.stride(), strides);
}

}  // namespace cuteref
