// The values of a layout with integer strides in index order, L(0), L(1), ..., L(size-1),
// without building a coordinate per index: an odometer over the flattened modes adds a stride
// when a digit steps and takes back (extent - 1) strides when it wraps. For `==`, which
// compares two layouts index by index when their modes do not line up (equality.cpp).
//
// Preconditions (checked by the constructor, which throws Error otherwise): integer strides,
// and every value of the layout, offset included, fits in int64 (so no step can overflow; a
// layout that overflows somewhere is left to the caller's index-by-index evaluation, which says
// where).
#pragma once

#include <cstdint>
#include <vector>

#include "layout.hpp"

namespace cuteref {

class LayoutValueStream {
 public:
  // The values offset + L(i) for i = 0, 1, ...
  LayoutValueStream(const Layout& l, std::int64_t offset);
  std::int64_t value() const { return value_; }
  // Moves to the next index. Precondition: not past size(l) - 1.
  void next();

 private:
  std::vector<std::int64_t> extent_, stride_, digit_;
  std::int64_t value_;
};

}  // namespace cuteref
