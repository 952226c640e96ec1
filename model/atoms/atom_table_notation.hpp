// The atom tables' shorthand: CuTe writes an atom's shapes and strides with static integers
// (_8, _16) nested in tuples, and the tables here spell them s(8) and t({s(8), s(16)}).
#pragma once

#include <cstdint>
#include <initializer_list>

#include "int_tuple.hpp"

namespace cuteref::atom_table_notation {

// The static integer _v. Pre: as IntTuple::static_int.
inline IntTuple s(std::int64_t v) { return IntTuple::static_int(v); }
// The tuple of the given elements.
inline IntTuple t(std::initializer_list<IntTuple> e) { return IntTuple::tuple(e); }

}  // namespace cuteref::atom_table_notation
