// The register handoffs proved for a symbolic (thread, value) index: register_permutation's
// claim for the instance, FROM(Z(x)) == Q(TO(x)) over x = t + T * v in [0, T * V), is proved by
// `cuteref prove`; the same claim with two of FROM's value strides exchanged is refuted, and the
// counterexample is an index where the two sides differ on the concrete model.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "atoms/register_permutation.hpp"
#include "coordinates.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "prove_run.hpp"

using namespace cuteref;
using cuteref::proofs::testing::ProveRun;
using cuteref::proofs::testing::prove;
using cuteref::proofs::testing::value_of;

namespace {

std::size_t g_cases = 0;

RegisterFragment fragment(const std::string& atom, MmaOperand op) {
  const Layout one = std::get<Layout>(parse_and_evaluate("(_1,_1,_1):(_0,_0,_0)", &standard_functions()).data);
  return mma_register_fragment(make_tiled_mma(mma_atom(atom), one), op, 0);
}

void check(const std::string& ss, const std::string& rs, RegisterMove expected) {
  const RegisterPermutation r = register_permutation(fragment(ss, MmaOperand::C), fragment(rs, MmaOperand::A));
  ASSERT_EQ(r.move, expected) << ss;
  ASSERT_FALSE(r.claim.empty()) << ss;
  const std::string where = "x in [0," + std::to_string(r.claim_domain - 1) + "]";
  const ProveRun p = prove(r.claim, {where});
  ++g_cases;
  EXPECT_EQ(p.rc, 0) << r.claim << "\n" << p.out << p.err;
  EXPECT_EQ(p.out.rfind("proved (", 0), 0u) << p.out;
  EXPECT_NE(p.out.find("x in [0, " + std::to_string(r.claim_domain - 1) + "]"), std::string::npos) << p.out;
  // Mutant: in FROM's layout (the claim's first), the row step (+8, stride _8) and the first
  // value's column step (_64) exchanged.
  std::string mutant = r.claim;
  const std::size_t at = mutant.find("(_64,_8,_512)");
  ASSERT_NE(at, std::string::npos) << r.claim;
  mutant.replace(at, 13, "(_8,_64,_512)");
  const ProveRun m = prove(mutant, {where});
  ++g_cases;
  ASSERT_EQ(m.rc, 1) << mutant << "\n" << m.out << m.err;
  // The counterexample: FROM's element differs from the mutant TO's at x (concrete model).
  const std::int64_t x = value_of(m.out, "x");
  std::string concrete;
  for (std::size_t i = 0; i < mutant.size(); ++i) {
    if (mutant.compare(i, 3, "(x)") == 0) {
      concrete += '(';
      concrete += std::to_string(x);
      concrete += ')';
      i += 2;
    } else {
      concrete += mutant[i];
    }
  }
  const std::size_t eq = concrete.find(" == ");
  const Value lhs = parse_and_evaluate(concrete.substr(0, eq), &standard_functions());
  const Value rhs = parse_and_evaluate(concrete.substr(eq + 4), &standard_functions());
  EXPECT_NE(lhs.to_string(), rhs.to_string()) << "x = " << x;
}

}  // namespace

// f16: identity (the claim is FROM(x) == TO(x)); fp8: relabel PI with the value permutation P.
TEST(ProveRegisterPermutation, Fa3Handoffs) {
  check("SM90_64x64x16_F32F16F16_SS", "SM90_64x64x16_F32F16F16_RS", RegisterMove::Identity);
  check("SM90_64x256x16_F32BF16BF16_SS", "SM90_64x256x16_F32BF16BF16_RS", RegisterMove::Identity);
  check("SM90_64x64x32_F32E4M3E4M3_SS_TN", "SM90_64x64x32_F32E4M3E4M3_RS_TN", RegisterMove::Relabel);
  check("SM90_64x256x32_F32E5M2E5M2_SS_TN", "SM90_64x256x32_F32E5M2E5M2_RS_TN", RegisterMove::Relabel);
}

TEST(ProveRegisterPermutation, CountsCases) {
  std::cout << "[ prove register_permutation ] " << g_cases << " claims checked\n";
  EXPECT_GT(g_cases, 0u);
}
