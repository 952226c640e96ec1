#include "shape_check.hpp"

#include "error.hpp"

namespace cuteref {

namespace {
// The first leaf of `t` that is not an integer >= 1, or nullptr.
const IntTuple* first_bad_leaf(const IntTuple& t) {
  if (t.is_tuple()) {
    for (const auto& e : t.elements())
      if (const IntTuple* bad = first_bad_leaf(e)) return bad;
    return nullptr;
  }
  return t.is_integer() && t.value() >= 1 ? nullptr : &t;
}
}  // namespace

void require_shape(const IntTuple& shape, const std::string& function) {
  const IntTuple* bad = first_bad_leaf(shape);
  if (!bad) return;
  throw Error(function + ": shape " + shape.to_string() + " has the leaf " + bad->to_string() + ", which is " +
              (bad->is_integer() ? "not positive" : "not an integer") +
              " (a shape's leaves are integers >= 1: CuTe has no empty, negative or basis-valued modes)");
}

}  // namespace cuteref
