#include "atoms/tma.hpp"

#include "atoms/tma_cta_tiler.hpp"

#include "coordinates.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "inverse.hpp"
#include "checked_math.hpp"
#include "make_layout.hpp"

namespace cuteref {

namespace {

std::vector<IntTuple> leaves(const IntTuple& t) {
  std::vector<IntTuple> out;
  flatten_into(t, out);
  return out;
}

}  // namespace

std::string TmaParams::to_string() const {
  auto list = [&](auto const& a, int n) {
    std::string s = "(";
    for (int i = 0; i < n; ++i) {
      if (i) s += ',';
      s += std::to_string(a[i]);
    }
    return s + ")";
  };
  static const char* names[] = {"none", "32B", "64B", "128B"};
  return "rank=" + std::to_string(rank) + " elem_bytes=" + std::to_string(element_bytes) + " global_dim=" +
         list(global_dim, rank) + " global_stride_bytes=" + list(global_stride_bytes, rank) + " box_dim=" +
         list(box_dim, rank) + " element_stride=" + list(element_stride, rank) + " swizzle=" +
         names[static_cast<int>(swizzle)] + " interleave=none";
}

namespace {

const Layout& layout_part(const Value& v) {
  return v.is_composed() ? std::get<ComposedLayout>(v.data).layout : std::get<Layout>(v.data);
}

// One GMEM mode, flattened, with CuTe's static flags.
struct GmemMode {
  std::int64_t shape, stride;
  bool static_shape, static_stride;
};

// A run of the SMEM storage order: `extent` consecutive SMEM elements that step tile
// coordinate `dim` by `step` each.
struct StorageRun {
  std::int64_t extent;
  int dim;  // -1 when the run does not walk a single tile coordinate
  std::int64_t step;
};

// The SMEM storage order of the tile: the right inverse of L (SMEM offset -> tile index) read as
// runs over the tile's coordinates, adjacent runs of one coordinate merged when the second
// continues the first (CuTe coalesces the inverse the same way).
std::vector<StorageRun> storage_runs(const Layout& l, const std::vector<std::int64_t>& tile) {
  const Layout inv = right_inverse_full(l);
  std::vector<IntTuple> sh, st;
  flatten_into(inv.shape(), sh);
  flatten_into(inv.stride(), st);
  std::vector<StorageRun> runs;
  const auto add = [&](const StorageRun& r) {
    if (!runs.empty() && r.dim >= 0 && runs.back().dim == r.dim && r.step == runs.back().extent * runs.back().step)
      runs.back().extent *= r.extent;
    else
      runs.push_back(r);
  };
  for (std::size_t k = 0; k < sh.size(); ++k) {
    std::int64_t extent = sh[k].value(), u = st[k].value();
    // A run of step 1 through a whole coordinate carries into the next one (the inverse of a
    // compact (64,8):(1,64) is 512:1, which is 64 along coordinate 0, then 8 along coordinate 1).
    while (extent > 1) {
      std::int64_t prefix = 1;  // tile index stride of coordinate d
      std::size_t d = 0;
      while (d < tile.size() && !(u % prefix == 0 && u / prefix < tile[d])) prefix = checked_mul(prefix, tile[d++]);
      if (d == tile.size() || u == 0) {
        add({extent, -1, 0});
        break;
      }
      const std::int64_t c = u / prefix;
      if (c == 1 && extent > tile[d] && extent % tile[d] == 0) {
        add({tile[d], static_cast<int>(d), 1});
        extent /= tile[d];
        u = checked_mul(prefix, tile[d]);
        continue;
      }
      add({extent, c * (extent - 1) < tile[d] ? static_cast<int>(d) : -1, c});
      break;
    }
  }
  return runs;
}

bool has_hierarchical_mode(const Layout& l) {
  for (std::size_t m = 0; m < rank(l); ++m)
    if (mode(l, m).shape().is_tuple()) return true;
  return false;
}

// The SMEM tile layout of `smem` (a Layout or `Sw<B,4,3> o smem_ptr[BITS b](unset) o L`), the
// swizzle mode recorded in `p`. Checks the element width and the swizzle.
const Layout& smem_tile_of(const std::string& what, const Value& smem, int element_bits, TmaParams& p) {
  if (element_bits != 8 && element_bits != 16 && element_bits != 32 && element_bits != 64)
    throw Error(what + ": element width must be 8, 16, 32 or 64 bits");
  p.element_bytes = element_bits / 8;
  p.smem_layout = smem;
  if (smem.is_layout()) return std::get<Layout>(smem.data);
  if (!smem.is_composed())
    throw Error(what + ": the SMEM layout must be a layout or a composed layout, got " + smem.kind_name());
  const auto& c = std::get<ComposedLayout>(smem.data);
  if (!c.offset || c.offset->value || c.offset->pointer_element_bits != element_bits)
    throw Error(what + ": a swizzled SMEM layout must be `Sw<B,4,3> o smem_ptr[" + std::to_string(element_bits) +
                "b](unset) o L` (the swizzle acts on byte addresses)");
  const Swizzle& sw = c.swizzle;
  if (sw.base() != 4 || sw.shift() != 3 || sw.bits() < 0 || sw.bits() > 3)
    throw Error(what + ": swizzle " + sw.to_string() + " is not a TMA swizzle mode (Sw<1,4,3>, Sw<2,4,3>, Sw<3,4,3>)");
  p.swizzle = static_cast<TmaSwizzle>(sw.bits());
  return c.layout;
}

// The rest of the derivation once the TMA dimensions' GMEM leaves and box are known: folding
// past rank 5, the multicast slice, globalDim and globalStrides, and the hardware's limits.
void complete_tma_params(const std::string& what, const Layout& gmem, std::vector<std::vector<int>> tma_modes,
                         std::vector<std::int64_t> box, int num_multicast, TmaParams& p);

}  // namespace

TmaParams make_tma_params(const Layout& gmem, const Value& smem, const IntTuple& cta_tiler, int element_bits,
                          int num_multicast) {
  const std::string what = "tma_params(" + gmem.to_string() + ", " + smem.to_string() + ", " +
                           std::to_string(element_bits) + ", " + cta_tiler.to_string() +
                           (num_multicast != 1 ? ", " + std::to_string(num_multicast) : "") + ")";
  if (num_multicast < 1 || num_multicast > 16)
    throw Error(what + ": the multicast count must be 1 to 16 CTAs, got " + std::to_string(num_multicast));
  TmaParams p;
  const Layout& tile_layout = smem_tile_of(what, smem, element_bits, p);
  TmaBoxModes m = tma_box_modes_for_tiler(what, gmem, tile_layout, cta_tiler);
  complete_tma_params(what, gmem, std::move(m.modes), std::move(m.box), num_multicast, p);
  return p;
}

TmaParams make_tma_params(const Layout& gmem, const Value& smem, int element_bits, int num_multicast) {
  const std::string what = "tma_params(" + gmem.to_string() + ", " + smem.to_string() + ", " +
                           std::to_string(element_bits) + (num_multicast != 1 ? ", " + std::to_string(num_multicast) : "") + ")";
  if (num_multicast < 1 || num_multicast > 16)
    throw Error(what + ": the multicast count must be 1 to 16 CTAs, got " + std::to_string(num_multicast));
  TmaParams p;
  const Layout* tile_layout = &smem_tile_of(what, smem, element_bits, p);
  // A hierarchical GMEM mode is tiled as CuTe's default CTA tiler does: SMEM mode d's size
  // taken from top-level GMEM mode d, colexicographically.
  if (has_hierarchical_mode(gmem)) {
    std::vector<IntTuple> sizes;
    for (std::size_t d = 0; d < rank(*tile_layout); ++d) {
      const Layout m = mode(*tile_layout, d);
      sizes.push_back(IntTuple::integer(size_value(m), m.shape().all_static()));
    }
    if (sizes.size() > rank(gmem))
      throw Error(what + ": the SMEM box has " + std::to_string(sizes.size()) + " modes but the GMEM tensor has " +
                  std::to_string(rank(gmem)) + " (mode d of the SMEM layout tiles GMEM mode d)");
    TmaBoxModes m = tma_box_modes_for_tiler(what, gmem, *tile_layout, IntTuple::tuple(sizes));
    complete_tma_params(what, gmem, std::move(m.modes), std::move(m.box), num_multicast, p);
    return p;
  }

  // GMEM modes (flattened) and the tile: mode d of the SMEM layout covers GMEM mode d.
  std::vector<GmemMode> g;
  {
    const auto gshape = leaves(gmem.shape()), gstride = leaves(gmem.stride());
    for (std::size_t j = 0; j < gshape.size(); ++j) {
      if (!gstride[j].is_integer()) throw Error(what + ": GMEM stride " + gstride[j].to_string() + " is not an integer");
      if (gstride[j].value() < 0) throw Error(what + ": GMEM stride " + gstride[j].to_string() + " is negative");
      g.push_back({gshape[j].value(), gstride[j].value(), gshape[j].is_static(), gstride[j].is_static()});
    }
  }
  // The SMEM tile covers the leading GMEM modes (CuTe's CTA tiler); further GMEM modes (a batch
  // mode L) are walked by no box dimension and follow with box extent 1 below.
  if (rank(*tile_layout) > g.size())
    throw Error(what + ": the SMEM box has " + std::to_string(rank(*tile_layout)) + " modes but the GMEM tensor has " +
                std::to_string(g.size()) + " (mode d of the SMEM layout tiles GMEM mode d)");
  std::vector<std::int64_t> tile;
  for (std::size_t d = 0; d < rank(*tile_layout); ++d) tile.push_back(size_value(mode(*tile_layout, d)));

  // The box: the SMEM storage order's leading runs that step one GMEM coordinate by 1 each (a
  // copy writes its box to SMEM innermost dimension first). A tile of several boxes is copied
  // box by box; the tensor map describes one.
  const std::vector<StorageRun> runs = storage_runs(*tile_layout, tile);
  std::vector<std::vector<int>> tma_modes;  // GMEM modes of each TMA dimension
  std::vector<std::int64_t> box;
  {
    // CuTe merges box dimensions that are provably (statically) contiguous in GMEM, up to 256.
    const bool static_box = tile_layout->shape().all_static();
    for (const StorageRun& r : runs) {
      if (r.dim < 0 || r.step != 1) break;
      const GmemMode& m = g[static_cast<std::size_t>(r.dim)];
      if (!tma_modes.empty()) {
        // CuTe's coalesce_256 compares with the extent and stride of the whole dimension so far.
        const GmemMode& prev = g[static_cast<std::size_t>(tma_modes.back().front())];
        if (static_box && prev.static_stride && m.static_stride && box.back() * prev.stride == m.stride &&
            box.back() * r.extent <= 256) {
          tma_modes.back().push_back(r.dim);
          box.back() *= r.extent;
          continue;
        }
      }
      tma_modes.push_back({r.dim});
      box.push_back(r.extent);
    }
  }
  if (tma_modes.empty())
    throw Error(what + ": the SMEM layout " + tile_layout->to_string() +
                " does not start with a run of consecutive elements of one GMEM mode (no TMA box)");
  // GMEM modes the box does not walk follow as box extent 1 (static extent-1 or stride-0 modes
  // contribute nothing and are left out, as CuTe does).
  for (std::size_t j = 0; j < g.size(); ++j) {
    bool used = false;
    for (const auto& t : tma_modes)
      for (int d : t) used = used || d == static_cast<int>(j);
    if (used || (g[j].static_shape && g[j].shape == 1) || (g[j].static_stride && g[j].stride == 0)) continue;
    tma_modes.push_back({static_cast<int>(j)});
    box.push_back(1);
  }
  complete_tma_params(what, gmem, std::move(tma_modes), std::move(box), num_multicast, p);
  return p;
}

namespace {

void complete_tma_params(const std::string& what, const Layout& gmem, std::vector<std::vector<int>> tma_modes,
                         std::vector<std::int64_t> box, int num_multicast, TmaParams& p) {
  std::vector<GmemMode> g;
  {
    const auto gshape = leaves(gmem.shape()), gstride = leaves(gmem.stride());
    for (std::size_t j = 0; j < gshape.size(); ++j)
      g.push_back({gshape[j].value(), gstride[j].value(), gshape[j].is_static(), gstride[j].is_static()});
  }
  // More than 5: the trailing dimensions fold into the fifth, as CuTe groups them (its extent
  // then spans their offsets with the gcd of their strides, below).
  if (tma_modes.size() > 5) {
    for (std::size_t i = 5; i < tma_modes.size(); ++i) {
      tma_modes[4].insert(tma_modes[4].end(), tma_modes[i].begin(), tma_modes[i].end());
      box[4] = checked_mul(box[4], box[i]);
    }
    tma_modes.resize(5);
    box.resize(5);
  }
  p.rank = static_cast<int>(tma_modes.size());
  p.tma_modes = tma_modes;
  // Multicast: each of the CTAs loads a slice of the box; CuTe truncates the box from its
  // outermost dimension inwards (copy_traits_sm90_tma.hpp, make_tma_copy_desc).
  for (int i = p.rank - 1, left = num_multicast; left > 1; --i) {
    if (i < 0) throw Error(what + ": the box has fewer elements than the " + std::to_string(num_multicast) + " multicast CTAs");
    std::int64_t& b = box[static_cast<std::size_t>(i)];
    if (b % left != 0 && left % b != 0)
      throw Error(what + ": box dimension " + std::to_string(i) + " (" + std::to_string(b) + ") and the remaining multicast count " +
                  std::to_string(left) + " do not divide one another (CuTe asserts it)");
    const std::int64_t next = (left + b - 1) / b;
    b = (b + left - 1) / left;
    left = static_cast<int>(next);
  }

  for (int i = 0; i < p.rank; ++i) {
    // A TMA dimension over several GMEM modes spans their offsets with the gcd of their strides.
    std::int64_t dim = 1, stride = 0;
    for (int d : tma_modes[static_cast<std::size_t>(i)]) {
      const GmemMode& m = g[static_cast<std::size_t>(d)];
      const std::int64_t old = stride;
      stride = gcd64(stride, m.stride);
      dim = stride == 0 ? m.shape
                        : checked_add(checked_add(checked_mul(dim - 1, old / stride), checked_mul(m.shape - 1, m.stride / stride)), 1);
    }
    if (i == 0 && stride != 1)
      throw Error(what + ": the innermost box dimension (GMEM mode " + std::to_string(tma_modes[0][0]) +
                  ") must be contiguous in GMEM (stride 1), got stride " + std::to_string(stride));
    const std::int64_t bytes = checked_mul(stride, p.element_bytes);
    if (i > 0 && (bytes % 16 != 0 || bytes >= (std::int64_t{1} << 40)))
      throw Error(what + ": GMEM stride of dimension " + std::to_string(i) + " is " + std::to_string(bytes) +
                  " bytes; TMA needs a multiple of 16 below 2^40");
    if (dim < 1 || dim > (std::int64_t{1} << 32))
      throw Error(what + ": GMEM dimension " + std::to_string(i) + " has " + std::to_string(dim) +
                  " elements; TMA allows 1 to 2^32");
    p.global_dim[i] = static_cast<std::uint64_t>(dim);
    p.global_stride_bytes[i] = static_cast<std::uint64_t>(i == 0 ? p.element_bytes : bytes);
    const std::int64_t b = box[static_cast<std::size_t>(i)];
    if (b > 256) throw Error(what + ": box dimension " + std::to_string(i) + " is " + std::to_string(b) + "; TMA allows at most 256");
    p.box_dim[i] = static_cast<std::uint32_t>(b);
    p.element_stride[i] = 1;
  }
  const std::int64_t inner_bytes = std::int64_t{p.box_dim[0]} * p.element_bytes;
  if (inner_bytes % 16 != 0)
    throw Error(what + ": the inner box dimension spans " + std::to_string(inner_bytes) + " bytes; TMA needs a multiple of 16");
  if (p.swizzle != TmaSwizzle::None) {
    const std::int64_t span = std::int64_t{16} << static_cast<int>(p.swizzle);
    // The copy engine lays a swizzled box out with rows of the swizzle width: a narrower
    // inner box is not the compact layout (and overruns the compact box's shared memory).
    if (inner_bytes != span)
      throw Error(what + ": a swizzled TMA box needs an inner dimension of exactly the " + std::to_string(span) +
                  "-byte swizzle width; it spans " + std::to_string(inner_bytes) + " bytes");
  }
}

}  // namespace

void check_tma_copy(const TmaParams& p, const std::array<std::int64_t, 5>& origin, TmaDirection direction) {
  const bool store = direction == TmaDirection::Store;
  std::string where = std::string(store ? "TMA store" : "TMA load") + " of the box at (";
  for (int i = 0; i < p.rank; ++i) {
    if (i) where += ',';
    where += std::to_string(origin[i]);
  }
  where += ")";
  if ((origin[0] * p.element_bytes) % 16 != 0)
    throw Error(where + ": the innermost start must be a multiple of 16 bytes; it is " +
                std::to_string(origin[0] * p.element_bytes) + " bytes");
  bool negative = false;
  for (int i = 0; i < p.rank; ++i) negative = negative || origin[i] < 0;
  if (negative && store) throw Error(where + ": a TMA store cannot start before the tensor (negative coordinate)");
  const std::int64_t inner_end = origin[0] + p.box_dim[0];
  if (store && (static_cast<std::int64_t>(p.global_dim[0]) * p.element_bytes) % 16 != 0 &&
      inner_end > static_cast<std::int64_t>(p.global_dim[0]))
    throw Error(where + ": a store must not hang over the end of an innermost dimension that is not a multiple of "
                "16 bytes (it is " + std::to_string(p.global_dim[0] * p.element_bytes) +
                "): the copy engine writes whole 16-byte granules past it");
}

std::vector<std::int64_t> tma_predicted_image(const TmaParams& p, const Layout& gmem,
                                              const std::array<std::int64_t, 5>& origin) {
  const auto gshape = leaves(gmem.shape()), gstride = leaves(gmem.stride());
  // Parameters written by hand (no tma_modes) are taken as GMEM mode i for dimension i.
  bool identity = static_cast<int>(gshape.size()) == p.rank;
  for (int i = 0; identity && !p.tma_modes.empty() && i < p.rank; ++i)
    identity = p.tma_modes[static_cast<std::size_t>(i)] == std::vector<int>{i};
  if (!identity)
    throw Error("tma image: the prediction needs TMA dimension i to be GMEM mode i (a single box stored innermost "
                "GMEM mode first); " + p.to_string());
  std::int64_t box_elems = 1;
  for (int i = 0; i < p.rank; ++i) box_elems *= p.box_dim[i];
  if (box_elems != size_value(layout_part(p.smem_layout)))
    throw Error("tma image: the SMEM layout " + p.smem_layout.to_string() + " holds several boxes; the prediction is for one");
  std::vector<std::int64_t> image(static_cast<std::size_t>(box_elems), -2);
  for (std::int64_t e = 0; e < box_elems; ++e) {
    // Box coordinate of the e-th box element (colexicographic, innermost first).
    std::int64_t rest = e, gmem_offset = 0;
    bool in_bounds = true;
    for (int i = 0; i < p.rank; ++i) {
      const std::int64_t c = origin[i] + rest % p.box_dim[i];
      rest /= p.box_dim[i];
      if (c < 0 || c >= gshape[i].value()) in_bounds = false;
      else gmem_offset += c * gstride[i].value();
    }
    const std::int64_t pos = evaluate_at(p.smem_layout, e).value();
    if (pos < 0 || pos >= box_elems)
      throw Error("tma image: SMEM layout maps box element " + std::to_string(e) + " to " + std::to_string(pos) +
                  ", outside the box");
    image[static_cast<std::size_t>(pos)] = in_bounds ? gmem_offset : -1;
  }
  return image;
}

TmaCopies tma_copies(const Layout& gmem, const Value& smem, int element_bits) {
  const std::string what = "tma_copies(" + gmem.to_string() + ", " + smem.to_string() + ", " + std::to_string(element_bits) + ")";
  // The copies below walk SMEM mode d along flattened GMEM mode d.
  if (has_hierarchical_mode(gmem))
    throw Error(what + ": the boxes of a tile over a hierarchical GMEM mode are not modelled (flatten the GMEM layout)");
  const TmaParams p = make_tma_params(gmem, smem, element_bits);
  const Layout& l = layout_part(smem);
  std::vector<std::int64_t> tile;
  for (std::size_t d = 0; d < rank(l); ++d) tile.push_back(size_value(mode(l, d)));
  const std::vector<StorageRun> runs = storage_runs(l, tile);
  const auto gstride = leaves(gmem.stride());

  // The TMA dimension of each GMEM mode, and the coordinate step of one step of that mode (1,
  // or its stride over the gcd of a merged dimension's strides).
  std::vector<int> tma_dim(gstride.size(), -1);
  std::vector<std::int64_t> scale(gstride.size(), 1);
  for (int j = 0; j < p.rank; ++j) {
    const auto& group = p.tma_modes[static_cast<std::size_t>(j)];
    std::int64_t g = 0;
    for (int d : group) g = gcd64(g, gstride[static_cast<std::size_t>(d)].value());
    for (int d : group) {
      tma_dim[static_cast<std::size_t>(d)] = j;
      if (group.size() > 1) scale[static_cast<std::size_t>(d)] = gstride[static_cast<std::size_t>(d)].value() / g;
    }
  }
  std::int64_t box_elems = 1;
  for (int j = 0; j < p.rank; ++j) box_elems = checked_mul(box_elems, p.box_dim[j]);

  // The runs past the box enumerate the copies in SMEM order.
  std::vector<IntTuple> shape, offset, coord;
  std::int64_t covered = 1;
  for (const StorageRun& r : runs) {
    if (covered < box_elems) {
      covered = checked_mul(covered, r.extent);
      continue;
    }
    if (r.dim < 0 || tma_dim[static_cast<std::size_t>(r.dim)] < 0)
      throw Error(what + ": the SMEM layout " + l.to_string() + " orders its boxes along no single GMEM mode");
    shape.push_back(IntTuple::static_int(r.extent));
    offset.push_back(IntTuple::static_int(covered));
    coord.push_back(IntTuple::basis(checked_mul(r.step, scale[static_cast<std::size_t>(r.dim)]),
                                    {tma_dim[static_cast<std::size_t>(r.dim)]}, true));
    covered = checked_mul(covered, r.extent);
  }
  if (covered != size_value(l))
    throw Error(what + ": the SMEM layout " + l.to_string() + " is not a whole number of boxes stored one after another");
  if (shape.empty()) {
    const Layout one(IntTuple::static_int(1), IntTuple::static_int(0));
    return {one, one};
  }
  const IntTuple sh = shape.size() == 1 ? shape[0] : IntTuple::tuple(shape);
  return {Layout(sh, shape.size() == 1 ? offset[0] : IntTuple::tuple(offset)),
          Layout(sh, shape.size() == 1 ? coord[0] : IntTuple::tuple(coord))};
}

}  // namespace cuteref
