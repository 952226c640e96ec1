#include "symbolic_typed_inverse.hpp"

#include <vector>

#include "typed_inverse_generic.hpp"

namespace cuteref::proofs {

SymFlaggedLayout sym_right_inverse_typed(const SymFlaggedLayout& l) {
  std::vector<SymFlaggedTuple> shape_leaves, stride_leaves;
  flatten_leaves(l.shape, shape_leaves);
  flatten_leaves(l.stride, stride_leaves);
  std::vector<SymFlagged> shapes, strides;
  for (std::size_t k = 0; k < shape_leaves.size(); ++k) {
    shapes.push_back(*shape_leaves[k].leaf);
    strides.push_back(*stride_leaves[k].leaf);
  }
  std::vector<SymFlagged> out_shapes, out_strides;
  typed_right_inverse_modes<FlaggedLeaf<SymInt>>(shapes, strides, out_shapes, out_strides);
  if (out_shapes.size() == 1) return {SymFlaggedTuple::of(out_shapes[0]), SymFlaggedTuple::of(out_strides[0])};
  SymFlaggedLayout r{SymFlaggedTuple{}, SymFlaggedTuple{}};
  for (std::size_t k = 0; k < out_shapes.size(); ++k) {
    r.shape.elements.push_back(SymFlaggedTuple::of(out_shapes[k]));
    r.stride.elements.push_back(SymFlaggedTuple::of(out_strides[k]));
  }
  return r;
}

}  // namespace cuteref::proofs
