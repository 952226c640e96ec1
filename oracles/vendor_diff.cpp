// vendor_diff: compares the model with a vendor oracle's answers, as functions.
//
// Reads one case per stdin line, tab-separated:
//   EXPR  VENDOR_TEXT  VENDOR_SIZE  VENDOR_HASH  CHECK_RANK
// EXPR is evaluated by the model (the same expression language as `cuteref batch`).
// VENDOR_TEXT is what the vendor printed for its result (for diagnostics, the rank check
// and integer results). VENDOR_SIZE and VENDOR_HASH describe the vendor's result as a
// function, computed by the vendor itself (CuTe C++ or pycute): its size and the FNV-1a
// hash (value_hash.hpp) of its values at 0, 1, ..., size-1. VENDOR_SIZE = -1 marks an
// integer result (max_common_vector), compared with VENDOR_TEXT. CHECK_RANK = 1 also
// compares the top-level rank of the two results (CuTe C++ promises it; pycute drops modes).
//
// Writes one line per case: `same` (equal functions and identical printout), `equal`
// (equal functions, different printout), `rejected\tDIAGNOSTIC` (the model refuses the
// input, or to evaluate its result) or `DIFF\tMODEL_RESULT\tWHAT`. The driver (differential.py) tallies them.
// Pre: every vendor result is a function of an integer index with integer values.
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "error.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "value_hash.hpp"

namespace {

using namespace cuteref;

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, '\t')) out.push_back(field);
  return out;
}

// Drops the blanks after commas so that pycute's "(4, 2):(1, 4)" and CuTe's "(4,2):(1,4)"
// read alike; the blanks around a composed layout's `o` stay (`S<3,4,3> o 0 o 8:1`).
std::string without_blanks(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!(c == ' ' && !out.empty() && out.back() == ',')) out.push_back(c);
  return out;
}

// The top-level rank of a layout-like value (the inner layout's for a composed layout).
std::size_t top_rank(const Value& v) {
  if (v.is_layout()) return std::get<Layout>(v.data).shape().rank();
  if (v.is_composed()) return std::get<ComposedLayout>(v.data).layout.shape().rank();
  throw Error("not a layout");
}

std::string compare_case(const std::vector<std::string>& f) {
  const FunctionTable* table = &standard_functions();
  const std::string& expr = f[0];
  const std::string vendor_text = without_blanks(f[1]);
  const std::int64_t vendor_size = std::stoll(f[2]);
  const std::uint64_t vendor_hash = std::stoull(f[3]);
  const bool check_rank = f[4] == "1";

  Value model = Value(IntTuple::static_int(0));
  try {
    model = parse_and_evaluate(expr, table);
  } catch (const Error& e) {
    return std::string("rejected\t") + e.what();
  }
  const std::string model_text = model.to_string();

  if (vendor_size < 0) {  // an integer result
    if (!model.is_int_tuple() || !std::get<IntTuple>(model.data).is_integer())
      return "DIFF\t" + model_text + "\tmodel gives " + model_text + ", vendor the integer " + vendor_text;
    std::string digits = vendor_text;
    if (!digits.empty() && digits[0] == '_') digits.erase(0, 1);
    if (std::get<IntTuple>(model.data).value() != std::stoll(digits))
      return "DIFF\t" + model_text + "\tmodel gives " + model_text + ", vendor " + vendor_text;
    return model_text == vendor_text ? "same" : "equal";
  }

  if (!model.is_layout() && !model.is_composed())
    return "DIFF\t" + model_text + "\tmodel gives " + model.kind_name() + " " + model_text + ", vendor the layout " + vendor_text;
  const std::int64_t size = layout_like_size(model);
  if (size != vendor_size)
    return "DIFF\t" + model_text + "\tsizes differ: model " + model_text + " has size " + std::to_string(size) + ", vendor " +
           vendor_text + " has size " + std::to_string(vendor_size);
  ValueHash hash;
  for (std::int64_t i = 0; i < size; ++i) {
    IntTuple value = IntTuple::static_int(0);
    try {
      value = evaluate_at(model, i);
    } catch (const Error& e) {  // the model refuses to evaluate its own result there
      return "rejected\tevaluating " + model_text + " at " + std::to_string(i) + ": " + e.what();
    }
    if (!value.is_integer()) return "DIFF\t" + model_text + "\tmodel value at " + std::to_string(i) + " is not an integer";
    hash.add(value.value());
  }
  if (hash.digest() != vendor_hash) {
    // Name the first index where they differ, through the model's reading of the printout.
    std::string where;
    try {
      const Value verdict = parse_and_evaluate(model_text + " == " + vendor_text, table);
      where = verdict.to_string();
    } catch (const Error& e) {
      where = std::string("(vendor printout unreadable: ") + e.what() + ")";
    }
    return "DIFF\t" + model_text + "\tvalues differ: model " + model_text + ", vendor " + vendor_text + "; " + where;
  }
  if (check_rank) {
    try {
      const Value vendor = parse_and_evaluate(vendor_text, nullptr);
      if (top_rank(vendor) != top_rank(model))
        return "DIFF\t" + model_text + "\trank differs: model " + model_text + ", vendor " + vendor_text;
    } catch (const Error& e) {
      return "DIFF\t" + model_text + "\tvendor printout unreadable for the rank check: " + e.what();
    }
  }
  return model_text == vendor_text ? "same" : "equal";
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    const std::vector<std::string> fields = split_tabs(line);
    if (fields.size() != 5) {
      std::cout << "DIFF\t?\tmalformed input line (" << fields.size() << " fields): " << line << '\n';
      continue;
    }
    try {
      std::cout << compare_case(fields) << '\n';
    } catch (const std::exception& e) {
      std::cout << "DIFF\t?\tcomparison failed: " << e.what() << '\n';
    }
  }
  return 0;
}
