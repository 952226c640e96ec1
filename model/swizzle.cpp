#include "swizzle.hpp"

#include <algorithm>
#include <cstdlib>

#include "error.hpp"
#include "swizzle_eval.hpp"

namespace cuteref {

namespace {
// The first violated condition of swizzle_parameters_legal, for the diagnostic.
std::string illegal_reason(int b, int m, int s) {
  if (b < 0) return "B (number of bits) must be >= 0";
  if (m < 0) return "M (base) must be >= 0";
  if (b > 63 || m > 63 || s < -63 || s > 63) return "B and M must be <= 63 and |S| <= 63";
  if (std::abs(s) < b)
    return "|S| must be >= B (CuTe's precondition; otherwise the source and destination bit fields overlap)";
  return "bit fields exceed 63 bits";
}
}  // namespace

// Legality is decided by the generic predicate the proofs use; only the wording is local.
Swizzle::Swizzle(int b, int m, int s) : b_(b), m_(m), s_(s) {
  if (!swizzle_parameters_legal<CheckedInt>(b, m, s))
    throw Error("Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + ">: " +
                illegal_reason(b, m, s));
}

std::int64_t Swizzle::source_mask() const {
  return swizzle_field_mask<CheckedInt>(b_, m_ + std::max(0, s_)).v;
}
std::int64_t Swizzle::destination_mask() const {
  return swizzle_field_mask<CheckedInt>(b_, m_ - std::min(0, s_)).v;
}

std::int64_t Swizzle::operator()(std::int64_t offset) const {
  return swizzle_value<CheckedInt>(offset, b_, m_, s_).v;
}

std::string Swizzle::to_string() const {
  return "Sw<" + std::to_string(b_) + "," + std::to_string(m_) + "," + std::to_string(s_) + ">";
}

std::string ComposedLayout::to_string() const {
  std::string s;
  append_text(s);
  return s;
}

void ComposedLayout::append_text(std::string& out, std::size_t limit) const {
  out += swizzle.to_string() + " o ";
  if (offset) out += offset->to_string() + " o ";
  layout.append_text(out, limit);
}

IntTuple size(const ComposedLayout& c) { return size(c.layout); }
IntTuple cosize(const ComposedLayout& c) { return cosize(c.layout); }

}  // namespace cuteref
