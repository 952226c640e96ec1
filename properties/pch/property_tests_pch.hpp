// Precompiled for property_tests: GoogleTest and RapidCheck, which every file of the suite
// includes (about two seconds of parsing per file together).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "generators.hpp"
#include "law_support.hpp"
