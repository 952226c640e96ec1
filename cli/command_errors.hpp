// The two failures of a command that the CLI contract gives their own exit status (README.md,
// "The CLI contract"): a malformed command line (64, EX_USAGE) and an input that cannot be read
// or an output that cannot be written (74, EX_IOERR). Every other failure is a cuteref::Error
// about the expression, which each command reports as its own answer (exit 1).
#pragma once

#include "error.hpp"

namespace cuteref {

// A malformed command line: an unknown option, a missing or invalid option value, a missing or
// extra operand. The CLI exits 64 with the message.
class UsageError : public Error {
 public:
  using Error::Error;
};

// An input that cannot be read or an output that cannot be written. The CLI exits 74.
class IoError : public Error {
 public:
  using Error::Error;
};

}  // namespace cuteref
