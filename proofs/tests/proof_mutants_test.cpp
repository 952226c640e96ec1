// The rank-generic coalesce law must fail on a broken model: coalesce_step run with mutant
// decisions (each a plausible bug in the shared code) is refuted by the step lemma, while
// the model's own decisions are proved. A law that proves a mutant proves nothing.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "coalesce_induction.hpp"

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

TEST(ProofMutants, CountsCases) {
  std::cout << "[ proof mutants ] " << g_cases << " laws run (the model's and its mutants)\n";
  EXPECT_GT(g_cases, 0u);
}
