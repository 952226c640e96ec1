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

// Sum of arithmetic tuples (integers are rank-0 values that add to position 0 of
// nothing: a tuple plus an integer 0 is the tuple). Shorter tuples are zero-padded.
IntTuple arith_add(const IntTuple& a, const IntTuple& b) {
  if (a.is_integer() && b.is_integer()) return leaf_add(a, b);
  if (a.is_integer() && a.value() == 0) return b.is_tuple() ? b : b;
  if (b.is_integer() && b.value() == 0) return a;
  if (a.is_integer() || b.is_integer())
    throw Error("evaluation: cannot add integer offset " + (a.is_integer() ? a : b).to_string() +
                " to coordinate " + (a.is_integer() ? b : a).to_string() +
                " (mixed integer and scaled-basis strides)");
  std::vector<IntTuple> r;
  const std::size_t n = std::max(a.rank(), b.rank());
  for (std::size_t i = 0; i < n; ++i) {
    if (i >= a.rank()) r.push_back(b[i]);
    else if (i >= b.rank()) r.push_back(a[i]);
    else r.push_back(arith_add(a[i], b[i]));
  }
  return IntTuple::tuple(std::move(r));
}

IntTuple scale_stride(const IntTuple& c, const IntTuple& stride) {
  const bool st = c.is_static() && stride.is_static();
  const std::int64_t v = checked_mul(c.value(), stride.value());
  if (stride.is_basis()) return basis_value(v, st, stride.basis_path());
  return IntTuple::integer(v, st);
}

// crd2idx and idx2crd on a valid shape (checked once by the public functions, or a
// Layout's, whose constructor checked it).
IntTuple crd2idx_valid(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  if (coord.is_underscore()) throw Error("crd2idx: coordinate contains `_`; use slicing");
  if (coord.is_tuple()) {
    if (!shape.is_tuple())
      throw Error("crd2idx: tuple coordinate " + coord.to_string() + " for integer shape " + shape.to_string());
    if (coord.rank() != shape.rank())
      throw Error("crd2idx: coordinate " + coord.to_string() + " has rank " + std::to_string(coord.rank()) +
                  " but shape " + shape.to_string() + " has rank " + std::to_string(shape.rank()));
    IntTuple sum = IntTuple::static_int(0);
    for (std::size_t i = 0; i < coord.rank(); ++i) sum = arith_add(sum, crd2idx_valid(coord[i], shape[i], stride[i]));
    return sum;
  }
  if (!coord.is_integer()) throw Error("crd2idx: coordinate " + coord.to_string() + " is not an integer");
  if (!shape.is_tuple()) return scale_stride(coord, stride);
  const std::size_t r = shape.rank();
  if (r == 0) return IntTuple::static_int(0);
  IntTuple rest = coord;
  IntTuple sum = IntTuple::static_int(0);
  for (std::size_t i = 0; i + 1 < r; ++i) {
    const IntTuple m = product(shape[i]);
    const bool st = rest.is_static() && m.is_static();
    IntTuple mod = IntTuple::integer(rest.value() % m.value(), st);
    sum = arith_add(sum, crd2idx_valid(mod, shape[i], stride[i]));
    rest = IntTuple::integer(rest.value() / m.value(), st);
  }
  return arith_add(sum, crd2idx_valid(rest, shape[r - 1], stride[r - 1]));
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
  if (index < 0) throw Error("layout application: index " + std::to_string(index) + " is negative");
  return crd2idx_index(CheckedInt(index), l.shape(), l.stride()).v;
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
IntTuple fixed_offset(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  if (coord.is_underscore()) return IntTuple::static_int(0);
  if (!coord.is_tuple()) return crd2idx_valid(coord, shape, stride);
  IntTuple sum = IntTuple::static_int(0);
  for (std::size_t i = 0; i < coord.rank(); ++i) sum = arith_add(sum, fixed_offset(coord[i], shape[i], stride[i]));
  return sum;
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
