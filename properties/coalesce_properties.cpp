// Laws of coalesce, by-mode coalesce, filter_zeros and filter = coalesce o filter_zeros.
//
// coalesce:        size(coalesce(L)) == size(L); coalesce(L)(i) == L(i) for 0 <= i < size(L);
//                  depth(coalesce(L)) <= 1; coalesce(coalesce(L)) == coalesce(L) (same shape and stride).
// by-mode:         for a profile P that follows L's tree down to some depth (each profile leaf
//                  standing for a whole sub-layout; e.g. (1,...,1) = by top-level mode):
//                  coalesce(L, P) is weakly congruent to P, has L's rank at every tuple of P, each
//                  sub-layout at a leaf of P keeps its size and has depth <= 1, and
//                  coalesce(L, P)(i) == L(i) for every i.
// filter:          filter(filter(L)) == filter(L); image(filter(L)) == image(L); and exactly what it
//                  keeps: with Z = the product of the extents of L's stride-0 leaves, every offset o
//                  is reached Z times as often by L as by filter(L), so size(filter(L)) == size(L) / Z.
//                  Seed 000 says coalesce o filter_zeros "preserves layout meaning": it preserves the
//                  image, not the function; filter(L) is the same function as L iff Z == 1
//                  (the seed-claim check below finds the shrunk counterexample).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>

#include "coalesce.hpp"
#include "generators.hpp"
#include "law_support.hpp"

namespace cuteref::props::coalesce_properties {
namespace {

using Op = std::function<Layout(const Layout&)>;
using ProfileOp = std::function<Layout(const Layout&, const IntTuple&)>;

Violation coalesce_law(const Op& coalesce_op, const Layout& l) {
  Layout c = l;
  try {
    c = coalesce_op(l);
  } catch (const Error& e) {
    return rejected("coalesce(" + l.to_string() + ")", e);
  }
  if (size_value(c) != size_value(l))
    return "size changed: coalesce(" + l.to_string() + ") = " + c.to_string();
  if (depth(c) > 1) return "depth > 1: coalesce(" + l.to_string() + ") = " + c.to_string();
  if (auto v = same_values(l, c, size_value(l), "L", "coalesce(L)")) return v;
  const Layout cc = coalesce_op(c);
  if (!cc.shape().same_values(c.shape()) || !cc.stride().same_values(c.stride()))
    return "not idempotent: coalesce(" + c.to_string() + ") = " + cc.to_string();
  return std::nullopt;
}

// The profile that keeps L's tree down to where `collapse` (one flag per tuple node, in
// pre-order; missing flags read as false) says to coalesce the whole sub-layout. The root is
// never collapsed, so the profile has L's rank. collapse = {} keeps the whole tree; a profile of
// ones at the top level is coalesce by top-level mode.
IntTuple profile_of(const IntTuple& shape, const std::vector<bool>& collapse, std::size_t& next, bool root) {
  if (shape.is_leaf()) return IntTuple::integer(1);
  const bool leaf = !root && next < collapse.size() && collapse[next];
  ++next;
  if (leaf) return IntTuple::integer(1);
  std::vector<IntTuple> e;
  for (const auto& s : shape.elements()) e.push_back(profile_of(s, collapse, next, false));
  return IntTuple::tuple(std::move(e));
}
IntTuple profile_of(const Layout& l, const std::vector<bool>& collapse) {
  std::size_t next = 0;
  return profile_of(l.shape(), collapse, next, true);
}
IntTuple unit_profile(const Layout& l) { return profile_of(l, std::vector<bool>(64, true)); }

// Where the profile is a tuple, L and C have the same rank and are compared mode by mode; where
// it is a leaf, C's sub-layout has the size of L's and depth <= 1.
Violation matches_profile(const Layout& l, const Layout& c, const IntTuple& profile, const std::string& where) {
  if (profile.is_leaf()) {
    if (size_value(c) != size_value(l)) return "sub-layout " + where + " changed size";
    if (depth(c) > 1) return "sub-layout " + where + " = " + c.to_string() + " is not coalesced";
    return std::nullopt;
  }
  if (rank(c) != rank(l) || !c.shape().is_tuple()) return "sub-layout " + where + " = " + c.to_string() + " lost the profile's rank";
  for (std::size_t i = 0; i < rank(l); ++i)
    if (auto v = matches_profile(mode(l, i), mode(c, i), profile[i], where + "." + std::to_string(i))) return v;
  return std::nullopt;
}

Violation by_mode_law(const ProfileOp& op, const Layout& l, const IntTuple& profile) {
  Layout c = l;
  try {
    c = op(l, profile);
  } catch (const Error& e) {
    return rejected("coalesce(" + l.to_string() + ", " + profile.to_string() + ")", e);
  }
  const std::string what = "coalesce(" + l.to_string() + ", " + profile.to_string() + ") = " + c.to_string();
  if (!weakly_congruent(profile, c.shape())) return "not weakly congruent to the profile: " + what;
  if (auto v = matches_profile(l, c, profile, "root")) return *v + ": " + what;
  return same_values(l, c, size_value(l), "L", "coalesce(L, profile)");
}
Violation by_mode_law(const ProfileOp& op, const Layout& l) { return by_mode_law(op, l, unit_profile(l)); }

std::int64_t broadcast_factor(const Layout& l) {
  std::int64_t z = 1;
  const auto ext = gen::leaf_values(l.shape()), str = gen::leaf_values(l.stride());
  for (std::size_t i = 0; i < ext.size(); ++i)
    if (str[i] == 0) z *= ext[i];
  return z;
}

Violation filter_law(const Op& filter_op, const Layout& l) {
  Layout f = l;
  try {
    f = filter_op(l);
  } catch (const Error& e) {
    return rejected("filter(" + l.to_string() + ")", e);
  }
  const Layout ff = filter_op(f);
  if (!ff.shape().same_values(f.shape()) || !ff.stride().same_values(f.stride()))
    return "not idempotent: filter(" + f.to_string() + ") = " + ff.to_string();
  std::map<std::int64_t, std::int64_t> count_l, count_f;
  for (std::int64_t v : values(l)) ++count_l[v];
  for (std::int64_t v : values(f)) ++count_f[v];
  const std::int64_t z = broadcast_factor(l);
  if (count_l.size() != count_f.size())
    return "image changed: filter(" + l.to_string() + ") = " + f.to_string();
  for (const auto& [offset, n] : count_l) {
    auto it = count_f.find(offset);
    if (it == count_f.end()) return "offset " + std::to_string(offset) + " lost: filter(" + l.to_string() + ") = " + f.to_string();
    if (n != it->second * z)
      return "offset " + std::to_string(offset) + " reached " + std::to_string(n) + " times by " + l.to_string() + " but " +
             std::to_string(it->second) + " times by filter = " + f.to_string() + " (broadcast factor " + std::to_string(z) + ")";
  }
  return std::nullopt;
}

// --- broken variants (test code only) ---

// Merges (s0:d0)(s1:d1) when d1 == s0 (forgets the factor d0) and drops size-1 modes.
Layout coalesce_forgetting_stride(const Layout& l) {
  const auto ext = gen::leaf_values(l.shape()), str = gen::leaf_values(l.stride());
  std::vector<std::int64_t> s, d;
  for (std::size_t i = 0; i < ext.size(); ++i) {
    if (ext[i] == 1) continue;
    if (!s.empty() && str[i] == s.back()) {
      s.back() *= ext[i];
      continue;
    }
    s.push_back(ext[i]);
    d.push_back(str[i]);
  }
  if (s.empty()) return Layout(IntTuple::integer(1), IntTuple::integer(0));
  if (s.size() == 1) return Layout(IntTuple::integer(s[0]), IntTuple::integer(d[0]));
  const IntTuple flat = IntTuple::tuple(std::vector<IntTuple>(s.size(), IntTuple::integer(1)));
  return Layout(gen::with_leaves(flat, s), gen::with_leaves(flat, d));
}

const gen::ShapeLimits kLimits{3, 4, 4, 256};

}  // namespace

RC_GTEST_PROP(Coalesce, preserves_size_function_depth_idempotent, ()) {
  const Layout l = *gen::layout(kLimits);
  RC_TAG(l.shape().is_tuple() ? "rank " + std::to_string(rank(l)) : "leaf");
  rc_require(coalesce_law([](const Layout& x) { return coalesce(x); }, l));
  count_random("coalesce");
}

RC_GTEST_PROP(Coalesce, by_mode_preserves_profile, ()) {
  const Layout l = *gen::layout(kLimits);
  const auto collapse = *rc::gen::container<std::vector<bool>>(16, rc::gen::arbitrary<bool>());
  const IntTuple profile = profile_of(l, collapse);
  RC_TAG("profile depth " + std::to_string(profile.depth()));
  rc_require(by_mode_law([](const Layout& x, const IntTuple& p) { return coalesce(x, p); }, l, profile));
  count_random("coalesce by mode");
}

RC_GTEST_PROP(Coalesce, filter_is_idempotent_and_preserves_the_image, ()) {
  const Layout l = *gen::layout(gen::StrideKind::WithZeros, kLimits);
  rc_require(filter_law([](const Layout& x) { return filter(x); }, l));
  count_random("filter");
}

TEST(Coalesce, exhaustive) {
  const LeafAlphabet flat{range(1, 4), range(0, 8)};
  const LeafAlphabet nested{range(1, 3), {0, 1, 2, 4}};
  for (const std::string law : {"coalesce", "coalesce by mode", "filter"}) {
    auto run = [&](const Layout& l, Exhaustive& ex) {
      if (law == "coalesce") ex.check(l.to_string(), coalesce_law([](const Layout& x) { return coalesce(x); }, l));
      else if (law == "coalesce by mode") {
        // By top-level mode, and keeping the whole tree (every leaf its own profile leaf).
        ex.check(l.to_string(), by_mode_law([](const Layout& x, const IntTuple& p) { return coalesce(x, p); }, l));
        ex.check(l.to_string() + " (full-depth profile)",
                 by_mode_law([](const Layout& x, const IntTuple& p) { return coalesce(x, p); }, l, profile_of(l, {})));
      }
      else ex.check(l.to_string(), filter_law([](const Layout& x) { return filter(x); }, l));
    };
    const std::string profiles = law == "coalesce by mode" ? " x {top-level, full-depth} profiles" : "";
    {
      Exhaustive ex(law, "flat rank<=3, " + flat.to_string() + profiles);
      for_each_flat_layout(3, flat, [&](const Layout& l) { run(l, ex); });
    }
    {
      Exhaustive ex(law, "depth-2 nestings of <=4 leaves, " + nested.to_string() + profiles);
      for_each_nested_layout(4, nested, [&](const Layout& l) { run(l, ex); });
    }
  }
}

TEST(Coalesce, mutants_are_caught) {
  expect_mutant_caught("coalesce", "merges when d1 == s0 (forgets d0)", [] {
    rc_require(coalesce_law(coalesce_forgetting_stride, *gen::layout(kLimits)));
  });
  expect_mutant_caught("coalesce", "filter instead of coalesce (drops stride-0 modes)", [] {
    rc_require(coalesce_law([](const Layout& x) { return filter(x); }, *gen::layout(kLimits)));
  });
  expect_mutant_caught("coalesce by mode", "ignores the profile", [] {
    rc_require(by_mode_law([](const Layout& x, const IntTuple&) { return coalesce(x); }, *gen::layout(kLimits)));
  });
  expect_mutant_caught("filter", "coalesce without filter_zeros", [] {
    rc_require(filter_law([](const Layout& x) { return coalesce(x); }, *gen::layout(gen::StrideKind::WithZeros, kLimits)));
  });
  // Seed 000: "coalesce o filter_zeros ... preserves layout meaning". Read as "the same
  // function", it is false; RapidCheck finds and shrinks the counterexample.
  expect_mutant_caught("filter", "seed 000 claim: filter(L) is the same function as L", [] {
    const Layout l = *gen::layout(gen::StrideKind::WithZeros, kLimits);
    const Layout f = filter(l);
    if (size_value(f) != size_value(l))
      RC_FAIL("size(filter(L)) = " + std::to_string(size_value(f)) + " != size(L) = " + std::to_string(size_value(l)));
    rc_require(same_values(l, f, size_value(l), "L", "filter(L)"));
  });
}

}  // namespace cuteref::props::coalesce_properties
