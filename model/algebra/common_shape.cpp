#include "common_shape.hpp"

#include <optional>
#include <string>

#include "error.hpp"

namespace cuteref {

namespace {

void require_integer_leaves(const IntTuple& t, const char* fn) {
  if (t.is_tuple()) {
    for (const auto& e : t.elements()) require_integer_leaves(e, fn);
    return;
  }
  if (!t.is_integer()) throw Error(std::string(fn) + ": a shape has integer leaves only, got `" + t.to_string() + "`");
  if (t.value() < 1) throw Error(std::string(fn) + ": a shape's leaves are >= 1, got " + t.to_string());
}

std::string path_text(const std::string& path) { return path.empty() ? "the whole shape" : "mode " + path; }
std::string child_path(const std::string& path, std::size_t i) {
  return path.empty() ? std::to_string(i) : path + "," + std::to_string(i);
}

// Two equal integers as one leaf: static when either side knows it statically.
IntTuple same_leaf(const IntTuple& a, const IntTuple& b) {
  return IntTuple::integer(a.value(), a.is_static() || b.is_static());
}

IntTuple refine(const IntTuple& a, const IntTuple& b, const std::string& path, const IntTuple& whole_a,
                const IntTuple& whole_b) {
  const auto fail = [&](const std::string& why) -> Error {
    return Error("common_refinement(" + whole_a.to_string() + ", " + whole_b.to_string() + "): no shape refines both: at " +
                 path_text(path) + ", " + why);
  };
  if (a.is_tuple() && b.is_tuple()) {
    if (a.rank() != b.rank())
      throw fail("`" + a.to_string() + "` has rank " + std::to_string(a.rank()) + " and `" + b.to_string() + "` rank " +
                 std::to_string(b.rank()));
    std::vector<IntTuple> out;
    out.reserve(a.rank());
    for (std::size_t i = 0; i < a.rank(); ++i) out.push_back(refine(a[i], b[i], child_path(path, i), whole_a, whole_b));
    return IntTuple::tuple(std::move(out));
  }
  if (!a.is_tuple() && !b.is_tuple()) {
    if (a.value() != b.value()) throw fail("the integers " + a.to_string() + " and " + b.to_string() + " differ");
    return same_leaf(a, b);
  }
  const IntTuple& leaf = a.is_tuple() ? b : a;
  const IntTuple& tuple = a.is_tuple() ? a : b;
  const IntTuple n = product(tuple);
  if (n.value() != leaf.value())
    throw fail("the integer " + leaf.to_string() + " is not the size of `" + tuple.to_string() + "` (" + n.to_string() + ")");
  return tuple;
}

// The element-wise coarsening of two tuples of equal rank, or nullopt where some element pair
// has no common coarsening (different sizes).
std::optional<IntTuple> coarsen(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple() && b.is_tuple() && a.rank() == b.rank()) {
    std::vector<IntTuple> out;
    out.reserve(a.rank());
    bool all = true;
    for (std::size_t i = 0; i < a.rank() && all; ++i) {
      auto e = coarsen(a[i], b[i]);
      if (e) out.push_back(std::move(*e));
      else all = false;
    }
    if (all) return IntTuple::tuple(std::move(out));
  }
  const IntTuple na = product(a), nb = product(b);
  if (na.value() != nb.value()) return std::nullopt;
  return same_leaf(na, nb);
}

}  // namespace

IntTuple common_refinement(const IntTuple& a, const IntTuple& b) {
  require_integer_leaves(a, "common_refinement");
  require_integer_leaves(b, "common_refinement");
  return refine(a, b, "", a, b);
}

IntTuple common_coarsening(const IntTuple& a, const IntTuple& b) {
  require_integer_leaves(a, "common_coarsening");
  require_integer_leaves(b, "common_coarsening");
  auto c = coarsen(a, b);
  if (!c)
    throw Error("common_coarsening(" + a.to_string() + ", " + b.to_string() + "): no shape coarsens both: the sizes " +
                product(a).to_string() + " and " + product(b).to_string() + " differ");
  return *c;
}

bool shape_coarsens(const IntTuple& a, const IntTuple& b) {
  require_integer_leaves(a, "compatible");
  require_integer_leaves(b, "compatible");
  if (a.is_tuple() && b.is_tuple()) {
    if (a.rank() != b.rank()) return false;
    for (std::size_t i = 0; i < a.rank(); ++i)
      if (!shape_coarsens(a[i], b[i])) return false;
    return true;
  }
  if (!a.is_tuple()) return a.value() == product(b).value();
  return false;
}

}  // namespace cuteref
