#include "layout_value_stream.hpp"

#include "checked_math.hpp"
#include "error.hpp"

namespace cuteref {

LayoutValueStream::LayoutValueStream(const Layout& l, std::int64_t offset) : value_(offset) {
  if (l.has_basis_strides()) throw Error("LayoutValueStream: the layout has scaled-basis strides");
  const Layout f = flatten(l);
  const auto leaves = [](const IntTuple& t) {
    std::vector<std::int64_t> v;
    if (t.is_leaf()) v.push_back(t.value());
    else
      for (const IntTuple& e : t.elements()) v.push_back(e.value());
    return v;
  };
  extent_ = leaves(f.shape());
  stride_ = leaves(f.stride());
  digit_.assign(extent_.size(), 0);
  // Bound every value: offset + sum of (extent - 1) * |stride| in checked arithmetic. Each
  // value (and each partial sum the steps form) lies within offset -/+ that sum.
  std::int64_t reach = 0;
  for (std::size_t k = 0; k < extent_.size(); ++k)
    reach = checked_add(reach, checked_mul(extent_[k] - 1, checked_abs(stride_[k])));
  checked_add(checked_abs(offset), reach);
}

void LayoutValueStream::next() {
  for (std::size_t k = 0; k < extent_.size(); ++k) {
    if (++digit_[k] < extent_[k]) {
      value_ += stride_[k];
      return;
    }
    digit_[k] = 0;
    value_ -= (extent_[k] - 1) * stride_[k];
  }
}

std::optional<LayoutLikeStream> stream_layout_like(const Value& v) {
  try {
    if (v.is_layout()) {
      const auto& l = std::get<Layout>(v.data);
      if (l.has_basis_strides()) return std::nullopt;
      return LayoutLikeStream{LayoutValueStream(l, 0), std::nullopt};
    }
    if (!v.is_composed()) return std::nullopt;
    const auto& c = std::get<ComposedLayout>(v.data);
    std::int64_t offset = 0;
    if (c.offset) {
      if (!c.offset->value || !c.offset->value->is_integer()) return std::nullopt;
      offset = c.offset->value->value();
    }
    if (c.layout.has_basis_strides()) return std::nullopt;
    return LayoutLikeStream{LayoutValueStream(c.layout, offset), c.swizzle};
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace cuteref
