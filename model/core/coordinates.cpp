#include "coordinates.hpp"

#include <algorithm>

#include "checked_math.hpp"
#include "error.hpp"
#include "layout_eval.hpp"
#include "shape_check.hpp"

namespace cuteref {

namespace {

// Arithmetic-tuple value of a scaled basis `v@...` times `c`: a nested tuple with the
// value at the basis position, zeros (static) elsewhere.
IntTuple basis_value(std::int64_t v, bool is_static, const std::vector<int>& printed_path) {
  IntTuple t = IntTuple::integer(v, is_static);
  // printed order is innermost first: wrap from inside out.
  for (int d : printed_path) {
    std::vector<IntTuple> elems(static_cast<std::size_t>(d) + 1, IntTuple::static_int(0));
    elems[static_cast<std::size_t>(d)] = t;
    t = IntTuple::tuple(std::move(elems));
  }
  return t;
}

// Sums of arithmetic tuples (integers are rank-0 values that add to position 0 of nothing: a
// tuple plus an integer 0 is the tuple; shorter tuples are zero-padded), built in place:
// adding a scaled basis v@d0@d1... touches only its path, instead of first building its
// value, a tuple of d+1 elements per level (make_identity_layout of a shape with 120 modes of
// 4,096 leaves took 15 s to evaluate at one index). The rules, term by term in the same
// order, are those of the sum of values:
//   int + int = the integer sum (static iff both are); 0 + b = b; a + 0 = a;
//   a non-zero integer + a tuple is an error; tuple + tuple adds elementwise.
struct ArithNode {
  bool is_tuple = false;
  IntTuple leaf = IntTuple::static_int(0);  // the integer, when !is_tuple
  std::vector<ArithNode> elems;
};

IntTuple to_int_tuple(const ArithNode& n) {
  if (!n.is_tuple) return n.leaf;
  std::vector<IntTuple> e;
  e.reserve(n.elems.size());
  for (const auto& x : n.elems) e.push_back(to_int_tuple(x));
  return IntTuple::tuple(std::move(e));
}

[[noreturn]] void mixed_sum(const IntTuple& integer, const IntTuple& coordinate) {
  throw Error("evaluation: cannot add integer offset " + integer.to_string() + " to coordinate " +
              coordinate.to_string() + " (mixed integer and scaled-basis strides)");
}

// sum += b.
void add_node(ArithNode& sum, ArithNode&& b) {
  if (!sum.is_tuple && !b.is_tuple) {
    sum.leaf = leaf_add(sum.leaf, b.leaf);
    return;
  }
  if (!sum.is_tuple && sum.leaf.value() == 0) {
    sum = std::move(b);
    return;
  }
  if (!b.is_tuple && b.leaf.value() == 0) return;
  if (!sum.is_tuple) mixed_sum(sum.leaf, to_int_tuple(b));
  if (!b.is_tuple) mixed_sum(b.leaf, to_int_tuple(sum));
  const std::size_t common = std::min(sum.elems.size(), b.elems.size());
  for (std::size_t i = 0; i < common; ++i) add_node(sum.elems[i], std::move(b.elems[i]));
  for (std::size_t i = common; i < b.elems.size(); ++i) sum.elems.push_back(std::move(b.elems[i]));
}

// sum += basis_value(v, is_static, path[0 .. levels)) (path in printed order: the outermost
// index last), without building it.
void add_basis(ArithNode& sum, std::int64_t v, bool is_static, const std::vector<int>& path, std::size_t levels) {
  if (levels == 0) {
    ArithNode leaf;
    leaf.leaf = IntTuple::integer(v, is_static);
    add_node(sum, std::move(leaf));
    return;
  }
  const auto d = static_cast<std::size_t>(path[levels - 1]);
  if (!sum.is_tuple) {
    if (sum.leaf.value() != 0)
      mixed_sum(sum.leaf, basis_value(v, is_static, std::vector<int>(path.begin(), path.begin() + levels)));
    sum.is_tuple = true;  // 0 + b = b: b's elements before position d are static zeros
  }
  if (sum.elems.size() < d + 1) sum.elems.resize(d + 1);  // padding: static zeros, as b's
  add_basis(sum.elems[d], v, is_static, path, levels - 1);
}

// sum += crd2idx(c, shape, stride) for a leaf shape: c times the stride leaf.
void add_scaled(ArithNode& sum, const IntTuple& c, const IntTuple& stride) {
  const bool st = c.is_static() && stride.is_static();
  const std::int64_t v = checked_mul(c.value(), stride.value());
  if (stride.is_basis()) {
    add_basis(sum, v, st, stride.basis_path(), stride.basis_path().size());
    return;
  }
  ArithNode leaf;
  leaf.leaf = IntTuple::integer(v, st);
  add_node(sum, std::move(leaf));
}

ArithNode crd2idx_node(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride);

// sum += crd2idx(coord, shape, stride), where the value of a tuple mode is its own sum.
void add_crd2idx(ArithNode& sum, const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  if (coord.is_integer() && !shape.is_tuple()) add_scaled(sum, coord, stride);
  else add_node(sum, crd2idx_node(coord, shape, stride));
}

// crd2idx and idx2crd on a valid shape (checked once by the public functions, or a
// Layout's, whose constructor checked it).
ArithNode crd2idx_node(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  if (coord.is_underscore()) throw Error("crd2idx: coordinate contains `_`; use slicing");
  ArithNode sum;  // static 0
  if (coord.is_tuple()) {
    if (!shape.is_tuple())
      throw Error("crd2idx: tuple coordinate " + coord.to_string() + " for integer shape " + shape.to_string());
    if (coord.rank() != shape.rank())
      throw Error("crd2idx: coordinate " + coord.to_string() + " has rank " + std::to_string(coord.rank()) +
                  " but shape " + shape.to_string() + " has rank " + std::to_string(shape.rank()));
    for (std::size_t i = 0; i < coord.rank(); ++i) add_crd2idx(sum, coord[i], shape[i], stride[i]);
    return sum;
  }
  if (!coord.is_integer()) throw Error("crd2idx: coordinate " + coord.to_string() + " is not an integer");
  if (!shape.is_tuple()) {
    add_scaled(sum, coord, stride);
    return sum;
  }
  const std::size_t r = shape.rank();
  if (r == 0) return sum;
  IntTuple rest = coord;
  for (std::size_t i = 0; i + 1 < r; ++i) {
    const IntTuple m = product(shape[i]);
    const bool st = rest.is_static() && m.is_static();
    IntTuple mod = IntTuple::integer(rest.value() % m.value(), st);
    add_crd2idx(sum, mod, shape[i], stride[i]);
    rest = IntTuple::integer(rest.value() / m.value(), st);
  }
  add_crd2idx(sum, rest, shape[r - 1], stride[r - 1]);
  return sum;
}

IntTuple crd2idx_valid(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  return to_int_tuple(crd2idx_node(coord, shape, stride));
}

IntTuple idx2crd_valid(const IntTuple& index, const IntTuple& shape) {
  if (index.is_tuple()) {
    if (!shape.is_tuple())
      throw Error("idx2crd: tuple index " + index.to_string() + " for integer shape " + shape.to_string());
    if (index.rank() != shape.rank())
      throw Error("idx2crd: index " + index.to_string() + " has rank " + std::to_string(index.rank()) +
                  " but shape " + shape.to_string() + " has rank " + std::to_string(shape.rank()));
    std::vector<IntTuple> r;
    for (std::size_t i = 0; i < index.rank(); ++i) r.push_back(idx2crd_valid(index[i], shape[i]));
    return IntTuple::tuple(std::move(r));
  }
  if (!index.is_integer()) throw Error("idx2crd: index " + index.to_string() + " is not an integer");
  if (!shape.is_tuple()) return index;
  std::vector<IntTuple> r;
  IntTuple rest = index;
  for (std::size_t i = 0; i < shape.rank(); ++i) {
    if (i + 1 == shape.rank()) {
      r.push_back(idx2crd_valid(rest, shape[i]));
      break;
    }
    const IntTuple m = product(shape[i]);
    const bool st = rest.is_static() && m.is_static();
    r.push_back(idx2crd_valid(IntTuple::integer(rest.value() % m.value(), st), shape[i]));
    rest = IntTuple::integer(rest.value() / m.value(), st);
  }
  return IntTuple::tuple(std::move(r));
}

}  // namespace

IntTuple crd2idx(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  require_shape(shape, "crd2idx");
  if (!congruent(shape, stride))
    throw Error("crd2idx: stride " + stride.to_string() + " is not congruent with shape " + shape.to_string());
  return crd2idx_valid(coord, shape, stride);
}

IntTuple idx2crd(const IntTuple& index, const IntTuple& shape) {
  require_shape(shape, "idx2crd");
  return idx2crd_valid(index, shape);
}

IntTuple apply(const Layout& l, const IntTuple& coord) {
  if (coord.is_integer() && coord.value() < 0)
    throw Error("layout application: index " + coord.to_string() + " is negative");
  return crd2idx_valid(coord, l.shape(), l.stride());
}

std::int64_t apply_index(const Layout& l, std::int64_t index) {
  return layout_apply_index(CheckedInt(index), l.shape(), l.stride()).v;
}

namespace {

// CuTe's slice on one tuple level: returns the kept elements to splice into the parent.
void slice_into(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride,
                std::vector<IntTuple>& out_shape, std::vector<IntTuple>& out_stride) {
  if (coord.is_underscore()) {
    out_shape.push_back(shape);
    out_stride.push_back(stride);
    return;
  }
  if (!coord.is_tuple()) return;
  if (!shape.is_tuple() || coord.rank() != shape.rank())
    throw Error("slice: coordinate " + coord.to_string() + " does not match the rank of shape " + shape.to_string());
  for (std::size_t i = 0; i < coord.rank(); ++i) slice_into(coord[i], shape[i], stride[i], out_shape, out_stride);
}

// The offset of the fixed part: crd2idx with `_` treated as 0.
ArithNode fixed_offset_node(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  if (coord.is_underscore()) return ArithNode{};
  if (!coord.is_tuple()) return crd2idx_node(coord, shape, stride);
  ArithNode sum;
  for (std::size_t i = 0; i < coord.rank(); ++i) add_node(sum, fixed_offset_node(coord[i], shape[i], stride[i]));
  return sum;
}

IntTuple fixed_offset(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  return to_int_tuple(fixed_offset_node(coord, shape, stride));
}

}  // namespace

std::pair<Layout, IntTuple> slice_and_offset(const IntTuple& coord, const Layout& l) {
  if (coord.is_tuple() && (!l.shape().is_tuple() || coord.rank() != l.shape().rank()))
    throw Error("slice: coordinate " + coord.to_string() + " has rank " + std::to_string(coord.rank()) +
                " but layout " + l.to_string() + " has rank " + std::to_string(rank(l)));
  if (coord.is_underscore()) return {l, IntTuple::static_int(0)};
  if (!coord.is_tuple()) return {Layout(IntTuple(), IntTuple()), fixed_offset(coord, l.shape(), l.stride())};
  // Slice first: it checks the coordinate's profile against the shape with a clear message.
  std::vector<IntTuple> shape, stride;
  slice_into(coord, l.shape(), l.stride(), shape, stride);
  IntTuple offset = fixed_offset(coord, l.shape(), l.stride());
  return {Layout(IntTuple::tuple(std::move(shape)), IntTuple::tuple(std::move(stride))), offset};
}

Layout slice(const IntTuple& coord, const Layout& l) { return slice_and_offset(coord, l).first; }

}  // namespace cuteref
