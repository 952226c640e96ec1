// gmma_desc reads the canonical form's parameters from a few elements and compares the layout
// with the canonical layout by their modes, visiting no element (issue 17: it used to walk
// every element, 8 s for a 2^24 x 16 tile). The independent check: the definition, enumerated.
// For small tiles near the canonical forms (and mutations of them), the reference below
// derives the parameters the form forces (SBO is the unit of row 8, LBO of the second K unit,
// ...) and checks EVERY element against the PTX ISA's canonical formula; make_gmma_desc must
// accept exactly the tiles the enumeration accepts, with the same fields and majorness.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "atoms/gmma_descriptor.hpp"
#include "checked_math.hpp"
#include "coalesce.hpp"
#include "coordinates.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace gmma_descriptor_enumeration_test {

using namespace cuteref;

namespace {

struct Fields {
  GmmaMajor major;
  std::int64_t lbo, sbo;
};

// The definition, enumerated: `l` is the (MN, K) tile of `bits`-bit elements, `wu` the swizzle
// width in 16-byte units (1: no swizzle, INTERLEAVE). Canonical iff, in 16-byte units u(a, b)
// of t = 128 / bits elements,
//   every unit is t contiguous elements starting at a multiple of t, and
//   K-major : u(a, b) = (a % 8) * wu + (a / 8) * SBO + b * LBO   (swizzled: LBO = 1)
//   MN-major: u(a, b) = (a % wu) * [wu > 1] + (a / wu) * S01 + (b % 8) * wu + (b / 8) * S11
// for all a, b, with the parameters those equations force.
std::optional<Fields> enumerated(const Layout& l, int bits, std::int64_t wu) {
  const bool inter = wu == 1;
  if (rank(l) != 2) return std::nullopt;
  const std::int64_t mn = size_value(mode(l, 0)), k = size_value(mode(l, 1)), t = 128 / bits;
  if (k * bits != 256) return std::nullopt;
  auto g = [&](std::int64_t i, std::int64_t j) { return apply_index(l, i + mn * j); };
  const bool k_major = g(0, 1) == 1;
  const bool mn_major = !k_major && mn > 1 && g(1, 0) == 1;
  if (!k_major && !mn_major) return std::nullopt;
  if ((k_major ? k : mn) % t != 0) return std::nullopt;
  // Units: t contiguous elements, aligned.
  for (std::int64_t j = 0; j < k; ++j)
    for (std::int64_t i = 0; i < mn; ++i) {
      const std::int64_t c = k_major ? j : i, c0 = c - c % t;
      const std::int64_t head = k_major ? g(i, c0) : g(c0, j);
      if (g(i, j) != head + c % t || floor_mod(head, t) != 0) return std::nullopt;
    }
  auto u = [&](std::int64_t a, std::int64_t b) { return k_major ? floor_div(g(a, b * t), t) : floor_div(g(a * t, b), t); };
  if (k_major) {
    if (mn % 8 != 0 || u(1, 0) != wu) return std::nullopt;
    const std::int64_t sbo = mn > 8 ? u(8, 0) : 0, lbo = u(0, 1);
    if (!inter && lbo != 1) return std::nullopt;
    for (std::int64_t b = 0; b < 2; ++b)
      for (std::int64_t a = 0; a < mn; ++a)
        if (u(a, b) != (a % 8) * wu + (a / 8) * sbo + b * lbo) return std::nullopt;
    return Fields{GmmaMajor::K, inter ? lbo : 1, sbo};
  }
  const std::int64_t umn = mn / t;
  if (k % 8 != 0 || umn % wu != 0) return std::nullopt;
  if (wu > 1 && u(1, 0) != 1) return std::nullopt;
  if (u(0, 1) != wu) return std::nullopt;
  const std::int64_t s01 = umn / wu > 1 ? u(wu, 0) : 0, s11 = k / 8 > 1 ? u(0, 8) : 0, s00 = wu > 1 ? 1 : 0;
  for (std::int64_t b = 0; b < k; ++b)
    for (std::int64_t a = 0; a < umn; ++a)
      if (u(a, b) != (a % wu) * s00 + (a / wu) * s01 + (b % 8) * wu + (b / 8) * s11) return std::nullopt;
  return Fields{GmmaMajor::MN, inter ? s11 : s01, inter ? s01 : s11};
}

IntTuple I(std::int64_t v) { return IntTuple::integer(v); }
IntTuple T(std::vector<IntTuple> e) { return IntTuple::tuple(std::move(e)); }

}  // namespace

TEST(GmmaDescriptorEnumeration, ModesAgreeWithTheEnumeratedDefinition) {
  std::uint64_t seed = 2024;
  auto rnd = [&](std::uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::int64_t>((seed >> 33) % n);
  };
  std::size_t cases = 0, accepted = 0, rejected = 0;
  for (int bits : {8, 16, 32}) {
    const std::int64_t t = 128 / bits, k = 256 / bits;
    for (int b = 0; b <= 3; ++b) {
      const std::int64_t wu = std::int64_t{1} << b;
      for (int rep = 0; rep < 120; ++rep) {
        // A canonical tile of random parameters, written with its modes nested (as the form),
        // then perhaps re-grouped (coalesced per mode) and perhaps mutated in one stride leaf.
        Layout l = [&] {
          if (rnd(2) == 0) {  // K-major: ((8,n),(t,2)) : ((wu*t, SBO*t), (1, LBO*t))
            const std::int64_t n = 1 + rnd(3);
            const std::int64_t sbo = wu * 8 * (1 + rnd(3)) + (rnd(4) == 0 ? 1 : 0);
            const std::int64_t lbo = b == 0 ? n * 8 * (1 + rnd(2)) + rnd(2) : 1;
            return Layout(T({T({I(8), I(n)}), T({I(t), I(2)})}), T({T({I(wu * t), I(sbo * t)}), T({I(1), I(lbo * t)})}));
          }
          // MN-major: ((t,wu,n),(8,kg)) : ((1, [wu>1]*t, S01*t), (wu*t, S11*t))
          const std::int64_t n = 1 + rnd(3), kg = k / 8;
          const std::int64_t s01 = wu * (1 + rnd(2)) * (b == 0 ? 8 : 1) * kg, s11 = wu * 8 * n * (1 + rnd(2));
          return Layout(T({T({I(t), I(wu), I(n)}), T({I(8), I(kg)})}),
                        T({T({I(1), I(wu > 1 ? t : 0), I(s01 * t)}), T({I(wu * t), I(s11 * t)})}));
        }();
        if (rnd(2) == 0) l = coalesce(l, T({I(1), I(1)}));
        // An MN extent of 24 re-factored as (3,8): its modes do not line up with the form's
        // (8,3), so make_gmma_desc compares it element by element (its small-tile path).
        if (size_value(mode(l, 0)) == 24 && rnd(2) == 0) {
          const std::int64_t row = apply_index(l, 1);
          const std::int64_t third[] = {3 * row, 3 * row + t, apply_index(l, 8)};
          l = Layout(T({T({I(3), I(8)}), mode(l, 1).shape()}), T({T({I(row), I(third[rnd(3)])}), mode(l, 1).stride()}));
        }
        if (rnd(3) != 0) {  // mutate one stride leaf
          std::vector<IntTuple> sh, sd;
          flatten_into(l.shape(), sh);
          flatten_into(l.stride(), sd);
          const std::size_t at = static_cast<std::size_t>(rnd(sd.size()));
          const std::int64_t d = sd[at].value();
          const std::int64_t changed[] = {d + 1, d - 1, 2 * d, 0, d + t};
          sd[at] = I(changed[rnd(5)]);
          // Keep the (MN, K) split: the first mode's leaves are those of mode 0.
          const std::size_t r0 = flatten(mode(l, 0).shape()).rank();
          std::vector<IntTuple> s0(sh.begin(), sh.begin() + r0), s1(sh.begin() + r0, sh.end());
          std::vector<IntTuple> d0(sd.begin(), sd.begin() + r0), d1(sd.begin() + r0, sd.end());
          l = Layout(T({T(s0), T(s1)}), T({T(d0), T(d1)}));
        }
        const std::string text = b == 0 ? l.to_string()
                                        : "Sw<" + std::to_string(b) + ",4,3> o smem_ptr[" + std::to_string(bits) +
                                              "b](unset) o " + l.to_string();
        const Value smem = parse_and_evaluate(text, &standard_functions());
        std::optional<Fields> want;
        try {
          want = enumerated(l, bits, wu);
        } catch (const Error&) {
          want = std::nullopt;  // an offset the model cannot evaluate (a negative stride's overflow)
        }
        ++cases;
        try {
          const GmmaDescriptorResult got = make_gmma_desc(smem, bits, 0);
          ASSERT_TRUE(want.has_value()) << text << " accepted, but the enumeration finds an element off the form";
          EXPECT_EQ(got.major, want->major) << text;
          EXPECT_EQ(got.descriptor.leading_byte_offset, want->lbo) << text;
          EXPECT_EQ(got.descriptor.stride_byte_offset, want->sbo) << text;
          ++accepted;
        } catch (const Error& e) {
          ASSERT_FALSE(want.has_value()) << text << " rejected (" << e.what() << "), but it is canonical";
          ++rejected;
        }
      }
    }
  }
  std::printf("[ checked ] %zu tiles against the enumerated definition: %zu canonical, %zu not\n", cases, accepted, rejected);
  EXPECT_GT(accepted, 300u);
  EXPECT_GT(rejected, 300u);
}

// The reproducer: a 2^24 x 16 and a 2^28 x 16 K-major SW128 tile of 16-bit elements,
// (M,16):(64,1): rows 128 bytes apart (64 elements), the two K units adjacent, SBO the unit
// of row 8, 8 * 64 / 8 = 64 units. Answered from the modes: (0, LBO 1, SBO 64, 0, B128 = 1).
TEST(GmmaDescriptorEnumeration, HugeTilesAnswerFromTheirModes) {
  for (const char* m : {"16777216", "268435456"}) {
    const Value v = parse_and_evaluate(std::string("gmma_desc(Sw<3,4,3> o smem_ptr[16b](unset) o (") + m + ",16):(64,1), 16)",
                                       &standard_functions());
    EXPECT_EQ(v.to_string(), "(0,1,64,0,1)") << m;
  }
  // An MN mode that does not line up with the form's (3, 2^23) against (8, n) (rows 0..2 are
  // 16 bytes apart as INTERLEAVE needs, row 3 is not), too many elements to enumerate: the bound.
  try {
    make_gmma_desc(parse_and_evaluate("((3,8388608),16):((8,800),1)", &standard_functions()), 16, 0);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("more than the 4194304 compared one by one"), std::string::npos) << e.what();
  }
}

}  // namespace gmma_descriptor_enumeration_test
