// The rank-generic laws must fail on a broken model: coalesce_step and complement's steps run
// with mutant decisions (each a plausible bug in the shared code) are refuted by their step
// lemmas, while the model's own decisions are proved. A law that proves a mutant proves
// nothing.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "coalesce_induction.hpp"
#include "complement_induction.hpp"

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

TEST(ProofMutants, CountsCases) {
  std::cout << "[ proof mutants ] " << g_cases << " laws run (the model's and its mutants)\n";
  EXPECT_GT(g_cases, 0u);
}
