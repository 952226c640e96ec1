#include <gtest/gtest.h>
#include "int_tuple.hpp"
using namespace cuteref;
TEST(IntTuple, Placeholder) { EXPECT_EQ(IntTuple::static_int(8).to_string(), "_8"); }
