// The parts of the extension module cuteref._cuteref, each bound by its own file.
#pragma once

#include <nanobind/nanobind.h>

#include "error.hpp"

namespace cuteref::python {

namespace nb = nanobind;

// A model diagnostic raised through cuteref.pycute: Python sees cuteref.pycute.PycuteError,
// which is both a cuteref.Error and an AssertionError (pycute asserts its preconditions).
class PycuteFailure : public Error {
 public:
  explicit PycuteFailure(const std::string& message) : Error(message) {}
};

void bind_core(nb::module_& m);      // core_bindings.cpp: Value, evaluate, parse, call, prove
void bind_pycute(nb::module_& m);    // pycute_bindings.cpp: the pycute-compatible API's core
void bind_errors(nb::module_& m);    // module.cpp: the translation of model errors

}  // namespace cuteref::python
