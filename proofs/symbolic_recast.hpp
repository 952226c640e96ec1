// upcast on symbolic layouts: recast_generic.hpp's upcast_leaf with the proofs' decisions,
// mapped over the leaves as the model's upcast (recast.cpp) maps it.
#pragma once

#include <optional>
#include <string>

#include "recast_generic.hpp"
#include "symbolic_algebra.hpp"
#include "symbolic_layout.hpp"

namespace cuteref::proofs {

// recast_generic.hpp's decisions on symbolic leaves. Whether a stride of 1 or -1 is static is
// not a value: `static_unit` is a free flag, so both branches of downcast_leaf are explored
// for d == +-1 (a run-time 1 is scaled as any other stride).
struct SymRecastOps {
  using Ops = ScalarOps<SymInt>;
  using A = LeafArith<ScalarLeaf<SymInt>>;  // the leaf arithmetic every operation shares
  std::optional<SymInt> n;               // the factor, set by the lemma
  std::optional<z3::expr> static_unit;    // the flag, set by the lemma
  bool is_zero(const SymInt& x) const { return A::is(x, 0); }
  bool is_negative(const SymInt& x) const { return A::is_negative(x); }
  bool is_one(const SymInt& x) const { return A::is(x, 1); }
  bool is_static_unit(const SymInt& d) const {
    return Ops::decide(*static_unit && (d == Ops::constant(1) || d == Ops::constant(-1)));
  }
  SymInt abs(const SymInt& x) const { return A::abs(x); }
  SymInt neg(const SymInt& x) const { return A::neg(x); }
  SymInt ceil_div(const SymInt& a, const SymInt& b) const { return A::ceil_div(a, b); }
  SymInt mul(const SymInt& a, const SymInt& b) const { return A::mul(a, b); }
  void check_divisible(const SymInt&, const SymInt& abs_d) const {
    Ops::require(abs_d % *n == Ops::constant(0) || *n % abs_d == Ops::constant(0),
                 [] { return std::string("upcast: |d| and n divide one another"); });
  }
};

// upcast(L, n) on symbolic leaves. downcast has no symbolic form: it picks the contiguous
// mode by a static _1 stride, which a symbolic layout does not carry.
// @pre n >= 1 (an obligation).
SymLayout sym_upcast(const SymLayout& l, const SymInt& n);

}  // namespace cuteref::proofs
