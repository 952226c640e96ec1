// element_swizzle (pointer_swizzle.hpp) and composed layouts behind an smem_ptr token, against a
// simulation of CuTe's swizzle_ptr: element e of N bits sits at byte address e * N / 8 (for
// N < 8, byte e * N / 8 holding sub-element e % (8 / N)); the swizzle acts on the byte address
// (swizzle_ptr::apply_swizzle), bit by bit as CuTe's Swizzle<B,M,S> is defined (test_support.hpp). Exhaustive over
// small swizzles and every power-of-two width from 1 to 1024 bits.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>

#include "error.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "pointer_swizzle.hpp"
#include "swizzle.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace pointer_swizzle_test {

using namespace cuteref;

namespace {

// The element the swizzled pointer to element e points at, or -1 when the swizzled byte address
// is not aligned to the element's width (the swizzle then splits elements).
std::int64_t swizzled_element(int b, int m, int s, int bits, std::int64_t e) {
  if (bits < 8) {
    const std::int64_t per_byte = 8 / bits;
    return test::reference_swizzle(b, m, s, e / per_byte) * per_byte + e % per_byte;
  }
  const std::int64_t bytes = bits / 8;
  const std::int64_t address = test::reference_swizzle(b, m, s, e * bytes);
  return address % bytes == 0 ? address / bytes : -1;
}

}  // namespace

TEST(PointerSwizzle, ElementFormAgainstTheSwizzledPointer) {
  int swizzles = 0, refused = 0;
  std::int64_t checked = 0;
  for (int b = 0; b <= 3; ++b)
    for (int m = 0; m <= 5; ++m)
      for (int s = -6; s <= 6; ++s) {
        if ((s < 0 ? -s : s) < b) continue;  // not a Swizzle (|S| >= B)
        for (int bits = 1; bits <= 1024; bits *= 2) {
          ++swizzles;
          // The pointer's verdict: every element of a range beyond all swizzle bits.
          bool splits = false;
          for (std::int64_t e = 0; e < 4096 && !splits; ++e) splits = swizzled_element(b, m, s, bits, e) < 0;
          const Swizzle sw(b, m, s);
          if (splits) {
            EXPECT_THROW(element_swizzle(sw, bits), Error) << sw.to_string() << " on " << bits << "-bit elements";
            ++refused;
            continue;
          }
          const Swizzle on_elements = element_swizzle(sw, bits);
          for (std::int64_t e = 0; e < 4096; ++e, ++checked)
            ASSERT_EQ(on_elements(e), swizzled_element(b, m, s, bits, e))
                << sw.to_string() << " on " << bits << "-bit elements, element " << e;
        }
      }
  EXPECT_GT(refused, 0);
  std::cout << "element_swizzle: " << swizzles << " swizzle/width pairs (" << refused << " refused), " << checked
            << " elements checked\n";
}

// Issue 27: Sw<1,1,1> on 128-bit elements moves byte bit 2 into bit 1, both inside a 16-byte
// element and bit 2 always 0: the identity, as Sw<1,0,-1> on 16-bit elements (bit 0 into bit 1).
// Both were to be accepted alike; the first was refused.
TEST(PointerSwizzle, SwizzlesInsideAnElementAreTheIdentity) {
  EXPECT_EQ(element_swizzle(Swizzle(1, 1, 1), 128), Swizzle(0, 0, 1));
  EXPECT_EQ(element_swizzle(Swizzle(1, 0, -1), 16), Swizzle(0, 0, -1));
  for (const char* text : {"Sw<1,1,1> o smem_ptr[128b](unset) o 8:1 == 8:1", "Sw<1,0,-1> o smem_ptr[16b](unset) o 8:1 == 8:1"})
    EXPECT_EQ(parse_and_evaluate(text, &standard_functions()).to_string(), "true") << text;
  // Sw<3,4,3> moves byte bit 7 into bit 4, inside a 32-byte (256-bit) element: refused.
  try {
    parse_and_evaluate("Sw<3,4,3> o smem_ptr[256b](unset) o 8:1(1)", &standard_functions());
    ADD_FAILURE() << "Sw<3,4,3> splits 256-bit elements";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a permutation of elements"), std::string::npos) << e.what();
  }
}

// Issue 27: the model computed the bit address L(x) * N and called its overflow an error although
// the byte address fits. 2^62 - 1 elements of 16 bits are at byte 2^63 - 2 (bits 1..62 set):
// Sw<3,4,3> XORs bits 7..9 (set) into bits 4..6 (set), clearing them: 2^63 - 2 - 112, element
// (2^63 - 114) / 2 = 4611686018427387847. Of 32-bit elements the byte address 2^64 - 4 overflows.
TEST(PointerSwizzle, OnlyTheByteAddressMustFit) {
  EXPECT_EQ(parse_and_evaluate("Sw<3,4,3> o smem_ptr[16b](unset) o 2:4611686018427387903(1)", &standard_functions()).to_string(),
            "4611686018427387847");
  try {
    parse_and_evaluate("Sw<3,4,3> o smem_ptr[32b](unset) o 2:4611686018427387903(1)", &standard_functions());
    ADD_FAILURE() << "the byte address 2^64 - 4 overflows";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("overflow"), std::string::npos) << e.what();
  }
  // One element further of 16 bits: element 2^62 is at byte 2^63, past int64.
  try {
    parse_and_evaluate("Sw<3,4,3> o smem_ptr[16b](unset) o 2:4611686018427387904(1)", &standard_functions());
    ADD_FAILURE() << "the byte address 2^63 overflows";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("overflow"), std::string::npos) << e.what();
  }
}

}  // namespace pointer_swizzle_test
