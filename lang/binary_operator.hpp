// One operator of a Binary chain (syntax.hpp) applied to two scalars, generic over the scalar
// (model/generic/scalar.hpp) so that `eval` (CheckedInt) and `prove` (SymInt) compute the same
// C++ arithmetic: / and % truncate, << and >> through ScalarOps (a shift count outside [0, 63]
// or an overflow is the model's error), >> of a negative value an error.
#pragma once

#include <string>

#include "scalar.hpp"

namespace cuteref {

// `op`: one of + - * / % & | ^ and L (<<), R (>>).
template <class Scalar>
Scalar apply_binary_operator(char op, const Scalar& a, const Scalar& b) {
  using Ops = ScalarOps<Scalar>;
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    case '%': return a % b;
    case '&': return a & b;
    case '^': return a ^ b;
    case '|': return (a ^ b) ^ (a & b);  // a | b from the scalar interface's & and ^
    case 'L': return Ops::shl(a, b);
    default:  // 'R': >>
      Ops::require(a >= Ops::constant(0), [] { return std::string(">> of a negative value"); });
      return Ops::lshr(a, b);
  }
}

}  // namespace cuteref
