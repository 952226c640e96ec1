// A bound on the elements one evaluation of an expression may enumerate, summed over every
// operation it calls. Each operation that checks or compares element by element (==, a swizzle
// moved through a layout, the inverses of a composed layout, gmma_desc's canonical-form check,
// bank conflicts) already bounds its own domain (2^22); without a bound on their sum, one line
// of 1 MiB could call them thousands of times (100 calls of composition(2^22:1, Sw<3,4,3>) took
// 5.7 s). The evaluator (lang/notation.cpp, parse_and_evaluate) opens the budget; the model's
// C++ API used directly has none.
#pragma once

#include <cstdint>

namespace cuteref {

// The elements one evaluation may enumerate: 4 whole checks of the 2^22 bound (about 0.2 s).
inline constexpr std::int64_t kMaxEnumeratedPerEvaluation = std::int64_t{1} << 24;

// Opens the budget for this thread, unless one is open already (an evaluation nested inside
// another shares the outer one's budget); the budget closes with the scope that opened it.
class EnumerationBudgetScope {
 public:
  EnumerationBudgetScope();
  ~EnumerationBudgetScope();
  EnumerationBudgetScope(const EnumerationBudgetScope&) = delete;
  EnumerationBudgetScope& operator=(const EnumerationBudgetScope&) = delete;

 private:
  bool opened_;
};

// Takes n elements from the open budget before `operation` enumerates them.
// Throws Error naming the operation and the bound when fewer than n are left; does nothing
// when no budget is open.
void charge_enumeration(std::int64_t n, const char* operation);

// Whether the budget last opened on this thread was found spent (charge_enumeration threw).
// Then an Error out of that evaluation says it was too large to check, not that the model
// refuses its input: `prove` counts such a point as too large, never as a refutation or as a
// point where a hypothesis does not hold. Readable after the scope closed, until the next one
// opens. (A flag, not an Error subclass: operations that name their operands in a diagnostic
// throw a new Error with the old one's text.)
bool enumeration_budget_spent();

}  // namespace cuteref
