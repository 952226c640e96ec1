// Conversions between Python objects and the model's values, shared by the core bindings
// (cuteref.eval and the function table) and the pycute-compatible bindings (cuteref.pycute).
//
// Python -> model:
//   int                    an integer leaf (dynamic, as CuTe's run-time integers); bool is refused
//   None                   `_` (slicing coordinates, tilers that leave a mode as it is)
//   tuple / list           a tuple (of integers: an IntTuple; else a mixed tuple of values)
//   str                    an expression of the EXPR language, evaluated by the model
//   cuteref.Value          its value
//   cuteref.pycute.Layout  its layout
//   an object with __cuteref_value__()  what that method returns (the Python-side pycute
//                          Swizzle and ComposedLayout use it)
// Anything else is a TypeError naming the object. Integers outside int64 are a cuteref Error.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "int_tuple.hpp"
#include "layout.hpp"
#include "value.hpp"

namespace cuteref::python {

namespace nb = nanobind;

// An integer leaf from a Python int. @pre PyLong_Check(h), not a bool.
IntTuple integer_from_python(nb::handle h);

// An integer tuple from ints / tuples / lists / None (as `_`); nullopt-like failure is a
// TypeError naming `what` (e.g. "shape").
IntTuple int_tuple_from_python(nb::handle h, const char* what);

// Any value (see the table above).
Value value_from_python(nb::handle h);

// A model integer tuple as Python ints and tuples (`_` as None). Scaled-basis leaves have no
// plain Python form: they come back as cuteref.Value objects.
nb::object int_tuple_to_python(const IntTuple& t);

// A Python exception for a Python object of the wrong type.
[[noreturn]] void throw_type_error(const char* what, nb::handle h);

// A Python int that is not a bool (pycute's is_int).
bool is_int(nb::handle h);
// A Python tuple or list (pycute's is_tuple, which accepts both).
bool is_sequence(nb::handle h);

}  // namespace cuteref::python
