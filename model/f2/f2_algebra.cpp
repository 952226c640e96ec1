#include "f2_algebra.hpp"

#include <bit>
#include <optional>

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "enumeration_budget.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "f2_span.hpp"
#include "layout.hpp"
#include "pointer_swizzle.hpp"
#include "swizzle.hpp"

namespace cuteref {

namespace {

bool is_power_of_two(std::int64_t v) { return v > 0 && std::has_single_bit(static_cast<std::uint64_t>(v)); }
int log2_exact(std::int64_t v) { return std::bit_width(static_cast<std::uint64_t>(v)) - 1; }

// The coalesce rule of f2_algebra.hpp for two adjacent modes (b of size 1 too, for coalesce_z).
bool modes_merge(const F2Mode& a, const F2Mode& b) {
  if (a.stride == 0 && b.stride == 0) return true;
  if (!is_power_of_two(a.shape) || a.stride == 0) return false;
  const int k = log2_exact(a.shape);
  if (bit_width64(a.stride) + k > 63) return false;
  return b.stride == (a.stride << k);
}

std::vector<F2Mode> coalesce_modes(const std::vector<F2Mode>& modes) {
  std::vector<F2Mode> out;
  for (const F2Mode& m : modes) {
    if (m.shape == 1) continue;
    if (!out.empty() && modes_merge(out.back(), m)) {
      out.back().shape = checked_mul(out.back().shape, m.shape);
      out.back().static_shape = out.back().static_shape && m.static_shape;
      continue;
    }
    out.push_back(m);
  }
  return out;
}

// A flat F2 layout of the modes: a leaf for one mode, `1:F0` for none.
F2Layout layout_of_modes(const std::vector<F2Mode>& modes, bool static_unit = false) {
  if (modes.empty()) return F2Layout(IntTuple::integer(1, static_unit), IntTuple::integer(0));
  if (modes.size() == 1)
    return F2Layout(IntTuple::integer(modes[0].shape, modes[0].static_shape), IntTuple::integer(modes[0].stride));
  std::vector<IntTuple> shape, stride;
  for (const F2Mode& m : modes) {
    shape.push_back(IntTuple::integer(m.shape, m.static_shape));
    stride.push_back(IntTuple::integer(m.stride));
  }
  return F2Layout(IntTuple::tuple(std::move(shape)), IntTuple::tuple(std::move(stride)));
}

std::int64_t non_negative_value(std::int64_t v, std::int64_t index, const std::string& what) {
  if (v < 0)
    throw Error(what + ": the value at index " + std::to_string(index) + " is " + std::to_string(v) +
                ", negative; an F2 layout's values are bit patterns (non-negative)");
  return v;
}

// Builds the shape / stride trees of f2_layout_of: each leaf of `shape` (visited in
// colexicographic order, `unit` the index of its coordinate 1) becomes its F2 mode, or the
// coalesced tuple of its bits.
void build_leaves(const IntTuple& shape, std::int64_t& unit, const std::function<std::int64_t(std::int64_t)>& f,
                  const std::string& what, IntTuple& out_shape, IntTuple& out_stride) {
  if (shape.is_tuple()) {
    std::vector<IntTuple> shapes(shape.rank()), strides(shape.rank());
    for (std::size_t i = 0; i < shape.rank(); ++i) build_leaves(shape[i], unit, f, what, shapes[i], strides[i]);
    out_shape = IntTuple::tuple(std::move(shapes));
    out_stride = IntTuple::tuple(std::move(strides));
    return;
  }
  const std::int64_t s = shape.value();
  if (s == 1 || !is_power_of_two(s)) {
    out_shape = shape;
    out_stride = IntTuple::integer(s == 1 ? 0 : non_negative_value(f(unit), unit, what));
  } else {
    std::vector<F2Mode> bits;
    for (int j = 0; (std::int64_t{1} << j) < s; ++j) {
      const std::int64_t index = checked_mul(unit, std::int64_t{1} << j);
      bits.push_back({2, non_negative_value(f(index), index, what), false});
    }
    std::vector<F2Mode> merged = coalesce_modes(bits);
    if (merged.size() <= 1) {
      out_shape = shape;  // one mode of the whole leaf (or all bits F0: merged into one)
      out_stride = IntTuple::integer(merged.empty() ? 0 : merged[0].stride);
    } else {
      for (F2Mode& m : merged) m.static_shape = shape.is_static();
      const F2Layout sub = layout_of_modes(merged);
      out_shape = sub.shape();
      out_stride = sub.stride();
    }
  }
  unit = checked_mul(unit, s);
}

std::int64_t layout_like_value(const Value& v, std::int64_t index) {
  const IntTuple r = evaluate_at(v, index);
  if (!r.is_integer())
    throw Error("F2 layouts: " + v.to_string() + " gives the coordinate " + r.to_string() + " at index " +
                std::to_string(index) + ", not an integer offset");
  return r.value();
}

const IntTuple& layout_like_shape(const Value& v, const std::string& fn) {
  if (v.is_layout()) return std::get<Layout>(v.data).shape();
  if (v.is_composed()) return std::get<ComposedLayout>(v.data).layout.shape();
  if (v.is_f2_layout()) return std::get<F2Layout>(v.data).shape();
  throw Error(fn + ": expected a layout, composed layout or F2 layout, got " + v.kind_name() + " `" + v.to_string() + "`");
}

std::int64_t image_bits(const std::vector<std::int64_t>& bases) {
  std::int64_t all = 0;
  for (std::int64_t b : bases) all |= b;
  return all;
}

// Two indices with one value when the bases are dependent, as a diagnostic.
void require_injective(const F2Layout& f, const std::vector<std::int64_t>& bases, const char* operation) {
  F2Span span;
  for (std::size_t j = 0; j < bases.size(); ++j) {
    const auto made_of = span.insert(static_cast<std::uint64_t>(bases[j]), std::uint64_t{1} << j);
    if (!made_of) continue;
    const std::uint64_t index = (std::uint64_t{1} << j) ^ *made_of;  // F(index) == 0 == F(0)
    throw Error(std::string(operation) + ": " + f.to_string() + " is not injective: indices 0 and " +
                std::to_string(index) + " both give 0 (an inverse or complement needs distinct values)");
  }
}

}  // namespace

std::int64_t cosize(const F2Layout& l) {
  int width = 0;
  for (const F2Mode& m : flat_modes(l))
    if (m.shape > 1 && m.stride != 0) width = std::max(width, bit_width64(m.shape - 1) + bit_width64(m.stride) - 1);
  if (width > 62) throw Error("cosize: " + l.to_string() + " reaches bit " + std::to_string(width - 1) + ", its cosize 2^" +
                              std::to_string(width) + " overflows 64 bits");
  return std::int64_t{1} << width;
}

F2Layout coalesce(const F2Layout& l) {
  bool all_static = true;
  for (const F2Mode& m : flat_modes(l)) all_static = all_static && m.static_shape;
  return layout_of_modes(coalesce_modes(flat_modes(l)), all_static);
}

F2Layout coalesce_z(const F2Layout& l) {
  std::vector<F2Mode> out;
  bool all_static = true;
  for (const F2Mode& m : flat_modes(l)) {
    all_static = all_static && m.static_shape;
    while (!out.empty() && out.back().shape == 1) out.pop_back();
    if (!out.empty() && modes_merge(out.back(), m)) {
      // A merged size-1 mode changes nothing, not even whether the shape is static.
      if (m.shape == 1) continue;
      out.back().shape = checked_mul(out.back().shape, m.shape);
      out.back().static_shape = out.back().static_shape && m.static_shape;
      continue;
    }
    out.push_back(m);
  }
  return layout_of_modes(out, all_static);
}

F2Layout f2_layout_from_bits(const std::vector<std::int64_t>& bit_strides) {
  std::vector<F2Mode> modes;
  for (std::int64_t s : bit_strides) modes.push_back({2, s, false});
  return layout_of_modes(coalesce_modes(modes));
}

F2Layout f2_layout_of(const IntTuple& shape, const std::function<std::int64_t(std::int64_t)>& f,
                      const std::string& what) {
  std::int64_t unit = 1;
  IntTuple out_shape, out_stride;
  build_leaves(shape, unit, f, what, out_shape, out_stride);
  F2Layout result(out_shape, out_stride);
  const std::int64_t n = size_value(result);
  if (n > kMaxEnumeratedEquality)
    throw Error(what + ": size " + std::to_string(n) + " is more than the " + std::to_string(kMaxEnumeratedEquality) +
                " indices checked one by one for an F2 layout");
  charge_enumeration(n, what.c_str());
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t want = non_negative_value(f(i), i, what), got = apply_index(result, i);
    if (want != got)
      throw Error(what + ": not an F2 layout: at index " + std::to_string(i) + " the function gives " +
                  std::to_string(want) + ", the XOR of its values at the unit coordinates gives " +
                  std::to_string(got) + " (" + result.to_string() + ")");
  }
  return result;
}

F2Layout to_f2(const Value& x) {
  if (x.is_f2_layout()) return std::get<F2Layout>(x.data);
  if (x.is_layout() && std::get<Layout>(x.data).has_basis_strides())
    throw Error("to_f2: " + x.to_string() + " has scaled-basis strides (it maps to coordinates, not offsets)");
  const IntTuple& shape = layout_like_shape(x, "to_f2");
  return f2_layout_of(shape, [&](std::int64_t i) { return layout_like_value(x, i); }, "to_f2(" + x.to_string() + ")");
}

F2Layout f2_composition(const Value& a, const Value& b) {
  const IntTuple& shape = layout_like_shape(b, "composition");
  const std::string what = "composition(" + a.to_string() + ", " + b.to_string() + ")";
  if (a.is_swizzle()) {  // a swizzle is linear over GF(2): Sw o F is an F2 layout
    const Swizzle& sw = std::get<Swizzle>(a.data);
    return f2_layout_of(shape, [&](std::int64_t i) { return sw(layout_like_value(b, i)); }, what);
  }
  (void)layout_like_shape(a, "composition");
  return f2_layout_of(shape, [&](std::int64_t i) { return layout_like_value(a, layout_like_value(b, i)); }, what);
}

Value from_f2(const F2Layout& f) {
  const std::vector<std::int64_t> bases = f2_index_bases(f, "from_f2");
  const std::vector<F2Mode> modes = flat_modes(f);
  const int width = bit_width64(image_bits(bases));
  // Sw o L == F with Sw an involution: L's bit values are Sw's of F's. L is an integer layout
  // with that F2-linear function exactly when, per leaf, bit j's value is bit 0's shifted by j,
  // and the non-zero values share no bit (then every sum of them is their XOR).
  const auto integer_strides = [&](const auto& swizzle) -> std::optional<std::vector<std::int64_t>> {
    std::vector<std::int64_t> strides;
    std::int64_t seen = 0;
    std::size_t bit = 0;
    for (const F2Mode& m : modes) {
      const int n = log2_exact(m.shape);
      const std::int64_t first = n == 0 ? 0 : swizzle(bases[bit]);
      for (int j = 0; j < n; ++j, ++bit) {
        const std::int64_t g = swizzle(bases[bit]);
        if (bit_width64(first) + j > 63 || g != (first << j)) return std::nullopt;
        if ((g & seen) != 0) return std::nullopt;
        seen |= g;
      }
      strides.push_back(first);
    }
    return strides;
  };
  const auto layout_with = [&](const std::vector<std::int64_t>& strides) {
    std::size_t k = 0;
    std::function<IntTuple(const IntTuple&)> rebuild = [&](const IntTuple& s) -> IntTuple {
      if (!s.is_tuple()) return IntTuple::integer(strides[k++]);
      std::vector<IntTuple> elems;
      for (std::size_t i = 0; i < s.rank(); ++i) elems.push_back(rebuild(s[i]));
      return IntTuple::tuple(std::move(elems));
    };
    IntTuple stride = rebuild(f.shape());
    // Each top-level mode coalesced (the bits an F2 layout had to split, e.g. (2,4):(F16,F36) of a
    // swizzled 8:16, are one integer mode again); the rank stays F's.
    const Layout l(f.shape(), stride);
    if (!f.shape().is_tuple()) return coalesce(l);
    return coalesce(l, IntTuple::tuple_made(f.shape().rank(), [](std::size_t) { return IntTuple::integer(1); }));
  };
  if (auto s = integer_strides([](std::int64_t v) { return v; })) return Value(layout_with(*s));
  for (int b = 1; b <= width; ++b)
    for (int m = 0; b + m <= width; ++m)
      for (int sign : {1, -1})
        for (int shift = b; b + m + shift <= width; ++shift) {
          const Swizzle sw(b, m, sign * shift);
          if (auto s = integer_strides([&](std::int64_t v) { return sw(v); }))
            return Value(ComposedLayout{sw, std::nullopt, layout_with(*s)});
        }
  throw Error("from_f2: " + f.to_string() + " is neither an integer layout nor Sw<B,M,S> o L for a swizzle whose bits "
              "lie in its " + std::to_string(width) + "-bit image");
}

Value from_f2(const F2Layout& f, int element_bits) {
  if (element_bits < 8 || !is_power_of_two(element_bits))
    throw Error("from_f2: element width " + std::to_string(element_bits) +
                " bits: behind an smem pointer it must be a power of two of at least 8 bits (whole bytes)");
  Value element_form = from_f2(f);
  if (!element_form.is_composed()) return element_form;
  ComposedLayout c = std::get<ComposedLayout>(std::move(element_form.data));
  const Swizzle bytes(c.swizzle.bits(), c.swizzle.base() + log2_exact(element_bits) - 3, c.swizzle.shift());
  if (!(element_swizzle(bytes, element_bits) == c.swizzle))
    throw Error("from_f2: the element swizzle " + c.swizzle.to_string() + " has no byte form on " +
                std::to_string(element_bits) + "-bit elements");
  c.swizzle = bytes;
  c.offset = ComposedOffset{std::nullopt, "smem_ptr[" + std::to_string(element_bits) + "b](unset)", element_bits};
  return Value(std::move(c));
}

F2Layout right_inverse(const F2Layout& f) {
  const std::vector<std::int64_t> bases = f2_index_bases(f, "right_inverse");
  F2Span span;
  for (std::size_t j = 0; j < bases.size(); ++j) span.insert(static_cast<std::uint64_t>(bases[j]), std::uint64_t{1} << j);
  // The preimage of 2^t is the index whose bits are the bases that XOR to it.
  std::vector<std::int64_t> preimages;
  for (int t = 0; t < 63; ++t) {
    const auto index = span.express(std::uint64_t{1} << t);
    if (!index) break;
    preimages.push_back(static_cast<std::int64_t>(*index));
  }
  return f2_layout_from_bits(preimages);
}

F2Layout left_inverse(const F2Layout& f) {
  const std::vector<std::int64_t> bases = f2_index_bases(f, "left_inverse");
  require_injective(f, bases, "left_inverse");
  const int width = bit_width64(image_bits(bases));
  // Tags: the index bits for F's bases, 0 for the unit bits that complete them to all of
  // [0, 2^width): G maps those complement directions to 0.
  F2Span span;
  for (std::size_t j = 0; j < bases.size(); ++j) span.insert(static_cast<std::uint64_t>(bases[j]), std::uint64_t{1} << j);
  for (int t = 0; t < width; ++t) span.insert(std::uint64_t{1} << t, 0);
  std::vector<std::int64_t> strides;
  for (int t = 0; t < width; ++t) strides.push_back(static_cast<std::int64_t>(*span.express(std::uint64_t{1} << t)));
  return f2_layout_from_bits(strides);
}

F2Layout complement(const F2Layout& f, std::int64_t cotarget) {
  if (!is_power_of_two(cotarget))
    throw Error("complement: cotarget " + std::to_string(cotarget) + " of the F2 layout " + f.to_string() +
                " must be a power of two (the complement is a set of whole bits)");
  const std::vector<std::int64_t> bases = f2_index_bases(f, "complement");
  require_injective(f, bases, "complement");
  const int width = std::max(bit_width64(image_bits(bases)), log2_exact(cotarget));
  F2Span span;
  for (std::int64_t b : bases) span.insert(static_cast<std::uint64_t>(b), 0);
  std::vector<std::int64_t> bits;
  for (int t = 0; t < width; ++t)
    if (!span.insert(std::uint64_t{1} << t, 0)) bits.push_back(std::int64_t{1} << t);
  return f2_layout_from_bits(bits);
}

F2Layout complement(const F2Layout& f) { return complement(f, 1); }

}  // namespace cuteref
