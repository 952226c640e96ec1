// The single error type of the model: every precondition failure, parse error and
// arithmetic overflow is reported by throwing cuteref::Error with a message that says
// what was wrong, where, and which operands were involved. Callers (CLI, tests) catch it;
// nothing in the model aborts or returns an invented default.
#pragma once

#include <stdexcept>
#include <string>

#include "diagnostic_text.hpp"

namespace cuteref {

class Error : public std::runtime_error {
 public:
  // Control bytes, and bytes outside UTF-8 characters, in the message are escaped
  // (diagnostic_text.hpp's printable()).
  // Out of line (error.cpp): a throw site then calls one function instead of inlining the
  // escaping loop, which made every throwing translation unit larger and slower to compile.
  explicit Error(const std::string& message);
};

// A parse error: `column` is 1-based, counted in bytes of the input text.
class ParseError : public Error {
 public:
  ParseError(std::size_t column, const std::string& what)
      : Error("column " + std::to_string(column) + ": " + what), column_(column) {}
  std::size_t column() const { return column_; }

 private:
  std::size_t column_;
};

}  // namespace cuteref
