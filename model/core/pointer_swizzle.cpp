#include "pointer_swizzle.hpp"

#include <algorithm>
#include <string>

#include "error.hpp"

namespace cuteref {

Swizzle element_swizzle(const Swizzle& sw, int element_bits) {
  int n = 0;
  while (n < 30 && (1 << n) < element_bits) ++n;
  if (element_bits <= 0 || (1 << n) != element_bits)
    throw Error("the element width " + std::to_string(element_bits) + " bits is not a power of two");
  // The swizzle's lowest bit in element-offset bits (n - 3 byte-address bits per element).
  const int base = sw.base() + 3 - n;
  if (base >= 0) return Swizzle(sw.bits(), base, sw.shift());
  // For S > 0 pair i moves bit M + S + i into bit M + i: with base < 0 the target of pair 0 is
  // inside the element, so every source bit must be too: M + S + B - 1 < n - 3.
  if (sw.bits() > 0 && sw.shift() > 0 && base + sw.shift() + sw.bits() > 0)
    throw Error("the swizzle " + sw.to_string() + " moves byte-address bit " + std::to_string(sw.base() + sw.shift()) +
                " into bit " + std::to_string(sw.base()) + ", inside a " + std::to_string(element_bits) +
                "-bit element, so it is not a permutation of elements");
  return Swizzle(std::max(sw.bits() + base, 0), 0, sw.shift());
}

}  // namespace cuteref
