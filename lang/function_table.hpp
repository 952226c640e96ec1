// The table of named functions of the expression language (`coalesce`, `size`, ...).
// Each module of the model registers its own functions; the CLI, the corpus runner and
// the vendor harness evaluate expressions through the same table.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "value.hpp"

namespace cuteref {

struct FunctionSpec {
  std::size_t min_args;
  std::size_t max_args;  // SIZE_MAX for variadic
  std::string signature;  // for diagnostics and --help, e.g. "coalesce(L [, profile])"
  std::function<Value(const std::vector<Value>&)> call;
};

class FunctionTable {
 public:
  void add(const std::string& name, FunctionSpec spec) { functions_[name] = std::move(spec); }
  const FunctionSpec* find(std::string_view name) const {
    auto it = functions_.find(name);
    return it == functions_.end() ? nullptr : &it->second;
  }
  const std::map<std::string, FunctionSpec, std::less<>>& all() const { return functions_; }

 private:
  std::map<std::string, FunctionSpec, std::less<>> functions_;  // std::less<>: found by a string_view
};

// Argument conversion helpers: throw Error naming the function, the argument position
// (1-based) and what was given.
const Layout& layout_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn);
const IntTuple& int_tuple_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn);
std::int64_t integer_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn);
// A bare-word argument (an atom name or an enum word: a Symbol); `wanted` says what it must be.
const std::string& symbol_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn, const std::string& wanted);
// An integer argument that must be a non-negative mode index or count.
std::size_t index_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn);

// The table with every function of the model.
const FunctionTable& standard_functions();

// Registration entry points, one per module (see function_table.cpp).
void register_layout_functions(FunctionTable& table);
void register_basis_functions(FunctionTable& table);
void register_atom_functions(FunctionTable& table);
void register_copy_functions(FunctionTable& table);
void register_algebra_functions(FunctionTable& table);
void register_divide_product_functions(FunctionTable& table);
void register_synthesis_functions(FunctionTable& table);
void register_pycute_functions(FunctionTable& table);
// Registered last: it adds the F2 case to functions the others registered (f2_functions.cpp).
void register_f2_functions(FunctionTable& table);

// The arguments of swizzle_for / register_permutation, evaluated (for `cuteref synth`).
struct SwizzleSynthesis;
struct RegisterPermutation;
SwizzleSynthesis swizzle_for_args(const std::vector<Value>& args, const std::string& fn);
RegisterPermutation register_permutation_args(const std::vector<Value>& args, const std::string& fn);

}  // namespace cuteref
