// Registers the scaled-basis functions of the expression language: make_basis_like and
// make_identity_layout. (Descriptor literals `descriptor(1@0, 1@1)` are a literal form of
// the notation parser, since their text is not an expression; see notation.hpp.)
#include "function_table.hpp"
#include "identity_layout.hpp"

namespace cuteref {

void register_basis_functions(FunctionTable& t) {
  t.add("make_basis_like", {1, 1, "make_basis_like(shape)", [](const std::vector<Value>& a) {
           return Value(make_basis_like(int_tuple_arg(a, 0, "make_basis_like")));
         }});
  t.add("make_identity_layout", {1, 1, "make_identity_layout(shape)", [](const std::vector<Value>& a) {
           return Value(make_identity_layout(int_tuple_arg(a, 0, "make_identity_layout")));
         }});
}

}  // namespace cuteref
