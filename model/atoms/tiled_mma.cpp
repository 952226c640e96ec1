#include "atoms/tiled_mma.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "atoms/umma_tmem_fragment.hpp"
#include "checked_math.hpp"
#include "composed_advance.hpp"
#include "coordinates.hpp"
#include "enumeration_budget.hpp"
#include "error.hpp"
#include "make_layout.hpp"
#include "product.hpp"
#include "divide.hpp"

namespace cuteref {

namespace {

// One mode of a flat layout, with CuTe's static flags.
struct Leaf {
  std::int64_t shape, stride;
  bool static_shape, static_stride;
};

std::vector<Leaf> leaves(const Layout& l, const std::string& what) {
  const IntTuple sh = flatten(l.shape()), st = flatten(l.stride());
  std::vector<Leaf> out;
  for (std::size_t i = 0; i < sh.rank(); ++i) {
    const IntTuple& a = sh.is_tuple() ? sh[i] : sh;
    const IntTuple& b = st.is_tuple() ? st[i] : st;
    if (!b.is_integer()) throw Error(what + ": scaled-basis strides are not supported in MMA partitioning");
    out.push_back({a.value(), b.value(), a.is_static(), b.is_static()});
  }
  return out;
}

IntTuple leaf_tuple(const std::vector<Leaf>& ls, bool shapes) {
  std::vector<IntTuple> v;
  for (const Leaf& l : ls) v.push_back(IntTuple::integer(shapes ? l.shape : l.stride, shapes ? l.static_shape : l.static_stride));
  return v.size() == 1 ? v[0] : IntTuple::tuple(std::move(v));
}

Layout to_layout(const std::vector<Leaf>& ls) { return Layout(leaf_tuple(ls, true), leaf_tuple(ls, false)); }

// CuTe's coalesce_x, which composition applies to its left operand first: from the back, static
// unit modes are dropped and a mode merges into the next when, statically, shape * stride equals
// the next stride; the last mode is kept (a static unit last mode counts as extent 2 so that the
// function outside the domain is kept). Without it the result has the same values but a finer
// profile than CuTe's (((8,8),16) where CuTe has (64,16) for a K-major SW128 operand).
std::vector<Leaf> coalesce_x(const std::vector<Leaf>& b) {
  if (b.empty()) return b;
  std::vector<Leaf> out{b.back()};
  if (out[0].static_shape && out[0].shape == 1) out[0].shape = 2;
  for (std::size_t j = b.size() - 1; j-- > 0;) {
    const Leaf& l = b[j];
    Leaf& front = out.front();
    if (l.static_shape && l.shape == 1) continue;
    if (front.static_shape && front.shape == 1) {
      front = l;
    } else if (front.static_shape && l.static_shape && l.static_stride && front.static_stride &&
               checked_mul(l.shape, l.stride) == front.stride) {
      front = {checked_mul(l.shape, front.shape), l.stride, true, true};
    } else {
      out.insert(out.begin(), l);
    }
  }
  return out;
}

// B o (e : s) for a flat layout B, by CuTe's composition of a single mode: coalesce B
// (coalesce_x), divide the stride s out of its leading modes, then take e elements from the
// modes that remain; the last mode of B is unbounded. Precondition (checked): each step divides
// evenly (CuTe's static asserts).
std::vector<Leaf> compose_leaf(const std::vector<Leaf>& b_in, std::int64_t e, std::int64_t s, bool static_e, bool static_s,
                               const std::string& what) {
  if (e == 1) return {{1, 0, static_e, true}};
  const std::vector<Leaf> b = coalesce_x(b_in);
  std::vector<Leaf> out;
  std::int64_t rest_shape = e, rest_stride = s;
  for (std::size_t i = 0; i + 1 < b.size() && rest_shape > 1; ++i) {
    const std::int64_t bi = b[i].shape;
    if (rest_stride % bi == 0) {  // skip this mode entirely
      rest_stride /= bi;
      continue;
    }
    if (bi % rest_stride != 0)
      throw Error(what + ": stride " + std::to_string(rest_stride) + " does not divide mode size " + std::to_string(bi) +
                  " (composition needs divisibility)");
    const std::int64_t avail = bi / rest_stride;
    const std::int64_t take = avail < rest_shape ? avail : rest_shape;
    if (rest_shape % take != 0)
      throw Error(what + ": " + std::to_string(rest_shape) + " elements do not split over a mode of " +
                  std::to_string(avail) + " (composition needs divisibility)");
    out.push_back({take, checked_mul(rest_stride, b[i].stride), static_e && b[i].static_shape,
                   static_s && b[i].static_stride});
    rest_shape /= take;
    rest_stride = 1;
  }
  if (rest_shape > 1) {
    const Leaf& last = b.back();
    out.push_back({rest_shape, checked_mul(rest_stride, last.stride), static_e && last.static_shape,
                   static_s && last.static_stride});
  }
  if (out.empty()) out.push_back({1, 0, static_e, true});
  return out;
}

// B o A for a flat B, keeping A's tree structure (each leaf of A becomes a leaf or a tuple).
void compose_tree(const IntTuple& sh, const IntTuple& st, const std::vector<Leaf>& b, const std::string& what,
                  IntTuple& out_shape, IntTuple& out_stride) {
  if (sh.is_tuple()) {
    std::vector<IntTuple> a, c;
    for (std::size_t i = 0; i < sh.rank(); ++i) {
      IntTuple x, y;
      compose_tree(sh[i], st[i], b, what, x, y);
      a.push_back(x);
      c.push_back(y);
    }
    out_shape = IntTuple::tuple(std::move(a));
    out_stride = IntTuple::tuple(std::move(c));
    return;
  }
  const auto r = compose_leaf(b, sh.value(), st.value(), sh.is_static(), st.is_static(), what);
  out_shape = leaf_tuple(r, true);
  out_stride = leaf_tuple(r, false);
}

Layout compose(const std::vector<Leaf>& b, const Layout& a, const std::string& what) {
  IntTuple sh, st;
  compose_tree(a.shape(), a.stride(), b, what, sh, st);
  return Layout(sh, st);
}

// The thread layout (ThrV, ThrM, ThrN, ThrK) -> thread index: CuTe's
// tiled_product(ThrID, AtomLayoutMNK) = (ThrID, complement(ThrID, size(ThrID)*cosize(AL)) o AL).
// Each further atom is placed at offsets the ThrID does not reach (for SM70's quadpair
// (4,2):(1,16) those are lanes 4..15 and 20..31 in steps of 4).
Layout thread_layout(const TiledMma& t) { return logical_product(t.atom.thr_id, t.atom_layout_mnk); }

// The colexicographic flat coordinate of `index` in one mode of the thread layout, by CuTe's
// idx2crd(index, shape, stride): leaf coordinate (index / stride) % shape (0 for a unit leaf).
std::int64_t flat_coord(const Layout& m, std::int64_t index) {
  std::vector<IntTuple> sh, st;
  flatten_into(m.shape(), sh);
  flatten_into(m.stride(), st);
  std::int64_t coord = 0, weight = 1;
  for (std::size_t i = 0; i < sh.size(); ++i) {
    const std::int64_t e = sh[i].value(), d = st[i].value();
    if (e != 1 && d > 0) coord += ((index / d) % e) * weight;
    weight *= e;
  }
  return coord;
}

// The thread's (v, m, n, k) coordinate: CuTe's get_flat_coord on the thread layout.
struct ThreadCoord {
  std::int64_t v, m, n, k;
};

ThreadCoord thread_coord(const TiledMma& t, std::int64_t thread, const std::string& fn) {
  const Layout thr = thread_layout(t);
  const std::int64_t span = cosize(thr).value();
  if (thread < 0 || thread >= span)
    throw Error(fn + ": thread " + std::to_string(thread) + " is out of range [0, " + std::to_string(span) + ")");
  const Layout atoms = mode(thr, 1);
  const ThreadCoord c{flat_coord(mode(thr, 0), thread), flat_coord(mode(atoms, 0), thread),
                      flat_coord(mode(atoms, 1), thread), flat_coord(mode(atoms, 2), thread)};
  // CuTe decodes any index; a thread the layout does not reach (SM70 lane 4 of a single
  // quadpair) would silently alias another thread's coordinate, so it is refused.
  const std::int64_t back = apply_index(mode(thr, 0), c.v) +
                            apply(atoms, IntTuple::tuple({IntTuple::integer(c.m), IntTuple::integer(c.n),
                                                          IntTuple::integer(c.k)})).value();
  if (back != thread)
    throw Error(fn + ": thread " + std::to_string(thread) + " is not a lane of the tiled MMA's thread layout " +
                thr.to_string() + " (tiled_product(ThrID, AtomLayoutMNK))");
  return c;
}

enum class Operand { A, B, C };

bool is_underscore_tiler(const Value& v) { return v.is_int_tuple() && std::get<IntTuple>(v.data).is_underscore(); }

// Element i of the permutation tiler (`_` past its rank).
Value permutation_element(const TiledMma& t, std::size_t i) {
  const Value& p = t.permutation_mnk;
  if (p.is_mixed_tuple()) return std::get<MixedTuple>(p.data).elements.at(i);
  const IntTuple& it = std::get<IntTuple>(p.data);
  return Value(it.is_tuple() ? it[i] : it);
}

// CuTe's reordering of the operand before tiling it by the atom: logical_divide by the
// operand's two permutation tilers (C: M, N; A: M, K; B: N, K).
Layout permute(const TiledMma& t, const Layout& l, Operand op, const std::string& fn) {
  const Value x = permutation_element(t, op == Operand::B ? 1 : 0);
  const Value y = permutation_element(t, op == Operand::C ? 1 : 2);
  if (is_underscore_tiler(x) && is_underscore_tiler(y)) return l;
  std::vector<Value> e{x, y};
  try {
    return logical_divide(l, Value(MixedTuple{e}));
  } catch (const Error& err) {
    throw Error(fn + ": the permutation " + t.permutation_mnk.to_string() + " does not apply to " + l.to_string() + ": " +
                err.what());
  }
}

Partition partition(const TiledMma& t, std::int64_t thread, const Layout& l, Operand op) {
  const std::string fn = op == Operand::A ? "partition_A" : op == Operand::B ? "partition_B" : "partition_C";
  if (rank(l) < 2) throw Error(fn + ": the layout must have rank >= 2, got " + l.to_string());
  const ThreadCoord tc = thread_coord(t, thread, fn);
  const MmaAtom& a = t.atom;
  const Layout& tv = op == Operand::A ? a.a_layout : op == Operand::B ? a.b_layout : a.c_layout;
  const std::int64_t x = op == Operand::B ? a.n : a.m;  // extent of mode 0
  const std::int64_t y = op == Operand::C ? a.n : a.k;  // extent of mode 1
  const IntTuple& al = t.atom_layout_mnk.shape();
  const std::int64_t tx = op == Operand::B ? al[1].value() : al[0].value();
  const std::int64_t ty = op == Operand::C ? al[1].value() : al[2].value();
  const std::int64_t cx = op == Operand::B ? tc.n : tc.m;
  const std::int64_t cy = op == Operand::C ? tc.n : tc.k;

  const Layout permuted = permute(t, l, op, fn);
  const Layout lx = mode(permuted, 0), ly = mode(permuted, 1);
  const std::int64_t sx = size_value(lx), sy = size_value(ly);
  if (sx % (x * tx) != 0 || sy % (y * ty) != 0)
    throw Error(fn + ": the tile " + l.to_string() + " of size (" + std::to_string(sx) + "," + std::to_string(sy) +
                ") is not divisible by the tiled atom's (" + std::to_string(x * tx) + "," + std::to_string(y * ty) + ")");
  const auto fx = leaves(lx, fn), fy = leaves(ly, fn);
  // The atom tile of l: index m + x * n -> l(m, n).
  std::vector<Leaf> tile = compose_leaf(fx, x, 1, true, true, fn);
  const auto tile_y = compose_leaf(fy, y, 1, true, true, fn);
  tile.insert(tile.end(), tile_y.begin(), tile_y.end());
  const Layout frg = compose(tile, mode(tv, 1), fn);
  const std::int64_t thread_offset = apply_index(compose(tile, mode(tv, 0), fn), tc.v);
  // The atom tiles this thread's atom-layout coordinate owns along each mode.
  const Layout rest_x = to_layout(compose_leaf(fx, sx / (x * tx), x * tx, lx.shape().all_static(), true, fn));
  const Layout rest_y = to_layout(compose_leaf(fy, sy / (y * ty), y * ty, ly.shape().all_static(), true, fn));
  const std::int64_t offset = checked_add(thread_offset, checked_add(apply_index(lx, x * cx), apply_index(ly, y * cy)));
  std::vector<Layout> modes{frg, rest_x, rest_y};
  for (std::size_t i = 2; i < rank(permuted); ++i) modes.push_back(mode(permuted, i));
  return {make_layout_from_modes(modes), offset};
}

// Compact column-major strides over the leaves of `shape`, keeping zero strides of `ref` as 0.
IntTuple compact_keeping_zeros(const IntTuple& shape, const IntTuple& ref, std::int64_t& running) {
  if (shape.is_tuple()) {
    std::vector<IntTuple> v;
    for (std::size_t i = 0; i < shape.rank(); ++i) v.push_back(compact_keeping_zeros(shape[i], ref[i], running));
    return IntTuple::tuple(std::move(v));
  }
  if (ref.is_integer() && ref.value() == 0) return IntTuple::static_int(0);
  const IntTuple out = IntTuple::integer(running, shape.is_static());
  running = checked_mul(running, shape.value());
  return out;
}

IntTuple scale_strides(const IntTuple& st, std::int64_t k) {
  if (st.is_tuple()) {
    std::vector<IntTuple> v;
    for (const auto& e : st.elements()) v.push_back(scale_strides(e, k));
    return IntTuple::tuple(std::move(v));
  }
  return IntTuple::integer(checked_mul(st.value(), k), st.is_static());
}

// CuTe's make_fragment_like for a partitioned layout: mode 0 compact column-major (its zero
// strides kept), the other modes compact in the order of their strides, after mode 0.
Layout fragment_like(const Layout& p) {
  if (!p.shape().all_static()) return make_layout(p.shape());
  std::int64_t cosize0 = 1;
  const Layout m0 = mode(p, 0);
  const Layout first(m0.shape(), compact_keeping_zeros(m0.shape(), m0.stride(), cosize0));
  std::vector<IntTuple> rest_shape, rest_order;
  for (std::size_t i = 1; i < rank(p); ++i) {
    rest_shape.push_back(p.shape()[i]);
    rest_order.push_back(p.stride()[i]);
  }
  const Layout rest = make_ordered_layout(IntTuple::tuple(rest_shape), IntTuple::tuple(rest_order));
  std::vector<Layout> modes{first};
  for (std::size_t i = 0; i < rank(rest); ++i) {
    const Layout m = mode(rest, i);
    modes.push_back(Layout(m.shape(), scale_strides(m.stride(), cosize0)));
  }
  return make_layout_from_modes(modes);
}

// Strides in elements -> strides in 16-byte units (recast to uint128_t).
IntTuple divide_strides(const IntTuple& st, std::int64_t per16, const std::string& what) {
  if (st.is_tuple()) {
    std::vector<IntTuple> v;
    for (const auto& e : st.elements()) v.push_back(divide_strides(e, per16, what));
    return IntTuple::tuple(std::move(v));
  }
  if (!st.is_integer() || st.value() % per16 != 0)
    throw Error(what + ": stride " + st.to_string() + " is not a whole number of 16-byte descriptor units");
  return IntTuple::integer(st.value() / per16, st.is_static());
}

Layout make_fragment(const Layout& p, int bits, bool smem_operand, const std::string& fn) {
  if (rank(p) < 3) throw Error(fn + ": expected a partitioned (V, Rest, RestK, ...) layout of rank >= 3, got " + p.to_string());
  if (!smem_operand) return fragment_like(p);
  if (bits != 8 && bits != 16 && bits != 32) throw Error(fn + ": element width must be 8, 16 or 32 bits");
  const std::int64_t per16 = 128 / bits;
  std::vector<Layout> modes{Layout(IntTuple::static_int(1), IntTuple::static_int(0))};
  for (std::size_t i = 1; i < rank(p); ++i) {
    const Layout m = mode(p, i);
    modes.push_back(Layout(m.shape(), divide_strides(m.stride(), per16, fn + ": mode " + std::to_string(i) + " of " +
                                                                             p.to_string())));
  }
  return make_layout_from_modes(modes);
}

// The most atom-layout indices the injectivity check enumerates (an interleaved layout only;
// the layouts CuTe's users write are checked without enumerating).
constexpr std::int64_t kMaxEnumeratedAtoms = std::int64_t{1} << 22;

// Precondition of a tiled MMA: the atom layout (M,N,K) -> atom index is injective. CuTe's
// make_tiled_mma does not check it (mma_atom.hpp builds the thread layout as
// tiled_product(ThrID, AtomLayoutMNK) and nothing more); with two atoms on one index the
// thread layout reaches fewer than size(TiledMMA) threads, and partition_C/A/B refuse the
// others. @pre every mode of `al` is an integer, with a positive stride where its extent > 1.
void check_atom_layout_injective(const Layout& al) {
  struct Mode {
    std::int64_t extent, stride;
  };
  std::vector<Mode> modes;
  for (std::size_t i = 0; i < 3; ++i)
    if (al.shape()[i].value() > 1) modes.push_back({al.shape()[i].value(), al.stride()[i].value()});
  std::sort(modes.begin(), modes.end(), [](const Mode& a, const Mode& b) { return a.stride < b.stride; });
  // Modes whose strides, in increasing order, each step past the span of the ones before are
  // injective (a mixed-radix number); only interleaved strides need the values enumerated.
  bool nested = true;
  for (std::size_t i = 1; i < modes.size(); ++i)
    if (modes[i].stride < checked_mul(modes[i - 1].stride, modes[i - 1].extent)) nested = false;
  if (nested) return;
  const std::int64_t n = size_value(al);
  if (n > kMaxEnumeratedAtoms)
    throw Error("make_tiled_mma: the atom layout " + al.to_string() + " has interleaved strides and " + std::to_string(n) +
                " atoms; its injectivity is checked by enumeration, at most " + std::to_string(kMaxEnumeratedAtoms));
  charge_enumeration(n, "make_tiled_mma");
  std::vector<std::pair<std::int64_t, std::int64_t>> index_of;  // (atom index, colexicographic coordinate)
  index_of.reserve(static_cast<std::size_t>(n));
  const std::int64_t e0 = al.shape()[0].value(), e1 = al.shape()[1].value();
  for (std::int64_t i = 0; i < n; ++i) {
    const IntTuple crd = IntTuple::tuple({IntTuple::integer(i % e0), IntTuple::integer(i / e0 % e1), IntTuple::integer(i / e0 / e1)});
    index_of.emplace_back(apply(al, crd).value(), i);
  }
  std::sort(index_of.begin(), index_of.end());
  for (std::size_t j = 1; j < index_of.size(); ++j)
    if (index_of[j].first == index_of[j - 1].first) {
      auto crd = [&](std::int64_t i) {
        return "(" + std::to_string(i % e0) + "," + std::to_string(i / e0 % e1) + "," + std::to_string(i / e0 / e1) + ")";
      };
      throw Error("make_tiled_mma: the atom layout " + al.to_string() + " must be injective (each atom its own threads): " +
                  crd(index_of[j - 1].second) + " and " + crd(index_of[j].second) + " both map to atom " +
                  std::to_string(index_of[j].first));
    }
}

}  // namespace

TiledMma make_tiled_mma(const MmaAtom& atom, const Layout& al) {
  return make_tiled_mma(atom, al, Value(IntTuple::tuple({IntTuple::underscore(), IntTuple::underscore(), IntTuple::underscore()})));
}

TiledMma make_tiled_mma(const MmaAtom& atom, const Layout& al_in, const Value& perm_in) {
  if (rank(al_in) > 3)
    throw Error("make_tiled_mma: the atom layout must have rank <= 3 (M,N,K), got " + al_in.to_string());
  // CuTe pads the atom layout with _1:_0 modes and the permutation with `_` to rank 3.
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < 3; ++i)
    modes.push_back(i < rank(al_in) ? mode(al_in, i) : Layout(IntTuple::static_int(1), IntTuple::static_int(0)));
  const Layout al = rank(al_in) == 3 ? al_in : make_layout_from_modes(modes);
  if (!al.shape()[0].is_integer() || !al.shape()[1].is_integer() || !al.shape()[2].is_integer())
    throw Error("make_tiled_mma: the atom layout must be a rank-3 (M,N,K) layout of integer modes, got " + al.to_string());
  for (std::size_t i = 0; i < 3; ++i)
    if (al.shape()[i].value() > 1 && (!al.stride()[i].is_integer() || al.stride()[i].value() <= 0))
      throw Error("make_tiled_mma: mode " + std::to_string(i) + " of the atom layout " + al.to_string() +
                  " needs a positive stride");
  check_atom_layout_injective(al);
  std::vector<Value> perm;
  if (perm_in.is_mixed_tuple()) {
    perm = std::get<MixedTuple>(perm_in.data).elements;
  } else if (perm_in.is_int_tuple() && std::get<IntTuple>(perm_in.data).is_tuple()) {
    for (const auto& e : std::get<IntTuple>(perm_in.data).elements()) perm.push_back(Value(e));
  } else if (perm_in.is_layout() || perm_in.is_int_tuple()) {
    perm.push_back(perm_in);
  } else {
    throw Error("make_tiled_mma: the permutation must be a tiler (PermM, PermN, PermK), got " + perm_in.kind_name() + " `" +
                perm_in.to_string() + "`");
  }
  if (perm.size() > 3) throw Error("make_tiled_mma: the permutation has rank " + std::to_string(perm.size()) + "; at most 3 (M,N,K)");
  // Built in place: a moved temporary Value trips GCC 12's bogus -Wmaybe-uninitialized on
  // std::optional inside std::variant (GCC bug 80635).
  while (perm.size() < 3) perm.emplace_back(IntTuple::underscore());
  for (const Value& p : perm)
    if (!p.is_layout() && !p.is_int_tuple())
      throw Error("make_tiled_mma: a permutation element must be a layout, an integer or `_`, got " + p.kind_name() + " `" +
                  p.to_string() + "`");
  return {atom, al, Value(MixedTuple{perm})};
}

std::int64_t tiled_mma_size(const TiledMma& t) { return checked_mul(size_value(t.atom.thr_id), size_value(t.atom_layout_mnk)); }

Partition partition_C(const TiledMma& t, std::int64_t thread, const Layout& c) { return partition(t, thread, c, Operand::C); }
Partition partition_A(const TiledMma& t, std::int64_t thread, const Layout& a) { return partition(t, thread, a, Operand::A); }
Partition partition_B(const TiledMma& t, std::int64_t thread, const Layout& b) { return partition(t, thread, b, Operand::B); }

ComposedLayout partition_C(const TiledMma& t, std::int64_t thread, const ComposedLayout& c) {
  const Partition p = partition(t, thread, c.layout, Operand::C);
  return advance_composed(c, p.layout, p.offset);
}
ComposedLayout partition_A(const TiledMma& t, std::int64_t thread, const ComposedLayout& a) {
  const Partition p = partition(t, thread, a.layout, Operand::A);
  return advance_composed(a, p.layout, p.offset);
}
ComposedLayout partition_B(const TiledMma& t, std::int64_t thread, const ComposedLayout& b) {
  const Partition p = partition(t, thread, b.layout, Operand::B);
  return advance_composed(b, p.layout, p.offset);
}

Layout partition_fragment_C(const TiledMma& t, const Layout& c) {
  // The shape does not depend on the thread; CuTe partitions a compact layout of c's shape.
  const IntTuple shape = partition_C(t, 0, make_layout(c.shape())).layout.shape();
  // SM100's accumulator is a tensor-memory allocation (CuTe's UMMA::tmem_frg), not registers.
  if (t.atom.arch == 100) return umma_tmem_fragment_C(t.atom, shape);
  return make_layout(shape);
}

Layout make_fragment_A(const TiledMma& t, const Layout& p) {
  if (t.atom.arch == 100)
    throw Error("make_fragment_A: the operands of " + t.atom.name +
                " are UMMA descriptors or tensor-memory tensors, which are not modelled");
  return make_fragment(p, mma_element_bits(t.atom.type_a), t.atom.arch == 90 && !t.atom.a_in_registers, "make_fragment_A");
}

Layout make_fragment_B(const TiledMma& t, const Layout& p) {
  if (t.atom.arch == 100)
    throw Error("make_fragment_B: the operands of " + t.atom.name + " are UMMA descriptors, which are not modelled");
  return make_fragment(p, mma_element_bits(t.atom.type_b), t.atom.arch == 90, "make_fragment_B");
}

}  // namespace cuteref
