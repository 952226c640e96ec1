// The values of the symbolic evaluation of a claim (symbolic_evaluator.hpp): an integer, an
// integer tuple, a layout, a swizzle, a composed layout or a tiler whose leaves are symbolic
// scalars, or any other value of the model, concrete (`Model`). lift() and lower() convert
// from and to the model's Value where every leaf is concrete.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "composed_eval.hpp"
#include "error.hpp"
#include "layout_eval.hpp"
#include "swizzle.hpp"
#include "symbolic_f2.hpp"
#include "symbolic_layout.hpp"
#include "symbolic_scalar.hpp"
#include "value.hpp"

namespace cuteref::proofs {

// A claim the evaluator cannot state symbolically: the verdict is `unknown`.
struct Unsupported : Error {
  using Error::Error;
};

// ---- scalar helpers, for both the symbolic and the concrete (replay) evaluation ------

inline std::optional<std::int64_t> concrete_of(const CheckedInt& v) { return v.v; }
inline std::optional<std::int64_t> concrete_of(const SymInt& v) {
  if (v.lo == v.hi) return static_cast<std::int64_t>(v.lo);
  return std::nullopt;
}

template <class Scalar>
Scalar bit_or(const Scalar& a, const Scalar& b) {
  return (a ^ b) ^ (a & b);  // a | b from the scalar interface's & and ^
}

// ---- values ------------------------------------------------------------------------

// Which leaves of a tree are CuTe's static integers (written `_N`), congruent to the tree.
using StaticFlags = ScalarTuple<bool>;

template <class Scalar>
struct Val {
  enum class Kind { Int, Tuple, Layout, Swizzle, Composed, Tiler, Model } kind = Kind::Int;
  std::optional<Scalar> i;
  ScalarTuple<Scalar> t, stride;  // Tuple: t; Layout and Composed: t is the shape
  // The static flags of t and stride (Tuple, Layout, Composed), absent where the evaluation
  // does not track them (the result of an operation on symbolic values other than upcast and
  // downcast, or of the model on such a value); `int_static`: whether an Int is CuTe's `_N`,
  // absent where not tracked (a symbolic operation's result: the model's `size(_6:x)` is `_6`).
  // Absent is never read as dynamic: a function that reads the flags answers `unknown`.
  std::optional<StaticFlags> t_static, stride_static;
  std::optional<bool> int_static;
  int b = 0, m = 0, s = 0;        // Swizzle, Composed (not checked for legality: claims may be false)
  // Composed: the offset slot, an integer (`offset`) or an smem_ptr token (`pointer`), or neither.
  std::optional<Scalar> offset;
  std::optional<bool> offset_static;  // absent: not tracked, as int_static
  std::optional<ComposedOffset> pointer;
  std::optional<Value> model;     // anything else, concrete
  std::vector<Val> parts;         // Tiler: a tuple of layouts, integers and tuples, some symbolic
  bool grouped = false;           // an arithmetic expression (for `(a*b)` as a grouping)
};

// The flags of an IntTuple's leaves.
inline StaticFlags static_flags_of(const IntTuple& t) {
  if (!t.is_tuple()) return StaticFlags::of(t.is_static());
  std::vector<StaticFlags> e;
  for (const auto& x : t.elements()) e.push_back(static_flags_of(x));
  return StaticFlags::tuple(std::move(e));
}

// `flags`: the tree's static flags, or null (every leaf dynamic).
template <class Scalar>
std::optional<IntTuple> lower_tuple(const ScalarTuple<Scalar>& t, const StaticFlags* flags) {
  if (!t.is_tuple()) {
    auto c = concrete_of(*t.leaf);
    if (!c) return std::nullopt;
    return IntTuple::integer(*c, flags && *flags->leaf);
  }
  std::vector<IntTuple> e;
  for (std::size_t k = 0; k < t.elements.size(); ++k) {
    auto l = lower_tuple(t.elements[k], flags ? &(*flags)[k] : nullptr);
    if (!l) return std::nullopt;
    e.push_back(*l);
  }
  return IntTuple::tuple(std::move(e));
}

// Whether every static flag of v is known (a model value keeps its own).
template <class Scalar>
bool flags_tracked(const Val<Scalar>& v) {
  using K = typename Val<Scalar>::Kind;
  switch (v.kind) {
    case K::Int: return v.int_static.has_value();
    case K::Tuple: return v.t_static.has_value();
    case K::Layout: return v.t_static && v.stride_static;
    case K::Composed: return v.t_static && v.stride_static && (!v.offset || v.offset_static);
    case K::Tiler:
      for (const auto& part : v.parts)
        if (!flags_tracked(part)) return false;
      return true;
    case K::Swizzle:
    case K::Model: return true;
  }
  return false;
}

// The model's Value of a concrete Val (nullopt if some leaf is symbolic, or, `with_flags`, if
// a static flag is not tracked: flags are never invented). `with_flags`: static leaves print
// as `_N` (the model's value); without, every leaf is a run-time value (to compare values
// only).
template <class Scalar>
std::optional<Value> lower(const Val<Scalar>& v, bool with_flags = true) {
  using K = typename Val<Scalar>::Kind;
  if (with_flags && !flags_tracked(v)) return std::nullopt;
  auto flags = [&](const std::optional<StaticFlags>& f) { return with_flags && f ? &*f : nullptr; };
  switch (v.kind) {
    case K::Int: {
      auto c = concrete_of(*v.i);
      if (!c) return std::nullopt;
      return Value(IntTuple::integer(*c, with_flags && *v.int_static));
    }
    case K::Tuple: {
      auto t = lower_tuple(v.t, flags(v.t_static));
      if (!t) return std::nullopt;
      return Value(*t);
    }
    case K::Layout:
    case K::Composed: {
      auto sh = lower_tuple(v.t, flags(v.t_static)), st = lower_tuple(v.stride, flags(v.stride_static));
      if (!sh || !st) return std::nullopt;
      Layout l(*sh, *st);
      if (v.kind == K::Layout) return Value(std::move(l));
      std::optional<ComposedOffset> offset = v.pointer;
      if (v.offset) {
        auto c = concrete_of(*v.offset);
        if (!c) return std::nullopt;
        offset = ComposedOffset{IntTuple::integer(*c, with_flags && *v.offset_static), "", 0};
      }
      return Value(ComposedLayout{Swizzle(v.b, v.m, v.s), offset, std::move(l)});
    }
    case K::Swizzle: return Value(Swizzle(v.b, v.m, v.s));
    case K::Tiler: {
      std::vector<Value> values;
      for (const auto& part : v.parts) {
        auto l = lower(part, with_flags);
        if (!l) return std::nullopt;
        values.push_back(*l);
      }
      return make_tuple_value(std::move(values));
    }
    case K::Model: return *v.model;
  }
  return std::nullopt;
}

template <class Scalar>
Val<Scalar> lift(const Value& value) {
  using K = typename Val<Scalar>::Kind;
  Val<Scalar> v;
  if (value.is_int_tuple()) {
    const IntTuple& t = std::get<IntTuple>(value.data);
    if (t.is_integer()) {
      v.kind = K::Int;
      v.i = ScalarOps<Scalar>::constant(t.value());
      v.int_static = t.is_static();
      return v;
    }
    if (!t.has_basis() && !t.has_underscore() && t.is_tuple()) {
      v.kind = K::Tuple;
      v.t = to_scalar_tuple<Scalar>(t);
      v.t_static = static_flags_of(t);
      return v;
    }
  }
  const Layout* layout = value.is_layout() ? &std::get<Layout>(value.data)
                         : value.is_composed() ? &std::get<ComposedLayout>(value.data).layout : nullptr;
  if (layout && !layout->has_basis_strides()) {
    v.kind = value.is_layout() ? K::Layout : K::Composed;
    v.t = to_scalar_tuple<Scalar>(layout->shape());
    v.stride = to_scalar_tuple<Scalar>(layout->stride());
    v.t_static = static_flags_of(layout->shape());
    v.stride_static = static_flags_of(layout->stride());
    if (value.is_composed()) {
      const ComposedLayout& c = std::get<ComposedLayout>(value.data);
      v.b = c.swizzle.bits(), v.m = c.swizzle.base(), v.s = c.swizzle.shift();
      if (c.offset && c.offset->value) {
        v.offset = ScalarOps<Scalar>::constant(c.offset->value->value());
        v.offset_static = c.offset->value->is_static();
      } else {
        v.pointer = c.offset;
      }
    }
    return v;
  }
  if (value.is_swizzle()) {
    const Swizzle& sw = std::get<Swizzle>(value.data);
    v.kind = K::Swizzle;
    v.b = sw.bits(), v.m = sw.base(), v.s = sw.shift();
    return v;
  }
  v.kind = K::Model;
  v.model = value;
  return v;
}

// Layouts and composed layouts: compared as functions on [0, size).
template <class Scalar>
bool function_like(const Val<Scalar>& v) {
  using K = typename Val<Scalar>::Kind;
  return v.kind == K::Layout || v.kind == K::Composed ||
         (v.kind == K::Model && (v.model->is_composed() || v.model->is_f2_layout()));
}
template <class Scalar>
Scalar size_of(const Val<Scalar>& v) {
  using K = typename Val<Scalar>::Kind;
  if (v.kind == K::Layout || v.kind == K::Composed) return tuple_product<Scalar>(v.t);
  if (v.model->is_f2_layout()) return ScalarOps<Scalar>::constant(size_value(std::get<F2Layout>(v.model->data)));
  return tuple_product<Scalar>(std::get<ComposedLayout>(v.model->data).layout.shape());
}
// L(i), or C(i) = Sw(O + L(i)) by the model's composed_eval.hpp, or an F2 layout's F(i) by the
// model's f2_eval.hpp (SymInt only).
template <class Scalar>
Scalar value_at(const Val<Scalar>& v, const Scalar& i) {
  using K = typename Val<Scalar>::Kind;
  if (v.kind == K::Layout) return layout_apply_index(i, v.t, v.stride);
  if (v.kind == K::Composed)
    return composed_value_of_parts(Swizzle(v.b, v.m, v.s), v.offset, v.pointer ? v.pointer->pointer_element_bits : 0,
                                   v.t, v.stride, i);
  if (v.model->is_f2_layout()) return sym_f2_apply(std::get<F2Layout>(v.model->data), i);
  return composed_value(std::get<ComposedLayout>(v.model->data), i);
}

using SymVal = Val<SymInt>;

}  // namespace cuteref::proofs
