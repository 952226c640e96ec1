#include "enumeration_budget.hpp"

#include <string>

#include "error.hpp"

namespace cuteref {

namespace {
// Elements left to the open evaluation on this thread; -1 when none is open.
thread_local std::int64_t remaining = -1;
// Whether the budget last opened on this thread was found spent.
thread_local bool spent = false;
}  // namespace

EnumerationBudgetScope::EnumerationBudgetScope() : opened_(remaining < 0) {
  if (opened_) {
    remaining = kMaxEnumeratedPerEvaluation;
    spent = false;
  }
}

EnumerationBudgetScope::~EnumerationBudgetScope() {
  if (opened_) remaining = -1;
}

void charge_enumeration(std::int64_t n, const char* operation) {
  if (remaining < 0) return;
  if (n > remaining) {
    spent = true;
    throw Error(std::string(operation) + ": enumerating " + std::to_string(n) + " more elements would pass the " +
                std::to_string(kMaxEnumeratedPerEvaluation) + " elements one expression may enumerate in all (" +
                std::to_string(kMaxEnumeratedPerEvaluation - remaining) + " used by its earlier operations)");
  }
  remaining -= n;
}

bool enumeration_budget_spent() { return spent; }

}  // namespace cuteref
