#include "universe.hpp"

namespace cuteref::props {
namespace {

std::string list_text(const std::vector<std::int64_t>& v) {
  bool consecutive = v.size() > 2;
  for (std::size_t i = 1; i < v.size(); ++i) consecutive = consecutive && v[i] == v[i - 1] + 1;
  if (consecutive) return std::to_string(v.front()) + ".." + std::to_string(v.back());
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  return s + "}";
}

// Calls visit with every sequence of n leaves (extent, stride) over the alphabet.
void for_each_leaves(std::size_t n, const LeafAlphabet& a,
                     const std::function<void(const std::vector<IntTuple>&, const std::vector<IntTuple>&)>& visit) {
  std::vector<std::size_t> digit(2 * n, 0);
  std::vector<IntTuple> shapes(n), strides(n);
  while (true) {
    for (std::size_t i = 0; i < n; ++i) {
      shapes[i] = IntTuple::integer(a.extents[digit[2 * i]]);
      strides[i] = IntTuple::integer(a.strides[digit[2 * i + 1]]);
    }
    visit(shapes, strides);
    std::size_t k = 0;
    for (; k < 2 * n; ++k) {
      const std::size_t base = (k % 2 == 0) ? a.extents.size() : a.strides.size();
      if (++digit[k] < base) break;
      digit[k] = 0;
    }
    if (k == 2 * n) return;
  }
}

// The structures of depth-2 nestings: part sizes, 1 = a leaf, k >= 2 = a tuple of k leaves.
std::vector<std::vector<int>> nested_structures(int max_leaves) {
  std::vector<std::vector<int>> out;
  std::function<void(std::vector<int>&, int)> extend = [&](std::vector<int>& parts, int left) {
    bool has_tuple = false;
    for (int p : parts) has_tuple = has_tuple || p >= 2;
    if (has_tuple) out.push_back(parts);
    for (int k = 1; k <= left; ++k) {
      parts.push_back(k);
      extend(parts, left - k);
      parts.pop_back();
    }
  };
  std::vector<int> parts;
  extend(parts, max_leaves);
  return out;
}

std::int64_t power(std::int64_t b, std::size_t e) {
  std::int64_t r = 1;
  while (e--) r *= b;
  return r;
}

}  // namespace

std::string LeafAlphabet::to_string() const { return "extents " + list_text(extents) + ", strides " + list_text(strides); }

std::vector<std::int64_t> range(std::int64_t lo, std::int64_t hi) {
  std::vector<std::int64_t> v;
  for (std::int64_t x = lo; x <= hi; ++x) v.push_back(x);
  return v;
}

std::int64_t for_each_flat_layout(int max_rank, const LeafAlphabet& alphabet,
                                  const std::function<void(const Layout&)>& visit) {
  std::int64_t count = 0;
  for (int r = 1; r <= max_rank; ++r)
    for_each_leaves(static_cast<std::size_t>(r), alphabet,
                    [&](const std::vector<IntTuple>& sh, const std::vector<IntTuple>& st) {
                      ++count;
                      if (r == 1) visit(Layout(sh[0], st[0]));
                      else visit(Layout(IntTuple::tuple(sh), IntTuple::tuple(st)));
                    });
  return count;
}

std::int64_t for_each_nested_layout(int max_leaves, const LeafAlphabet& alphabet,
                                    const std::function<void(const Layout&)>& visit) {
  std::int64_t count = 0;
  for (const auto& parts : nested_structures(max_leaves)) {
    std::size_t n = 0;
    for (int p : parts) n += static_cast<std::size_t>(p);
    for_each_leaves(n, alphabet, [&](const std::vector<IntTuple>& sh, const std::vector<IntTuple>& st) {
      std::vector<IntTuple> shape, stride;
      std::size_t next = 0;
      for (int p : parts) {
        if (p == 1) {
          shape.push_back(sh[next]);
          stride.push_back(st[next]);
          ++next;
          continue;
        }
        std::vector<IntTuple> s(sh.begin() + static_cast<long>(next), sh.begin() + static_cast<long>(next) + p);
        std::vector<IntTuple> d(st.begin() + static_cast<long>(next), st.begin() + static_cast<long>(next) + p);
        shape.push_back(IntTuple::tuple(std::move(s)));
        stride.push_back(IntTuple::tuple(std::move(d)));
        next += static_cast<std::size_t>(p);
      }
      ++count;
      visit(Layout(IntTuple::tuple(std::move(shape)), IntTuple::tuple(std::move(stride))));
    });
  }
  return count;
}

std::int64_t flat_universe_size(int max_rank, const LeafAlphabet& a) {
  const auto per_leaf = static_cast<std::int64_t>(a.extents.size() * a.strides.size());
  std::int64_t n = 0;
  for (int r = 1; r <= max_rank; ++r) n += power(per_leaf, static_cast<std::size_t>(r));
  return n;
}

std::int64_t nested_universe_size(int max_leaves, const LeafAlphabet& a) {
  const auto per_leaf = static_cast<std::int64_t>(a.extents.size() * a.strides.size());
  std::int64_t n = 0;
  for (const auto& parts : nested_structures(max_leaves)) {
    std::size_t leaves = 0;
    for (int p : parts) leaves += static_cast<std::size_t>(p);
    n += power(per_leaf, leaves);
  }
  return n;
}

}  // namespace cuteref::props
