// Unit tests of the inverses of a swizzled composed layout (inverse_composed.hpp). Expected
// values by hand (which bits go where); every answer is checked against the definition by
// enumeration with a swizzle and layout evaluation written here (not the model's): a right
// inverse R has C(R(y)) == y with R(y) in C's domain for every y < size(R); a left inverse has
// R(C(i)) == i for every i when L is injective. CuTe 4.2's answers quoted below were printed by
// oracles/probes/dsl_copy_probe.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "composition_swizzle.hpp"
#include "coordinates.hpp"
#include "inverse.hpp"
#include "inverse_composed.hpp"
#include "notation.hpp"
#include "test_support.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace inverse_composed_test {

using namespace cuteref;
using namespace cuteref::test;

namespace {

// Swizzle<B,M,S> restated: bits [M + max(0,S), +B) XOR-ed into bits [M - min(0,S), +B).
std::int64_t swizzle(int b, int m, int s, std::int64_t x) {
  const std::int64_t y = x & (((std::int64_t{1} << b) - 1) << (m + (s > 0 ? s : 0)));
  return x ^ (s >= 0 ? y >> s : y << -s);
}

// A plain layout's value at index x: colexicographic digits times the strides (flat modes).
struct Flat {
  std::vector<std::int64_t> shape, stride;
  std::int64_t size() const {
    std::int64_t n = 1;
    for (auto s : shape) n *= s;
    return n;
  }
  std::int64_t operator()(std::int64_t x) const {
    std::int64_t v = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      const bool last = k + 1 == shape.size();
      v += (last ? x : x % shape[k]) * stride[k];  // the last mode takes the rest (past the domain)
      x /= shape[k];
    }
    return v;
  }
};

// The flat modes of a layout: its shape and stride leaves, walked together.
void walk(const IntTuple& s, const IntTuple& d, Flat& f) {
  if (!s.is_tuple()) {
    f.shape.push_back(s.value());
    f.stride.push_back(d.value());
    return;
  }
  for (std::size_t i = 0; i < s.rank(); ++i) walk(s[i], d[i], f);
}

Flat flat(const Layout& l) {
  Flat f;
  walk(l.shape(), l.stride(), f);
  return f;
}

// Sw<b,m,s> o off o inner, evaluated here.
struct Composed {
  int b, m, s;
  std::int64_t offset;
  Flat inner;
  std::int64_t operator()(std::int64_t x) const { return swizzle(b, m, s, offset + inner(x)); }
};

Composed mine(const ComposedLayout& c) {
  return {c.swizzle.bits(), c.swizzle.base(), c.swizzle.shift(), c.offset && c.offset->value ? c.offset->value->value() : 0,
          flat(c.layout)};
}

// The definitions, by enumeration; "" when they hold, else the first failure.
std::string right_inverse_fails(const Composed& c, const Composed& r) {
  for (std::int64_t y = 0; y < r.inner.size(); ++y) {
    const std::int64_t x = r(y);
    if (x < 0 || x >= c.inner.size()) return "R(" + std::to_string(y) + ") = " + std::to_string(x) + " outside C's domain";
    if (c(x) != y) return "C(R(" + std::to_string(y) + ")) = " + std::to_string(c(x));
  }
  return "";
}

std::string left_inverse_fails(const Composed& c, const Composed& r) {
  for (std::int64_t i = 0; i < c.inner.size(); ++i) {
    const std::int64_t y = c(i);
    if (y < 0 || y >= r.inner.size()) return "C(" + std::to_string(i) + ") = " + std::to_string(y) + " outside R's domain";
    if (r(y) != i) return "R(C(" + std::to_string(i) + ")) = " + std::to_string(r(y));
  }
  return "";
}

}  // namespace

TEST(InverseComposed, SwizzleMovedThroughATranspose) {
  // L = (4,8):(8,1) sends index i + 4j to 8i + j: a bijection of [0,32), its inverse (8,4):(4,1)
  // sends a + 8b to 4a + b. Sw<2,0,3> XORs bits 3-4 into bits 0-1; through the inverse, bit 3
  // (value 8 = index (0,1)) lands on 1 and bit 4 on 2, bit 0 on 4 and bit 1 on 8: bits 0-1 are
  // XOR-ed into bits 2-3, the swizzle Sw<2,0,-2>. CuTe prints Sw<2,0,-2> o _0 o (_8,_4):(_4,_1) for
  // both inverses (C is a bijection, so the right and left inverses are the same function).
  const ComposedLayout c = CL("Sw<2,0,3> o _0 o (_4,_8):(_8,_1)");
  const ComposedLayout r = right_inverse(c), l = left_inverse(c);
  EXPECT_EQ(r.to_string(), "Sw<2,0,-2> o _0 o (_8,_4):(_4,_1)");
  EXPECT_EQ(l.to_string(), "Sw<2,0,-2> o _0 o (_8,_4):(_4,_1)");
  EXPECT_EQ(right_inverse_fails(mine(c), mine(r)), "");
  EXPECT_EQ(left_inverse_fails(mine(c), mine(l)), "");
  // C(5) = Sw(L(1,1)) = Sw(9) = 9 ^ 1 = 8, so R(8) = 5.
  EXPECT_EQ(mine(r)(8), 5);
}

TEST(InverseComposed, SwizzleOfTheIdentityIsItsOwnInverse) {
  // Sw<1,0,1> o _0 o _4:_1 is 0 1 3 2; a swizzle is an involution, so C is its own inverse.
  const ComposedLayout c = CL("Sw<1,0,1> o _0 o _4:_1");
  EXPECT_EQ(right_inverse(c).to_string(), "Sw<1,0,1> o _0 o _4:_1");
  EXPECT_EQ(left_inverse(c).to_string(), "Sw<1,0,1> o _0 o _4:_1");
  // The 128-byte swizzle of a row-major 8 x 64 tile of bytes: the inverse of L = (8,64):(64,1) is
  // (64,8):(8,1), which moves Sw<3,3,3>'s bits 6-8 to 0-2 and bits 3-5 to 6-8: Sw<3,0,-6>.
  const ComposedLayout d = CL("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(right_inverse(d).to_string(), "Sw<3,0,-6> o _0 o (_64,_8):(_8,_1)");
  EXPECT_EQ(right_inverse_fails(mine(d), mine(right_inverse(d))), "");
}

TEST(InverseComposed, RefusedWhereCuteHasNoInverse) {
  // Sw<1,1,1> o _0 o _6:_1 takes the values 0 1 2 3 6 7 (4 -> 4^2 = 6, 5 -> 7): its image has the
  // prefix [0,4) only. CuTe answers Sw<1,1,1> o _0 o _6:_1, which maps 4 to 6, outside C's domain.
  expect_error([] { right_inverse(CL("Sw<1,1,1> o _0 o _6:_1")); }, "maps 4 to 6, outside C's domain [0, 6)");
  expect_error([] { left_inverse(CL("Sw<1,1,1> o _0 o _6:_1")); }, "C(4) = 6 lies outside its domain [0, 6)");
  // Sw<3,4,3> o (8,64):(64,1): its inverse (64,8):(8,1) sends the swizzle's bits 4-6 to 7, 8 and 0:
  // not a run of bits, and CuTe's make_swizzle static-asserts.
  expect_error([] { right_inverse(CL("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")); }, "cannot be moved through it");
  // Another offset: CuTe builds R o -O o Sw (no size); a pointer token: the swizzle acts on bytes.
  expect_error([] { right_inverse(CL("Sw<1,0,1> o 1 o 4:1")); }, "is 1, not 0");
  expect_error([] { left_inverse(CL("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)")); }, "byte addresses");
}

// Every swizzle Sw<B,M,S> with B <= 2, M <= 3, |S| in [B, 4] over a set of layouts (bijective,
// gapped, with a stride-0 mode): each inverse the model answers satisfies the definition (checked
// here); each one it refuses for its definition is refused rightly (CuTe's construction, built
// here from the model's Sw' and the plain inverse, fails the definition at some point).
TEST(InverseComposed, EveryAnswerIsAnInverseByEnumeration) {
  const std::vector<std::string> layouts = {"_8:_1",        "(_4,_8):(_8,_1)",   "(_8,_4):(_1,_8)", "(_2,_4,_2):(_8,_1,_4)",
                                            "(_4,_2):(_1,_8)", "(_2,_2):(_1,_4)", "_6:_1",           "(_3,_4):(_4,_1)",
                                            "(_4,_4):(_1,_0)", "(_16,_2):(_2,_1)", "_12:_1"};
  int answered = 0, refused = 0, refused_definition = 0;
  for (const std::string& l : layouts)
    for (int b = 0; b <= 2; ++b)
      for (int m = 0; m <= 3; ++m)
        for (int s = -4; s <= 4; ++s) {
          if (b > 0 && (s > -b && s < b)) continue;  // |S| >= B: no overlapping runs
          if (b == 0 && s != 0) continue;            // one identity swizzle per M
          const std::string text = "Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + "> o _0 o " + l;
          const ComposedLayout c = CL(text.c_str());
          const Composed cm = mine(c);
          for (bool right : {true, false}) {
            const bool injective_l = l != "(_4,_4):(_1,_0)";
            try {
              const ComposedLayout r = right ? right_inverse(c) : left_inverse(c);
              ++answered;
              if (right) {
                EXPECT_EQ(right_inverse_fails(cm, mine(r)), "") << text << " -> " << r.to_string();
              } else if (injective_l) {
                EXPECT_EQ(left_inverse_fails(cm, mine(r)), "") << text << " -> " << r.to_string();
              }
            } catch (const Error& e) {
              ++refused;
              const std::string why = e.what();
              if (why.find("not a right inverse") != std::string::npos || why.find("not a left inverse") != std::string::npos) {
                ++refused_definition;
                const Layout inv = right ? right_inverse(c.layout) : left_inverse(c.layout);
                const Swizzle moved = swizzle_moved_through(inv, c.swizzle);
                const Composed cute{moved.bits(), moved.base(), moved.shift(), 0, flat(inv)};
                EXPECT_NE(right ? right_inverse_fails(cm, cute) : left_inverse_fails(cm, cute), "") << text << ": " << why;
              } else {
                EXPECT_NE(why.find("cannot be moved through it"), std::string::npos) << text << ": " << why;
              }
            }
          }
        }
  // The sweep must reach both outcomes (counts of the run: printed for the record).
  EXPECT_GT(answered, 100);
  EXPECT_GT(refused_definition, 0);
  EXPECT_GT(refused - refused_definition, 0);
  std::cout << "InverseComposed sweep: " << answered << " inverses answered and checked, " << refused << " refused ("
            << refused_definition << " by the definition)\n";
}

}  // namespace inverse_composed_test
