// What the fuzz target found (fuzz/regressions/ holds the inputs; fuzz_replay replays them),
// each with the behaviour the fix gives, derived by hand from the contract it broke.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "claim.hpp"
#include "corpus_runner.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"

namespace cuteref {
namespace {

CorpusSummary run_text(const std::string& text, std::string& out) {
  std::istringstream in(text);
  std::ostringstream log;
  CorpusSummary sum;
  run_corpus_stream(in, "case", log, false, sum);
  out = log.str();
  return sum;
}

// A case whose own value agrees but whose claimed text the model rejects (`*` is no
// integer) was counted both passed and failed (1 case, 1 passed, 1 failed). It is one case
// and it fails, naming the claimed text as the culprit.
TEST(FuzzFindings, CorpusCaseWithMalformedClaimFailsOnce) {
  std::string out;
  const CorpusSummary sum = run_text("size(8:1) => 8 | claimed: Sw<3,4,*>\n", out);
  EXPECT_EQ(sum.cases, 1);
  EXPECT_EQ(sum.passed, 0);
  EXPECT_EQ(sum.failed, 1);
  EXPECT_EQ(sum.claims_agree + sum.claims_refuted, 0);
  EXPECT_NE(out.find("case:1: FAIL size(8:1): error: the claimed value: column"), std::string::npos) << out;
}

// The same case with a well-formed claim still counts one pass and one refuted claim.
TEST(FuzzFindings, CorpusCaseWithWrongClaimPassesAndRefutes) {
  std::string out;
  const CorpusSummary sum = run_text("size(8:1) => 8 | claimed: 9\n", out);
  EXPECT_EQ(sum.cases, 1);
  EXPECT_EQ(sum.passed, 1);
  EXPECT_EQ(sum.failed, 0);
  EXPECT_EQ(sum.claims_refuted, 1);
}

struct ProveRun {
  int rc;
  std::string out, err;
};

ProveRun prove(const std::string& claim) {
  proofs::ProveRequest request;
  request.claim = claim;
  std::ostringstream out, err;
  const int rc = proofs::prove_command(request, out, err);
  return {rc, out.str(), err.str()};
}

// A call with too few arguments on a side with variables reached the function table
// unchecked: upcast(L) read a second argument that is not there (an uncaught
// std::out_of_range killed `cuteref prove`), a call without arguments bound a null
// reference. The claim parser checks the arity as the model's parser does: a usage error (64).
TEST(FuzzFindings, ClaimCallArityIsChecked) {
  const ProveRun missing = prove("size(upcast((2,1):(1,2))) + x == x");
  EXPECT_EQ(missing.rc, proofs::kProveUsage);
  EXPECT_NE(missing.err.find("upcast: wrong number of arguments: got 1"), std::string::npos)
      << missing.err;
  const ProveRun none = prove("size(coalesce()) + x == x");
  EXPECT_EQ(none.rc, proofs::kProveUsage);
  EXPECT_NE(none.err.find("coalesce: wrong number of arguments: got 0"), std::string::npos) << none.err;
  EXPECT_THROW(proofs::evaluate_claim_concretely("size(upcast((2,1):(1,2))) + x == x", {}, false), Error);
}

// The parser's internal `__apply__` is no function of the claim language, as in EXPR (one
// parser reads both: "unknown function"); the claim called it (and proved this).
TEST(FuzzFindings, ClaimRefusesInternalFunctions) {
  const ProveRun r = prove("__apply__(8:1, 3) + x == 3 + x");
  EXPECT_EQ(r.rc, proofs::kProveUsage);
  EXPECT_NE(r.err.find("column 1: unknown function '__apply__'"), std::string::npos) << r.err << r.out;
}

}  // namespace
}  // namespace cuteref

namespace cuteref {
namespace {

// gmma_desc's diagnostic printed a row distance of (2^63 - 1) / 8 16-byte units as bytes,
// multiplying by 16 past int64 (UBSan: signed overflow), for a claim whose variable stood in a
// stride at its upper bound. The distance too large for bytes is given in 16-byte units:
// 16-bit elements are 8 to a unit, floor((2^63 - 1) / 8) = 1152921504606846975.
TEST(FuzzFindings, GmmaDescDiagnosticDoesNotOverflow) {
  try {
    parse_and_evaluate("gmma_desc(((8,8),(8,2)):((9223372036854775807,641),(1,512512)), 16)", &standard_functions());
    ADD_FAILURE() << "gmma_desc accepted a row 2^63 - 1 elements apart";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("consecutive rows of a core matrix are 1152921504606846975 16-byte units apart"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cuteref
