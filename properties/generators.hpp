// RapidCheck generators for CuTe layouts: the public generator API of the property suite.
//
// Every generator is built from RapidCheck's combinators, so every value shrinks: shapes
// shrink toward leaves and extent 1, tuples toward fewer modes, strides toward the compact
// strides of their kind, pairs toward smaller first and second operands. A counterexample
// is therefore printed as a small layout, not as the random one first found.
//
// Reuse (see properties/README.md): include this header, link `cuteref_generators_dep`
// (meson) or properties/generators.cpp + the model library and librapidcheck, and write
//   RC_GTEST_PROP(MyKernel, tiles_cover, ()) {
//     const auto [a, t] = *cuteref::gen::divisible_pair();
//     ... RC_ASSERT(...);
//   }
//
// Bounds. Each generator keeps sizes small enough to enumerate every index of every result
// (size(layout) <= limits.max_size), because the laws compare functions pointwise.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "int_tuple.hpp"
#include "layout.hpp"
#include "swizzle.hpp"

namespace cuteref {
// How RapidCheck prints counterexamples: CuTe notation.
inline void showValue(const IntTuple& t, std::ostream& os) { os << t.to_string(); }
inline void showValue(const Layout& l, std::ostream& os) { os << l.to_string(); }
inline void showValue(const Swizzle& s, std::ostream& os) { os << s.to_string(); }
}  // namespace cuteref

namespace cuteref::gen {

struct ShapeLimits {
  int max_depth = 3;         // depth of the shape tree (0 = a single leaf)
  int max_rank = 4;          // elements per tuple
  int max_extent = 4;        // largest leaf extent
  std::int64_t max_size = 256;  // largest product of the leaves
};

// Hierarchical shapes: depth <= max_depth, rank <= max_rank, leaves 1..max_extent (dynamic
// integers; some static), size <= max_size.
rc::Gen<IntTuple> shape(ShapeLimits limits = {});

// The stride families CuTe users meet.
enum class StrideKind {
  Compact,          // column-major, CuTe's default make_layout(shape)
  PermutedCompact,  // compact with the leaves visited in a random order (row-major, ordered layouts)
  Gapped,           // increasing in a random leaf order, each stride a multiple >= 1 of the extent below it
  WithZeros,        // compact or gapped with some leaves broadcast (stride 0)
  Negative,         // compact or gapped with some leaves negated
  Arbitrary,        // every leaf in [-8, 8]
};
std::string to_string(StrideKind kind);

// Layouts over shape(limits) with strides of the given kind.
rc::Gen<Layout> layout(StrideKind kind, ShapeLimits limits = {});
// Layouts of any of the integer stride kinds.
rc::Gen<Layout> layout(ShapeLimits limits = {});
// Layouts whose strides are scaled bases N@d (identity-like layouts and their scalings), as
// CuTe's make_identity_layout and TMA coordinate layouts have.
rc::Gen<Layout> basis_layout(ShapeLimits limits = {});

// Injective layouts in complement's domain: non-negative strides, and after dropping
// stride-0/size-1 modes and sorting by stride, every stride d_k >= s_{k-1} * d_{k-1}
// (CuTe's "no interleaving"). `with_zero_modes` adds broadcast (stride-0) modes, which
// complement ignores and which make the layout non-injective. Divisible: d_k is a multiple
// of s_{k-1} * d_{k-1} (then A and its complement tile [0, M) exactly).
rc::Gen<Layout> complement_domain_layout(bool divisible, bool with_zero_modes, ShapeLimits limits = {});
// (A, M): A as above, M in [1, 3 * cosize(A)].
rc::Gen<std::pair<Layout, std::int64_t>> complement_pair(bool divisible);

// Layouts B such that composition(a, B) is admissible (the model computes it): B's leaves
// step through a's coalesced modes evenly (a stride of (extent below mode m) * d with d
// dividing mode m's extent, an extent dividing what is left), or are broadcast (stride 0);
// sometimes a random B that happens to be admissible.
rc::Gen<Layout> composable_with(const Layout& a);
// (A, composable_with(A)).
rc::Gen<std::pair<Layout, Layout>> composition_pair();

// (A, T): a layout and a layout tiler whose tiles divide A evenly: A compact or permuted
// compact, T an injective "sub-layout" of A's coalesced domain whose extent divides it, and
// the model accepts logical_divide(A, T).
rc::Gen<std::pair<Layout, Layout>> divisible_pair();
// Layout tilers T dividing `a` evenly as above (the model accepts logical_divide(a, T)).
rc::Gen<Layout> tiler_dividing(const Layout& a);
// (A, (T0, T1)): A of rank 2 (two compact or permuted-compact modes, mode 1 placed after
// mode 0), Ti a tiler dividing mode i: the by-mode (tuple tiler) form of the divides.
rc::Gen<std::pair<Layout, std::vector<Layout>>> divisible_tuple_tiler_pair();

// (A, B) for the product family: A injective (complement's domain, divisible), B any
// layout with non-negative strides whose product the model accepts.
rc::Gen<std::pair<Layout, Layout>> product_pair();

// Swizzle parameters (B, M, S). legal: |S| >= B (CuTe's static_assert), B in [0,4],
// M in [0,5], |S| in [B, 6]; illegal: 1 <= |S| < B (the swizzle is then not an involution).
struct SwizzleParams {
  int b = 0, m = 0, s = 0;
};
void showValue(const SwizzleParams& p, std::ostream& os);
rc::Gen<SwizzleParams> swizzle_params(bool legal);
rc::Gen<Swizzle> swizzle();

// Descriptor-grammar text (descriptor.hpp), valid: a group of bases such as
// "((1@0, 8@1), 1/2@2)"-free normalizable counts, with random spacing.
rc::Gen<std::string> descriptor_text();

// A malformed text: `text` certainly does not parse (an unbalanced bracket, a missing
// ':' shape/stride separator, a dangling '@' or '/', a stray character), `what` says how it
// was broken. Built from a valid printout by one targeted edit.
struct MalformedText {
  std::string text;
  std::string what;
};
void showValue(const MalformedText& m, std::ostream& os);
rc::Gen<MalformedText> malformed_layout_text();
rc::Gen<MalformedText> malformed_descriptor_text();
// Any text over the notation's alphabet (may or may not parse): for "never crash".
rc::Gen<std::string> notation_noise();

// Helpers for writing generators and laws.
// The shape's leaves in colexicographic (flatten) order.
std::vector<std::int64_t> leaf_values(const IntTuple& t);
// `shape` with its leaves replaced, in flatten order, by `values` (dynamic integers).
IntTuple with_leaves(const IntTuple& shape, const std::vector<std::int64_t>& values);

}  // namespace cuteref::gen
