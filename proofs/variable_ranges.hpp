// `--where 'v in [lo,hi]'`: the range of each variable of a claim.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cuteref::proofs {

// A variable's range; by default every non-negative int64.
struct VariableRange {
  std::int64_t lo = 0, hi = INT64_MAX;
};

// Each text "v in [lo,hi]": blanks allowed around the tokens (at least one after v and after
// `in`), v a lower-case name, lo and hi 64-bit decimal integers with lo <= hi, one per
// variable. Throws Error naming the text, the column and what was expected.
std::map<std::string, VariableRange> parse_where(const std::vector<std::string>& where);

}  // namespace cuteref::proofs
