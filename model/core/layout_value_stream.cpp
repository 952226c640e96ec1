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

}  // namespace cuteref
