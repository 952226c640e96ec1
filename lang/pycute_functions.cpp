// Registers PyCuTe's operations that CuTe C++ lacks (the NVlabs/CuTe reference, package pycute):
// layout_add, greatest_common_domain, common_refinement, common_coarsening, coalesce_z; and
// right_inverse_full, the by-value right inverse beside CuTe's right_inverse.
#include "coalesce_z.hpp"
#include "common_shape.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "greatest_common_domain.hpp"
#include "inverse.hpp"
#include "layout_add.hpp"

namespace cuteref {

namespace {

using Args = std::vector<Value>;

// A shape argument: an integer tuple, or a layout standing for its shape (PyCuTe accepts any
// object with a shape).
const IntTuple& shape_arg(const Args& a, std::size_t i, const std::string& fn) {
  if (a.at(i).is_layout()) return std::get<Layout>(a[i].data).shape();
  return int_tuple_arg(a, i, fn);
}

}  // namespace

void register_pycute_functions(FunctionTable& t) {
  t.add("layout_add", {2, 2, "layout_add(A, B)  the layout R with R(i) == A(i) + B(i) (PyCuTe)", [](const Args& a) {
           return Value(layout_add(layout_arg(a, 0, "layout_add"), layout_arg(a, 1, "layout_add")));
         }});
  t.add("greatest_common_domain",
        {2, 2, "greatest_common_domain(A, B)  the largest domain both shapes split alike, as a layout (PyCuTe)",
         [](const Args& a) {
           return Value(greatest_common_domain(shape_arg(a, 0, "greatest_common_domain"),
                                               shape_arg(a, 1, "greatest_common_domain")));
         }});
  t.add("common_refinement", {2, 2, "common_refinement(S1, S2)  the least shape both coarsen (PyCuTe)", [](const Args& a) {
           return Value(common_refinement(shape_arg(a, 0, "common_refinement"), shape_arg(a, 1, "common_refinement")));
         }});
  t.add("common_coarsening", {2, 2, "common_coarsening(S1, S2)  the greatest shape coarsening both (PyCuTe)",
                              [](const Args& a) {
                                return Value(common_coarsening(shape_arg(a, 0, "common_coarsening"),
                                                               shape_arg(a, 1, "common_coarsening")));
                              }});
  t.add("coalesce_z", {1, 2, "coalesce_z(L [, profile])  coalesce keeping a trailing size-1 mode (PyCuTe)",
                       [](const Args& a) {
                         const Layout& l = layout_arg(a, 0, "coalesce_z");
                         if (a.size() == 1) return Value(coalesce_z(l));
                         return Value(coalesce_z(l, int_tuple_arg(a, 1, "coalesce_z")));
                       }});
  t.add("right_inverse_full", {1, 1, "right_inverse_full(L)  the right inverse along the strides' values, static or not",
                               [](const Args& a) { return Value(right_inverse_full(layout_arg(a, 0, "right_inverse_full"))); }});
}

}  // namespace cuteref
