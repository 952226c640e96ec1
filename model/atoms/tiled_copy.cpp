#include "atoms/tiled_copy.hpp"

#include <utility>
#include <vector>

#include "atoms/atom_table_notation.hpp"
#include "atoms/by_mode_tiler.hpp"

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "complement.hpp"
#include "composed_advance.hpp"
#include "composition.hpp"
#include "coordinates.hpp"
#include "divide.hpp"
#include "error.hpp"
#include "inverse.hpp"
#include "layout_tv.hpp"
#include "make_layout.hpp"
#include "product.hpp"
#include "recast.hpp"

namespace cuteref {

namespace {

using atom_table_notation::s;
Value underscore() { return Value(IntTuple::underscore()); }
Value pair(Value a, Value b) { return Value(MixedTuple{{std::move(a), std::move(b)}}); }

// CuTe's product_each(shape): the product of each top-level mode (static when all its leaves are).
IntTuple product_each(const IntTuple& shape) {
  if (!shape.is_tuple()) return shape;
  std::vector<IntTuple> out;
  for (const IntTuple& m : shape.elements()) {
    const Layout l = make_layout(m);
    out.push_back(IntTuple::integer(size_value(l), m.all_static()));
  }
  return IntTuple::tuple(std::move(out));
}

// CuTe's zip of a rank-2 layout of rank-2 modes: ((a,b),(c,d)) -> ((a,c),(b,d)).
Layout zip2(const Layout& l, const std::string& fn) {
  if (rank(l) != 2 || rank(mode(l, 0)) != 2 || rank(mode(l, 1)) != 2)
    throw Error(fn + ": expected a ((a,b),(c,d)) layout to zip, got " + l.to_string());
  const Layout m0 = mode(l, 0), m1 = mode(l, 1);
  return make_layout_from_modes({make_layout_from_modes({mode(m0, 0), mode(m1, 0)}),
                                 make_layout_from_modes({mode(m0, 1), mode(m1, 1)})});
}

// right_inverse(AtomLayoutRef) o AtomLayout{Src,Dst}: (src|dst thread, value) -> (ref thread, value).
Layout ref_to_target(const TiledCopy& tc, bool source) {
  const CopyAtomValues v = copy_atom_values(tc.atom, tc.value_bits);
  return composition(right_inverse_full(v.ref), source ? v.src : v.dst);
}

// CuTe's TiledCopy::tile2thrfrg: a zipped tensor ((TileM,TileN,...),(RestM,RestN,...)) read as
// (Thr, (FrgV, FrgX), (RestM, RestN, ...)) through the TV layout in the target order.
Layout tile2thrfrg(const TiledCopy& tc, const Layout& zipped, const Layout& ref2trg) {
  const CopyAtomValues v = copy_atom_values(tc.atom, tc.value_bits);
  const IntTuple atom_shape = IntTuple::tuple({s(size_value(mode(v.ref, 0))), s(size_value(mode(v.ref, 1)))});
  // ((atom_tid, atom_val), (rest_tid, rest_val)) -> tile index
  const Layout atom_tv = zipped_divide(tc.layout_tv, Value(atom_shape));
  // ((trg_tid, trg_val), (rest_tid, rest_val)) -> tile index
  const Layout trg_tv = composition(atom_tv, pair(Value(ref2trg), underscore()));
  // ((trg_tid, rest_tid), (trg_val, rest_val)) -> tile index
  const Layout thrval2mn = coalesce(zip2(trg_tv, "tiled copy"), IntTuple::tuple({s(1), IntTuple::tuple({s(1), s(1)})}));
  const Layout tv = composition(zipped, pair(Value(thrval2mn), underscore()));
  // tv((_,_),_): (Thr, Val, Rest)
  return slice(IntTuple::tuple({IntTuple::tuple({IntTuple::underscore(), IntTuple::underscore()}), IntTuple::underscore()}), tv);
}

Layout tidfrg(const TiledCopy& tc, const Layout& tensor, bool source) {
  const std::string fn = source ? "tidfrg_S" : "tidfrg_D";
  if (rank(tensor) < tc.tiler.rank())
    throw Error(fn + ": the tensor " + tensor.to_string() + " has rank " + std::to_string(rank(tensor)) +
                ", less than the tiler " + tc.tiler.to_string() + "'s");
  return tile2thrfrg(tc, zipped_divide(tensor, tc.tiler_layouts ? *tc.tiler_layouts : Value(tc.tiler)),
                     ref_to_target(tc, source));
}

// Thread t's slice of tidfrg and its offset (an integer, or a coordinate for scaled-basis strides).
std::pair<Layout, IntTuple> partition_and_offset(const TiledCopy& tc, std::int64_t thread, const Layout& tensor, bool source) {
  const std::string fn = source ? "partition_S" : "partition_D";
  const Layout frg = tidfrg(tc, tensor, source);
  const std::int64_t threads = size_value(mode(frg, 0));
  if (thread < 0 || thread >= threads)
    throw Error(fn + ": thread " + std::to_string(thread) + " is out of range [0, " + std::to_string(threads) + ")");
  // thr_tensor(thr_idx, _, repeat<rank(tensor)>(_))
  std::vector<IntTuple> rest(rank(tensor), IntTuple::underscore());
  return slice_and_offset(IntTuple::tuple({IntTuple::integer(thread), IntTuple::underscore(), IntTuple::tuple(std::move(rest))}),
                          frg);
}

Partition partition(const TiledCopy& tc, std::int64_t thread, const Layout& tensor, bool source) {
  if (tensor.has_basis_strides())
    throw Error(std::string(source ? "partition_S" : "partition_D") + ": the tensor " + tensor.to_string() +
                " has scaled-basis strides (a coordinate tensor): its offset is a coordinate, not an element offset "
                "(partition_and_offset_S/D give both)");
  const auto [layout, offset] = partition_and_offset(tc, thread, tensor, source);
  return {layout, offset.value()};
}

// The partition of the inner layout, its offset kept inside (composed_advance.hpp's rule).
ComposedLayout partition_composed(const TiledCopy& tc, std::int64_t thread, const ComposedLayout& tensor, bool source) {
  const Partition p = partition(tc, thread, tensor.layout, source);
  return advance_composed(tensor, p.layout, p.offset);
}

void check_counts(const TiledCopy& tc, const std::string& fn) {
  const CopyAtomValues v = copy_atom_values(tc.atom, tc.value_bits);
  if (rank(tc.layout_tv) != 2) throw Error(fn + ": the TV layout must have rank 2, got " + tc.layout_tv.to_string());
  const std::int64_t thr = size_value(mode(tc.layout_tv, 0)), val = size_value(mode(tc.layout_tv, 1));
  const std::int64_t athr = size_value(mode(v.ref, 0)), aval = size_value(mode(v.ref, 1));
  if (thr % athr != 0)
    throw Error(fn + ": the tiled copy has " + std::to_string(thr) + " threads, not a multiple of the atom " + tc.atom.name +
                "'s " + std::to_string(athr) + " (TiledCopy uses too few threads for the atom)");
  if (val % aval != 0)
    throw Error(fn + ": the tiled copy has " + std::to_string(val) + " values per thread, not a multiple of the atom " +
                tc.atom.name + "'s " + std::to_string(aval) + " (TiledCopy uses too few values for the atom)");
}

// The tiled MMA's (V, M, N, K) thread layout: tiled_product(ThrID, AtomLayoutMNK).
Layout thr_vmnk(const TiledMma& mma) { return tiled_product(mma.atom.thr_id, Value(mma.atom_layout_mnk)); }

// CuTe's permutation_mnk<i>(): the permutation's element i, or for `_` the atom's extent times
// the atom layout's (an integer tile).
Value permutation(const TiledMma& mma, int i) {
  const Value& e = std::get<MixedTuple>(mma.permutation_mnk.data).elements.at(static_cast<std::size_t>(i));
  if (e.is_int_tuple() && std::get<IntTuple>(e.data).is_underscore()) {
    const std::int64_t atom = i == 0 ? mma.atom.m : i == 1 ? mma.atom.n : mma.atom.k;
    return Value(s(checked_mul(atom, size_value(mode(thr_vmnk(mma), static_cast<std::size_t>(i) + 1)))));
  }
  return e;
}

std::int64_t tiler_size(const Value& v) {
  if (v.is_layout()) return size_value(std::get<Layout>(v.data));
  const IntTuple& t = std::get<IntTuple>(v.data);
  return size_value(make_layout(t));
}

// CuTe's thrfrg_A/B/C of a reference (x, y) tile: ((ThrV,(ThrX,ThrY)),(FrgV,(RestX,RestY))).
Layout thrfrg(const TiledMma& mma, MmaOperand op, const Layout& ref) {
  const int xi = op == MmaOperand::B ? 1 : 0, yi = op == MmaOperand::C ? 1 : 2;
  const Layout vmnk = thr_vmnk(mma);
  const Layout permuted = logical_divide(ref, pair(permutation(mma, xi), permutation(mma, yi)));
  const std::int64_t ext[3] = {mma.atom.m, mma.atom.n, mma.atom.k};
  const Layout divided = zipped_divide(permuted, pair(Value(make_layout(s(ext[xi]))), Value(make_layout(s(ext[yi])))));
  const Layout& atom_tv = op == MmaOperand::A ? mma.atom.a_layout : op == MmaOperand::B ? mma.atom.b_layout : mma.atom.c_layout;
  const Layout tv = composition(divided, pair(Value(atom_tv), underscore()));
  const Value thr_tile = pair(underscore(), pair(Value(make_layout(s(size_value(mode(vmnk, xi + 1))))),
                                                 Value(make_layout(s(size_value(mode(vmnk, yi + 1)))))));
  return zipped_divide(tv, thr_tile);
}

TiledCopy make_from_mma(const CopyAtom& atom, int value_bits, const TiledMma& mma, MmaOperand op, const std::string& fn) {
  const int xi = op == MmaOperand::B ? 1 : 0, yi = op == MmaOperand::C ? 1 : 2;
  TiledCopy tc{atom, value_bits, tiled_mma_layout_tv(mma, op),
               IntTuple::tuple({s(tiled_mma_tile_size(mma, xi)), s(tiled_mma_tile_size(mma, yi))}), std::nullopt};
  check_counts(tc, fn);
  return tc;
}

}  // namespace

TiledCopy make_tiled_copy_tv(const CopyAtom& atom, int value_bits, const Layout& layout_tv, const IntTuple& tiler) {
  TiledCopy tc{atom, value_bits, layout_tv, tiler, std::nullopt};
  check_counts(tc, "make_tiled_copy");
  return tc;
}

TiledCopy make_tiled_copy(const CopyAtom& atom, int value_bits, const Layout& thr, const Layout& val) {
  // CuTe builds TiledLayout_TV as make_layout_tv does; make_layout_tv also checks that every
  // (thread, value) reaches a tile element, which CuTe leaves unchecked (a stride-0 thread
  // layout would copy one element 32 times and never the others).
  LayoutTV tv = [&] {
    try {
      return make_layout_tv(thr, val);
    } catch (const Error& e) {
      throw Error(std::string("make_tiled_copy: ") + e.what());
    }
  }();
  return make_tiled_copy_tv(atom, value_bits, tv.layout_tv, tv.tiler_mn);
}

std::int64_t tiled_mma_tile_size(const TiledMma& mma, int i) {
  if (i < 0 || i > 2) throw Error("tile_size: the mode must be 0 (M), 1 (N) or 2 (K), got " + std::to_string(i));
  return tiler_size(permutation(mma, i));
}

Layout tiled_mma_layout_tv(const TiledMma& mma, MmaOperand op) {
  const int xi = op == MmaOperand::B ? 1 : 0, yi = op == MmaOperand::C ? 1 : 2;
  const Layout vmnk = thr_vmnk(mma);
  const Layout ref = make_layout(IntTuple::tuple({s(tiled_mma_tile_size(mma, xi)), s(tiled_mma_tile_size(mma, yi))}));
  // thread index -> index of the (V,M,N,K) coordinate (the thread layout's inverse, first mode)
  const Layout thridx_2_thrid =
      composition(Layout(IntTuple::tuple({s(size_value(vmnk)), s(1)}), IntTuple::tuple({s(1), s(0)})),
                  right_inverse_full(make_layout_from_modes({vmnk, complement(vmnk)})));
  Layout frg = thrfrg(mma, op, ref);
  if (op != MmaOperand::C) {
    // A is shared by the N threads, B by the M threads: their coordinate gets stride 0.
    const IntTuple mn = IntTuple::tuple({s(size_value(mode(vmnk, 1))), s(size_value(mode(vmnk, 2)))});
    const Layout broadcast(mn, op == MmaOperand::A ? IntTuple::tuple({s(1), s(0)}) : IntTuple::tuple({s(0), s(1)}));
    const Value tile = pair(underscore(), pair(Value(broadcast), underscore()));
    frg = composition(frg, pair(tile, underscore()));
  }
  return composition(frg, pair(Value(thridx_2_thrid), underscore()));
}

TiledCopy make_tiled_copy_A(const CopyAtom& a, int bits, const TiledMma& m) {
  return make_from_mma(a, bits, m, MmaOperand::A, "make_tiled_copy_A");
}
TiledCopy make_tiled_copy_B(const CopyAtom& a, int bits, const TiledMma& m) {
  return make_from_mma(a, bits, m, MmaOperand::B, "make_tiled_copy_B");
}
TiledCopy make_tiled_copy_C(const CopyAtom& a, int bits, const TiledMma& m) {
  return make_from_mma(a, bits, m, MmaOperand::C, "make_tiled_copy_C");
}

namespace {

// CuTe's make_tiled_copy_C_atom, step by step.
TiledCopy c_atom_steps(const CopyAtom& a, int bits, const TiledMma& m, const std::string& fn) {
  const Layout c_tv = tiled_mma_layout_tv(m, MmaOperand::C);  // (thread, value) -> (M,N) index
  const std::int64_t threads = size_value(mode(c_tv, 0)), c_values = size_value(mode(c_tv, 1));
  const std::int64_t atom_values = size_value(mode(copy_atom_values(a, bits).src, 1));
  if (atom_values > c_values)
    throw Error(fn + ": the atom " + a.name + " moves " + std::to_string(atom_values) + " values of " + std::to_string(bits) +
                " bits per thread, more than the tiled MMA's " + std::to_string(c_values) +
                " C values per thread (CuTe: copy_V <= size<1>(layoutC_TV))");
  // The first atom_values values of each thread, in the fragment's order.
  const Layout kept = composition(c_tv, make_layout(IntTuple::tuple({s(threads), s(atom_values)})));
  const IntTuple mn = IntTuple::tuple({s(tiled_mma_tile_size(m, 0)), s(tiled_mma_tile_size(m, 1))});
  // The tiler selects the (M,N) coordinates the kept values reach; tile index -> (M,N) index,
  // whose left inverse takes the kept values back into the tile.
  ByModeTiler by_mode = by_mode_tiler(mn, kept);
  const Layout& tile2mma = by_mode.tile_to_coord;
  const Layout layout_tv = composition(left_inverse(tile2mma), kept);
  // CuTe assumes the kept values lie in the selected tile; a (thread, value) outside it would be
  // mapped to a wrong element silently, so check it.
  const Layout back = composition(tile2mma, layout_tv);
  for (std::int64_t i = 0; i < size_value(kept); ++i)
    if (apply_index(back, i) != apply_index(kept, i))
      throw Error(fn + ": the kept C values " + kept.to_string() + " do not all lie in the tile " + by_mode.tiler.to_string() +
                  " they select ((thread, value) index " + std::to_string(i) + ")");
  TiledCopy tc = make_tiled_copy_tv(a, bits, layout_tv, by_mode.tiler_shape);
  tc.tiler_layouts = std::move(by_mode.tiler);
  return tc;
}

}  // namespace

TiledCopy make_tiled_copy_C_atom(const CopyAtom& a, int bits, const TiledMma& m) {
  const std::string fn = "make_tiled_copy_C_atom";
  try {
    return c_atom_steps(a, bits, m, fn);
  } catch (const Error& e) {
    // the algebra's diagnostics (and the atom's) named with the call they come from
    if (std::string(e.what()).rfind(fn, 0) == 0) throw;
    throw Error(fn + ": " + e.what() + " (atom " + a.name + ", " + std::to_string(bits) + " bits)");
  }
}

std::int64_t tiled_copy_size(const TiledCopy& tc) { return size_value(mode(tc.layout_tv, 0)); }

Layout tiled_copy_layout_S(const TiledCopy& tc) {
  // tile2thrfrg of the reference ((Tiler_MN), 1) tile, rest coordinate 0
  const Layout ref = make_layout(IntTuple::tuple({tc.tiler, s(1)}));
  const Layout frg = tile2thrfrg(tc, ref, ref_to_target(tc, true));
  return slice(IntTuple::tuple({IntTuple::underscore(), IntTuple::underscore(), s(0)}), frg);
}

Layout tiled_copy_layout_D(const TiledCopy& tc) {
  const Layout ref = make_layout(IntTuple::tuple({tc.tiler, s(1)}));
  const Layout frg = tile2thrfrg(tc, ref, ref_to_target(tc, false));
  return slice(IntTuple::tuple({IntTuple::underscore(), IntTuple::underscore(), s(0)}), frg);
}

Layout tidfrg_S(const TiledCopy& tc, const Layout& tensor) { return tidfrg(tc, tensor, true); }
Layout tidfrg_D(const TiledCopy& tc, const Layout& tensor) { return tidfrg(tc, tensor, false); }

Partition partition_S(const TiledCopy& tc, std::int64_t t, const Layout& l) { return partition(tc, t, l, true); }
Partition partition_D(const TiledCopy& tc, std::int64_t t, const Layout& l) { return partition(tc, t, l, false); }
std::pair<Layout, IntTuple> partition_and_offset_S(const TiledCopy& tc, std::int64_t t, const Layout& l) {
  return partition_and_offset(tc, t, l, true);
}
std::pair<Layout, IntTuple> partition_and_offset_D(const TiledCopy& tc, std::int64_t t, const Layout& l) {
  return partition_and_offset(tc, t, l, false);
}
ComposedLayout partition_S(const TiledCopy& tc, std::int64_t t, const ComposedLayout& l) {
  return partition_composed(tc, t, l, true);
}
ComposedLayout partition_D(const TiledCopy& tc, std::int64_t t, const ComposedLayout& l) {
  return partition_composed(tc, t, l, false);
}

namespace {

// CuTe's TiledCopy::retile, step by step.
Layout retile_steps(const TiledCopy& tc, const Layout& tensor) {
  const CopyAtomValues v = copy_atom_values(tc.atom, tc.value_bits);
  const std::int64_t values = size_value(mode(tensor, 0));
  const std::int64_t threads = tiled_copy_size(tc);
  // (m, n) -> v index: the shape and order of the V values inside TiledLayout_TV
  const Layout frg_layout_mn =
      upcast(composition(right_inverse_full(tc.layout_tv), make_layout(tc.tiler)), checked_mul(threads, values));
  // (atom_vals, rest_vals) -> (v, m, n)
  const Layout frg_layout_v =
      zipped_divide(logical_product(make_layout(IntTuple::integer(values, mode(tensor, 0).shape().all_static())),
                                    right_inverse_full(frg_layout_mn)),
                    Value(make_layout(s(size_value(mode(v.ref, 1))))));
  // ((TileV, TileM, TileN, ...), (1, RestM, RestN, ...))
  std::vector<IntTuple> tile{IntTuple::integer(values, mode(tensor, 0).shape().all_static())};
  const IntTuple each = product_each(frg_layout_mn.shape());
  if (each.is_tuple())
    for (const IntTuple& e : each.elements()) tile.push_back(e);
  else
    tile.push_back(each);
  const Layout t_tensor = zipped_divide(tensor, Value(IntTuple::tuple(std::move(tile))));
  const Layout v_tensor = composition(t_tensor, pair(Value(frg_layout_v), underscore()));
  // v_tensor(_, append<R>(0, _))
  std::vector<IntTuple> rest{s(0)};
  while (rest.size() < rank(tensor)) rest.push_back(IntTuple::underscore());
  return slice(IntTuple::tuple({IntTuple::underscore(), IntTuple::tuple(std::move(rest))}), v_tensor);
}

}  // namespace

Layout retile(const TiledCopy& tc, const Layout& tensor) {
  try {
    return retile_steps(tc, tensor);
  } catch (const Error& e) {
    throw Error(std::string("retile: ") + e.what() + " (fragment " + tensor.to_string() + ")");
  }
}

}  // namespace cuteref
