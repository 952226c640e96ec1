#include "f2_span.hpp"

#include <bit>

namespace cuteref {

namespace {
// Reduces v by the kept vectors from the highest leading bit down; tag collects theirs.
void reduce(const std::array<std::uint64_t, 64>& vectors, const std::array<std::uint64_t, 64>& tags, std::uint64_t& v,
            std::uint64_t& tag) {
  while (v != 0) {
    const int lead = std::bit_width(v) - 1;
    if (vectors[lead] == 0) return;
    v ^= vectors[lead];
    tag ^= tags[lead];
  }
}
}  // namespace

std::optional<std::uint64_t> F2Span::insert(std::uint64_t v, std::uint64_t tag) {
  std::uint64_t made_of = 0;
  reduce(vector_, tag_, v, made_of);
  if (v == 0) return made_of;
  const int lead = std::bit_width(v) - 1;
  vector_[lead] = v;
  tag_[lead] = tag ^ made_of;
  return std::nullopt;
}

std::optional<std::uint64_t> F2Span::express(std::uint64_t v) const {
  std::uint64_t made_of = 0;
  reduce(vector_, tag_, v, made_of);
  if (v != 0) return std::nullopt;
  return made_of;
}

}  // namespace cuteref
