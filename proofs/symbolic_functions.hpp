// The symbolic forms of the expression language's functions: for each function of the model's
// table (lang/function_table.hpp) whose model code is generic over the scalar, the same
// template instantiated with SymInt, with the same precondition checks (each a side condition
// of the proof). Registered once, by the function's name in that table; a function without a
// symbolic form is evaluated on the concrete model wherever its arguments are concrete
// (symbolic_evaluator.cpp), and is `unknown` otherwise.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "symbolic_value.hpp"

namespace cuteref::proofs {

struct SymbolicFunction {
  std::string forms;  // the argument forms covered, e.g. "coalesce(L)" (for --help and `unknown`)
  // The result, or nullopt where the arguments are not of a covered form. Throws Unsupported
  // where a covered form cannot be decided symbolically, Error where the model rejects it.
  std::function<std::optional<SymVal>(const std::vector<SymVal>&)> call;
};

// By name; every name is a function of standard_functions() (checked when the table is built).
const std::map<std::string, SymbolicFunction>& symbolic_functions();

}  // namespace cuteref::proofs
