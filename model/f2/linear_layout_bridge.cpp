#include "linear_layout_bridge.hpp"

#include <bit>

#include "checked_math.hpp"
#include "error.hpp"
#include "f2_algebra.hpp"

namespace cuteref {

namespace {

void require_power_of_two_tile(const std::vector<std::int64_t>& tile, const char* operation) {
  for (std::int64_t t : tile)
    if (t < 1 || !std::has_single_bit(static_cast<std::uint64_t>(t)))
      throw Error(std::string(operation) + ": tile extent " + std::to_string(t) +
                  " is not a power of two (an offset splits into the tile's coordinates bit by bit only then)");
}

std::string vector_text(const std::vector<std::int64_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + ")";
}

}  // namespace

LinearLayoutBases to_linear_layout(const F2Layout& f, const std::vector<InputDimBits>& dims,
                                   const std::vector<std::int64_t>& tile) {
  require_power_of_two_tile(tile, "linear_layout");
  const std::vector<std::int64_t> bases = f2_index_bases(f, "linear_layout");
  std::size_t total = 0;
  for (const InputDimBits& d : dims) {
    if (d.bits < 0) throw Error("linear_layout: input dim " + d.name + " has a negative bit count");
    total += static_cast<std::size_t>(d.bits);
  }
  if (total != bases.size())
    throw Error("linear_layout: the input dims take " + std::to_string(total) + " bits, but " + f.to_string() +
                " has " + std::to_string(bases.size()) + " index bits (size " + std::to_string(size_value(f)) + ")");
  std::int64_t tile_size = 1;
  for (std::int64_t t : tile) tile_size = checked_mul(tile_size, t);
  LinearLayoutBases out;
  std::size_t bit = 0;
  for (const InputDimBits& d : dims) {
    LinearLayoutBases::InputDim dim{d.name, {}};
    for (int j = 0; j < d.bits; ++j, ++bit) {
      std::int64_t offset = bases[bit];
      if (tile.empty()) {
        dim.bases.push_back({offset});
        continue;
      }
      if (offset >= tile_size)
        throw Error("linear_layout: " + d.name + " bit " + std::to_string(j) + " gives the offset " +
                    std::to_string(offset) + ", outside the tile of " + std::to_string(tile_size) + " elements");
      std::vector<std::int64_t> coordinate;
      for (std::int64_t t : tile) {
        coordinate.push_back(offset % t);
        offset /= t;
      }
      dim.bases.push_back(std::move(coordinate));
    }
    out.inputs.push_back(std::move(dim));
  }
  return out;
}

F2Layout from_linear_layout(const LinearLayoutBases& bases, const std::vector<std::int64_t>& tile) {
  require_power_of_two_tile(tile, "from_linear_layout");
  const std::size_t out_dims = tile.empty() ? 1 : tile.size();
  std::vector<IntTuple> shapes, strides;
  for (const auto& dim : bases.inputs) {
    std::vector<std::int64_t> offsets;
    for (const auto& v : dim.bases) {
      if (v.size() != out_dims)
        throw Error("from_linear_layout: basis vector " + vector_text(v) + " of " + dim.name + " has " +
                    std::to_string(v.size()) + " entries, the tile has " + std::to_string(out_dims) + " dims");
      std::int64_t offset = 0, scale = 1;
      for (std::size_t d = 0; d < v.size(); ++d) {
        if (v[d] < 0 || (!tile.empty() && v[d] >= tile[d]))
          throw Error("from_linear_layout: basis vector " + vector_text(v) + " of " + dim.name + " is outside the tile");
        offset = checked_add(offset, checked_mul(v[d], scale));
        if (!tile.empty()) scale = checked_mul(scale, tile[d]);
      }
      offsets.push_back(offset);
    }
    const F2Layout mode = f2_layout_from_bits(offsets);
    shapes.push_back(mode.shape());
    strides.push_back(mode.stride());
  }
  if (shapes.empty()) throw Error("from_linear_layout: no input dims");
  if (shapes.size() == 1) return F2Layout(shapes[0], strides[0]);
  return F2Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

}  // namespace cuteref
