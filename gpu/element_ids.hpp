// Element ids in byte buffers, shared by the TMA probes.
//
// Every GMEM element (or SMEM position) gets a 24-bit id (never zero). Elements narrower than
// 3 bytes see the id in passes of `eb` bytes each, so that over all passes every element is
// identified uniquely: a copy that passes every pass placed every element where predicted.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace cuteref_gpu {

// Element `i` of a little-endian byte buffer of `eb`-byte elements.
inline std::uint64_t read_elem(const std::vector<std::uint8_t>& buf, std::int64_t i, int eb) {
  std::uint64_t v = 0;
  std::memcpy(&v, buf.data() + i * eb, static_cast<std::size_t>(eb));
  return v;
}
inline void write_elem(std::vector<std::uint8_t>& buf, std::int64_t i, int eb, std::uint64_t v) {
  std::memcpy(buf.data() + i * eb, &v, static_cast<std::size_t>(eb));
}

// The number of passes that show a 24-bit id through `eb`-byte elements.
inline int passes_for(int eb) { return (3 + eb - 1) / eb; }
// The part of `id` that pass `pass` writes into an `eb`-byte element.
inline std::uint64_t pass_value(std::int64_t id, int eb, int pass) {
  const int shift = 8 * eb * pass;
  const std::uint64_t mask = eb >= 8 ? ~0ull : ((1ull << (8 * eb)) - 1);
  return (static_cast<std::uint64_t>(id) >> shift) & mask;
}

// A buffer of `count` `eb`-byte elements, element i holding pass `pass` of id i + 1.
inline std::vector<std::uint8_t> id_image(std::int64_t count, int eb, int pass) {
  std::vector<std::uint8_t> buf(static_cast<std::size_t>(count * eb));
  for (std::int64_t i = 0; i < count; ++i) write_elem(buf, i, eb, pass_value(i + 1, eb, pass));
  return buf;
}

}  // namespace cuteref_gpu
