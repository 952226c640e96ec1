#include "complement.hpp"

#include <string>
#include <type_traits>
#include <vector>

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "complement_generic.hpp"
#include "error.hpp"
#include "flat_coalesce.hpp"
#include "flat_int.hpp"
#include "form_modes.hpp"
#include "inline_flat_ints.hpp"
#include "layout_writer.hpp"
#include "leaf_arith.hpp"
#include "leaf_policies.hpp"

namespace cuteref {

namespace {

// The cotarget for diagnostics: an IntTuple, or flat leaves printed as the tuple they form.
struct CotargetText {
  const IntTuple* whole;
  const FlatInt* leaves;
  std::size_t n;
  IntTuple tuple() const { return whole != nullptr ? *whole : tuple_of_flat(leaves, n); }
  std::string text() const { return tuple().to_string(); }
};

struct FlatIntSpan {
  const FlatInt* first;
  std::size_t n;
  std::size_t size() const { return n; }
  const FlatInt* begin() const { return first; }
  const FlatInt* end() const { return first + n; }
};

void check_cotarget(const IntTuple& t, const Layout& a, const IntTuple& whole) {
  if (t.is_tuple()) {
    for (const auto& e : t.elements()) check_cotarget(e, a, whole);
    return;
  }
  if (!t.is_integer() || t.value() < 1)
    throw Error("complement: precondition violated: the cotarget " + whole.to_string() +
                " must be a shape of integers >= 1 (leaf " + t.to_string() + "); A = " + a.to_string());
}

// complement's preconditions worded with the operands: A and the cotarget.
struct ComplementDiagnostics {
  const Layout& a;
  const CotargetText& cotarget;
  std::string operands() const { return "A = " + a.to_string() + ", cotarget = " + cotarget.text(); }
  std::string negative_stride(FlatInt shape, FlatInt stride) const {
    return "complement: precondition violated: A's strides must be >= 0 (mode " + shape.to_string() + ":" +
           stride.to_string() + "); " + operands();
  }
  std::string interleaved(FlatInt shape, FlatInt stride, FlatInt extent) const {
    return "complement: precondition violated: A must be injective with non-interleaved modes, but mode " +
           shape.to_string() + ":" + stride.to_string() + " starts below the extent " + extent.to_string() +
           " of A's smaller-stride modes (CuTe: \"Non-injective Layout detected in complement\"); " + operands();
  }
  std::string bad_cotarget(FlatInt leaf) const {
    return "complement: precondition violated: the cotarget " + cotarget.text() +
           " must be a shape of integers >= 1 (leaf " + leaf.to_string() + "); A = " + a.to_string();
  }
};

// complement_generic.hpp's decisions on the model's leaves as plain values with static flags.
using FlatComplementOps = ComplementOps<FlatIntLeaf, ComplementDiagnostics>;

// complement(a, cotarget) as its result's flat modes, from a's flattened modes (a_shapes,
// a_strides: vectors, or views of a's form; not changed), the cotarget's leaves given flat (a
// and the whole cotarget only for diagnostics): complement_generic.hpp's
// complement_flat_modes, the proofs' own. Out: FlatModesOfInts or InlineFlatModes (then
// a_shapes.size() + n_cot <= kInlineLeaves: the result's modes before coalescing are at most
// that many).
template <class InShapes, class InStrides, class Out>
[[gnu::flatten]] void complement_flat(const Layout& a, const InShapes& a_shapes, const InStrides& a_strides,
                                     const FlatInt* cot, std::size_t n_cot, const CotargetText& cotarget,
                                     Out& out) {
  out.shapes.clear();
  out.strides.clear();
  decltype(Out::shapes) f_shapes, f_strides;  // filter(a)'s modes
  if constexpr (std::is_same_v<Out, InlineFlatModes>) {
    InlineModesOut filtered(InlineModesTarget{f_shapes, f_strides});
    InlineModesOut r(InlineModesTarget{out.shapes, out.strides});
    complement_flat_modes<FlatIntLeaf>(a_shapes, a_strides, filtered, f_shapes, f_strides, FlatIntSpan{cot, n_cot},
                                       FlatComplementOps{{a, cotarget}}, r);
    r.finish();
  } else {
    ModesOut<FlatInts> filtered{f_shapes, f_strides};
    ModesOut<FlatInts> r{out.shapes, out.strides};
    complement_flat_modes<FlatIntLeaf>(a_shapes, a_strides, filtered, f_shapes, f_strides, FlatIntSpan{cot, n_cot},
                                       FlatComplementOps{{a, cotarget}}, r);
  }
}

// a's flattened modes, or the diagnostic for a scaled-basis stride.
void flat_modes_for_complement(const Layout& a, FlatModesOfInts& m) {
  if (!flat_int_modes(a, m))
    throw Error("complement: precondition violated: A's strides must be integers; A = " + a.to_string());
}

}  // namespace

// gnu::flatten on the entry points and the driver: the generic steps and the leaf arithmetic
// inline into one body (bench/README.md, where the model's time goes).
[[gnu::flatten]] void complement_flat(const Layout& a, const IntTuple& cotarget, FlatModesOfInts& out) {
  FlatInts cot;
  if (cotarget.is_integer() && cotarget.value() >= 1) {
    cot.push_back(FlatInt::of(cotarget));  // the common integer cotarget: nothing to walk
  } else {
    check_cotarget(cotarget, a, cotarget);
    append_flat_ints(cotarget, cot);  // all integers: checked above
  }
  FlatModesOfInts m;
  flat_modes_for_complement(a, m);
  complement_flat(a, m.shapes, m.strides, cot.data(), cot.size(), CotargetText{&cotarget, nullptr, 0}, out);
}

[[gnu::flatten]] Layout complement(const Layout& a, const IntTuple& cotarget) {
  // A held as its form, an integer cotarget: A's leaves read in place, filtered into a
  // working vector (at most A's leaves), and R's modes (at most A's leaves and one rest mode)
  // coalesced straight into the result's form. The generic core is called here itself:
  // through the complement_flat template, GCC's flatten left its steps out of line
  // (bench/README.md, "The working modes in place").
  const BracketedLeaves* form = a.leaves();
  if (form != nullptr && std::size_t{form->n} + 1 <= kInlineLeaves && cotarget.is_integer() && cotarget.value() >= 1) {
    const FlatInt cot = FlatInt::of(cotarget);
    // Valid: R's kept leaves are made by the checked steps (shapes >= 1), as FlatModesOfInts::layout().
    return detail::LayoutFromValidParts::make_leaves([&](BracketedLeaves& result) {
      InlineFlatInts f_shapes, f_strides;
      InlineModesOut filtered(InlineModesTarget{f_shapes, f_strides});
      FormModesOut r(FormTarget{result});
      complement_flat_modes<FlatIntLeaf>(FormShapes{*form}, FormStrides{*form}, filtered, f_shapes, f_strides,
                                         FlatIntSpan{&cot, 1},
                                         FlatComplementOps{{a, CotargetText{&cotarget, nullptr, 0}}}, r);
      r.finish();
    });
  }
  FlatModesOfInts r;
  complement_flat(a, cotarget, r);
  return r.layout();
}

[[gnu::flatten]] void complement_flat_of_shape_leaves(const Layout& a, const FlatInt* cot, std::size_t n_cot,
                                                      FlatModesOfInts& out) {
  FlatModesOfInts m;
  flat_modes_for_complement(a, m);
  complement_flat(a, m.shapes, m.strides, cot, n_cot, CotargetText{nullptr, cot, n_cot}, out);
}

[[gnu::flatten]] void complement_flat_of_modes(const Layout& a, const FlatModesOfInts& a_modes, FlatInt cotarget,
                                              FlatModesOfInts& out) {
  complement_flat(a, a_modes.shapes, a_modes.strides, &cotarget, 1, CotargetText{nullptr, &cotarget, 1}, out);
}

[[gnu::flatten]] void complement_flat_of_shape_leaves(const Layout& a, const FlatInt* cot, std::size_t n_cot,
                                                      InlineFlatModes& out) {
  const BracketedLeaves& form = *a.leaves();
  complement_flat(a, FormShapes{form}, FormStrides{form}, cot, n_cot, CotargetText{nullptr, cot, n_cot}, out);
}

Layout complement(const Layout& a) {
  if (a.has_basis_strides())
    throw Error("complement: precondition violated: A's strides must be integers; A = " + a.to_string());
  return complement(a, cosize(filter(a)));
}

}  // namespace cuteref
