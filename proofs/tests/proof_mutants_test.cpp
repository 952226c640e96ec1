// The rank-generic laws must fail on a broken model: coalesce_step and complement's steps run
// with mutant decisions (each a plausible bug in the shared code) are refuted by their step
// lemmas, while the model's own decisions are proved. A law that proves a mutant proves
// nothing.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>

#include "claim.hpp"
#include "coalesce_induction.hpp"
#include "complement_induction.hpp"
#include "composition_induction.hpp"
#include "flatten_induction.hpp"
#include "inverse_induction.hpp"
#include "recast_induction.hpp"

using namespace cuteref;
using namespace cuteref::proofs;

namespace {

std::size_t g_cases = 0;
using T = ScalarTuple<SymInt>;
using Ops = ScalarOps<SymInt>;

// Merges when the strides are equal (forgets the previous shape).
struct MergeOnEqualStrides : ScalarCoalesceOps<SymInt> {
  bool continues(const T&, const T& prev_stride, const T& stride) const {
    return Ops::decide(*prev_stride.leaf == *stride.leaf);
  }
};
// Adds the shapes instead of multiplying them when merging.
struct MergeAddsShapes : ScalarCoalesceOps<SymInt> {
  T merge(const T& a, const T& b) const { return T::of(*a.leaf + *b.leaf); }
};
// Drops modes of shape 2 too (an off-by-one unit test).
struct DropsShapeTwo : ScalarCoalesceOps<SymInt> {
  bool is_unit(const T& s) const { return Ops::decide(*s.leaf < Ops::constant(3)); }
};

// complement without its gap check (an interleaved A gives a gap of 0: an empty mode).
struct NoGapCheck : SymComplementOps {
  void check_gap(const SymInt&, const SymInt&, const SymInt&, const SymInt&) const {}
};
// The gap rounded up instead of down (overlaps the next mode).
struct GapRoundedUp : SymComplementOps {
  SymInt div(const SymInt& a, const SymInt& b) const { return ceil_div(a, b); }
};
// One repetition fewer in each rest mode (none where the extent already covers the
// cotarget: an empty mode).
struct RestOneShort : SymComplementOps {
  SymInt ceil_div(const SymInt& a, const SymInt& b) const { return SymComplementOps::ceil_div(a, b) - Ops::constant(1); }
};

// composition rounding the quotients down (a rest stride below the mode's shape becomes 0).
// (Taking the larger of quotient and rest instead of the smaller is no mutant: the no-carry
// check then admits only rests within the mode, where both agree.)
struct QuotientsRoundDown : SymCompositionOps {
  SymInt ceil_div(const SymInt& a, const SymInt& b) const { return a / b; }
};
// composition without the stride divisibility check (a rest stride that straddles modes).
struct NoStrideDivisibilityCheck : SymCompositionOps {
  void check_stride_divisibility(const SymInt&, const SymInt&, std::size_t) const {}
};
// composition forgetting A's stride in the emitted modes.
struct EmitsBStrideOnly : SymCompositionOps {
  SymInt scale(const SymInt& c, const SymInt&) const { return c; }
};
// composition dropping the sign of a negative B stride.
struct DropsTheSign : SymCompositionOps {
  SymInt neg(const SymInt& x) const { return x; }
};

template <class StepOps>
void expect_refuted(const char* what) {
  const LawResult r = coalesce_step_lemma(StepOps{}, ProofOptions{});
  ++g_cases;
  EXPECT_EQ(r.status, ProofStatus::Refuted) << what << ": " << r.detail;
}

}  // namespace

TEST(ProofMutants, CoalesceStepLemma) {
  const LawResult model = coalesce_step_lemma(ScalarCoalesceOps<SymInt>{}, ProofOptions{});
  ++g_cases;
  EXPECT_EQ(model.status, ProofStatus::Proved) << model.detail;
  expect_refuted<MergeOnEqualStrides>("merges on equal strides");
  expect_refuted<MergeAddsShapes>("merge adds the shapes");
  expect_refuted<DropsShapeTwo>("drops shape-2 modes");
}

TEST(ProofMutants, CoalesceIdempotenceLemmas) {
  const LawResult model = coalesce_idempotence_lemmas(ScalarCoalesceOps<SymInt>{}, ProofOptions{});
  ++g_cases;
  EXPECT_EQ(model.status, ProofStatus::Proved) << model.detail;
  for (const LawResult& r : {coalesce_idempotence_lemmas(MergeOnEqualStrides{}, ProofOptions{}),
                             coalesce_idempotence_lemmas(DropsShapeTwo{}, ProofOptions{})}) {
    ++g_cases;
    EXPECT_EQ(r.status, ProofStatus::Refuted) << r.detail;
  }
}

template <class ComplementOps>
void expect_complement_refuted(const char* what) {
  const LawResult r = complement_step_lemma(ComplementOps{}, ProofOptions{});
  ++g_cases;
  EXPECT_EQ(r.status, ProofStatus::Refuted) << what << ": " << r.detail;
}

TEST(ProofMutants, ComplementStepLemma) {
  const LawResult model = complement_step_lemma(SymComplementOps{}, ProofOptions{});
  ++g_cases;
  EXPECT_EQ(model.status, ProofStatus::Proved) << model.detail;
  expect_complement_refuted<NoGapCheck>("no gap check");
  expect_complement_refuted<GapRoundedUp>("gap rounded up");
  expect_complement_refuted<RestOneShort>("one repetition fewer");
}

// The order and size lemma: a gap rounded up reaches past the stride (R not below the new
// extent); one repetition fewer leaves size(R) below M / size(filter(A)).
TEST(ProofMutants, ComplementOrderStepLemma) {
  ++g_cases;
  EXPECT_EQ(complement_order_step_lemma(SymComplementOps{}, ProofOptions{}).status, ProofStatus::Proved);
  for (const LawResult& r : {complement_order_step_lemma(GapRoundedUp{}, ProofOptions{}),
                             complement_order_step_lemma(RestOneShort{}, ProofOptions{})}) {
    ++g_cases;
    EXPECT_EQ(r.status, ProofStatus::Refuted) << r.detail;
  }
}

// coalesce_x merging when the strides are equal (forgets the mode's shape), or multiplying
// the strides instead of the shapes.
struct XMergesOnEqualStrides : SymCoalesceXOps {
  bool continues(const SymInt&, const SymInt& d, const SymInt& next) const { return Ops::decide(d == next); }
};
struct XDropsShapeTwo : SymCoalesceXOps {
  bool is_unit(const SymInt& s) const { return Ops::decide(s < Ops::constant(3)); }
};

template <class CompositionOps>
void expect_composition_refuted(const char* what) {
  const LawResult r = composition_step_lemma(CompositionOps{nullptr}, ProofOptions{});
  ++g_cases;
  EXPECT_EQ(r.status, ProofStatus::Refuted) << what << ": " << r.detail;
}

TEST(ProofMutants, CompositionStepLemma) {
  const LawResult model = composition_step_lemma(SymCompositionOps{nullptr}, ProofOptions{});
  ++g_cases;
  EXPECT_EQ(model.status, ProofStatus::Proved) << model.detail;
  expect_composition_refuted<QuotientsRoundDown>("quotients round down");
  expect_composition_refuted<NoStrideDivisibilityCheck>("no stride divisibility check");
  expect_composition_refuted<EmitsBStrideOnly>("emits B's stride only");
  expect_composition_refuted<DropsTheSign>("drops the sign");
  // Without the no-carry bound, B's leaves do not add (a digit sum of s carries).
  const LawResult carry = digit_additivity_lemma(ProofOptions{}, false);
  ++g_cases;
  EXPECT_EQ(carry.status, ProofStatus::Refuted) << carry.detail;
  // The induction over B's leaves: proved with the model's no-carry check, refuted without it
  // (two leaves' digits in one mode may then reach its shape and carry).
  const LawResult leaves = composition_leaves_step_lemma(ProofOptions{});
  ++g_cases;
  EXPECT_EQ(leaves.status, ProofStatus::Proved) << leaves.detail;
  const LawResult leaves_carry = composition_leaves_step_lemma(ProofOptions{}, false);
  ++g_cases;
  EXPECT_EQ(leaves_carry.status, ProofStatus::Refuted) << leaves_carry.detail;
  const LawResult x = coalesce_x_step_lemma(SymCoalesceXOps{}, ProofOptions{});
  ++g_cases;
  EXPECT_EQ(x.status, ProofStatus::Proved) << x.detail;
  for (const LawResult& r : {coalesce_x_step_lemma(XMergesOnEqualStrides{}, ProofOptions{}),
                             coalesce_x_step_lemma(XDropsShapeTwo{}, ProofOptions{})}) {
    ++g_cases;
    EXPECT_EQ(r.status, ProofStatus::Refuted) << r.detail;
  }
}

// Flattenings that lose the order of the leaves: each child's leaves reversed, or the
// children's order reversed.
struct FlattenReversingChildren {
  T operator()(const T& t) const {
    std::vector<T> leaves;
    for (const T& child : t.elements) {
      std::vector<T> inner;
      flatten_leaves(child, inner);
      leaves.insert(leaves.end(), inner.rbegin(), inner.rend());
    }
    return T::tuple(std::move(leaves));
  }
};
struct FlattenReversingOrder {
  T operator()(const T& t) const {
    std::vector<T> leaves;
    flatten_leaves(t, leaves);
    return T::tuple(std::vector<T>(leaves.rbegin(), leaves.rend()));
  }
};

TEST(ProofMutants, FlattenStepLemma) {
  const LawResult model = flatten_step_lemma(ModelFlatten{}, ProofOptions{});
  ++g_cases;
  EXPECT_EQ(model.status, ProofStatus::Proved) << model.detail;
  for (const LawResult& r : {flatten_step_lemma(FlattenReversingChildren{}, ProofOptions{}),
                             flatten_step_lemma(FlattenReversingOrder{}, ProofOptions{})}) {
    ++g_cases;
    EXPECT_EQ(r.status, ProofStatus::Refuted) << r.detail;
  }
}

// right_inverse taking a mode whose stride is at least the offset reached (skips a gap), or
// growing the offset by adding the shape instead of multiplying.
struct TakesLargerStrides : SymInverseOps {
  bool equal(const SymInt& stride, const SymInt& next) const { return Ops::decide(stride >= next); }
};
struct NextAddsTheShape : SymInverseOps {
  SymInt mul(const SymInt& a, const SymInt& b) const { return a + b; }
};

TEST(ProofMutants, RightInverseStepLemma) {
  const LawResult model = right_inverse_step_lemma(SymInverseOps{nullptr}, ProofOptions{});
  ++g_cases;
  EXPECT_EQ(model.status, ProofStatus::Proved) << model.detail;
  for (const LawResult& r : {right_inverse_step_lemma(TakesLargerStrides{{nullptr}}, ProofOptions{}),
                             right_inverse_step_lemma(NextAddsTheShape{{nullptr}}, ProofOptions{})}) {
    ++g_cases;
    EXPECT_EQ(r.status, ProofStatus::Refuted) << r.detail;
  }
}

// Leaves of both signs are additive only within one mode of A: without |u| < s_k the
// one-mode lemma is false (u == s_k carries into the next mode).
TEST(ProofMutants, SignedDigitLemmas) {
  ++g_cases;
  EXPECT_EQ(signed_digit_lemmas(ProofOptions{}).status, ProofStatus::Proved);
  ++g_cases;
  EXPECT_EQ(signed_digit_lemmas(ProofOptions{}, false).status, ProofStatus::Refuted);
}

// upcast with the new stride's magnitude rounded down (|d| / n: 0 for |d| < n), and downcast
// scaling the contiguous leaf's stride as well as its shape.
struct UpcastRoundsDown : SymRecastOps {
  SymFlagged ceil_div(const SymFlagged& a, const SymFlagged& b) const { return FlaggedLeaf<SymInt>::make(a.v / b.v, a, b); }
};
struct DowncastScalesTheUnitStride : SymRecastOps {
  SymFlagged mul(const SymFlagged& a, const SymFlagged& b) const {
    return FlaggedLeaf<SymInt>::make(a.v * b.v * b.v, a, b);
  }
};

TEST(ProofMutants, RecastLeafLemma) {
  ++g_cases;
  EXPECT_EQ(recast_leaf_lemma(SymRecastOps{}, ProofOptions{}).status, ProofStatus::Proved);
  for (const LawResult& r : {recast_leaf_lemma(UpcastRoundsDown{}, ProofOptions{}),
                             recast_leaf_lemma(DowncastScalesTheUnitStride{}, ProofOptions{})}) {
    ++g_cases;
    EXPECT_EQ(r.status, ProofStatus::Refuted) << r.detail;
  }
}

// The maximality step lemma against the same two broken steps: taking a larger stride lets
// next jump over an offset in L's image; growing next by adding lands it on one.
TEST(ProofMutants, RightInverseMaximalStepLemma) {
  const LawResult model = right_inverse_maximal_step_lemma(SymInverseOps{nullptr}, ProofOptions{});
  ++g_cases;
  EXPECT_EQ(model.status, ProofStatus::Proved) << model.detail;
  for (const LawResult& r : {right_inverse_maximal_step_lemma(TakesLargerStrides{{nullptr}}, ProofOptions{}),
                             right_inverse_maximal_step_lemma(NextAddsTheShape{{nullptr}}, ProofOptions{})}) {
    ++g_cases;
    EXPECT_EQ(r.status, ProofStatus::Refuted) << r.detail;
  }
}

// left_inverse taking the whole stride as the gap (not divided by what is covered), or
// growing `covered` by adding the gap.
struct GapIsTheStride : SymInverseOps {
  SymInt div(const SymInt& a, const SymInt&) const { return a; }
};
struct CoveredAddsTheGap : SymInverseOps {
  SymInt mul(const SymInt& a, const SymInt& b) const { return a + b; }
};

TEST(ProofMutants, LeftInverseStepLemma) {
  const LawResult model = left_inverse_step_lemma(SymInverseOps{nullptr}, ProofOptions{});
  ++g_cases;
  EXPECT_EQ(model.status, ProofStatus::Proved) << model.detail;
  for (const LawResult& r : {left_inverse_step_lemma(GapIsTheStride{{nullptr}}, ProofOptions{}),
                             left_inverse_step_lemma(CoveredAddsTheGap{{nullptr}}, ProofOptions{})}) {
    ++g_cases;
    EXPECT_EQ(r.status, ProofStatus::Refuted) << r.detail;
  }
}

// A law's domain must cover the points its statement names (ProofOptions::domain_points): the
// step lemma with a narrowed domain is the mutant here. i >= 0 is the lemma's stated range of
// the index, so i = 0 is inside and i = -1 outside; a point no proof has the variables of is
// never checked, which the law reports instead of answering proved.
TEST(ProofMutants, DomainPoints) {
  const ScalarCoalesceOps<SymInt> ops;
  const ProofOptions inside = with_domain_points(ProofOptions{}, {{{"i", 0}}, {{"Np", 1}, {"sl", 1}}});
  LawResult r = coalesce_step_lemma(ops, inside);
  require_domain_points_checked(r, inside);
  ++g_cases;
  EXPECT_EQ(r.status, ProofStatus::Proved) << r.detail;
  // Both proofs (after a kept mode, with none kept) name i, Np and sl (with none kept Np and sl
  // are the constant 1, which the point agrees with), so each point is checked twice.
  ASSERT_EQ(r.domain_points_checked.size(), 2u);
  EXPECT_EQ(r.domain_points_checked[0], 2u);
  EXPECT_EQ(r.domain_points_checked[1], 2u);
  // A point that only the proof with a kept mode admits (Np = 2 is not the constant 1 of the
  // other): that proof checks it, the other answers that its domain excludes it.
  const ProofOptions kept_only = with_domain_points(ProofOptions{}, {{{"Np", 2}}});
  r = coalesce_step_lemma(ops, kept_only);
  ++g_cases;
  EXPECT_EQ(r.status, ProofStatus::Unknown);
  EXPECT_NE(r.detail.find("step with no mode kept: unknown the domain excludes the point (Np = 2)"), std::string::npos)
      << r.detail;

  const ProofOptions outside = with_domain_points(ProofOptions{}, {{{"i", -1}}});
  r = coalesce_step_lemma(ops, outside);
  require_domain_points_checked(r, outside);
  ++g_cases;
  EXPECT_EQ(r.status, ProofStatus::Unknown);
  EXPECT_NE(r.detail.find("the domain excludes the point (i = -1) that the law states it covers"), std::string::npos)
      << r.detail;

  const ProofOptions unnamed = with_domain_points(ProofOptions{}, {{{"no_such_variable", 0}}});
  r = coalesce_step_lemma(ops, unnamed);
  require_domain_points_checked(r, unnamed);
  ++g_cases;
  EXPECT_EQ(r.status, ProofStatus::Unknown);
  EXPECT_NE(r.detail.find("no proof of the law has the variables of the point (no_such_variable = 0)"),
            std::string::npos)
      << r.detail;
}

// A law stated as a `prove` claim (bank_laws.cpp) passes its points in ProveRequest: a point
// outside the --where range answers unknown, one inside is counted as checked, and one naming
// no variable of the claim is not counted (the law then answers unknown).
TEST(ProofMutants, DomainPointsOfAClaim) {
  ProveRequest req;
  req.claim = "x * 2 == x + x";
  req.where = {"x in [1,100]"};
  req.domain_points = {{{"x", 0}}};  // the range was narrowed from [0,100] to [1,100]
  std::ostringstream out, err;
  ProofOutcome o;
  ++g_cases;
  EXPECT_EQ(prove_command(req, out, err, &o), kProveUnknown) << out.str() << err.str();
  EXPECT_NE(out.str().find("the domain excludes the point (x = 0) that the law states it covers"), std::string::npos)
      << out.str();

  req.domain_points = {{{"x", 1}}, {{"x", 100}}, {{"no_such_variable", 0}}};
  std::ostringstream out2, err2;
  ++g_cases;
  EXPECT_EQ(prove_command(req, out2, err2, &o), kProveProved) << out2.str() << err2.str();
  EXPECT_EQ(o.domain_points_checked, (std::vector<std::size_t>{1, 1, 0}));
}

TEST(ProofMutants, CountsCases) {
  std::cout << "[ proof mutants ] " << g_cases << " laws run (the model's and its mutants)\n";
  EXPECT_GT(g_cases, 0u);
}
