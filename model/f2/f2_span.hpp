// The span of bit vectors over GF(2), kept in echelon form (one vector per leading bit), with,
// for each kept vector, which of the inserted vectors XOR to it (a mask over their insertion
// order, or any tag the caller gives). What the F2 inverses and complement solve with.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace cuteref {

class F2Span {
 public:
  // Adds v with its tag. Returns nullopt when v is independent of the span (it is kept), else
  // the XOR of the tags of kept vectors that make v (v ^ those == 0 means tag ^ that is a
  // dependency among the inserted vectors).
  std::optional<std::uint64_t> insert(std::uint64_t v, std::uint64_t tag);
  // The XOR of the tags of kept vectors whose XOR is v, or nullopt when v is outside the span.
  std::optional<std::uint64_t> express(std::uint64_t v) const;
  bool contains(std::uint64_t v) const { return express(v).has_value(); }

 private:
  std::array<std::uint64_t, 64> vector_{};  // vector_[b]: the kept vector with leading bit b, or 0
  std::array<std::uint64_t, 64> tag_{};
};

}  // namespace cuteref
