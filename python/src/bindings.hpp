// The parts of the extension module cuteref._cuteref, each bound by its own file.
#pragma once

#include <string>

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

// The column a diagnostic starts with ("column 7: ..."), or -1 (module.cpp).
long column_of(const std::string& message);

void bind_core(nb::module_& m);      // core_bindings.cpp: Value, evaluate, parse, call, prove
void bind_pycute(nb::module_& m);    // pycute_bindings.cpp: the pycute-compatible API's core
void bind_errors(nb::module_& m);    // module.cpp: the translation of model errors
// pycute_fast_calls.cpp: the hot functions of the submodule `pycute_core` (bound by
// bind_pycute) replaced by fast entry points that hand other calls to them.
void bind_pycute_fast_calls(nb::module_& pycute_core);

}  // namespace cuteref::python
