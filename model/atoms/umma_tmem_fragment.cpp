#include "atoms/umma_tmem_fragment.hpp"

#include <vector>

#include "atoms/atom_table_notation.hpp"
#include "composition.hpp"
#include "error.hpp"
#include "make_layout.hpp"
#include "product.hpp"

namespace cuteref {

namespace {

using atom_table_notation::s;
using atom_table_notation::t;

// Every stride leaf times k (CuTe's compact_col_major(shape, k) from make_layout(shape)).
IntTuple scaled(const IntTuple& x, std::int64_t k) {
  if (x.is_leaf()) return IntTuple::integer(x.value() * k, x.is_static());
  std::vector<IntTuple> e;
  for (std::size_t i = 0; i < x.rank(); ++i) e.push_back(scaled(x[i], k));
  return IntTuple::tuple(std::move(e));
}

}  // namespace

Layout umma_tmem_fragment_C(const MmaAtom& atom, const IntTuple& shape) {
  const std::string fn = "tmem fragment of " + atom.name;
  if (atom.arch != 100) throw Error(fn + ": not an SM100 tcgen05.mma atom");
  if (!shape.is_tuple() || shape.rank() < 2 || !shape[0].is_tuple() || shape[0].rank() != 2)
    throw Error(fn + ": expected the partitioned shape ((M_MMA,N_MMA),MMA_M,MMA_N,...), got " + shape.to_string());
  const std::int64_t m = size_value(make_layout(shape[0][0])), n = size_value(make_layout(shape[0][1]));
  std::vector<IntTuple> rest_modes;
  for (std::size_t i = 1; i < shape.rank(); ++i) rest_modes.push_back(shape[i]);
  const IntTuple rest = IntTuple::tuple(rest_modes);
  const int bits = mma_element_bits(atom.type_c);
  // Every accumulator takes a whole 32-bit column of its lane, whatever its width (the
  // allocation's storage type is 32 bits; a 16-bit C uses half of it).
  const std::int64_t elements = size_value(make_layout(shape));
  if (elements > std::int64_t{128} * 512)
    throw Error(fn + ": the fragment " + shape.to_string() + " needs " + std::to_string(elements) +
                " accumulators, more than TMEM's 128 lanes x 512 columns (one " + std::to_string(bits) +
                "-bit accumulator per 32-bit column)");
  const std::int64_t per_column = 32 / bits;
  std::int64_t lane = std::int64_t{1} << 16;
  for (std::int64_t r = per_column; r > 1; r /= 2) lane *= 2;
  const Layout restride(t({s(128), s(16384)}), t({s(lane), s(per_column)}));

  Layout tmem_atom = Layout(t({s(128), s(n)}), t({s(1), s(128)}));
  Layout tiles = make_layout(rest);
  if (atom.cta_group == 1) {
    if (m == 64) {
      tmem_atom = Layout(t({t({s(16), s(4)}), s(n)}), t({t({s(1), s(32)}), s(128)}));
      // NonInterleaved (A from TMEM): the fragments' tiles skip every other 16-lane half.
      if (atom.a_in_tmem) tiles = Layout(rest, scaled(tiles.stride(), 2));
    } else if (m != 128) {
      throw Error(fn + ": a one-CTA accumulator has M_MMA 64 or 128, got " + std::to_string(m));
    }
  } else {
    if (m == 64) {
      if (n % 2 != 0) throw Error(fn + ": N_MMA " + std::to_string(n) + " is not a multiple of 2");
      tmem_atom = Layout(t({s(64), t({s(n / 2), s(2)})}), t({s(1), t({s(128), s(64)})}));
    } else if (m != 128) {
      throw Error(fn + ": a CTA-pair accumulator has M_MMA 64 or 128 per CTA, got " + std::to_string(m));
    }
  }
  return composition(restride, tiled_product(tmem_atom, Value(tiles)));
}

}  // namespace cuteref
