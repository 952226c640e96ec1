#include "layout.hpp"

#include <algorithm>
#include <thread>
#include <type_traits>

#include "checked_math.hpp"
#include "cosize_generic.hpp"
#include "error.hpp"
#include "layout_writer.hpp"
#include "leaf_policies.hpp"
#include "small_vector.hpp"

namespace cuteref {

namespace {

void check_leaves(const IntTuple& shape, const IntTuple& stride, const IntTuple& whole_shape,
                  const IntTuple& whole_stride) {
  if (shape.is_tuple()) {
    for (std::size_t i = 0; i < shape.rank(); ++i)
      check_leaves(shape[i], stride[i], whole_shape, whole_stride);
    return;
  }
  if (!shape.is_integer())
    throw Error("layout " + whole_shape.to_string() + ":" + whole_stride.to_string() +
                ": shape leaf " + shape.to_string() + " must be an integer");
  if (shape.value() < 1)
    throw Error("layout " + whole_shape.to_string() + ":" + whole_stride.to_string() +
                ": shape leaf " + shape.to_string() + " must be >= 1");
  if (!stride.is_integer() && !stride.is_basis())
    throw Error("layout " + whole_shape.to_string() + ":" + whole_stride.to_string() +
                ": stride leaf " + stride.to_string() + " must be an integer or a scaled basis");
}

// The invariants in one walk without building any text; the diagnostics are built only when
// this says the layout is invalid.
bool valid_layout(const IntTuple& shape, const IntTuple& stride) {
  if (shape.is_tuple()) {
    if (!stride.is_tuple()) return false;
    const auto &s = shape.elements(), &d = stride.elements();
    if (s.size() != d.size()) return false;
    for (std::size_t i = 0; i < s.size(); ++i)
      if (!valid_layout(s[i], d[i])) return false;
    return true;
  }
  return shape.is_integer() && shape.value() >= 1 && (stride.is_integer() || stride.is_basis());
}

}  // namespace

Layout::Layout(IntTuple shape, IntTuple stride) : shape_(std::move(shape)), stride_(std::move(stride)) {
  if (valid_layout(shape_, stride_)) {
    has_leaves_ = bracketed_leaves_of(shape_, stride_, leaves_);
    return;
  }
  if (!congruent(shape_, stride_))
    throw Error("layout: shape " + shape_.to_string() + " and stride " + stride_.to_string() +
                " are not congruent");
  check_leaves(shape_, stride_, shape_, stride_);
  throw Error("layout " + to_string() + ": invalid");  // unreachable: valid_layout and the checks agree
}

Layout::Layout(Unchecked, IntTuple shape, IntTuple stride) noexcept
    : shape_(std::move(shape)), stride_(std::move(stride)) {
  has_leaves_ = bracketed_leaves_of(shape_, stride_, leaves_);
}

template <class Other>
void Layout::take_from(Other&& o) {
  constexpr bool moving = std::is_rvalue_reference_v<Other&&> && !std::is_const_v<std::remove_reference_t<Other>>;
  has_leaves_ = o.has_leaves_;
  if (has_leaves_) leaves_ = o.leaves_;
  if (o.trees_.load(std::memory_order_acquire) == kTreesReady) {
    if constexpr (moving) {
      shape_ = std::move(o.shape_);
      stride_ = std::move(o.stride_);
      // o keeps its leaves, from which its trees can be built again; without them it is ():().
      if (o.has_leaves_) o.trees_.store(kTreesAbsent, std::memory_order_relaxed);
    } else {
      shape_ = o.shape_;
      stride_ = o.stride_;
    }
    trees_.store(kTreesReady, std::memory_order_relaxed);
  } else {
    shape_ = IntTuple();
    stride_ = IntTuple();
    trees_.store(kTreesAbsent, std::memory_order_relaxed);
  }
}

Layout::Layout(const Layout& o) : has_leaves_(o.has_leaves_), trees_(kTreesAbsent), leaves_(o.leaves_) {
  if (o.trees_.load(std::memory_order_acquire) == kTreesReady) {
    shape_ = o.shape_;
    stride_ = o.stride_;
    trees_.store(kTreesReady, std::memory_order_relaxed);
  }
}

Layout::Layout(Layout&& o) noexcept { take_from(std::move(o)); }

Layout& Layout::operator=(const Layout& o) {
  if (this != &o) take_from(o);
  return *this;
}

Layout& Layout::operator=(Layout&& o) noexcept {
  if (this != &o) take_from(std::move(o));
  return *this;
}

void Layout::build_trees() const {
  for (;;) {
    std::uint8_t state = kTreesAbsent;
    if (trees_.compare_exchange_strong(state, kTreesBuilding, std::memory_order_acquire)) {
      try {
        trees_of(leaves_, shape_, stride_);
      } catch (...) {
        trees_.store(kTreesAbsent, std::memory_order_release);
        throw;
      }
      trees_.store(kTreesReady, std::memory_order_release);
      return;
    }
    if (state == kTreesReady) return;
    std::this_thread::yield();  // another thread builds them
  }
}

bool Layout::operator==(const Layout& o) const {
  // The form is a function of the trees, so equal layouts both hold it or both lack it.
  if (has_leaves_ != o.has_leaves_) return false;
  if (has_leaves_) return leaves_ == o.leaves_;
  return shape_ == o.shape_ && stride_ == o.stride_;
}

std::string Layout::to_string() const {
  std::string s;
  append_text(s);
  return s;
}

void Layout::append_text(std::string& out, std::size_t limit) const {
  shape().append_text(out, limit);
  if (out.size() > limit) return;
  out += ':';
  stride().append_text(out, limit);
}

IntTuple size(const Layout& l) { return product(l.shape()); }
std::int64_t size_value(const Layout& l) { return product(l.shape()).value(); }

namespace {
void cosize_add_leaf(const IntTuple& shape, const IntTuple& stride, CosizeSum<FlatIntLeaf>& sum) {
  if (!stride.is_integer())
    throw Error("cosize: stride " + stride.to_string() + " is a scaled basis; cosize needs integer strides");
  sum.add(FlatInt::of(shape), FlatInt::of(stride));
}

void cosize_accumulate(const IntTuple& shape, const IntTuple& stride, CosizeSum<FlatIntLeaf>& sum) {
  if (!shape.is_tuple()) return cosize_add_leaf(shape, stride, sum);
  // A leaf mode is added here, without the call (layouts are mostly flat).
  const TupleElements shapes = shape.elements();
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (shapes[i].is_tuple()) cosize_accumulate(shapes[i], stride[i], sum);
    else cosize_add_leaf(shapes[i], stride[i], sum);
  }
}
}  // namespace

FlatInt cosize_flat(const Layout& l) {
  // cosize_generic.hpp's sum, the proofs' own.
  CosizeSum<FlatIntLeaf> sum;
  if (const BracketedLeaves* b = l.leaves()) {
    for (std::size_t i = 0; i < b->n; ++i) sum.add(b->shape(i), b->stride(i));
  } else {
    cosize_accumulate(l.shape(), l.stride(), sum);
  }
  return sum.result();
}

IntTuple cosize(const Layout& l) { return cosize_flat(l).tuple(); }

std::size_t rank(const Layout& l) { return l.shape().rank(); }
int depth(const Layout& l) { return l.shape().depth(); }

// The structural operations below rearrange the modes of valid layouts, so their results
// are valid by construction (detail::LayoutFromValidParts).
using detail::LayoutFromValidParts;

Layout mode(const Layout& l, std::size_t i) {
  if (i >= rank(l))
    throw Error("mode: index " + std::to_string(i) + " out of range for rank-" + std::to_string(rank(l)) +
                " layout " + l.to_string());
  return LayoutFromValidParts::make(l.shape()[i], l.stride()[i]);
}

Layout select(const Layout& l, const std::vector<std::size_t>& modes) {
  std::vector<IntTuple> shapes, strides;
  shapes.reserve(modes.size());
  strides.reserve(modes.size());
  for (std::size_t i : modes) {
    Layout m = mode(l, i);
    shapes.push_back(m.shape());
    strides.push_back(m.stride());
  }
  return LayoutFromValidParts::make(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

Layout flatten(const Layout& l) { return LayoutFromValidParts::make(flatten(l.shape()), flatten(l.stride())); }

Layout group_modes(const Layout& l, std::size_t begin, std::size_t end) {
  const std::size_t r = rank(l);
  if (begin > end || end > r)
    throw Error("group_modes: range [" + std::to_string(begin) + "," + std::to_string(end) +
                ") is not within the " + std::to_string(r) + " modes of " + l.to_string());
  IntTuple shape = wrap(l.shape()), stride = wrap(l.stride());
  std::vector<IntTuple> new_shape, new_stride, grouped_shape, grouped_stride;
  for (std::size_t i = 0; i < r; ++i) {
    if (i == begin) {
      for (std::size_t j = begin; j < end; ++j) {
        grouped_shape.push_back(shape[j]);
        grouped_stride.push_back(stride[j]);
      }
      new_shape.push_back(IntTuple::tuple(grouped_shape));
      new_stride.push_back(IntTuple::tuple(grouped_stride));
    }
    if (i >= begin && i < end) continue;
    new_shape.push_back(shape[i]);
    new_stride.push_back(stride[i]);
  }
  if (begin == r) {
    new_shape.push_back(IntTuple());
    new_stride.push_back(IntTuple());
  }
  return LayoutFromValidParts::make(IntTuple::tuple(std::move(new_shape)), IntTuple::tuple(std::move(new_stride)));
}

Layout append(const Layout& l, const Layout& m) {
  std::vector<IntTuple> shapes = wrap(l.shape()).elements().to_vector(),
                        strides = wrap(l.stride()).elements().to_vector();
  shapes.push_back(m.shape());
  strides.push_back(m.stride());
  return LayoutFromValidParts::make(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

Layout prepend(const Layout& l, const Layout& m) {
  std::vector<IntTuple> shapes{m.shape()}, strides{m.stride()};
  // Named: a range-for over a temporary's elements() would dangle.
  const IntTuple l_shape = wrap(l.shape()), l_stride = wrap(l.stride());
  for (const auto& s : l_shape.elements()) shapes.push_back(s);
  for (const auto& d : l_stride.elements()) strides.push_back(d);
  return LayoutFromValidParts::make(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

namespace {
template <class Modes>
Layout layout_of_modes(const Modes& modes) {
  const Layout* first = modes.size() > 0 ? &*modes.begin() : nullptr;
  return LayoutFromValidParts::make(
      IntTuple::tuple_made(modes.size(), [first](std::size_t i) noexcept { return first[i].shape(); }),
      IntTuple::tuple_made(modes.size(), [first](std::size_t i) noexcept { return first[i].stride(); }));
}
}  // namespace

Layout make_layout_from_modes(const std::vector<Layout>& modes) { return layout_of_modes(modes); }

Layout make_layout_from_modes(std::initializer_list<Layout> modes) { return layout_of_modes(modes); }

namespace {
// The pair (m0, m1) written from the modes' forms (LayoutWriter::form: in place where the pair
// fits a form, its trees where it has more leaves or deeper nesting).
Layout pair_of_forms(const BracketedLeaves& m0, const BracketedLeaves& m1) {
  return write_layout([&](LayoutWriter& out) {
    out.open();
    out.form(m0);
    out.form(m1);
    out.close();
  });
}
}  // namespace

Layout make_layout_from_modes(const Layout& m0, Layout&& m1) {
  if (m0.leaves() != nullptr && m1.leaves() != nullptr) return pair_of_forms(*m0.leaves(), *m1.leaves());
  return make_layout_from_modes(Layout(m0), std::move(m1));
}

Layout make_layout_from_modes(Layout&& m0, Layout&& m1) {
  if (m0.leaves() != nullptr && m1.leaves() != nullptr) return pair_of_forms(*m0.leaves(), *m1.leaves());
  IntTuple s0, d0, s1, d1;
  LayoutFromValidParts::take_parts(std::move(m0), s0, d0);
  LayoutFromValidParts::take_parts(std::move(m1), s1, d1);
  // Each tuple built in place from the parts (moves do not throw); if the second one's node
  // cannot be allocated, the first owns s0 and s1 and d0, d1 are still held here.
  IntTuple shape = IntTuple::tuple_made(2, [&](std::size_t i) noexcept { return std::move(i == 0 ? s0 : s1); });
  IntTuple stride = IntTuple::tuple_made(2, [&](std::size_t i) noexcept { return std::move(i == 0 ? d0 : d1); });
  return LayoutFromValidParts::make(std::move(shape), std::move(stride));
}

}  // namespace cuteref
