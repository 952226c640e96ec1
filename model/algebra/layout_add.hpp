// layout_add(A, B): the layout R with R(i) == A(i) + B(i) (PyCuTe's layout_add).
#pragma once

#include "layout.hpp"

namespace cuteref {

// With CA = coalesce(A), CB = coalesce(B) and G = greatest_common_domain(CA, CB): when G covers
// the whole domain (size(G) == size(A)), every index is sum_k c_k * G.stride_k with
// c_k < G.shape_k, each G mode lies inside one mode of CA and one of CB, so A and B are linear
// on G's coordinates and R = coalesce(G.shape : (CA(G.stride_k) + CB(G.stride_k))_k).
// @pre  A and B have integer strides and size(A) == size(B)
// @pre  CA and CB split the domain at common factors (size(G) == size(A)); otherwise Error naming
//       the first index G does not reach and the mode of each whose coordinate holds it
// @post size(R) == size(A); R(i) == A(i) + B(i) for 0 <= i < size(R); symmetric
// R is not congruent to A or B in general. Leaves are static iff both layouts are fully
// static. Overflow is an error.
Layout layout_add(const Layout& a, const Layout& b);

}  // namespace cuteref
