#include "swizzle.hpp"

#include <algorithm>
#include <cstdlib>

#include "error.hpp"

namespace cuteref {

Swizzle::Swizzle(int b, int m, int s) : b_(b), m_(m), s_(s) {
  const std::string name = "Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + ">";
  if (b < 0) throw Error(name + ": B (number of bits) must be >= 0");
  if (m < 0) throw Error(name + ": M (base) must be >= 0");
  // Bounded first so that |S| and the field ends below cannot overflow int.
  if (b > 63 || m > 63 || s < -63 || s > 63) throw Error(name + ": B and M must be <= 63 and |S| <= 63");
  if (std::abs(s) < b) throw Error(name + ": |S| must be >= B (CuTe's precondition; otherwise the source and destination bit fields overlap)");
  if (m + std::max(0, s) + b > 63 || m - std::min(0, s) + b > 63)
    throw Error(name + ": bit fields exceed 63 bits");
}

std::int64_t Swizzle::source_mask() const {
  return ((std::int64_t{1} << b_) - 1) << (m_ + std::max(0, s_));
}
std::int64_t Swizzle::destination_mask() const {
  return ((std::int64_t{1} << b_) - 1) << (m_ - std::min(0, s_));
}

std::int64_t Swizzle::operator()(std::int64_t offset) const {
  if (offset < 0) throw Error(to_string() + ": offset " + std::to_string(offset) + " is negative");
  const std::int64_t src = offset & source_mask();
  const std::int64_t moved = s_ >= 0 ? (src >> s_) : (src << -s_);
  return offset ^ moved;
}

std::string Swizzle::to_string() const {
  return "Sw<" + std::to_string(b_) + "," + std::to_string(m_) + "," + std::to_string(s_) + ">";
}

std::string ComposedLayout::to_string() const {
  std::string s = swizzle.to_string() + " o ";
  if (offset) s += offset->to_string() + " o ";
  return s + layout.to_string();
}

IntTuple size(const ComposedLayout& c) { return size(c.layout); }
IntTuple cosize(const ComposedLayout& c) { return cosize(c.layout); }

}  // namespace cuteref
