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

void LayoutWriter::finish_spilled(Layout& result) const {
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

}  // namespace cuteref
