// What moves between registers when one fragment's registers are used as another's: thread t's
// values of a FROM fragment (an MMA accumulator converted in registers, say) handed to an
// instruction that expects the TO fragment (the next MMA's A operand), over the same tile.
//
// A fragment is a TV layout (thread, value) -> column-major index into its 2-D tile (rows,
// cols); for an MMA operand the tile is (M,K) for A, (N,K) for B, (M,N) for C, so mode 1 of A and
// B is the contraction index. The two tiles are both repeated up to their common tile (lcm of
// the rows, lcm of the columns); a fragment's value index over the common tile is
// v + V * (rm + RM * rc), the order of CuTe's partitioned fragments (FrgV, RestM, RestN|K).
// The source of TO's (t, v) is the FROM (t', v') holding the same tile element: the composition
// of TO with FROM's inverse, computed by enumerating the common tile (finite) and cross-checked
// against the algebra's composition(right_inverse(FROM), TO) where FROM is a bijection.
//
// The answer, weakest movement first:
//   identity  t' = t, v' = v everywhere: nothing moves;
//   permute   t' = t: within each thread, v' = P(v); for sub-32-bit elements the prmt selectors
//             of each destination register (both fragments' values packed 32/BITS to a register
//             in value order, FROM's as converted to BITS-bit elements). When FROM's own values are
//             32 bits or wider (an f32 accumulator), P applied before the conversion is a renaming
//             of FROM's registers: no instruction at all;
//   relabel   no thread exchanges data once the contraction index k of TO (its mode 1) is read as
//             PI(k): TO's element (m, k) is taken to be the tile's (m, PI(k)); the other operand
//             of TO's MMA must then be read through the same PI along its K. Within each thread a
//             residual value permutation may remain (reported as for permute);
//   shuffle   data crosses lanes: per TO value the source lane and value, the 32-bit words each
//             lane receives, and the fewest warp-shuffle rounds (a lower bound: every round a lane
//             receives one word and sends one word; and a greedy schedule: when it meets the
//             bound, that is the fewest). A word is one of FROM's 32-bit registers as it is:
//             repacking sub-32-bit values (prmt) before the shuffle, which can save rounds, is
//             not searched. Sources in another warp are reported: shared memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "layout.hpp"

namespace cuteref {

struct RegisterFragment {
  std::string name;             // for the report, e.g. "SM90_64x64x16_F32F16F16_SS C"
  Layout layout_tv{IntTuple::static_int(1), IntTuple::static_int(0)};  // (thread, value) -> tile index
  std::int64_t rows = 0, cols = 0;  // the tile, column-major
  int bits = 0;                 // element width in registers (0: not given); TO's is the one the
                                // values are packed in, FROM's says whether a permutation can act
                                // before the conversion (FROM's values in whole registers)
};

// An MMA operand's register fragment: get_layoutA|B|C_TV of the tiled MMA and its tile.
// bits 0 takes the operand's element type (C: the accumulator's D type).
// Precondition (checked): the operand is in registers (SS GMMA's A and B, and RS GMMA's B, are
// read from shared memory through descriptors: a diagnostic says so).
RegisterFragment mma_register_fragment(const TiledMma& mma, MmaOperand op, int bits);

// A plain TV layout over a (rows, cols) tile.
// Preconditions (checked): rank-2 layout_tv; rows, cols >= 1; every value in [0, rows * cols).
RegisterFragment tv_register_fragment(const Layout& layout_tv, std::int64_t rows, std::int64_t cols, int bits,
                                      std::string name);

enum class RegisterMove { Identity, Permute, Relabel, Shuffle };
std::string to_string(RegisterMove m);

struct RegisterSource {
  std::int64_t thread = 0, value = 0;
};

struct RegisterPermutation {
  RegisterMove move = RegisterMove::Identity;
  std::string from_name, to_name;
  int bits = 0;       // TO's element width: the values are packed 32 / bits to a register
  int from_bits = 0;  // FROM's own element width (an f32 accumulator: 32)
  std::int64_t tile_rows = 0, tile_cols = 0;    // the common tile
  std::int64_t from_rows = 0, from_cols = 0, to_rows = 0, to_cols = 0;  // each fragment's own tile
  std::int64_t threads = 0, values = 0;         // TO's threads and values over the common tile
  Layout from_ext{IntTuple::static_int(1), IntTuple::static_int(0)};  // FROM over the common tile
  Layout to_ext{IntTuple::static_int(1), IntTuple::static_int(0)};    // TO over the common tile (after PI)
  std::vector<RegisterSource> source;  // index t + threads * v -> the FROM value it takes
  std::vector<std::int64_t> relabel;   // relabel: k -> PI(k) over the common tile's columns
  std::optional<Layout> relabel_layout;
  // permute / relabel's residual: v -> P(v), the same for every thread (nullopt when it differs).
  bool value_moves = false;
  std::optional<Layout> value_permutation;
  std::vector<std::int64_t> value_table;  // thread 0's v -> P(v) (every thread's when uniform)
  std::int64_t distinct_value_permutations = 0;
  std::vector<std::string> prmt;  // per destination register of thread 0, when value_moves
  // The source map t + T*v -> t' + T*v' as a layout, when it is one (shuffle).
  std::optional<Layout> source_layout;
  // shuffle
  bool crosses_warps = false;
  bool schedule_computed = false;  // the greedy schedule (up to 65,536 words to move; else the bound alone)
  std::int64_t shuffle_lower_bound = 0, shuffle_rounds = 0, max_words_received = 0;
  // The instance as a `cuteref prove` claim over a symbolic index x (empty if not expressible).
  std::string claim;
  std::int64_t claim_domain = 0;  // x in [0, claim_domain)
  // The algebraic cross-check: composition(right_inverse(FROM_ext), TO_ext) compared with the
  // enumerated source map (empty: not a bijection, not compared).
  std::string algebra_check;
};

// Preconditions (checked): both fragments have rank-2 TV layouts of the same thread count; the
// common tile is at most 2^24 elements; FROM holds every element TO needs; bits in {8,16,32,64}
// (the element width the registers hold); when data crosses lanes, the relabeling search is
// bounded (2^20 register values, 4,096 columns of the common tile).
RegisterPermutation register_permutation(const RegisterFragment& from, const RegisterFragment& to);

// The readable report; its first word is the answer.
std::string describe(const RegisterPermutation& r);

// The layout, with flat modes, whose value at index i is table[i], when there is one (table[0]
// must be 0; modes are found from the smallest index up and the whole table is checked).
std::optional<Layout> layout_of_table(const std::vector<std::int64_t>& table);

}  // namespace cuteref
