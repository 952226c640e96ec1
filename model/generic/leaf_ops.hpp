// The leaf arithmetic of the algebra's decisions (coalesce, complement, composition, the
// inverses), written once over a leaf policy, so that the model's leaves (CheckedInt values
// with CuTe's static flags) and the proofs' (SymInt terms) run the same template.
//
// A leaf policy P says how a leaf holds its value:
//   using Leaf, Scalar;                      Scalar has ScalarOps<Scalar> (scalar.hpp);
//   static Scalar value(const Leaf&);
//   static Leaf make(Scalar v, const Leaf& a, const Leaf& b)   a result of a and b (the model:
//                                             static iff both are);
//   static Leaf make(Scalar v, const Leaf& a)                   a result of a alone;
//   static Leaf constant(std::int64_t v)     a constant leaf (the model: static);
//   static std::string operand(const Leaf&)  " <the leaf>" for a diagnostic, or "" where a
//                                             leaf is not printed (a symbolic term);
// and optionally, for leaves that carry CuTe's static flag (recast_generic.hpp's downcast):
//   static ScalarOps<Scalar>::Bool is_static(const Leaf&);
// and, for leaves that may be scaled-basis strides (the model's IntTuple):
//   static Leaf scale(const Leaf& c, const Leaf& d)  c * d, d keeping its basis position;
//   static bool same(const Leaf& a, const Leaf& b)   equal values at the same position;
//   static bool same_position(const Leaf& a, const Leaf& b)  both integers, or bases at one position.
// Every branch is ScalarOps::decide (a plain bool for values, a case split for terms); every
// precondition ScalarOps::require (a throw for values, a proof obligation for terms).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "layout_eval.hpp"
#include "scalar.hpp"

namespace cuteref {

// ceil_div's diagnostic; `operand` as a policy's operand(). Out of line: the failure path
// only.
[[gnu::cold, gnu::noinline]] inline std::string ceil_div_divisor_message(const std::string& operand) {
  return "ceil_div: divisor" + operand + " must be positive";
}

template <class P>
struct LeafArith {
  using Leaf = typename P::Leaf;
  using Scalar = typename P::Scalar;
  using Ops = ScalarOps<Scalar>;

  static Scalar k(std::int64_t v) { return Ops::constant(v); }
  static auto value(const Leaf& x) { return P::value(x); }

  // Branches.
  static bool is(const Leaf& x, std::int64_t v) { return Ops::decide(value(x) == k(v)); }
  static bool is_negative(const Leaf& x) { return Ops::decide(value(x) < k(0)); }
  static bool at_least(const Leaf& x, std::int64_t v) { return Ops::decide(value(x) >= k(v)); }
  static bool less(const Leaf& a, const Leaf& b) { return Ops::decide(value(a) < value(b)); }
  static bool equal(const Leaf& a, const Leaf& b) { return Ops::decide(value(a) == value(b)); }
  // a and b are the same stride (a basis stride: the same position too).
  static bool same(const Leaf& a, const Leaf& b) {
    if constexpr (requires { P::same(a, b); }) return P::same(a, b);
    else return equal(a, b);
  }

  // c * d == t for a shape c and strides d, t (a basis stride: t at d's position), on the
  // exact product: one past int64 equals no stride, and no overflow is an error here (nothing
  // is computed; the model's answer where vendors' exact integers give one).
  static bool scaled_is(const Leaf& c, const Leaf& d, const Leaf& t) {
    if constexpr (requires { P::same_position(d, t); })
      if (!P::same_position(d, t)) return false;
    return Ops::decide(Ops::product_is(value(c), value(d), value(t)));
  }

  // Arithmetic (Scalar's overflow checks).
  static Leaf add(const Leaf& a, const Leaf& b) { return P::make(value(a) + value(b), a, b); }
  static Leaf sub(const Leaf& a, const Leaf& b) { return P::make(value(a) - value(b), a, b); }
  static Leaf mul(const Leaf& a, const Leaf& b) { return P::make(value(a) * value(b), a, b); }
  // c * d for a shape c and a stride d (a basis stride keeps its position).
  static Leaf scale(const Leaf& c, const Leaf& d) {
    if constexpr (requires { P::scale(c, d); }) return P::scale(c, d);
    else return mul(c, d);
  }
  // Truncating a / b. @pre b != 0 (Scalar's check).
  static Leaf div(const Leaf& a, const Leaf& b) { return P::make(value(a) / value(b), a, b); }
  // CuTe's ceil_div on leaves: ceil(a / b) for a >= 0; the divisor must be positive.
  static Leaf ceil_div(const Leaf& a, const Leaf& b) {
    const Scalar x = value(a), y = value(b);
    Ops::require(y >= k(1), [&] { return ceil_div_divisor_message(P::operand(b)); });
    Scalar q = x / y + Ops::select(x % y == k(0), k(0), k(1));
    Ops::note_ceil_div(q, x, y);
    return P::make(q, a, b);
  }
  static Leaf min(const Leaf& a, const Leaf& b) {
    const Scalar x = value(a), y = value(b);
    return P::make(Ops::select(x < y, x, y), a, b);
  }
  // c ? a : b: a choice of leaves for values, a term (no case split) for symbolic ones.
  static Leaf select(const typename Ops::Bool& c, const Leaf& a, const Leaf& b) {
    if constexpr (std::is_same_v<typename Ops::Bool, bool>) return c ? a : b;
    else return P::make(Ops::select(c, value(a), value(b)), a, b);
  }
  static Leaf neg(const Leaf& a) { return P::make(k(0) - value(a), a); }
  static Leaf abs(const Leaf& a) {
    const Scalar x = value(a);
    return P::make(Ops::select(x < k(0), k(0) - x, x), a);
  }
};

// The leaf is the scalar itself (the proofs' SymInt).
template <class S>
struct ScalarLeaf {
  using Leaf = S;
  using Scalar = S;
  static const S& value(const S& x) { return x; }
  static S make(S v, const S&, const S&) { return v; }
  static S make(S v, const S&) { return v; }
  static S constant(std::int64_t v) { return ScalarOps<S>::constant(v); }
  static std::string operand(const S&) { return ""; }
};

// The leaf is a leaf of a ScalarTuple<S> (the proofs' symbolic layouts).
template <class S>
struct ScalarTupleLeaf {
  using Leaf = ScalarTuple<S>;
  using Scalar = S;
  static const S& value(const Leaf& x) { return *x.leaf; }
  static Leaf make(S v, const Leaf&, const Leaf&) { return Leaf::of(std::move(v)); }
  static Leaf make(S v, const Leaf&) { return Leaf::of(std::move(v)); }
  static Leaf constant(std::int64_t v) { return Leaf::of(ScalarOps<S>::constant(v)); }
  static std::string operand(const Leaf&) { return ""; }
};

// A scalar with CuTe's static flag as a Bool of the scalar: a plain bool for values, a term
// for symbolic ones (a claim's `_1` is true; the law recast_every_rank leaves it free).
template <class S>
struct Flagged {
  S v;
  typename ScalarOps<S>::Bool st;
};

// The leaf is a Flagged<S> (the proofs' layouts written with `_N` leaves): a result is
// static iff every operand is, a constant is static, as the model's IntTupleLeaf.
template <class S>
struct FlaggedLeaf {
  using Leaf = Flagged<S>;
  using Scalar = S;
  static const S& value(const Leaf& x) { return x.v; }
  static Leaf make(S v, const Leaf& a, const Leaf& b) { return {std::move(v), ScalarOps<S>::both(a.st, b.st)}; }
  static Leaf make(S v, const Leaf& a) { return {std::move(v), a.st}; }
  static Leaf constant(std::int64_t v) { return {ScalarOps<S>::constant(v), ScalarOps<S>::truth(true)}; }
  static std::string operand(const Leaf&) { return ""; }
  static typename ScalarOps<S>::Bool is_static(const Leaf& x) { return x.st; }
};

}  // namespace cuteref
