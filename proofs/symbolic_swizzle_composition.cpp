#include "symbolic_swizzle_composition.hpp"

#include <cstdint>
#include <string>

#include "composition_swizzle.hpp"
#include "swizzle_eval.hpp"
#include "symbolic_algebra.hpp"

namespace cuteref::proofs {

namespace {

using Ops = ScalarOps<SymInt>;

// The value of a term without variables (its interval, else Z3's simplification), or nothing.
std::optional<std::int64_t> constant_value(const SymInt& v) {
  if (v.lo == v.hi) return static_cast<std::int64_t>(v.lo);
  const z3::expr s = v.e.simplify();
  if (!s.is_numeral()) return std::nullopt;
  if (s.is_bv()) return static_cast<std::int64_t>(s.get_numeral_uint64());
  std::int64_t out = 0;
  if (s.is_numeral_i64(out)) return out;
  return std::nullopt;
}

SymInt swizzled(const SymInt& x, const Swizzle& sw) {
  return swizzle_value(x, Ops::constant(sw.bits()), Ops::constant(sw.base()), Ops::constant(sw.shift()));
}

}  // namespace

SymSwizzledLayout sym_composition_through_swizzle(const SymLayout& a, const Swizzle& sw, const std::optional<SymInt>& offset,
                                                  const SymLayout& b) {
  SymbolicScope& scope = current_scope();
  if (offset)
    Ops::require(*offset == Ops::constant(0), [] {
      return std::string("composition: a composed layout on the right must have the offset 0 (CuTe: \"Require offset == 0.\")");
    });
  const std::optional<std::int64_t> y = constant_value(apply_at(a, Ops::constant(sw.source_mask())));
  const std::optional<std::int64_t> z = constant_value(apply_at(a, Ops::constant(sw.destination_mask())));
  if (!y || !z)
    throw Error("composition(A, Sw o B): A's images of the swizzle's masks depend on the variables, so the moved "
                "swizzle (a type in CuTe) has no symbolic form");
  const Swizzle moved = swizzle_from_mask_images(*y, *z, "; A and B as written in the claim");
  const SymLayout ab = sym_composition(a, b);
  const SymInt n = sym_size(b);
  Ops::require(n < Ops::constant(kMaxSwizzleMoveChecked + 1), [] {
    return std::string("composition: the model checks a swizzle moved through A on every element, up to 2^22");
  });
  // The model's check at every x < size(B), as one obligation over a fresh x.
  SymInt x = scope.variable("composition!x");
  const z3::expr in_domain = x >= Ops::constant(0) && x < n;
  scope.push_guard(in_domain);
  x.lo = 0;  // under the guard: not certain (SymInt)
  x.lo_certain = false;
  if (n.hi - 1 < x.hi) {
    x.hi = n.hi - 1;
    x.hi_certain = false;
  }
  const SymInt want = apply_at(a, swizzled(apply_at(b, x), sw));
  const SymInt got = swizzled(apply_at(ab, x), moved);
  Ops::require(want == got, [&] {
    return "composition: CuTe's construction " + moved.to_string() + " o 0 o (A o B) is not A o (Sw o B) at some x";
  });
  scope.pop_guard();
  return {moved, ab};
}

}  // namespace cuteref::proofs
