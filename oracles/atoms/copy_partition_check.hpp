// compare_atoms' check of a `copy_partition` line of dump_tiled_copy:
//   copy_partition  S|D  TILED_COPY  THREAD  TENSOR  LAYOUT  OFFSET  ADDRESSES
// CuTe's thread THREAD partition_S/D of TENSOR: the layout it prints, the pointer offset, and the
// element offset of every value (for a swizzled GMMA tensor CuTe keeps the swizzle in the
// pointer: the printed layout and offset are the inner layout's, the addresses swizzled).
// Returns "" on agreement, else what differs.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "atoms/tiled_copy.hpp"
#include "coordinates.hpp"
#include "equality.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "notation.hpp"

namespace cuteref::vendor_check {

inline std::string check_copy_partition(const std::vector<std::string>& f) {
  const std::vector<Value> tc_arg{parse_and_evaluate(f[2], &standard_functions())};
  const TiledCopy tc = tiled_copy_arg(tc_arg, 0, "copy_partition");
  const std::int64_t thread = std::stoll(f[3]);
  const Value tensor = parse_and_evaluate(f[4], &standard_functions());
  const bool source = f[1] == "S";
  const Layout inner = tensor.is_composed() ? std::get<ComposedLayout>(tensor.data).layout : std::get<Layout>(tensor.data);
  const Partition p = source ? partition_S(tc, thread, inner) : partition_D(tc, thread, inner);
  const Layout want = parse_layout(f[5]);
  const Verdict v = functional_equal(Value(p.layout), Value(want));
  if (!v.holds) return "layout: model " + p.layout.to_string() + " vs CuTe " + f[5] + ": " + v.reason;
  if (!p.layout.shape().same_values(want.shape()))
    return "same function, different shape: model " + p.layout.to_string() + " vs CuTe " + f[5];
  if (p.offset != std::stoll(f[6])) return "offset: model " + std::to_string(p.offset) + " vs CuTe " + f[6];
  std::vector<std::int64_t> got;
  if (tensor.is_composed()) {
    const ComposedLayout c = source ? partition_S(tc, thread, std::get<ComposedLayout>(tensor.data))
                                    : partition_D(tc, thread, std::get<ComposedLayout>(tensor.data));
    for (std::int64_t i = 0; i < size_value(c.layout); ++i) got.push_back(apply_composed(c, i));
  } else {
    for (std::int64_t i = 0; i < size_value(p.layout); ++i) got.push_back(p.offset + apply_index(p.layout, i));
  }
  std::istringstream list(f[7]);
  std::string item;
  std::size_t i = 0;
  while (std::getline(list, item, ',')) {
    if (i >= got.size()) return "CuTe lists more values than the model's " + std::to_string(got.size());
    if (got[i] != std::stoll(item))
      return "value " + std::to_string(i) + " at element " + std::to_string(got[i]) + ", CuTe " + item;
    ++i;
  }
  if (i != got.size()) return "CuTe lists " + std::to_string(i) + " values, the model " + std::to_string(got.size());
  return "";
}

}  // namespace cuteref::vendor_check
