// Laws of right_inverse and left_inverse.
//   right inverse: R = right_inverse_full(L) (by value; CuTe's right_inverse on static strides is in
//                  pycute_ops_properties.cpp), for any L with integer strides: L(R(i)) == i for every
//                  0 <= i < size(R); when L is a bijection onto [0, size(L)), size(R) == size(L).
//   left inverse:  R = left_inverse(L), for injective L with non-negative strides where each
//                  non-zero stride (sorted) divides the next (CuTe's divisibility condition):
//                  R(L(i)) == i for every 0 <= i < size(L).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "generators.hpp"
#include "inverse.hpp"
#include "law_support.hpp"

namespace cuteref::props::inverse_properties {
namespace {

using InverseOp = std::function<Layout(const Layout&)>;

Violation right_inverse_law(const InverseOp& op, const Layout& l) {
  Layout r = l;
  try {
    r = op(l);
  } catch (const Error& e) {
    return rejected("right_inverse(" + l.to_string() + ")", e);
  }
  for (std::int64_t i = 0; i < size_value(r); ++i) {
    const std::int64_t ri = apply_index(r, i);
    if (apply_index(l, ri) != i)
      return "R = right_inverse(" + l.to_string() + ") = " + r.to_string() + ": L(R(" + std::to_string(i) + ")) = L(" +
             std::to_string(ri) + ") = " + std::to_string(apply_index(l, ri));
  }
  const auto img = image(l);
  const bool bijective = static_cast<std::int64_t>(img.size()) == size_value(l) && *img.begin() == 0 &&
                         *img.rbegin() == size_value(l) - 1;
  if (bijective && size_value(r) != size_value(l))
    return "right_inverse(" + l.to_string() + ") = " + r.to_string() + " is smaller than the bijection it inverts";
  return std::nullopt;
}

// The left inverse's precondition, decided from the definition.
bool left_inverse_domain(const Layout& l) {
  auto str = gen::leaf_values(l.stride());
  const auto ext = gen::leaf_values(l.shape());
  std::vector<std::int64_t> nonzero;
  for (std::size_t i = 0; i < str.size(); ++i) {
    if (str[i] < 0) return false;
    if (str[i] != 0 && ext[i] != 1) nonzero.push_back(str[i]);
  }
  std::sort(nonzero.begin(), nonzero.end());
  for (std::size_t i = 1; i < nonzero.size(); ++i)
    if (nonzero[i] % nonzero[i - 1] != 0) return false;
  return is_injective(l);
}

Violation left_inverse_law(const InverseOp& op, const Layout& l) {
  Layout r = l;
  try {
    r = op(l);
  } catch (const Error& e) {
    return rejected("left_inverse(" + l.to_string() + ")", e);
  }
  for (std::int64_t i = 0; i < size_value(l); ++i) {
    const std::int64_t li = apply_index(l, i);
    if (apply_index(r, li) != i)
      return "R = left_inverse(" + l.to_string() + ") = " + r.to_string() + ": R(L(" + std::to_string(i) + ")) = R(" +
             std::to_string(li) + ") = " + std::to_string(apply_index(r, li));
  }
  return std::nullopt;
}

const InverseOp kRight = [](const Layout& l) { return right_inverse_full(l); };
const InverseOp kLeft = [](const Layout& l) { return left_inverse(l); };

rc::Gen<Layout> injective_layouts() {
  return rc::gen::mapcat(rc::gen::element(gen::StrideKind::Compact, gen::StrideKind::PermutedCompact, gen::StrideKind::Gapped),
                         [](gen::StrideKind k) { return gen::layout(k, gen::ShapeLimits{3, 4, 4, 256}); });
}

}  // namespace

RC_GTEST_PROP(Inverse, right_inverse, ()) {
  const Layout l = *gen::layout(gen::ShapeLimits{3, 4, 4, 256});
  rc_require(right_inverse_law(kRight, l));
  count_random("right_inverse");
}

RC_GTEST_PROP(Inverse, left_inverse_of_injective_layouts, ()) {
  const Layout l = *injective_layouts();
  RC_ASSERT(left_inverse_domain(l));
  rc_require(left_inverse_law(kLeft, l));
  count_random("left_inverse");
}

TEST(Inverse, exhaustive) {
  const LeafAlphabet flat{range(1, 4), range(0, 8)};
  const LeafAlphabet negative{range(1, 4), range(-4, 4)};
  const LeafAlphabet nested{range(1, 3), {0, 1, 2, 4}};
  {
    Exhaustive ex("right_inverse", "flat rank<=3, " + flat.to_string());
    for_each_flat_layout(3, flat, [&](const Layout& l) { ex.check(l.to_string(), right_inverse_law(kRight, l)); });
  }
  {
    Exhaustive ex("right_inverse", "flat rank<=2, " + negative.to_string());
    for_each_flat_layout(2, negative, [&](const Layout& l) { ex.check(l.to_string(), right_inverse_law(kRight, l)); });
  }
  {
    Exhaustive ex("right_inverse", "depth-2 nestings of <=4 leaves, " + nested.to_string());
    for_each_nested_layout(4, nested, [&](const Layout& l) { ex.check(l.to_string(), right_inverse_law(kRight, l)); });
  }
  {
    Exhaustive ex("left_inverse", "flat rank<=3 in the domain, " + flat.to_string());
    for_each_flat_layout(3, flat, [&](const Layout& l) {
      if (!left_inverse_domain(l)) return ex.skip();
      ex.check(l.to_string(), left_inverse_law(kLeft, l));
    });
  }
  {
    Exhaustive ex("left_inverse", "depth-2 nestings of <=4 leaves in the domain, " + nested.to_string());
    for_each_nested_layout(4, nested, [&](const Layout& l) {
      if (!left_inverse_domain(l)) return ex.skip();
      ex.check(l.to_string(), left_inverse_law(kLeft, l));
    });
  }
}

TEST(Inverse, mutants_are_caught) {
  expect_mutant_caught("left_inverse", "right_inverse used as the left inverse", [] {
    rc_require(left_inverse_law(kRight, *injective_layouts()));
  });
  expect_mutant_caught("right_inverse", "left_inverse used as the right inverse", [] {
    rc_require(right_inverse_law(kLeft, *injective_layouts()));
  });
}

}  // namespace cuteref::props::inverse_properties
