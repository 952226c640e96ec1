#include "symbolic_f2.hpp"

#include <string>
#include <vector>

#include "f2_eval.hpp"

namespace cuteref::proofs {

SymInt sym_f2_apply(const F2Layout& l, const SymInt& index) {
  using Ops = ScalarOps<SymInt>;
  std::vector<SymInt> shapes, strides;
  for (const F2Mode& m : flat_modes(l)) {
    shapes.push_back(Ops::constant(m.shape));
    strides.push_back(Ops::constant(m.stride));
  }
  return f2_value_at<SymInt>(
      shapes, strides, index, [] { return std::string("F2 layout application: the index is negative"); },
      [](const SymInt&, const SymInt&) { return std::string("F2 layout application: a carry-less product overflows 63 bits"); });
}

SymInt sym_f2_size(const F2Layout& l) { return ScalarOps<SymInt>::constant(size_value(l)); }

}  // namespace cuteref::proofs
