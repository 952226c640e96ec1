// Precompiled for unit_tests: the headers most of its files include (GoogleTest alone is about
// a second of parsing per file).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "coordinates.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"
#include "test_support.hpp"
