#include "atoms/tma.hpp"

#include "coordinates.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "evaluate.hpp"
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
    for (int i = 0; i < n; ++i) s += (i ? "," : "") + std::to_string(a[i]);
    return s + ")";
  };
  static const char* names[] = {"none", "32B", "64B", "128B"};
  return "rank=" + std::to_string(rank) + " elem_bytes=" + std::to_string(element_bytes) + " global_dim=" +
         list(global_dim, rank) + " global_stride_bytes=" + list(global_stride_bytes, rank) + " box_dim=" +
         list(box_dim, rank) + " element_stride=" + list(element_stride, rank) + " swizzle=" +
         names[static_cast<int>(swizzle)] + " interleave=none";
}

TmaParams make_tma_params(const Layout& gmem, const Value& smem, int element_bits) {
  const std::string what = "tma_params(" + gmem.to_string() + ", " + smem.to_string() + ", " +
                           std::to_string(element_bits) + ")";
  if (element_bits != 8 && element_bits != 16 && element_bits != 32 && element_bits != 64)
    throw Error(what + ": element width must be 8, 16, 32 or 64 bits");
  TmaParams p;
  p.element_bytes = element_bits / 8;
  p.smem_layout = smem;

  const Layout* box = nullptr;
  if (smem.is_layout()) {
    box = &std::get<Layout>(smem.data);
  } else if (smem.is_composed()) {
    const auto& c = std::get<ComposedLayout>(smem.data);
    box = &c.layout;
    if (!c.offset || c.offset->value || c.offset->pointer_element_bits != element_bits)
      throw Error(what + ": a swizzled SMEM layout must be `Sw<B,4,3> o smem_ptr[" + std::to_string(element_bits) +
                  "b](unset) o L` (the swizzle acts on byte addresses)");
    const Swizzle& sw = c.swizzle;
    if (sw.base() != 4 || sw.shift() != 3 || sw.bits() < 0 || sw.bits() > 3)
      throw Error(what + ": swizzle " + sw.to_string() + " is not a TMA swizzle mode (Sw<1,4,3>, Sw<2,4,3>, Sw<3,4,3>)");
    p.swizzle = static_cast<TmaSwizzle>(sw.bits());
  } else {
    throw Error(what + ": the SMEM layout must be a layout or a composed layout, got " + smem.kind_name());
  }

  const auto gshape = leaves(gmem.shape()), gstride = leaves(gmem.stride());
  const auto bshape = leaves(box->shape());
  if (gshape.size() > 5) throw Error(what + ": " + std::to_string(gshape.size()) + " dimensions; TMA allows at most 5");
  if (bshape.size() != gshape.size())
    throw Error(what + ": the SMEM box has " + std::to_string(bshape.size()) + " modes but the GMEM tensor has " +
                std::to_string(gshape.size()));
  if (!functional_equal(Value(*box), Value(make_layout(box->shape()))).holds)
    throw Error(what + ": the SMEM layout " + box->to_string() +
                " is not the compact column-major box layout (innermost dimension contiguous)");
  p.rank = static_cast<int>(gshape.size());
  for (int i = 0; i < p.rank; ++i) {
    if (!gstride[i].is_integer()) throw Error(what + ": GMEM stride " + gstride[i].to_string() + " is not an integer");
    const std::int64_t stride = gstride[i].value();
    if (i == 0 && stride != 1)
      throw Error(what + ": the innermost GMEM dimension must be contiguous (stride 1), got stride " + std::to_string(stride));
    if (stride < 0) throw Error(what + ": GMEM stride " + std::to_string(stride) + " is negative");
    const std::int64_t bytes = stride * p.element_bytes;
    if (i > 0 && (bytes % 16 != 0 || bytes >= (std::int64_t{1} << 40)))
      throw Error(what + ": GMEM stride of dimension " + std::to_string(i) + " is " + std::to_string(bytes) +
                  " bytes; TMA needs a multiple of 16 below 2^40");
    p.global_dim[i] = static_cast<std::uint64_t>(gshape[i].value());
    if (p.global_dim[i] > (std::uint64_t{1} << 32))
      throw Error(what + ": GMEM dimension " + std::to_string(i) + " exceeds 2^32 elements");
    p.global_stride_bytes[i] = static_cast<std::uint64_t>(i == 0 ? p.element_bytes : bytes);
    const std::int64_t b = bshape[i].value();
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
  return p;
}

void check_tma_copy(const TmaParams& p, const std::array<std::int64_t, 5>& origin, TmaDirection direction) {
  const bool store = direction == TmaDirection::Store;
  std::string where = std::string(store ? "TMA store" : "TMA load") + " of the box at (";
  for (int i = 0; i < p.rank; ++i) where += (i ? "," : "") + std::to_string(origin[i]);
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
  std::int64_t box_elems = 1;
  for (int i = 0; i < p.rank; ++i) box_elems *= p.box_dim[i];
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

}  // namespace cuteref
