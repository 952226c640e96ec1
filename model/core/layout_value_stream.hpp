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
#include <optional>
#include <vector>

#include "layout.hpp"
#include "swizzle.hpp"
#include "value.hpp"

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

// The values of a layout-like value in index order, where a LayoutValueStream can produce them:
// an integer layout, or a composed layout with an integer offset over one, x -> Sw(offset + L(x))
// (no swizzle for a plain layout).
struct LayoutLikeStream {
  LayoutValueStream values;
  std::optional<Swizzle> swizzle;
  std::int64_t value() const { return swizzle ? (*swizzle)(values.value()) : values.value(); }
  void next() { values.next(); }
};

// The stream of v, or nullopt for anything else (scaled-basis strides, an smem_ptr token, not a
// layout) and where some value overflows: evaluate_at then says which, at its index.
std::optional<LayoutLikeStream> stream_layout_like(const Value& v);

}  // namespace cuteref
