// Bookkeeping of the property suite: per law, how many random cases passed, how large the
// exhaustive universe was, and which broken variants (mutants) the law caught. Printed as a
// table when the suite ends; a law that ran with zero cases, or a mutant that escaped, fails
// the suite (a suite that checks nothing must not pass).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace cuteref::props {

// A law's verdict on one input: nullopt when it holds, else what failed (with values).
using Violation = std::optional<std::string>;

// One random case of `law` passed (call at the end of a property body).
void count_random(const std::string& law);
// The exhaustive check of `law` covered `cases` inputs of a universe described by `universe`.
void count_exhaustive(const std::string& law, const std::string& universe, std::int64_t cases);
// A mutant of `law` was caught with the given (shrunk) counterexample.
void record_mutant(const std::string& law, const std::string& mutant, bool caught, const std::string& counterexample);

// Runs `property` (a RapidCheck property body that RC_FAILs when the law is violated) for the
// broken variant `mutant`, expects RapidCheck to find and shrink a counterexample, prints it,
// and records the catch. A GoogleTest failure if the mutant survives.
void expect_mutant_caught(const std::string& law, const std::string& mutant, const std::function<void()>& property);

// Fails the current RapidCheck case with the violation's text.
inline void rc_require(const Violation& v) {
  if (v) RC_FAIL(*v);
}

}  // namespace cuteref::props
