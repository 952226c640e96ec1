// CuTe C++ side of bench/algebra: times CuTe's own layout algebra, on its run-time
// (dynamic-integer) path, on the cases bench_algebra generated for the model and pycute.
//
// CuTe fixes a layout's nesting in its type, so each case carries a nesting code
// (rank * 16 + mask: rank 0 is a bare integer mode; bit k of mask makes mode k a pair of
// integers) and its leaves; every (operation, nesting of A, nesting of B) that CuTe can
// compile gets one instantiation here, and the cases are timed group by group (the dispatch
// happens once per group, outside the timed loop). Every leaf is a std::int64_t read from
// the case file, so nothing is static.
//
// CuTe's dynamic path refuses some cases at compile time (static_assert "Dynamic-stride
// complement only for rank-1 layouts"): complement needs a rank-1 flattened A, so
// logical_divide needs a leaf tiler B and logical_product a leaf A. Those cases are not run.
//
// Input (one case a line): OP INDEX ACODE A_SHAPE.. A_STRIDE.. BCODE B_SHAPE.. B_STRIDE.. M
// Output: `op NAME OPS_PER_SECOND OPERATIONS` per operation and `check INDEX SIZE SUM` per
// case run (SUM = sum over i < SIZE of (i+1) * R(i) mod 2^64, R the result), which
// bench_algebra compares with the model's result.
// Usage: bench_algebra_cute CASES REPEATS (REPEATS 0: only the check lines)
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <cute/layout.hpp>

namespace {

using Int = std::int64_t;

enum Op { kCoalesce, kComposition, kComplement, kDivide, kProduct, kOps };
const char* const kOpNames[kOps] = {"coalesce", "composition", "complement", "logical_divide", "logical_product"};

struct CaseData {
  int index = 0;
  Int a_shape[6] = {}, a_stride[6] = {};
  Int b_shape[2] = {}, b_stride[2] = {};
  Int m = 0;
};

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Forces the value to be materialized, so the computation producing it cannot be dropped.
template <class T>
inline void keep(const T& value) {
  asm volatile("" : : "r"(&value) : "memory");
}

// Position of mode K's first leaf in the flat leaf array of nesting mask M.
template <int M, int K>
constexpr int leaf_offset = K + std::popcount(static_cast<unsigned>(M & ((1 << K) - 1)));

template <int M, int K>
auto mode_at(const Int* leaves) {
  constexpr int o = leaf_offset<M, K>;
  if constexpr (((M >> K) & 1) != 0) return cute::make_tuple(leaves[o], leaves[o + 1]);
  else return leaves[o];
}

template <int Code>
auto int_tuple_of(const Int* leaves) {
  constexpr int rank = Code / 16, mask = Code % 16;
  if constexpr (rank == 0) {
    return leaves[0];
  } else {
    return [&]<int... K>(std::integer_sequence<int, K...>) {
      return cute::make_tuple(mode_at<mask, K>(leaves)...);
    }(std::make_integer_sequence<int, rank>{});
  }
}

template <int Code>
auto layout_of(const Int* shape, const Int* stride) {
  return cute::make_layout(int_tuple_of<Code>(shape), int_tuple_of<Code>(stride));
}

// What CuTe's dynamic path compiles: complement only of a rank-1 (flattened) layout.
template <int O, int A, int B>
constexpr bool expressible = (O != kComplement || A == 0) && (O != kDivide || B == 0) && (O != kProduct || A == 0);

template <int O, int A, int B>
auto apply(const CaseData& c) {
  const auto a = layout_of<A>(c.a_shape, c.a_stride);
  if constexpr (O == kCoalesce) return cute::coalesce(a);
  else if constexpr (O == kComplement) return cute::complement(a, c.m);
  else {
    const auto b = layout_of<B>(c.b_shape, c.b_stride);
    if constexpr (O == kComposition) return cute::composition(a, b);
    else if constexpr (O == kDivide) return cute::logical_divide(a, b);
    else return cute::logical_product(a, b);
  }
}

template <int O, int A, int B>
void run_group(const std::vector<CaseData>& cases, int repeats) {
  for (int r = 0; r < repeats; ++r)
    for (const CaseData& c : cases) keep(apply<O, A, B>(c));
}

template <int O, int A, int B>
void check_group(const std::vector<CaseData>& cases, int) {
  for (const CaseData& c : cases) {
    const auto result = apply<O, A, B>(c);
    const Int n = cute::size(result);
    std::uint64_t sum = 0;
    for (Int i = 0; i < n; ++i)
      sum += static_cast<std::uint64_t>(i + 1) * static_cast<std::uint64_t>(static_cast<Int>(result(i)));
    std::printf("check %d %lld %llu\n", c.index, static_cast<long long>(n), static_cast<unsigned long long>(sum));
  }
}

using GroupFn = void (*)(const std::vector<CaseData>&, int);
using Key = std::tuple<int, int, int>;  // (op, nesting code of A, nesting code of B)
struct GroupFns {
  GroupFn run, check;
};

// The nestings bench_algebra generates: A is a bare integer, one pair, or rank 2-3 with any
// modes paired; B (the compact tiler) is a bare integer or a flat pair. Unary operations
// use B = 0.
constexpr int kACodes[] = {0, 17, 32, 33, 34, 35, 48, 49, 50, 51, 52, 53, 54, 55};
constexpr int kBCodes[] = {0, 32};

template <int O, int A, int B>
void register_one(std::map<Key, GroupFns>& table) {
  if constexpr (expressible<O, A, B>) table[{O, A, B}] = {&run_group<O, A, B>, &check_group<O, A, B>};
}

template <int O, int A>
void register_b(std::map<Key, GroupFns>& table) {
  if constexpr (O == kCoalesce || O == kComplement) register_one<O, A, 0>(table);
  else [&]<std::size_t... J>(std::index_sequence<J...>) {
    (register_one<O, A, kBCodes[J]>(table), ...);
  }(std::make_index_sequence<std::size(kBCodes)>{});
}

template <int O>
void register_a(std::map<Key, GroupFns>& table) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (register_b<O, kACodes[I]>(table), ...);
  }(std::make_index_sequence<std::size(kACodes)>{});
}

int leaf_count(int code) { return code / 16 == 0 ? 1 : code / 16 + std::popcount(static_cast<unsigned>(code % 16)); }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: bench_algebra_cute CASES REPEATS\n");
    return 2;
  }
  const int repeats = std::atoi(argv[2]);
  std::map<Key, GroupFns> table;
  register_a<kCoalesce>(table);
  register_a<kComposition>(table);
  register_a<kComplement>(table);
  register_a<kDivide>(table);
  register_a<kProduct>(table);

  std::map<Key, std::vector<CaseData>> groups;
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "bench_algebra_cute: cannot read %s\n", argv[1]);
    return 1;
  }
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string name;
    int a_code = 0, b_code = 0;
    CaseData c;
    s >> name >> c.index >> a_code;
    int op = 0;
    while (op < kOps && name != kOpNames[op]) ++op;
    const int na = leaf_count(a_code);
    for (int i = 0; i < na; ++i) s >> c.a_shape[i];
    for (int i = 0; i < na; ++i) s >> c.a_stride[i];
    s >> b_code;
    const int nb = leaf_count(b_code);
    for (int i = 0; i < nb; ++i) s >> c.b_shape[i];
    for (int i = 0; i < nb; ++i) s >> c.b_stride[i];
    s >> c.m;
    if (!s || op == kOps || na > 6 || nb > 2) {
      std::fprintf(stderr, "bench_algebra_cute: bad case line: %s\n", line.c_str());
      return 1;
    }
    if (table.count({op, a_code, b_code})) groups[{op, a_code, b_code}].push_back(c);
  }

  for (int op = 0; op < kOps && repeats > 0; ++op) {
    long count = 0;
    const double t0 = cpu_seconds();
    for (const auto& [key, cases] : groups)
      if (std::get<0>(key) == op) {
        table.at(key).run(cases, repeats);
        count += static_cast<long>(cases.size()) * repeats;
      }
    const double dt = cpu_seconds() - t0;
    if (count > 0) std::printf("op %s %.1f %ld\n", kOpNames[op], static_cast<double>(count) / dt, count);
  }
  for (const auto& [key, cases] : groups) table.at(key).check(cases, 1);
  return 0;
}
