// Implementation of the public generators (generators.hpp). Stride families are computed
// from a shape and a small "recipe" of random choices (visit order, gaps, broadcast and sign
// flags), so that shrinking the recipe moves a layout toward the compact one.
#include "generators.hpp"

#include <algorithm>
#include <numeric>

#include "coalesce.hpp"
#include "complement.hpp"
#include "composition.hpp"
#include "divide.hpp"
#include "error.hpp"
#include "product.hpp"

namespace cuteref {
namespace gen {
namespace {

// Product of the leaves, saturating at limit + 1 (shapes with up to 64 leaves would
// overflow int64 otherwise).
std::int64_t bounded_size(const IntTuple& t, std::int64_t limit) {
  std::int64_t s = 1;
  for (std::int64_t v : leaf_values(t)) {
    s *= v;
    if (s > limit) return limit + 1;
  }
  return s;
}

rc::Gen<IntTuple> leaf(int max_extent) {
  return rc::gen::map(rc::gen::pair(rc::gen::inRange(1, max_extent + 1),
                                    rc::gen::weightedElement<bool>({{4, false}, {1, true}})),
                      [](const std::pair<int, bool>& p) { return IntTuple::integer(p.first, p.second); });
}

rc::Gen<IntTuple> tuple_of(const rc::Gen<IntTuple>& element, int max_rank) {
  return rc::gen::mapcat(rc::gen::inRange(1, max_rank + 1), [element](int r) {
    return rc::gen::map(rc::gen::container<std::vector<IntTuple>>(static_cast<std::size_t>(r), element),
                        [](std::vector<IntTuple> v) { return IntTuple::tuple(std::move(v)); });
  });
}

// A shape node of depth <= depth; leaves are twice as likely as tuples below the top.
rc::Gen<IntTuple> node(int depth, const ShapeLimits& limits) {
  if (depth == 0) return leaf(limits.max_extent);
  return rc::gen::weightedOneOf<IntTuple>(
      {{2, leaf(limits.max_extent)}, {1, tuple_of(node(depth - 1, limits), limits.max_rank)}});
}

// The random choices behind a stride family; each vector has one entry per shape leaf.
struct Recipe {
  std::vector<int> order_keys;  // leaves are visited by increasing key (ties: leaf order)
  std::vector<int> gaps;        // multiplier >= 1 of the extent reached so far
  std::vector<int> extras;      // added to a gapped stride (non-divisible strides)
  std::vector<bool> zero;       // broadcast this leaf
  std::vector<bool> negate;     // negate this leaf's stride
  std::vector<int> arbitrary;   // StrideKind::Arbitrary values
};

rc::Gen<std::vector<int>> ints(std::size_t n, int lo, int hi) {
  return rc::gen::container<std::vector<int>>(n, rc::gen::inRange(lo, hi + 1));
}
rc::Gen<std::vector<bool>> flags(std::size_t n, int weight_true) {
  return rc::gen::container<std::vector<bool>>(
      n, rc::gen::weightedElement<bool>({{4, false}, {static_cast<std::size_t>(weight_true), true}}));
}

rc::Gen<Recipe> recipe(std::size_t n) {
  return rc::gen::map(
      rc::gen::tuple(ints(n, 0, 9), ints(n, 1, 3), ints(n, 0, 2), flags(n, 1), flags(n, 1),
                     rc::gen::container<std::vector<int>>(
                         n, rc::gen::map(rc::gen::inRange(0, 17), [](int v) { return v <= 8 ? v : 8 - v; }))),
      [](const std::tuple<std::vector<int>, std::vector<int>, std::vector<int>, std::vector<bool>,
                          std::vector<bool>, std::vector<int>>& t) {
        return Recipe{std::get<0>(t), std::get<1>(t), std::get<2>(t),
                      std::get<3>(t), std::get<4>(t), std::get<5>(t)};
      });
}

std::vector<std::size_t> visit_order(const std::vector<int>& keys) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  return order;
}

// Strides of the recipe: visiting the leaves in `order`, stride = reached * gap (+ extra),
// reached = stride * extent. Zero leaves take stride 0 and do not advance `reached`.
std::vector<std::int64_t> increasing_strides(const std::vector<std::int64_t>& extents, const Recipe& r,
                                             bool permute, bool gapped, bool extras, bool zeros) {
  const std::size_t n = extents.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (permute) order = visit_order(r.order_keys);
  std::vector<std::int64_t> strides(n, 0);
  std::int64_t reached = 1;
  for (std::size_t leaf_index : order) {
    if (zeros && r.zero[leaf_index]) continue;
    std::int64_t d = reached * (gapped ? r.gaps[leaf_index] : 1) + (extras ? r.extras[leaf_index] : 0);
    strides[leaf_index] = d;
    reached = d * extents[leaf_index];
  }
  return strides;
}

std::vector<std::int64_t> strides_of(StrideKind kind, const std::vector<std::int64_t>& extents, const Recipe& r) {
  switch (kind) {
    case StrideKind::Compact:
      return increasing_strides(extents, r, false, false, false, false);
    case StrideKind::PermutedCompact:
      return increasing_strides(extents, r, true, false, false, false);
    case StrideKind::Gapped:
      return increasing_strides(extents, r, true, true, false, false);
    case StrideKind::WithZeros:
      return increasing_strides(extents, r, true, true, false, true);
    case StrideKind::Negative: {
      auto s = increasing_strides(extents, r, true, true, false, false);
      for (std::size_t i = 0; i < s.size(); ++i)
        if (r.negate[i]) s[i] = -s[i];
      return s;
    }
    case StrideKind::Arbitrary:
      return std::vector<std::int64_t>(r.arbitrary.begin(), r.arbitrary.end());
  }
  return {};
}

rc::Gen<Layout> layout_from_recipe(const rc::Gen<IntTuple>& shapes,
                                   std::function<std::vector<std::int64_t>(const std::vector<std::int64_t>&, const Recipe&)> strides) {
  return rc::gen::mapcat(shapes, [strides](const IntTuple& s) {
    const auto extents = leaf_values(s);
    return rc::gen::map(recipe(extents.size()), [s, extents, strides](const Recipe& r) {
      return Layout(s, with_leaves(s, strides(extents, r)));
    });
  });
}

bool accepted(const std::function<void()>& f) {
  try {
    f();
    return true;
  } catch (const Error&) {
    return false;
  }
}

// Factor n into a product of factors > 1, using the choices (each picks a divisor of the rest).
std::vector<std::int64_t> factorize(std::int64_t n, const std::vector<int>& choices) {
  std::vector<std::int64_t> out;
  for (int c : choices) {
    if (n == 1) break;
    std::vector<std::int64_t> divisors;
    for (std::int64_t d = 2; d <= n; ++d)
      if (n % d == 0) divisors.push_back(d);
    const std::int64_t d = divisors[static_cast<std::size_t>(c) % divisors.size()];
    out.push_back(d);
    n /= d;
  }
  if (n > 1) out.push_back(n);
  return out;
}

}  // namespace

std::vector<std::int64_t> leaf_values(const IntTuple& t) {
  std::vector<IntTuple> leaves;
  flatten_into(t, leaves);
  std::vector<std::int64_t> out;
  for (const auto& l : leaves) out.push_back(l.value());
  return out;
}

IntTuple with_leaves(const IntTuple& shape, const std::vector<std::int64_t>& values) {
  std::size_t next = 0;
  std::function<IntTuple(const IntTuple&)> rebuild = [&](const IntTuple& t) {
    if (t.is_leaf()) return IntTuple::integer(values.at(next++));
    std::vector<IntTuple> e;
    for (const auto& c : t.elements()) e.push_back(rebuild(c));
    return IntTuple::tuple(std::move(e));
  };
  return rebuild(shape);
}

std::string to_string(StrideKind kind) {
  switch (kind) {
    case StrideKind::Compact: return "compact";
    case StrideKind::PermutedCompact: return "permuted-compact";
    case StrideKind::Gapped: return "gapped";
    case StrideKind::WithZeros: return "stride-0";
    case StrideKind::Negative: return "negative";
    case StrideKind::Arbitrary: return "arbitrary";
  }
  return "?";
}

rc::Gen<IntTuple> shape(ShapeLimits limits) {
  const rc::Gen<IntTuple> top = rc::gen::weightedOneOf<IntTuple>(
      {{1, leaf(limits.max_extent)},
       {3, limits.max_depth == 0 ? leaf(limits.max_extent) : tuple_of(node(limits.max_depth - 1, limits), limits.max_rank)}});
  return rc::gen::suchThat(top, [limits](const IntTuple& s) { return bounded_size(s, limits.max_size) <= limits.max_size; });
}

rc::Gen<Layout> layout(StrideKind kind, ShapeLimits limits) {
  return layout_from_recipe(shape(limits), [kind](const std::vector<std::int64_t>& e, const Recipe& r) {
    return strides_of(kind, e, r);
  });
}

rc::Gen<Layout> layout(ShapeLimits limits) {
  return rc::gen::mapcat(rc::gen::element(StrideKind::Compact, StrideKind::PermutedCompact, StrideKind::Gapped,
                                          StrideKind::WithZeros, StrideKind::Negative, StrideKind::Arbitrary),
                         [limits](StrideKind k) { return layout(k, limits); });
}

rc::Gen<Layout> basis_layout(ShapeLimits limits) {
  // Mode i of the top level maps into coordinate i: leaf strides are factor * (compact
  // prefix within the mode) @ i.
  return rc::gen::mapcat(shape(limits), [](const IntTuple& s) {
    const IntTuple top = wrap(s);
    return rc::gen::map(ints(leaf_values(s).size(), 1, 3), [s, top](const std::vector<int>& factors) {
      std::size_t next = 0;
      std::vector<IntTuple> modes;
      for (std::size_t i = 0; i < top.rank(); ++i) {
        std::int64_t prefix = 1;
        std::function<IntTuple(const IntTuple&)> stride = [&](const IntTuple& t) {
          if (t.is_leaf()) {
            const IntTuple b = IntTuple::basis(prefix * factors[next++], {static_cast<int>(i)});
            prefix *= t.value();
            return b;
          }
          std::vector<IntTuple> e;
          for (const auto& c : t.elements()) e.push_back(stride(c));
          return IntTuple::tuple(std::move(e));
        };
        modes.push_back(stride(top[i]));
      }
      return s.is_tuple() ? Layout(s, IntTuple::tuple(std::move(modes))) : Layout(s, modes[0]);
    });
  });
}

rc::Gen<Layout> complement_domain_layout(bool divisible, bool with_zero_modes, ShapeLimits limits) {
  return layout_from_recipe(shape(limits), [divisible, with_zero_modes](const std::vector<std::int64_t>& e, const Recipe& r) {
    return increasing_strides(e, r, true, true, !divisible, with_zero_modes);
  });
}

rc::Gen<std::pair<Layout, std::int64_t>> complement_pair(bool divisible) {
  return rc::gen::mapcat(complement_domain_layout(divisible, true, ShapeLimits{2, 3, 7, 256}), [](const Layout& a) {
    const std::int64_t c = cosize(a).value();
    return rc::gen::map(rc::gen::inRange<std::int64_t>(1, 3 * c + 1),
                        [a](std::int64_t m) { return std::make_pair(a, m); });
  });
}

rc::Gen<Layout> composable_with(const Layout& a) {
  const std::vector<std::int64_t> extents = leaf_values(flatten(coalesce(a)).shape());
  auto structured = rc::gen::mapcat(shape(ShapeLimits{2, 3, 7, 256}), [extents](const IntTuple& b_shape) {
    const std::size_t n = leaf_values(b_shape).size();
    return rc::gen::map(rc::gen::tuple(ints(n, 0, 7), ints(n, 0, 7), ints(n, 0, 7), flags(n, 1)),
                        [extents, b_shape](const std::tuple<std::vector<int>, std::vector<int>, std::vector<int>, std::vector<bool>>& t) {
      const auto& [modes, ds, ns, zero] = t;
      std::vector<std::int64_t> shape_v, stride_v;
      for (std::size_t j = 0; j < modes.size(); ++j) {
        const std::size_t m = static_cast<std::size_t>(modes[j]) % extents.size();
        std::int64_t below = 1;
        for (std::size_t k = 0; k < m; ++k) below *= extents[k];
        std::vector<std::int64_t> divs;
        for (std::int64_t d = 1; d <= extents[m]; ++d)
          if (extents[m] % d == 0) divs.push_back(d);
        const std::int64_t d = divs[static_cast<std::size_t>(ds[j]) % divs.size()];
        std::int64_t extent;
        if (m + 1 == extents.size()) {
          extent = 1 + ns[j] % 4;
        } else {
          std::vector<std::int64_t> ext;
          for (std::int64_t e = 1; e <= extents[m] / d; ++e)
            if ((extents[m] / d) % e == 0) ext.push_back(e);
          extent = ext[static_cast<std::size_t>(ns[j]) % ext.size()];
        }
        shape_v.push_back(extent);
        stride_v.push_back(zero[j] ? 0 : below * d);
      }
      return Layout(with_leaves(b_shape, shape_v), with_leaves(b_shape, stride_v));
    });
  });
  return rc::gen::suchThat(rc::gen::weightedOneOf<Layout>({{3, structured}, {1, layout(ShapeLimits{2, 3, 7, 64})}}),
                           [a](const Layout& b) { return accepted([&] { (void)composition(a, b); }); });
}

rc::Gen<std::pair<Layout, Layout>> composition_pair() {
  return rc::gen::mapcat(layout(ShapeLimits{2, 3, 7, 256}), [](const Layout& a) {
    return rc::gen::map(composable_with(a), [a](const Layout& b) { return std::make_pair(a, b); });
  });
}

rc::Gen<Layout> tiler_dividing(const Layout& a) {
  // Each coalesced mode extent of A factored; T = a subset of the factors' compact modes
  // (prefix products over all factors), visited in random order.
  const std::vector<std::int64_t> extents = leaf_values(flatten(coalesce(a)).shape());
  auto tilers = rc::gen::map(rc::gen::tuple(ints(12, 0, 5), flags(12, 3), ints(12, 0, 9)),
                             [extents](const std::tuple<std::vector<int>, std::vector<bool>, std::vector<int>>& t) {
    const auto& [choices, keep, keys] = t;
    std::vector<std::int64_t> factors;
    for (std::int64_t e : extents) {
      auto f = factorize(e, choices);
      factors.insert(factors.end(), f.begin(), f.end());
    }
    std::vector<std::int64_t> sh, st;
    std::vector<int> order_keys;
    std::int64_t prefix = 1;
    for (std::size_t i = 0; i < factors.size(); ++i) {
      if (i < keep.size() && keep[i]) {
        sh.push_back(factors[i]);
        st.push_back(prefix);
        order_keys.push_back(keys[i % keys.size()]);
      }
      prefix *= factors[i];
    }
    if (sh.empty()) return Layout(IntTuple::integer(1), IntTuple::integer(0));
    const auto order = visit_order(order_keys);
    std::vector<IntTuple> shp, str;
    for (std::size_t i : order) {
      shp.push_back(IntTuple::integer(sh[i]));
      str.push_back(IntTuple::integer(st[i]));
    }
    if (shp.size() == 1) return Layout(shp[0], str[0]);
    return Layout(IntTuple::tuple(shp), IntTuple::tuple(str));
  });
  return rc::gen::suchThat(tilers, [a](const Layout& t) { return accepted([&] { (void)logical_divide(a, t); }); });
}

rc::Gen<std::pair<Layout, Layout>> divisible_pair() {
  auto a_gen = rc::gen::mapcat(rc::gen::element(StrideKind::Compact, StrideKind::PermutedCompact),
                               [](StrideKind k) { return layout(k, ShapeLimits{2, 3, 7, 256}); });
  return rc::gen::mapcat(a_gen, [](const Layout& a) {
    return rc::gen::map(tiler_dividing(a), [a](const Layout& t) { return std::make_pair(a, t); });
  });
}

rc::Gen<std::pair<Layout, std::vector<Layout>>> divisible_tuple_tiler_pair() {
  auto mode_gen = rc::gen::mapcat(rc::gen::element(StrideKind::Compact, StrideKind::PermutedCompact),
                                  [](StrideKind k) { return layout(k, ShapeLimits{1, 3, 7, 64}); });
  return rc::gen::mapcat(rc::gen::pair(mode_gen, mode_gen), [](const std::pair<Layout, Layout>& m) {
    // Mode 1 placed after mode 0's offsets, so A stays injective.
    auto s1 = leaf_values(m.second.stride());
    for (auto& s : s1) s *= size_value(m.first);
    const Layout m1(m.second.shape(), with_leaves(m.second.stride(), s1));
    const Layout a = make_layout_from_modes({m.first, m1});
    return rc::gen::map(rc::gen::pair(tiler_dividing(m.first), tiler_dividing(m1)),
                        [a](const std::pair<Layout, Layout>& t) {
                          return std::make_pair(a, std::vector<Layout>{t.first, t.second});
                        });
  });
}

rc::Gen<std::pair<Layout, Layout>> product_pair() {
  auto b_gen = rc::gen::mapcat(rc::gen::element(StrideKind::Compact, StrideKind::PermutedCompact, StrideKind::Gapped,
                                                StrideKind::WithZeros),
                               [](StrideKind k) { return layout(k, ShapeLimits{2, 3, 7, 64}); });
  return rc::gen::suchThat(rc::gen::pair(complement_domain_layout(true, false, ShapeLimits{2, 3, 7, 64}), b_gen),
                           [](const std::pair<Layout, Layout>& p) {
                             return accepted([&] { (void)logical_product(p.first, p.second); });
                           });
}

void showValue(const SwizzleParams& p, std::ostream& os) {
  os << "Sw<" << p.b << "," << p.m << "," << p.s << ">";
}

rc::Gen<SwizzleParams> swizzle_params(bool legal) {
  if (legal)
    return rc::gen::mapcat(rc::gen::inRange(0, 5), [](int b) {
      return rc::gen::map(rc::gen::tuple(rc::gen::inRange(0, 6), rc::gen::inRange(b, 7), rc::gen::arbitrary<bool>()),
                          [b](const std::tuple<int, int, bool>& t) {
                            const int s = std::get<1>(t);
                            return SwizzleParams{b, std::get<0>(t), std::get<2>(t) && s > 0 ? -s : s};
                          });
    });
  return rc::gen::mapcat(rc::gen::inRange(2, 5), [](int b) {
    return rc::gen::map(rc::gen::tuple(rc::gen::inRange(0, 6), rc::gen::inRange(1, b), rc::gen::arbitrary<bool>()),
                        [b](const std::tuple<int, int, bool>& t) {
                          const int s = std::get<1>(t);
                          return SwizzleParams{b, std::get<0>(t), std::get<2>(t) ? -s : s};
                        });
  });
}

rc::Gen<Swizzle> swizzle() {
  return rc::gen::map(swizzle_params(true), [](const SwizzleParams& p) { return Swizzle(p.b, p.m, p.s); });
}

namespace {
rc::Gen<std::string> separator() { return rc::gen::element<std::string>(", ", ",", " , "); }

rc::Gen<std::string> basis_text() {
  return rc::gen::map(rc::gen::tuple(rc::gen::inRange(-4, 17), rc::gen::inRange(1, 4), rc::gen::arbitrary<bool>(),
                                     ints(2, 0, 3), rc::gen::inRange(1, 3)),
                      [](const std::tuple<int, int, bool, std::vector<int>, int>& t) {
                        const auto& [k, den, write_fraction, dims, ndims] = t;
                        std::string s = write_fraction ? std::to_string(k * den) + "/" + std::to_string(den)
                                                       : std::to_string(k);
                        for (int i = 0; i < ndims; ++i) {
                          s += '@';
                          s += std::to_string(dims[static_cast<std::size_t>(i)]);
                        }
                        return s;
                      });
}

rc::Gen<std::string> group_text(int depth) {
  rc::Gen<std::string> element = depth == 0 ? basis_text()
                                            : rc::gen::weightedOneOf<std::string>({{3, basis_text()}, {1, group_text(depth - 1)}});
  return rc::gen::mapcat(rc::gen::inRange(1, 4), [element](int n) {
    return rc::gen::map(rc::gen::pair(rc::gen::container<std::vector<std::string>>(static_cast<std::size_t>(n), element),
                                      separator()),
                        [](const std::pair<std::vector<std::string>, std::string>& p) {
                          std::string s = "(";
                          for (std::size_t i = 0; i < p.first.size(); ++i) s += (i ? p.second : "") + p.first[i];
                          return s + ")";
                        });
  });
}

// One targeted edit that makes `text` unparseable, or the reason it cannot apply.
MalformedText break_text(const std::string& text, int how, std::size_t at) {
  const std::size_t pos = text.empty() ? 0 : at % (text.size() + 1);
  switch (how) {
    case 0: return {"(" + text, "an extra '(' in front"};
    case 1: return {text + ")", "an extra ')' at the end"};
    case 2: return {text.substr(0, pos) + "#" + text.substr(pos), "a stray '#'"};
    case 3: return {text.substr(0, pos) + "$" + text.substr(pos), "a stray '$'"};
    default: return {text + ",", "a dangling ','"};
  }
}
}  // namespace

rc::Gen<std::string> descriptor_text() { return group_text(2); }

void showValue(const MalformedText& m, std::ostream& os) { os << "'" << m.text << "' (" << m.what << ")"; }

rc::Gen<MalformedText> malformed_layout_text() {
  auto edits = rc::gen::map(rc::gen::tuple(layout(ShapeLimits{2, 3, 4, 256}), rc::gen::inRange(0, 8),
                                           rc::gen::inRange<std::size_t>(0, 64)),
                            [](const std::tuple<Layout, int, std::size_t>& t) {
    const auto& [l, how, at] = t;
    const std::string text = l.to_string();
    const std::size_t colon = text.find(':');
    switch (how) {
      case 5: return MalformedText{text.substr(0, colon + 1), "nothing after ':'"};
      case 6: return MalformedText{text.substr(0, colon + 1) + "@" + text.substr(colon + 1), "'@' without a count"};
      case 7: return MalformedText{text.substr(0, colon) + "::" + text.substr(colon + 1), "a doubled ':'"};
      default: return break_text(text, how, at);
    }
  });
  return edits;
}

rc::Gen<MalformedText> malformed_descriptor_text() {
  return rc::gen::map(rc::gen::tuple(descriptor_text(), rc::gen::inRange(0, 8), rc::gen::inRange<std::size_t>(0, 64)),
                      [](const std::tuple<std::string, int, std::size_t>& t) {
    const auto& [text, how, at] = t;
    const std::size_t first_at = text.find('@');
    switch (how) {
      case 5: return MalformedText{text.substr(0, first_at + 1) + text.substr(text.find_first_of(",) ", first_at + 1)), "an '@' without a dimension"};
      case 6: return MalformedText{text.substr(0, first_at) + "/0" + text.substr(first_at), "a zero denominator"};
      case 7: return MalformedText{text.substr(1), "no opening '('"};
      default: return break_text(text, how, at);
    }
  });
}

rc::Gen<std::string> notation_noise() {
  static const std::string alphabet = "()(),,::_-0123456789@/<>Sw o[]bnsmetrpu";
  return rc::gen::map(rc::gen::container<std::vector<std::size_t>>(rc::gen::inRange<std::size_t>(0, alphabet.size())),
                      [](const std::vector<std::size_t>& idx) {
                        std::string s;
                        for (std::size_t i : idx) s += alphabet[i];
                        return s;
                      });
}

}  // namespace gen
}  // namespace cuteref
