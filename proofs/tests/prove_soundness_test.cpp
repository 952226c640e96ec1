// `proved` is never said of a false claim: the model's preconditions are side conditions of
// every symbolic operation (a point where the model refuses is a refutation), hypotheses that
// cannot hold are `vacuous`, every proved case is reachable, and every `proved` is replayed on
// the concrete model first. Each claim below was once, or could be, proved falsely; the
// expected verdicts are derived by hand in the comments (which points the model refuses, which
// hypotheses hold where), and each refusal is confirmed on the model's own evaluator.
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "prove_run.hpp"
#include "replay_points.hpp"

namespace {

using cuteref::proofs::testing::ProveRun;
using cuteref::proofs::testing::prove_assuming;
using cuteref::proofs::testing::value_of;

std::size_t checked = 0;

// The model's concrete evaluator refuses EXPR.
bool model_refuses(const std::string& expr) {
  try {
    (void)cuteref::parse_and_evaluate(expr, &cuteref::standard_functions());
  } catch (const cuteref::Error&) {
    return true;
  }
  return false;
}

// The model's value of EXPR, printed.
std::string model_value(const std::string& expr) {
  return cuteref::parse_and_evaluate(expr, &cuteref::standard_functions()).to_string();
}

// One symbolic operation with a precondition that fails somewhere in the box: Z3 itself must
// find a point where the model refuses (not only the concrete replay), and at that point the
// model's own evaluator must refuse `at` (the claim's operation with the point substituted).
struct RefusedSomewhere {
  std::string what, claim, where, variable;
  std::set<std::int64_t> refused;  // by hand: the values of `variable` where the model refuses
  std::string at;                  // the operation with "$" for the variable's value
};

TEST(ProveSoundness, EverySymbolicPreconditionIsASideCondition) {
  const std::vector<RefusedSomewhere> cases = {
      // tile_to_shape with a static target: CuTe static_asserts that the block divides it.
      // 4 and 5 do not divide 6.
      {"tile_to_shape, static target", "size(tile_to_shape((a,2):(1,a), (_6,_2))) == a*((6+a-1)/a)*2", "a in [1,6]", "a",
       {4, 5}, "tile_to_shape(($,2):(1,$), (_6,_2))"},
      // 3, 5, 6 and 7 do not divide 8.
      {"tile_to_shape, static integer target", "size(tile_to_shape(a:1, _8)) == a*((8+a-1)/a)", "a in [1,8]", "a",
       {3, 5, 6, 7}, "tile_to_shape($:1, _8)"},
      {"tile_to_shape, static target, layouts", "tile_to_shape((a,2):(1,a), (_8,_2)) == ((a,(8+a-1)/a),(2,1)):((1,2*a),(a,2*a*((8+a-1)/a)))",
       "a in [1,8]", "a", {3, 5, 6, 7}, "tile_to_shape(($,2):(1,$), (_8,_2))"},
      // A layout's shape leaves are >= 1.
      {"layout literal", "size((a,2):(1,a)) == 2*a", "a in [0,3]", "a", {0}, "($,2):(1,$)"},
      {"size of a shape", "size((a,2)) == 2*a", "a in [0,3]", "a", {0}, "size(($,2))"},
      // Layout application takes an index >= 0.
      {"layout application", "(4,2):(1,4)(x) == (4,2):(1,4)(x)", "x in [-2,3]", "x", {-2, -1}, "(4,2):(1,4)($)"},
      {"composed application", "Sw<3,4,3> o (8,8):(8,1)(x) == Sw<3,4,3> o (8,8):(8,1)(x)", "x in [-2,3]", "x", {-2, -1},
       "Sw<3,4,3> o (8,8):(8,1)($)"},
      // complement needs an injective A: (2,2):(1,1) is not; the cotarget >= 1.
      {"complement, injectivity", "complement((2,2):(1,a), 8) == complement((2,2):(1,a), 8)", "a in [1,3]", "a", {1},
       "complement((2,2):(1,$), 8)"},
      {"complement, cotarget", "complement(4:1, m) == complement(4:1, m)", "m in [-2,9]", "m", {-2, -1, 0},
       "complement(4:1, $)"},
      // composition's shape divisibility: B = a:1 into A = (4,3):(1,8) needs a | 4 or 4 | a
      // (in [1, 7]: a in {1, 2, 4}, where the result is a:1); 3, 5, 6 and 7 are refused.
      {"composition, admissibility", "composition((4,3):(1,8), a:1) == a:1", "a in [1,7]", "a", {3, 5, 6, 7},
       "composition((4,3):(1,8), $:1)"},
      // upcast by 2 needs the static-_1 mode's neighbour stride and 2 to divide one another.
      {"upcast", "upcast((a,2):(_1,a), 2) == upcast((a,2):(_1,a), 2)", "a in [1,4]", "a", {1, 3},
       "upcast(($,2):(_1,$), 2)"},
      // smem_wavefronts: a 16-byte access must start at a multiple of 16 bytes (16-bit elements:
      // element offsets that are multiples of 8).
      {"smem_wavefronts alignment", "smem_wavefronts(ld.shared.v4.b32, (x,x), 16) == 1", "x in [0,15]", "x",
       {1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15}, "smem_wavefronts(ld.shared.v4.b32, ($,$), 16)"},
      // ... and every ADDR entry's access, the threads past the instruction's lanes too, fits
      // in 64 bits: ldmatrix.x1 reads 8 lanes, but the model adds 0..7 (eight 16-bit elements)
      // to the 9th entry as well, and x + 7 overflows for x > 2^63 - 8. (The symbolic form once
      // read the lanes only: proved, where the refused points were too sparse to be replayed.)
      {"smem_wavefronts, every entry", "smem_wavefronts(ldmatrix.x1, (0,8,16,24,32,40,48,56,x), 16) == 1",
       "x in [9223372036854775790,9223372036854775807]", "x",
       {9223372036854775801, 9223372036854775802, 9223372036854775803, 9223372036854775804, 9223372036854775805,
        9223372036854775806, 9223372036854775807},
       "smem_wavefronts(ldmatrix.x1, (0,8,16,24,32,40,48,56,$), 16)"},
  };
  for (const auto& c : cases) {
    const ProveRun r = prove_assuming(c.claim, {c.where}, {});
    ++checked;
    EXPECT_EQ(r.rc, 1) << c.what << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("the model rejects this input"), std::string::npos) << c.what << "\n" << r.out;
    // Z3's own refutation, from the side condition: the replay is a second line of defence.
    EXPECT_EQ(r.out.find("found by the concrete replay"), std::string::npos) << c.what << "\n" << r.out;
    if (r.rc != 1) continue;
    const std::int64_t v = value_of(r.out, c.variable);
    EXPECT_TRUE(c.refused.count(v)) << c.what << ": refuted at " << c.variable << " = " << v << ", not a refused value";
    std::string at = c.at;
    for (std::size_t k; (k = at.find('$')) != std::string::npos;) at.replace(k, 1, std::to_string(v));
    EXPECT_TRUE(model_refuses(at)) << c.what << ": the model evaluates " << at;
  }
}

// The same claims where no point is refused are proved: a dynamic target is rounded up, not
// checked (CuTe's tile_to_shape), so the counts are ceil(6 / a) and ceil(8 / a).
TEST(ProveSoundness, ADynamicTargetIsRoundedUpAndProved) {
  for (const auto& [claim, where] : std::vector<std::pair<std::string, std::string>>{
           {"size(tile_to_shape((a,2):(1,a), (6,2))) == a*((6+a-1)/a)*2", "a in [1,6]"},
           {"size(tile_to_shape(a:1, 8)) == a*((8+a-1)/a)", "a in [1,8]"},
           // a in {1, 2, 4, 8} divides 8: the static target is accepted there.
           {"size(tile_to_shape(a:1, _8)) == 8", "a in [1,2]"}}) {
    const ProveRun r = prove_assuming(claim, {where}, {});
    ++checked;
    EXPECT_EQ(r.rc, 0) << claim << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("replayed: the model agrees at"), std::string::npos) << r.out;
  }
}

// Hypotheses that cannot hold together with the ranges prove nothing: `vacuous`, exit 3.
TEST(ProveSoundness, UnsatisfiableHypothesesAreVacuous) {
  struct Case {
    std::vector<std::string> where, assume;
    std::string claim;
  };
  const std::vector<Case> cases = {
      {{"a in [1,4]"}, {"a > 5"}, "a == 100"},                   // no a <= 4 exceeds 5
      {{"a in [0,9]", "b in [0,9]"}, {"a < b", "b < a"}, "a == b"},  // contradictory
      {{"a in [1,7]"}, {"divides(8, a)"}, "a == 0"},             // no multiple of 8 in [1, 7]
      {{"a in [1,8]"}, {"a * a == 2"}, "a == 0"},                // 2 is not a square
      // (2,2):(a,a) maps (1,0) and (0,1) to a: never injective.
      {{"a in [0,64]"}, {"injective((2,2):(a,a))"}, "size((2,2):(a,a)) == 5"},
  };
  for (const auto& c : cases) {
    const ProveRun r = prove_assuming(c.claim, c.where, c.assume);
    ++checked;
    EXPECT_EQ(r.rc, cuteref::proofs::kProveVacuous) << c.claim << "\n" << r.out << r.err;
    EXPECT_EQ(r.out.rfind("vacuous: ", 0), 0u) << r.out;
  }
}

// A hypothesis holds only where the model evaluates what it names. injective(L) is stated to Z3
// on unbounded integers, so Z3 finds it satisfiable where the model's L overflows; `proved` then
// needs a point of the box where the model itself confirms every hypothesis. By hand, for
// L = (3,2):(1,c): its values are 0, 1, 2 and c, c + 1, c + 2, distinct for c > 2, and the
// largest, c + 2, fits in 64 bits only for c <= 2^63 - 3.
TEST(ProveSoundness, HypothesesTheModelCannotEvaluateDoNotHold) {
  const std::string l = "(y,2):(1,c)";
  const std::string four = "c in [9223372036854775804,9223372036854775807]";  // holds at the lower two
  const std::string two = "c in [9223372036854775806,9223372036854775807]";   // holds nowhere
  // The model agrees: L's last value overflows at c = 2^63 - 2 and not at 2^63 - 3.
  EXPECT_TRUE(model_refuses("(3,2):(1,9223372036854775806)(5)"));
  EXPECT_FALSE(model_refuses("(3,2):(1,9223372036854775805)(5)"));
  checked += 2;
  // Holds at two of the four points: a true claim is proved there, and replayed at those two.
  const ProveRun true_claim = prove_assuming("size(" + l + ") == 2*y", {four, "y in [3,3]"}, {"injective(" + l + ")"});
  ++checked;
  EXPECT_EQ(true_claim.rc, 0) << true_claim.out << true_claim.err;
  EXPECT_NE(true_claim.out.find("agrees at 2 point(s) where the hypotheses hold, of 4 (the whole box)"),
            std::string::npos)
      << true_claim.out;
  // Its false twin is refuted at a point of the model's domain: Z3's own counterexample, or,
  // where that lies outside the model's domain, a replayed point of the box (the two lower c).
  const ProveRun false_twin = prove_assuming("size(" + l + ") == 2*y + 1", {four, "y in [3,3]"}, {"injective(" + l + ")"});
  ++checked;
  EXPECT_EQ(false_twin.rc, cuteref::proofs::kProveRefuted) << false_twin.out;
  if (false_twin.rc == cuteref::proofs::kProveRefuted) {
    EXPECT_LE(value_of(false_twin.out, "c"), 9223372036854775805) << false_twin.out;
  }
  // Holds nowhere: the true claim is vacuous, by enumeration of the box on the model (it was
  // once proved: `replayed: ... at 0 point(s) ...; 2 point(s) whose hypotheses are too large to check`).
  const ProveRun empty = prove_assuming("size(" + l + ") == 2*y", {two, "y in [3,3]"}, {"injective(" + l + ")"});
  ++checked;
  EXPECT_EQ(empty.rc, cuteref::proofs::kProveVacuous) << empty.out << empty.err;
  EXPECT_EQ(empty.out.rfind("vacuous: the hypotheses hold at none of the box's 2 point(s)", 0), 0u) << empty.out;
  // The claim the differential fuzzer found proved (seed 4343, family assume): for y in [3, 7]
  // and c >= 2^63 - 2, L's value y - 1 + c overflows at every point.
  const ProveRun found = prove_assuming("composition(left_inverse(" + l + "), " + l + ") == (2 * y):1",
                                        {two, "y in [3,7]"}, {"injective(" + l + ")", "c > y"});
  ++checked;
  EXPECT_EQ(found.rc, cuteref::proofs::kProveVacuous) << found.out << found.err;
  // A comparison whose side the model cannot evaluate does not hold there either: c + 2
  // overflows at both points, so `c + 2 > c` holds nowhere.
  const ProveRun compare = prove_assuming("c == c", {two}, {"c + 2 > c"});
  ++checked;
  EXPECT_EQ(compare.rc, cuteref::proofs::kProveVacuous) << compare.out << compare.err;
  // The same where the hypothesis holds elsewhere, so Z3 does not answer `vacuous` first. By
  // hand, x / (x - 3) >= 0 on [0, 10] (truncating): x = 3 divides by zero (the model refuses:
  // the hypothesis does not hold), x = 2 gives -2; x = 0 and 1 give 0, x >= 4 a positive
  // quotient. So it holds at 9 of the 11 points, and (x - 3) / (x - 3) == 1 at each of them.
  EXPECT_TRUE(model_refuses("3 / (3 - 3)"));
  ++checked;
  const std::string undefined_at_3 = "x / (x - 3) >= 0";
  const ProveRun partial = prove_assuming("(x - 3) / (x - 3) == 1", {"x in [0,10]"}, {undefined_at_3});
  ++checked;
  EXPECT_EQ(partial.rc, 0) << partial.out << partial.err;
  EXPECT_NE(partial.out.find("agrees at 9 point(s) where the hypotheses hold, of 11 (the whole box)"),
            std::string::npos)
      << partial.out;
  // Its false twin: (x - 4) / (x - 3) is 1 at x = 0 and 1 (-4 / -3, -3 / -2) and below 1 at
  // every x >= 4, so it is refuted at some x >= 4, never at 2 or 3 (outside the hypothesis).
  const ProveRun partial_twin = prove_assuming("(x - 4) / (x - 3) == 1", {"x in [0,10]"}, {undefined_at_3});
  ++checked;
  EXPECT_EQ(partial_twin.rc, cuteref::proofs::kProveRefuted) << partial_twin.out << partial_twin.err;
  if (partial_twin.rc == cuteref::proofs::kProveRefuted) {
    EXPECT_GE(value_of(partial_twin.out, "x"), 4) << partial_twin.out;
  }
}

// One evaluation may enumerate 2^24 elements in all (enumeration_budget.hpp); past that the
// model stops, which is a limit of the check, not a refusal of the input. So such a point is
// too large to check: never a refutation, never a point where a hypothesis fails (that once
// made a true claim `refuted` and satisfiable hypotheses `vacuous`). By hand: composition(A, Sw
// o 0 o B) has B's size, and the model checks it on each of B's elements, charging size(B).
// With B = 4194304:1 (2^22), five such terms charge 5 * 2^22 > 2^24; with B = (n*2097152):1,
// five charge 5 * 2^21 <= 2^24 at n = 1 and 5 * 2^22 at n = 2.
TEST(ProveSoundness, AnEvaluationPastItsBudgetIsNotARefusal) {
  auto five = [](const std::string& term) { return term + " + " + term + " + " + term + " + " + term + " + " + term; };
  const std::string fixed = five("size(composition(n:1, Sw<3,4,3> o 0 o 4194304:1))");          // 5 * 2^22
  const std::string growing = five("size(composition(4194304:1, Sw<3,4,3> o 0 o (n*2097152):1))");  // 5 * n * 2^21
  const std::string big_n = "n in [4194304,4194305]";
  EXPECT_TRUE(model_refuses(five("size(composition(4194304:1, Sw<3,4,3> o 0 o 4194304:1))")));
  EXPECT_FALSE(model_refuses(five("size(composition(4194304:1, Sw<3,4,3> o 0 o 2097152:1))")));
  checked += 2;
  auto run = [](const std::string& claim, const std::string& where, std::vector<std::string> assume = {}) {
    ++checked;
    return prove_assuming(claim, {where}, std::move(assume));
  };
  // A true claim whose sides are too large at every point: unknown (it was refuted).
  const ProveRun sides = run(fixed + " == 20971520", big_n);
  EXPECT_EQ(sides.rc, cuteref::proofs::kProveUnknown) << sides.out << sides.err;
  EXPECT_NE(sides.out.find("2 where the hypotheses hold and a side is too large to evaluate"), std::string::npos)
      << sides.out;
  // Its false twin is not proved either.
  const ProveRun sides_twin = run(fixed + " == 20971521", big_n);
  EXPECT_EQ(sides_twin.rc, cuteref::proofs::kProveUnknown) << sides_twin.out << sides_twin.err;
  // Hypotheses that hold at every point, too large to check there: unknown (it was vacuous).
  const ProveRun hyp = run("n:1 == n:1", big_n, {fixed + " == 20971520"});
  EXPECT_EQ(hyp.rc, cuteref::proofs::kProveUnknown) << hyp.out << hyp.err;
  EXPECT_NE(hyp.out.find("2 whose hypotheses are too large to check"), std::string::npos) << hyp.out;
  // Checkable at n = 1 only: proved, confirmed at n = 1, n = 2 counted as too large.
  const ProveRun hyp_half = run("n:1 == n:1", "n in [1,2]", {growing + " == 5*n*2097152"});
  EXPECT_EQ(hyp_half.rc, 0) << hyp_half.out << hyp_half.err;
  EXPECT_NE(hyp_half.out.find("agrees at 1 point(s) where the hypotheses hold, of 2 (the whole box); 1 point(s) whose "
                              "hypotheses are too large to check"),
            std::string::npos)
      << hyp_half.out;
  const ProveRun sides_half = run(growing + " == 5*n*2097152", "n in [1,2]");
  EXPECT_EQ(sides_half.rc, 0) << sides_half.out << sides_half.err;
  EXPECT_NE(sides_half.out.find("agrees at 1 point(s) (the whole box); 1 point(s) where a side is too large to evaluate"),
            std::string::npos)
      << sides_half.out;
  // The false twin is refuted where the model can check it: at n = 1 the left side is 10485760.
  const ProveRun half_twin = run(growing + " == 5*n*2097152 + 1", "n in [1,2]");
  EXPECT_EQ(half_twin.rc, cuteref::proofs::kProveRefuted) << half_twin.out << half_twin.err;
  EXPECT_EQ(value_of(half_twin.out, "n"), 1) << half_twin.out;
  // A false claim whose hypothesis is too large to check at n = 1 (5 * 2 * 2^21 elements) and
  // holds at n = 2 (5 * 2^21): refuted at n = 2, the one point the model decides, whether Z3's
  // counterexample is n = 2 or n = 1 (which does not replay: then the replayed points are
  // searched; before that search, this answered unknown).
  const std::string shrinking = five("size(composition(4194304:1, Sw<3,4,3> o 0 o ((3-n)*2097152):1))");
  const ProveRun searched = run("n:1 == (n+1):1", "n in [1,2]", {shrinking + " == 5*(3-n)*2097152"});
  EXPECT_EQ(searched.rc, cuteref::proofs::kProveRefuted) << searched.out << searched.err;
  if (searched.rc == cuteref::proofs::kProveRefuted) {
    EXPECT_EQ(value_of(searched.out, "n"), 2) << searched.out;
  }
  // A box of one point is evaluated while the claim is stated: unknown there too, not a usage
  // error (exit 64 says the model rejects the claim).
  const ProveRun one_point = run(growing + " == 5*n*2097152", "n in [2,2]");
  EXPECT_EQ(one_point.rc, cuteref::proofs::kProveUnknown) << one_point.out << one_point.err;
  // An operation's own bound (2^22 elements of B, a Z3 side condition) is the model refusing
  // the input: refuted (B has 2^23 elements at every point).
  const ProveRun own_bound = run("size(composition(n:1, Sw<3,4,3> o 0 o 8388608:1)) == 8388608", big_n);
  EXPECT_EQ(own_bound.rc, cuteref::proofs::kProveRefuted) << own_bound.out << own_bound.err;
  EXPECT_NE(own_bound.out.find("does so up to 2^22"), std::string::npos) << own_bound.out;
}

// Every `vacuous` is checked on the concrete model before it is printed: a replayed point
// where every hypothesis holds would contradict it (a symbolic statement of a hypothesis
// stronger than the model's). The check on its own, given hypotheses directly, must find such
// a point where one exists, and none where none does (by hand below).
TEST(ProveSoundness, TheDomainCheckFindsWhereHypothesesHold) {
  auto search = [](std::vector<std::string> where, std::vector<std::string> assume, std::string claim = "x == x") {
    cuteref::proofs::ProveRequest r;
    r.claim = std::move(claim);
    r.where = std::move(where);
    r.assume = std::move(assume);
    ++checked;
    return cuteref::proofs::domain_point_on_model(r);
  };
  // x > 3 holds at 4..12 of [0,12]; x * x == 49 only at 7; x > 12 nowhere (13 points).
  const std::string above = search({"x in [0,12]"}, {"x > 3"});
  EXPECT_EQ(above.rfind("holds at x = ", 0), 0u) << above;
  if (above.rfind("holds at x = ", 0) == 0) {
    EXPECT_GT(std::stoll(above.substr(13)), 3) << above;
  }
  EXPECT_EQ(search({"x in [0,12]"}, {"x * x == 49"}), "holds at x = 7");
  EXPECT_EQ(search({"x in [0,12]"}, {"x > 12"}), "none of 13 point(s)");
  // Two hypotheses, each satisfiable, together only at x = 6: x % 3 == 0 and x % 4 == 2
  // (6, and 18 past the box).
  EXPECT_EQ(search({"x in [0,12]"}, {"x % 3 == 0", "x % 4 == 2"}), "holds at x = 6");
  // The model's L = (3,2):(1,c) overflows at c >= 2^63 - 2: injective(L) holds nowhere there,
  // and at c = 2^63 - 3 (L's largest value c + 2 = 2^63 - 1 fits).
  EXPECT_EQ(search({"c in [9223372036854775806,9223372036854775807]"}, {"injective((3,2):(1,c))"}, "c == c"),
            "none of 2 point(s)");
  EXPECT_EQ(search({"c in [9223372036854775805,9223372036854775807]"}, {"injective((3,2):(1,c))"}, "c == c"),
            "holds at c = 9223372036854775805");
  // And prove's own vacuous verdicts still pass it: x > 12 over [0,12].
  const ProveRun vacuous = prove_assuming("x == x", {"x in [0,12]"}, {"x > 12"});
  ++checked;
  EXPECT_EQ(vacuous.rc, cuteref::proofs::kProveVacuous) << vacuous.out << vacuous.err;
  EXPECT_EQ(vacuous.out.rfind("vacuous: ", 0), 0u) << vacuous.out;
  // The comparison is checked before the enumeration at each of the 4,096 points, so the check
  // leaves each point at n > 5000 (false on [1, 4096]) without enumerating L's n * 1024
  // elements (with injective first: 8.6e9 elements over the box, past the 60 s limit, unknown).
  const ProveRun ordered =
      prove_assuming("n == n", {"n in [1,4096]"}, {"injective((n,1024):(1,n*2))", "n > 5000"});
  ++checked;
  EXPECT_EQ(ordered.rc, cuteref::proofs::kProveVacuous) << ordered.out << ordered.err;
}

// divides(A, B) takes a divisor A >= 1; a literal A <= 0 is a malformed request (exit 64), not a
// hypothesis that is false everywhere (which proved `a == 100` at a = 2 with divides(-2, a)).
// The model's checks, wired into `prove`, catch what a symbolic statement stronger than the
// model's would make Z3 answer. ProveRequest::symbolic_only_assume states a hypothesis to Z3
// alone, which is such a defect made on purpose; the verdicts are derived by hand.
TEST(ProveSoundness, TheModelCatchesAStrongerSymbolicStatement) {
  auto run = [](std::string claim, std::vector<std::string> assume, std::vector<std::string> symbolic_only) {
    cuteref::proofs::ProveRequest r;
    r.claim = std::move(claim);
    r.where = {"x in [0,10]"};
    r.assume = std::move(assume);
    r.symbolic_only_assume = std::move(symbolic_only);
    r.timeout_s = 60;
    std::ostringstream out, err;
    const int rc = cuteref::proofs::prove_command(r, out, err);
    ++checked;
    return ProveRun{rc, out.str(), err.str()};
  };
  // Z3 sees x > 100 on [0, 10], which holds nowhere: its answer is vacuous. The model's
  // hypotheses (none) hold at every point, so the vacuity check names one: unknown.
  const ProveRun vacuity = run("x == x", {}, {"x > 100"});
  EXPECT_EQ(vacuity.rc, cuteref::proofs::kProveUnknown) << vacuity.out << vacuity.err;
  EXPECT_EQ(vacuity.out.rfind("unknown: Z3 found the hypotheses unsatisfiable, but the concrete model satisfies every "
                              "one of them at x = ", 0),
            0u)
      << vacuity.out;
  // The same with a hypothesis the model checks: x >= 4 holds at 4..10, so the point named
  // is one of them.
  const ProveRun vacuity_at = run("x == x", {"x >= 4"}, {"x > 100"});
  EXPECT_EQ(vacuity_at.rc, cuteref::proofs::kProveUnknown) << vacuity_at.out << vacuity_at.err;
  const std::string::size_type at = vacuity_at.out.find(" at x = ");
  EXPECT_NE(at, std::string::npos) << vacuity_at.out;
  if (at != std::string::npos) {
    EXPECT_GE(std::stoll(vacuity_at.out.substr(at + 8)), 4) << vacuity_at.out;
  }
  // Where the model's hypotheses hold nowhere either (x > 10 on [0, 10]), vacuous stands.
  const ProveRun vacuous = run("x == x", {"x > 10"}, {"x > 100"});
  EXPECT_EQ(vacuous.rc, cuteref::proofs::kProveVacuous) << vacuous.out << vacuous.err;
  // Z3 sees x == 0, under which x * 2 == x holds: it proves the claim. The model's replay
  // evaluates both sides at all 11 points of the box and differs at every x in 1..10: refuted
  // by the replay, never proved.
  const ProveRun replayed = run("x * 2 == x", {}, {"x == 0"});
  EXPECT_EQ(replayed.rc, cuteref::proofs::kProveRefuted) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("(found by the concrete replay"), std::string::npos) << replayed.out;
  if (replayed.rc == cuteref::proofs::kProveRefuted) {
    EXPECT_GE(value_of(replayed.out, "x"), 1) << replayed.out;
  }
  // Where the symbolic-only hypothesis changes nothing (x <= 10 on [0, 10]), the claim is
  // proved as it is without it.
  const ProveRun harmless = run("x * 1 == x", {}, {"x <= 10"});
  EXPECT_EQ(harmless.rc, 0) << harmless.out << harmless.err;
  // A name outside the claim is a malformed request.
  const ProveRun stranger = run("x == x", {}, {"y > 1"});
  EXPECT_EQ(stranger.rc, cuteref::proofs::kProveUsage) << stranger.out << stranger.err;
}

// A claim's variable is never one of prove's own Z3 constants. By hand, with K = 2^40 and
// c = 123456789013: for x in [1000, K], (x - c + K) / K is 1 for x >= c, else 0 (the dividend
// lies in (0, 2K)), and (c - x + K) / K is 1 for x <= c, else 0; their sum is 2 at x = c only.
const std::string kSumIsTwoAtC = "((X - 123456789013 + 1099511627776)/1099511627776 + "
                                 "(123456789013 - X + 1099511627776)/1099511627776)";
std::string at_c(const std::string& variable) {
  return std::regex_replace(kSumIsTwoAtC, std::regex("X"), variable);
}

TEST(ProveSoundness, ClaimVariablesAreNotProvesOwnNames) {
  // A variable `index` was the element index of the layout comparison, so 1000:1 and
  // 1000:(1 + [index == c]) were compared only at i = index (past their size for every
  // index >= 1000): proved. They differ at index = c from i = 1 on.
  const ProveRun named_index = cuteref::proofs::testing::prove("1000:1 == 1000:" + at_c("index"),
                                                               {"index in [1000,1099511627776]"});
  ++checked;
  EXPECT_EQ(named_index.rc, cuteref::proofs::kProveRefuted) << named_index.out << named_index.err;
  if (named_index.rc == cuteref::proofs::kProveRefuted) {
    EXPECT_EQ(value_of(named_index.out, "index"), 123456789013) << named_index.out;  // the variable's line comes first
    EXPECT_EQ(named_index.out.find("(found by the concrete replay"), std::string::npos) << named_index.out;
  }
  // (2*index):1 and (index,2):(0,index) agree at index = 1 (both 0, 1) and differ at every
  // index >= 2 (at i = 1: 1 against 0): refuted by Z3 itself, not by the replay.
  const ProveRun small_index = cuteref::proofs::testing::prove("(2*index):1 == (index,2):(0,index)", {"index in [1,100]"});
  ++checked;
  EXPECT_EQ(small_index.rc, cuteref::proofs::kProveRefuted) << small_index.out << small_index.err;
  if (small_index.rc == cuteref::proofs::kProveRefuted) {
    EXPECT_GE(value_of(small_index.out, "index"), 2) << small_index.out;
    EXPECT_EQ(small_index.out.find("(found by the concrete replay"), std::string::npos) << small_index.out;
  }
  // A variable `injective_a1` was bound by injective()'s quantifier over coordinates, which
  // made these hypotheses unsatisfiable: vacuous. They hold at n = 2, v = 17 ((2,2):(1,17)
  // takes 0, 1, 17, 18; 17 % 1000003 == 17), where the claim, 0 == 1, is false.
  const ProveRun bound_name = prove_assuming(
      "injective_a1 - injective_a1 + n - n == 1", {"n in [2,1000]", "injective_a1 in [0,1000000000000]"},
      {"injective((n,2):(1,injective_a1))", "injective_a1 % 1000003 == 17"});
  ++checked;
  EXPECT_EQ(bound_name.rc, cuteref::proofs::kProveRefuted) << bound_name.out << bound_name.err;
  if (bound_name.rc == cuteref::proofs::kProveRefuted) {
    EXPECT_EQ(value_of(bound_name.out, "injective_a1") % 1000003, 17) << bound_name.out;
  }
}

// A value computed on symbolic values has no known static flags: `size(_6:x)` is the model's
// static `_6`, which the evaluator read as a run-time 6. A function that reads the flags took
// another branch than the model's: tile_to_shape skipped the divisibility check of a static
// target, right_inverse, downcast and recast computed other layouts. Each claim below fails at
// x = c only ([x == c] = at_c(x) - 1, with K and c above), so no replay point finds it; each was
// proved, or answered vacuous, and must now be refuted or unknown. By hand, at x = c:
// - tile_to_shape(4:1, (_6,_4)): the block's 4 does not divide the static _6 (the model refuses);
// - right_inverse((_4,_8):(_1,_4)) = _32:_1, size 32, where a run-time stride 4 gives 4;
// - downcast((4,8):(_1,_1), 2) is (8,16):(_1,_1), size 128 (each mode of static stride _1
//   widened), where a run-time first stride gives (4,16):(2,_1), size 64; recast(L, 32, 16)
//   is that downcast.
// Elsewhere [x == c] ^ 0 is 0, and both sides are 0.
TEST(ProveSoundness, AComputedValueHasNoInventedStaticFlags) {
  const std::string at = "(" + at_c("x") + " - 1)";
  const std::string flag = "(" + at + " ^ 0)";
  const std::string box = "x in [1000,1099511627776]";
  const std::string c = "123456789013";
  struct Case {
    std::string claim, at_c;  // the claim, and its concrete form at x = c (false, or refused)
  };
  const std::vector<Case> cases = {
      {"tile_to_shape((2 + 2*" + at + "):1, (size(_6:x), _4))(0) == 0", "tile_to_shape(4:1, (size(_6:" + c + "), _4))(0) == 0"},
      {"size(right_inverse((_4,_8):(_1,size(_4:x)))) * " + flag + " == 4 * " + flag,
       "size(right_inverse((_4,_8):(_1,size(_4:" + c + ")))) == 4"},
      {"size(downcast((4,8):(size(_1:x),_1),2)) * " + flag + " == 64 * " + flag,
       "size(downcast((4,8):(size(_1:" + c + "),_1),2)) == 64"},
      {"size(recast((4,8):(size(_1:x),_1),32,16)) * " + flag + " == 64 * " + flag,
       "size(recast((4,8):(size(_1:" + c + "),_1),32,16)) == 64"},
  };
  for (const Case& k : cases) {
    const ProveRun r = prove_assuming(k.claim, {box}, {});
    ++checked;
    EXPECT_TRUE(r.rc == cuteref::proofs::kProveRefuted || r.rc == cuteref::proofs::kProveUnknown)
        << k.claim << "\n" << r.out << r.err;
    if (r.rc == cuteref::proofs::kProveRefuted) {
      EXPECT_EQ(value_of(r.out, "x"), 123456789013) << r.out;
    }
    // The claim at x = c is false on the model, or the model refuses it.
    bool refused = model_refuses(k.at_c), holds = false;
    if (!refused) holds = cuteref::parse_and_evaluate(k.at_c, &cuteref::standard_functions()).to_string() == "true";
    ++checked;
    EXPECT_FALSE(holds) << k.at_c;
  }
  // The hypothesis holds at x = c only (elsewhere 0 == 32), where the claim x == c holds too:
  // proved, or unknown; it was vacuous.
  const ProveRun hyp = prove_assuming("x == " + c, {box},
                                      {"size(right_inverse((_4,_8):(_1,size(_4:x)))) * " + flag + " == 32"});
  ++checked;
  EXPECT_TRUE(hyp.rc == 0 || hyp.rc == cuteref::proofs::kProveUnknown) << hyp.out << hyp.err;
  EXPECT_FALSE(model_refuses("size(right_inverse((_4,_8):(_1,size(_4:" + c + ")))) == 32"));
  EXPECT_EQ(cuteref::parse_and_evaluate("size(right_inverse((_4,_8):(_1,size(_4:" + c + ")))) == 32",
                                        &cuteref::standard_functions())
                .to_string(),
            "true");
  ++checked;
  // A structural result of the model on such a value: make_layout((_1,4)) is (_1,4):(_0,_1)
  // (a static _1 mode gets the stride _0), a run-time 1 keeps the stride 1: false at every x,
  // and with no symbolic form (stride), refuted by the model at a replayed point.
  const ProveRun made = prove_assuming("stride(make_layout((size(_1:x),4))) == (1,1)", {"x in [1,100]"}, {});
  ++checked;
  EXPECT_EQ(made.rc, cuteref::proofs::kProveRefuted) << made.out << made.err;
  EXPECT_EQ(cuteref::parse_and_evaluate("stride(make_layout((size(_1:7),4)))", &cuteref::standard_functions()).to_string(),
            "(_0,_1)");
  // Arithmetic is a run-time integer on the model whatever its operands (`_2 + _3` is 5), so
  // its flag is known: tile_to_shape(4:1, (6, 4)) with a run-time target checks nothing and
  // tiles (ceil(6/4), ceil(4/1)) = (2, 4) copies of (4, 1): size 32, proved.
  const ProveRun arithmetic = prove_assuming("size(tile_to_shape(4:1, (size(_6:x) + 0, 4))) == 32", {"x in [1,1000]"}, {});
  ++checked;
  EXPECT_EQ(arithmetic.rc, 0) << arithmetic.out << arithmetic.err;
  EXPECT_EQ(cuteref::parse_and_evaluate("_2 + _3", &cuteref::standard_functions()).to_string(), "5");
  ++checked;
}

// Applying a layout keeps the model's checks: the index is >= 0, and behind an smem_ptr the
// element offset L(x) is >= 0 (the model knows no address before the pointer). The symbolic
// side stated neither (composition(A, Sw o B)'s element-wise check applies A at Sw(B(x)); a
// composed layout's application by its parts), and the replay compared layouts by its own
// application: a false `proved` on a box the replay covered whole, and at sparse points. By
// hand, [x == c] as above:
// - composition(Sw<3,4,3> o smem_ptr[16b](unset) o 16:-1, n:1) is that composed layout over
//   n:-1 (16:-1 o n:1 = n:-1 for n <= 16): its element at i >= 1 is -i, before the pointer,
//   so the model refuses it for every n >= 2;
// - Sw<3,4,3> o smem_ptr[16b](unset) o 8:-1 at [x == c] is the element -1 at x = c;
// - composition(8:1, Sw<1,0,1> o 0 o (1 + [x == c]):-1): at x = c, B = 2:-1, B(1) = -1 and
//   Sw<1,0,1>(-1) = -1 XOR 1 = -2 (bit 1 of -1 XOR-ed into bit 0), where A = 8:1 is applied:
//   a negative index. Elsewhere B = 1:-1 and every check holds.
TEST(ProveSoundness, EveryApplicationKeepsTheModelsChecks) {
  const std::string at = "(" + at_c("x") + " - 1)";
  const std::string box = "x in [1000,1099511627776]";
  const ProveRun dense = prove_assuming(
      "composition(Sw<3,4,3> o smem_ptr[16b](unset) o 16:-1, n:1) == Sw<3,3,3> o 0 o n:-1", {"n in [1,16]"}, {});
  ++checked;
  EXPECT_EQ(dense.rc, cuteref::proofs::kProveRefuted) << dense.out << dense.err;
  if (dense.rc == cuteref::proofs::kProveRefuted) {
    EXPECT_GE(value_of(dense.out, "n"), 2) << dense.out;
    EXPECT_EQ(dense.out.find("(found by the concrete replay"), std::string::npos) << dense.out;
  }
  EXPECT_TRUE(model_refuses("composition(Sw<3,4,3> o smem_ptr[16b](unset) o 16:-1, 2:1) == Sw<3,3,3> o 0 o 2:-1"));
  EXPECT_FALSE(model_refuses("composition(Sw<3,4,3> o smem_ptr[16b](unset) o 16:-1, 1:1) == Sw<3,3,3> o 0 o 1:-1"));
  checked += 2;
  const struct {
    std::string claim, refused_at_c;
  } sparse[] = {
      {"Sw<3,4,3> o smem_ptr[16b](unset) o 8:-1(" + at + ") == Sw<3,3,3>(0 - " + at + ")",
       "Sw<3,4,3> o smem_ptr[16b](unset) o 8:-1(1)"},
      {"composition(8:1, Sw<1,0,1> o 0 o (1 + " + at + "):-1) == Sw<1,0,1> o 0 o (1 + " + at + "):-1",
       "composition(8:1, Sw<1,0,1> o 0 o 2:-1)"},
  };
  for (const auto& k : sparse) {
    const ProveRun r = prove_assuming(k.claim, {box}, {});
    ++checked;
    EXPECT_EQ(r.rc, cuteref::proofs::kProveRefuted) << k.claim << "\n" << r.out << r.err;
    if (r.rc == cuteref::proofs::kProveRefuted) {
      EXPECT_EQ(value_of(r.out, "x"), 123456789013) << r.out;
      EXPECT_NE(r.out.find("the model rejects this input"), std::string::npos) << r.out;
    }
    EXPECT_TRUE(model_refuses(k.refused_at_c)) << k.refused_at_c;
    ++checked;
  }
}

// A division's definition (its quotient and remainder) is added to every query, so it must
// hold for some quotient at every point. Its sign facts came from an interval clamped to
// int64 after an overflow obligation: INT64_MAX - P has the interval [0, INT64_MAX] for P in
// [0, 2^63] clamped, and "dividend >= 0" removed exactly the point where P = 2^63 overflows,
// which discharged the obligation: proved. By hand (K, c above): P = [x == c] * 2^62 * 2
// overflows at x = c only, and elsewhere INT64_MAX / 3 = 3074457345618258602 (INT64_MAX =
// 3 * 3074457345618258602 + 1).
TEST(ProveSoundness, ADivisionDefinesNothingFromAnUncertainSign) {
  const std::string p = "(" + at_c("x") + " - 1)*4611686018427387904*2";
  const ProveRun hidden = cuteref::proofs::testing::prove(
      "(9223372036854775807 - " + p + ")/3 == 3074457345618258602 + 0*x", {"x in [1000,1099511627776]"});
  ++checked;
  EXPECT_EQ(hidden.rc, cuteref::proofs::kProveRefuted) << hidden.out << hidden.err;
  if (hidden.rc == cuteref::proofs::kProveRefuted) {
    EXPECT_EQ(value_of(hidden.out, "x"), 123456789013) << hidden.out;
    EXPECT_NE(hidden.out.find("the model rejects this input"), std::string::npos) << hidden.out;
  }
  EXPECT_TRUE(model_refuses("4611686018427387904*2"));
  ++checked;
  // The same through the nesting lemma, (y / 3) / 5 = y / 15 (INT64_MAX / 15 =
  // 614891469123651720): its definitions hold only where both divisions' signs do.
  const ProveRun nested = cuteref::proofs::testing::prove(
      "((9223372036854775807 - " + p + ")/3)/5 == 614891469123651720 + 0*x", {"x in [1000,1099511627776]"});
  ++checked;
  EXPECT_EQ(nested.rc, cuteref::proofs::kProveRefuted) << nested.out << nested.err;
  if (nested.rc == cuteref::proofs::kProveRefuted) {
    EXPECT_EQ(value_of(nested.out, "x"), 123456789013) << nested.out;
  }
  // x * x overflows from x = 3037000500 on (3037000499^2 < 2^63 - 1 < 3037000500^2); the
  // same quotient on both sides hid it, and only the replay found it. Now Z3 does.
  const ProveRun squared = cuteref::proofs::testing::prove("(9223372036854775807 - x*x)/3 == (9223372036854775807 - x*x)/3",
                                                           {"x in [2147483648,4611686018427387904]"});
  ++checked;
  EXPECT_EQ(squared.rc, cuteref::proofs::kProveRefuted) << squared.out << squared.err;
  if (squared.rc == cuteref::proofs::kProveRefuted) {
    EXPECT_GE(value_of(squared.out, "x"), 3037000500) << squared.out;
    EXPECT_EQ(squared.out.find("(found by the concrete replay"), std::string::npos) << squared.out;
  }
  EXPECT_FALSE(model_refuses("3037000499*3037000499"));
  EXPECT_TRUE(model_refuses("3037000500*3037000500"));
  checked += 2;
  // Where no bound is clamped, the signs are certain and the claim is proved as before:
  // (x + 6) / 3 == x / 3 + 2 for x >= 0.
  const ProveRun certain = cuteref::proofs::testing::prove("(x + 6) / 3 == x / 3 + 2", {"x in [0,1000000]"});
  ++checked;
  EXPECT_EQ(certain.rc, 0) << certain.out << certain.err;
}

TEST(ProveSoundness, NonPositiveLiteralDivisorsAreMalformed) {
  for (const auto& [divisor, where] :
       std::vector<std::pair<std::string, std::string>>{{"-2", "a in [2,2]"}, {"0", "a in [0,0]"}, {"_0", "a in [0,4]"},
                                                        {"1-3", "a in [0,4]"}, {"-9223372036854775808", "a in [0,4]"}}) {
    const ProveRun r = prove_assuming("a == 100", {where}, {"divides(" + divisor + ", a)"});
    ++checked;
    EXPECT_EQ(r.rc, cuteref::proofs::kProveUsage) << divisor << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("divisor A >= 1"), std::string::npos) << r.err;
  }
  // A positive literal or a variable divisor is a hypothesis: 2 divides a in [2, 2].
  const ProveRun ok = prove_assuming("a % 2 == 0", {"a in [2,2]"}, {"divides(2, a)"});
  ++checked;
  EXPECT_EQ(ok.rc, 0) << ok.out << ok.err;
}

// A case of the model's branches that no value satisfying the hypotheses reaches is not
// counted as proved. composition(left_inverse(L), L) for L = (a,2):(1,c), a, c in [1,64] with
// injective(L) (c >= a, or a = 1 with any c; by hand: (x,y) -> x + c*y is injective on
// [0,a) x [0,2) exactly when c >= a or a = 1): the branches where L is not injective are
// unreachable.
TEST(ProveSoundness, UnreachableCasesAreNotCounted) {
  const ProveRun r = prove_assuming("composition(left_inverse((a,2):(1,c)), (a,2):(1,c)) == (2*a):1",
                                    {"a in [1,64]", "c in [1,64]"}, {"injective((a,2):(1,c))"});
  ++checked;
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("each reachable and proved"), std::string::npos) << r.out;
  // The whole box (64 * 64 = 4096 points) is replayed; the hypothesis holds at the points
  // with c >= a (64 * 65 / 2 = 2080) and at a = 1, c < a (none): 2080.
  EXPECT_NE(r.out.find("agrees at 2080 point(s) where the hypotheses hold, of 4096 (the whole box)"), std::string::npos)
      << r.out;
}

// The replay itself catches what a defective symbolic path would call proved: given false
// claims directly, it names a contradicting point (the model refuses there, or the sides
// differ), and it agrees with true ones.
TEST(ProveSoundness, TheReplayContradictsFalseClaims) {
  auto replay = [](const std::string& claim, std::vector<std::string> where, std::vector<std::string> assume = {}) {
    cuteref::proofs::ProveRequest r;
    r.claim = claim;
    r.where = std::move(where);
    r.assume = std::move(assume);
    ++checked;
    return cuteref::proofs::replay_on_model(r);
  };
  // The false claims that were once proved (a = 4 is refused by the model).
  EXPECT_EQ(replay("size(tile_to_shape((a,2):(1,a), (_6,_2))) == a*((6+a-1)/a)*2", {"a in [1,6]"}).rfind(
                "contradicted at a = 4: the model rejects this input", 0),
            0u);
  // The sides differ at x = 16: Sw<1,4,1> moves bit 5 into bit 4... 16 has bit 4 set and bit 5
  // clear, so it is its own image; 32 maps to 48. The first point in order is x = 32.
  EXPECT_EQ(replay("Sw<1,4,1>(x) == x", {"x in [0,63]"}).rfind("contradicted at x = 32: the model's two sides differ", 0), 0u);
  // A large box: corners and deterministic points. x*x == x is false at the upper corner.
  EXPECT_EQ(replay("x*x == x", {"x in [0,3037000499]"}).rfind("contradicted at x = 3037000499", 0), 0u);
  // Where the hypothesis holds (a = 2) the claim is false.
  EXPECT_EQ(replay("a == 100", {"a in [0,4]"}, {"divides(2, a)"}).rfind("contradicted at a = 0", 0), 0u);
  // True claims: agreement at every point of a small box.
  EXPECT_EQ(replay("Sw<3,4,3>(Sw<3,4,3>(x)) == x", {"x in [0,4095]"}), "agrees at 4096 point(s) of 4096");
  EXPECT_EQ(replay("coalesce((a,b):(1,a)) == (a*b):1", {"a in [1,64]", "b in [1,64]"}), "agrees at 4096 point(s) of 4096");
}

// The points: the whole box up to 2^12 points, each once; otherwise every corner (up to 256)
// and deterministic points inside the ranges, the same every run.
TEST(ProveSoundness, ReplayPoints) {
  using cuteref::proofs::replay_points;
  const auto small = replay_points({{"a", {1, 64}}, {"b", {-31, 32}}});
  ++checked;
  EXPECT_TRUE(small.whole_box);
  EXPECT_EQ(small.points.size(), 4096u);
  std::set<std::pair<std::int64_t, std::int64_t>> distinct;
  for (const auto& p : small.points) distinct.insert({p.at("a"), p.at("b")});
  EXPECT_EQ(distinct.size(), 4096u);
  const auto large = replay_points({{"x", {INT64_MIN, INT64_MAX}}, {"y", {0, 4096}}});
  ++checked;
  EXPECT_FALSE(large.whole_box);
  std::set<std::pair<std::int64_t, std::int64_t>> corners = {
      {INT64_MIN, 0}, {INT64_MAX, 0}, {INT64_MIN, 4096}, {INT64_MAX, 4096}};
  for (const auto& p : large.points) {
    corners.erase({p.at("x"), p.at("y")});
    EXPECT_GE(p.at("y"), 0);
    EXPECT_LE(p.at("y"), 4096);
  }
  EXPECT_TRUE(corners.empty());
  EXPECT_GT(large.points.size(), 200u);
  EXPECT_EQ(large.points, replay_points({{"x", {INT64_MIN, INT64_MAX}}, {"y", {0, 4096}}}).points);
  const auto none = replay_points({});
  ++checked;
  EXPECT_EQ(none.points.size(), 1u);
}

// A hypothesis without variables is decided on the model before any proof: where it does not
// hold, no point satisfies the hypotheses (`vacuous`, with the model's reason), never exit 64 as
// if the request were malformed, and never a proof. By hand: A = (4,4):(1,8) does not coalesce
// (4 * 1 != 8). B = 3:3 against A's mode 4:1: 3 < 4 (stride divisibility holds), ceil(4/3) = 2 < 3
// and 4 % 3 != 0, so exactness fails and the model refuses the composition. B = 2:2: ceil(4/2) =
// 2, not below 2, and 2 % 2 == 0: it composes (to 2:2). (2,2):(1,1) maps 1 and 2 to 1.
TEST(ProveSoundness, AVariableFreeHypothesisIsDecidedOnTheModel) {
  EXPECT_TRUE(model_refuses("composition((4,4):(1,8), 3:3)"));
  EXPECT_FALSE(model_refuses("composition((4,4):(1,8), 2:2)"));
  checked += 2;
  struct Case {
    std::string assume, reason;
  };
  const std::vector<Case> fails = {
      {"admissible((4,4):(1,8), 3:3)", "the model refuses it: "},
      {"defined(composition((4,4):(1,8), 3:3))", "the model refuses it: "},
      {"size(composition((4,4):(1,8), 3:3)) == 3", "the model refuses it: "},
      {"size(4:1) == 5", "it is false: its sides are 4 and 5"},
      {"divides(3, size(4:1))", "it is false: its sides are 3 and 4"},
      {"injective((2,2):(1,1))", "it is false: L(1) == L(2) == 1"},
  };
  for (const auto& c : fails) {
    for (const std::string& where : {std::string(), std::string("x in [0,3]")}) {
      const std::string claim = where.empty() ? "4:1(1) == 1" : "4:1(x) == x";
      const ProveRun r = prove_assuming(claim, where.empty() ? std::vector<std::string>{} : std::vector{where}, {c.assume});
      ++checked;
      EXPECT_EQ(r.rc, cuteref::proofs::kProveVacuous) << c.assume << "\n" << r.out << r.err;
      EXPECT_EQ(r.out.rfind("vacuous: --assume '" + c.assume + "' has no variable and does not hold on the concrete model: " +
                                c.reason,
                            0),
                0u)
          << r.out;
    }
  }
  // The same hypotheses where they hold prove the claim, replayed at all 4 points.
  for (const std::string assume : {"admissible((4,4):(1,8), 2:2)", "size(composition((4,4):(1,8), 2:2)) == 2",
                                   "injective((2,2):(1,2))"}) {
    const ProveRun r = prove_assuming("4:1(x) == x", {"x in [0,3]"}, {assume});
    ++checked;
    EXPECT_EQ(r.rc, 0) << assume << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("agrees at 4 point(s) where the hypotheses hold, of 4"), std::string::npos) << r.out;
  }
}

// make_layout gives a static _1 mode the stride _0 (CuTe's compact_major), a run-time 1 the
// stride 1: past a layout's size, where its last mode is unbounded, the two differ. The model's
// tile_to_shape makes its copies with make_layout (a count is static when the target's and the
// block's mode are), and so do the divides and products for an integer tiler n (composition's
// n is n:_1). Their symbolic forms once used the stride 1 always: proved where the model says
// otherwise, at sparse points past the size (an adversarial audit's find). By hand:
// - tile_to_shape((_3,_4):(_1,_3), (3*y,_4)) is ((_3,y),(_4,_1)):((_1,12),(_3,_0)): mode 1's
//   count _4/_4 = _1 is static. Its size is 12*y; index 12*y is the coordinate (0, 1) of the last
//   mode (_4,_1), offset 0 (the stride 12*y in place of _0 gave 12*y).
// - logical_product(y:2, _1) is (y,_1):(2,_0); index y is (0, 1): offset 0 (with 1:1, 1).
// - logical_divide(y:2, _1) is (_1,y):(_0,2); index y is (0, y): offset 2*y.
// - composition(y:2, _1) is _1:2 (the tiler _1:_1); index 1: offset 2.
TEST(ProveSoundness, AStaticUnitCopyHasTheStrideZero) {
  struct Case {
    std::string claim;
    bool holds;
  };
  const std::vector<Case> cases = {
      {"tile_to_shape((_3,_4):(_1,_3), (3*y,_4))(12*y) == 0", true},
      {"tile_to_shape((_3,_4):(_1,_3), (3*y,_4))(12*y) == 12*y", false},
      {"logical_product(y:2, _1)(y) == 0", true},
      {"logical_product(y:2, _1)(y) == 1", false},
      {"logical_divide(y:2, _1)(y) == 2*y", true},
      {"composition(y:2, _1)(1) == 2", true},
  };
  for (const auto& c : cases) {
    const ProveRun r = prove_assuming(c.claim, {"y in [2,4]"}, {});
    ++checked;
    EXPECT_EQ(r.rc, c.holds ? 0 : 1) << c.claim << "\n" << r.out << r.err;
    // Z3's own answer: the replay is a second line of defence.
    EXPECT_EQ(r.out.find("found by the concrete replay"), std::string::npos) << c.claim << "\n" << r.out;
  }
  // The model agrees, at y = 2.
  EXPECT_EQ(model_value("tile_to_shape((_3,_4):(_1,_3), (6,_4))(24)"), "0");
  EXPECT_EQ(model_value("logical_product(2:2, _1)(2)"), "0");
  EXPECT_EQ(model_value("logical_divide(2:2, _1)(2)"), "4");
  EXPECT_EQ(model_value("composition(2:2, _1)(1)"), "2");
  checked += 4;
  // The integer tiler's path where the model refuses a point of the box: a tiler must be >= 1,
  // so t = 0 is refused, and size(logical_product(4:2, t)) is 4 * t at t = 1 and 2.
  EXPECT_TRUE(model_refuses("logical_product(4:2, 0)"));
  EXPECT_EQ(model_value("size(logical_product(4:2, 2))"), "8");
  checked += 2;
  const ProveRun refused = prove_assuming("size(logical_product(4:2, t)) == 4*t", {"t in [0,2]"}, {});
  const ProveRun accepted = prove_assuming("size(logical_product(4:2, t)) == 4*t", {"t in [1,2]"}, {});
  checked += 2;
  EXPECT_EQ(refused.rc, 1) << refused.out << refused.err;
  EXPECT_NE(refused.out.find("t = 0"), std::string::npos) << refused.out;
  EXPECT_NE(refused.out.find("the model rejects this input"), std::string::npos) << refused.out;
  EXPECT_EQ(accepted.rc, 0) << accepted.out << accepted.err;
  // A count whose static flag is not tracked (size(_1:y) is the model's static _1) may be 1:
  // unknown, never guessed.
  for (const std::string claim : {"logical_product(y:2, size(_1:y))(y) == 0", "tile_to_shape(_3:_1, (size(_3:y)))(3) == 0"}) {
    const ProveRun r = prove_assuming(claim, {"y in [2,4]"}, {});
    ++checked;
    EXPECT_EQ(r.rc, 2) << claim << "\n" << r.out << r.err;
  }
}

// `(-x)` is a 1-tuple, as `(-5)` is (lang/README.md): a claim keeps its meaning with a value
// written for x. Verdicts by hand: (4):(-x) is a rank-1 layout, -x at index 1, -x*y at y;
// `0 - (-x)` subtracts a tuple (refused, exit 64, as `0 - (-5)` is); -x is not the 1-tuple (-x).
TEST(ProveSoundness, ANegatedVariableInParenthesesIsATuple) {
  struct Case {
    std::string claim;
    std::vector<std::string> where;
    int rc;
  };
  const std::vector<Case> cases = {
      {"(4):(-x)(1) == 0 - x", {"x in [1,10]"}, 0},
      {"(4):(-x)(1) == x", {"x in [1,10]"}, 1},                     // the false twin
      {"(4):(-x)(y) == 0 - x*y", {"x in [1,10]", "y in [0,3]"}, 0},
      {"(4):(-x)(y) == 0 - x*y", {"x in [1,10]", "y in [-2,3]"}, 1},  // y < 0: a negative index
      {"0 - -x == x", {"x in [1,10]"}, 0},
      {"0 - (-x) == x", {"x in [1,10]"}, 64},
      {"- x == (-x)", {"x in [1,10]"}, 1},
  };
  for (const auto& c : cases) {
    const ProveRun r = prove_assuming(c.claim, c.where, {});
    ++checked;
    EXPECT_EQ(r.rc, c.rc) << c.claim << "\n" << r.out << r.err;
  }
  // The model, with values written in: the same meanings.
  EXPECT_EQ(model_value("(4):(-3)(1)"), "-3");
  EXPECT_TRUE(model_refuses("(4):(-3)(-1)"));
  EXPECT_TRUE(model_refuses("0 - (-3)"));
  EXPECT_EQ(model_value("(-3)"), "(-3)");
  checked += 4;
}

// compose_mode_step takes the next stride before the stride divisibility check, which divides
// the same pair: the check is still a side condition. By hand, for A = (4,8):(1,5) and B = 2:x:
// x < 4 reaches mode 0 only (2:x, value x at 1); x = 4k skips mode 0 (2:5k, value 5k); x = 5,
// 6, 7 fail stride divisibility (x % 4 != 0 and x >= 4).
TEST(ProveSoundness, TheSharedDivisionKeepsTheDivisibilityCheck) {
  struct Case {
    std::string claim, where;
    int rc;
    std::string point;  // where a refutation must be, by Z3 itself
  };
  const std::vector<Case> cases = {
      {"composition((4,8):(1,5), 2:x)(1) == x + x/4", "x in [1,4]", 0, ""},
      {"composition((4,8):(1,5), 2:x)(1) == x + x/4", "x in [1,5]", 1, "x = 5"},  // refused at 5
      {"composition((4,8):(1,5), 2:x)(1) == x", "x in [1,4]", 1, "x = 4"},        // the false twin
      {"composition((4,8):(1,5), 2:(4*y))(1) == 5*y", "y in [1,1000000]", 0, ""},
      {"composition((4,8):(1,5), 2:(4*y))(1) == 4*y", "y in [1,1000000]", 1, ""},
  };
  for (const auto& c : cases) {
    const ProveRun r = prove_assuming(c.claim, {c.where}, {});
    ++checked;
    EXPECT_EQ(r.rc, c.rc) << c.claim << "\n" << r.out << r.err;
    EXPECT_EQ(r.out.find("found by the concrete replay"), std::string::npos) << c.claim << "\n" << r.out;
    if (!c.point.empty()) {
      EXPECT_NE(r.out.find(c.point), std::string::npos) << c.claim << "\n" << r.out;
    }
  }
  EXPECT_TRUE(model_refuses("composition((4,8):(1,5), 2:5)"));
  EXPECT_EQ(model_value("composition((4,8):(1,5), 2:8)"), "2:10");
  EXPECT_EQ(model_value("composition((4,8):(1,5), 2:3)"), "2:3");
  checked += 3;
}

TEST(ProveSoundness, Counted) {
  std::cout << "prove soundness: " << checked << " cases checked\n";
  EXPECT_GT(checked, 0u);
}

}  // namespace
