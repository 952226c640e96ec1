// make_tma_params with a GMEM tensor of more modes than the SMEM tile (CUTLASS's (M,K,L)) and
// with multicast box truncation. Expected values: hand derivations (comments), following CuTe's
// make_tma_copy (copy_traits_sm90_tma.hpp); the GPU harness compares them with the arguments
// CUTLASS's kernels pass to cuTensorMapEncodeTiled (gpu/vendor).
#include <gtest/gtest.h>

#include "atoms/gmma_smem_atom.hpp"
#include "atoms/tma.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "notation.hpp"

// Its own namespace: the unity build (meson.build) compiles several test files as one.
namespace tma_batch_multicast_test {

using namespace cuteref;

namespace {
std::string eval(const std::string& text) { return parse_and_evaluate(text, &standard_functions()).to_string(); }
}  // namespace

TEST(TmaBatchMulticast, TrailingGmemModesBecomeUnitBoxDimensions) {
  // A (M,K,L) = (256,128,1) K-major half_t tensor, stride (128,1,32768); the SMEM tile a K-major
  // SW128 (128,64) tiling. Box: K 64 (128 bytes, the swizzle width) by M 128; L is walked by no
  // box dimension: extent 1 (dynamic, so kept), stride 32768 * 2 = 65536 bytes.
  EXPECT_EQ(eval("tma_params((256,128,1):(128,_1,32768), tile_to_shape(gmma_atom(K, SW128, 16), (128,64)), 16)"),
            "(3,(128,256,1),(256,65536),(64,128,1),(1,1,1),0,3)");
  // A static unit L contributes nothing and is left out, as CuTe does.
  EXPECT_EQ(eval("tma_params((256,128,_1):(128,_1,32768), tile_to_shape(gmma_atom(K, SW128, 16), (128,64)), 16)"),
            "(2,(128,256),(256),(64,128),(1,1),0,3)");
}

TEST(TmaBatchMulticast, MulticastTruncatesTheOutermostBoxDimensions) {
  // 2 CTAs: from the outermost dimension, L's box 1 stays 1 (the count 2 passes on), M's 128 -> 64.
  EXPECT_EQ(eval("tma_params((256,128,1):(128,_1,32768), tile_to_shape(gmma_atom(K, SW128, 16), (128,64)), 16, 2)"),
            "(3,(128,256,1),(256,65536),(64,64,1),(1,1,1),0,3)");
  // An MN-major tile (M contiguous): box M 64 (128 bytes) by K 64; 4 CTAs: K 64 -> 16.
  EXPECT_EQ(eval("tma_params((256,128):(_1,256), tile_to_shape(gmma_atom(MN, SW128, 16), (128,64), (2,1)), 16, 4)"),
            "(2,(256,128),(512),(64,16),(1,1),0,3)");
  // 3 CTAs do not divide a box extent of 64 (and 64 does not divide 3): CuTe asserts; refused.
  EXPECT_THROW(make_tma_params(parse_layout("(256,128):(_1,256)"),
                               parse_and_evaluate("tile_to_shape(gmma_atom(MN, SW128, 16), (128,64), (2,1))", &standard_functions()),
                               16, 3),
               Error);
  EXPECT_THROW(eval("tma_params((256,128):(_1,256), tile_to_shape(gmma_atom(MN, SW128, 16), (128,64), (2,1)), 16, 0)"), Error);
}

}  // namespace tma_batch_multicast_test
