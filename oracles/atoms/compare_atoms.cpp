// Differential test of model/atoms against CuTe C++: reads the output of the vendor dump
// programs (compiled with g++ against the wheel's CuTe headers, or their recorded output:
// run_dumps.py), the values CuTe computed, and compares each with the model's, as functions and
// (for layouts) with the same shape profile.
//
//   compare_atoms RECORDED_DISAGREEMENTS DUMP_OUTPUT...
//
// Dump lines (tab-separated; other lines, e.g. CuTe's host warnings, are ignored):
//   KIND  EXPR  VALUE                     EXPR evaluated by the model's expression language
//   partition  A|B|C  ATOM  ATOM_LAYOUT  THREAD  TENSOR  LAYOUT  OFFSET  PERMUTATION
//                                         thread THREAD's partition_X with its pointer offset
//   swizzled_partition  A|B  ATOM  ATOM_LAYOUT  THREAD  COMPOSED  SIZE  HASH  PERMUTATION  FIRST
//                                         the physical element offsets of thread THREAD's partition_X
//                                         of a swizzled SMEM tensor (size, ValueHash, first values):
//                                         the function of the model's partition of COMPOSED
// RECORDED_DISAGREEMENTS is a corpus file: each case's EXPR is a known, recorded difference from
// CuTe (with its verdict written there); those are counted apart, not as agreements.
// Exit 0 when every value agrees or is recorded, 1 otherwise or when nothing was checked.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "atoms/tiled_mma.hpp"
#include "coordinates.hpp"
#include "copy_partition_check.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "evaluate.hpp"
#include "notation.hpp"
#include "value_hash.hpp"

using namespace cuteref;

namespace {

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == '\t') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

Value eval(const std::string& text) { return parse_and_evaluate(text, &standard_functions()); }

// The layout part of a layout or composed layout value (for the shape-profile comparison).
const Layout* layout_part(const Value& v) {
  if (v.is_layout()) return &std::get<Layout>(v.data);
  if (v.is_composed()) return &std::get<ComposedLayout>(v.data).layout;
  return nullptr;
}

// "" when `got` equals CuTe's `want` as a function (and, with `profile`, with the same shape);
// else what differs.
std::string difference(const Value& got, const Value& want, bool profile = true) {
  // The same shape and strides are the same function: skip the enumeration (SS GMMA operand
  // layouts have half a million indices).
  if (got.is_layout() && want.is_layout()) {
    const Layout &a = std::get<Layout>(got.data), &b = std::get<Layout>(want.data);
    if (a.shape().same_values(b.shape()) && a.stride().same_values(b.stride())) return "";
  }
  const Verdict v = functional_equal(got, want);
  if (!v.holds) return "model " + got.to_string() + " vs CuTe " + want.to_string() + ": " + v.reason;
  const Layout *a = layout_part(got), *b = layout_part(want);
  if (profile && a && b && !a->shape().same_values(b->shape()))
    return "same function, different shape: model " + got.to_string() + " vs CuTe " + want.to_string();
  return "";
}

struct Tally {
  long agree = 0, recorded = 0, differ = 0;
};

std::set<std::string> recorded_exprs(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read the recorded disagreements " + path);
  std::set<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    const auto arrow = line.find(" => ");
    if (line.empty() || line[0] == '#' || arrow == std::string::npos) continue;
    out.insert(line.substr(0, arrow));
  }
  return out;
}

// The model's side of a `partition` line: "" on agreement, else what differs.
std::string check_partition(const std::vector<std::string>& f) {
  const TiledMma t = make_tiled_mma(mma_atom(f[2]), parse_layout(f[3]), eval(f[8]));
  const std::int64_t thread = std::stoll(f[4]);
  const Value tensor = eval(f[5]);
  const Layout* l = layout_part(tensor);
  if (!l) throw Error("partition tensor " + f[5] + " is not a layout");
  const Partition p = f[1] == "A" ? partition_A(t, thread, *l) : f[1] == "B" ? partition_B(t, thread, *l) : partition_C(t, thread, *l);
  std::string d = difference(Value(p.layout), eval(f[6]));
  if (d.empty() && p.offset != std::stoll(f[7]))
    d = "offset: model " + std::to_string(p.offset) + " vs CuTe " + f[7];
  return d;
}

// Size and ValueHash of a layout-like value's function.
std::pair<std::int64_t, std::uint64_t> fingerprint(const Value& v) {
  const std::int64_t n = layout_like_size(v);
  ValueHash h;
  for (std::int64_t i = 0; i < n; ++i) h.add(evaluate_at(v, i).value());
  return {n, h.digest()};
}

std::string first_values(const Value& v) {
  std::string s;
  for (std::int64_t i = 0; i < 16 && i < layout_like_size(v); ++i) {
    if (i) s += ',';  // appended piece by piece: GCC 12's bogus -Wrestrict (GCC bug 105651)
    s += evaluate_at(v, i).to_string();
  }
  return s;
}

// How many swizzled partitions CuTe's values tell apart from the same partition without the
// swizzle (the inner layout with the thread's offset): evidence that the check sees the swizzle.
long swizzle_visible = 0;

// The model's side of a `swizzled_partition` line, through the expression language: "" on
// agreement, else what differs.
std::string check_swizzled_partition(const std::vector<std::string>& f, const std::string& expr) {
  const Value got = eval(expr);
  if (!got.is_composed()) return "the model's partition is not a composed layout: " + got.to_string();
  const auto [n, hash] = fingerprint(got);
  if (n != std::stoll(f[6]) || std::to_string(hash) != f[7])
    return "model " + got.to_string() + " (size " + std::to_string(n) + ", first " + first_values(got) + ") vs CuTe size " +
           f[6] + ", first " + f[9];
  const Value tensor = eval(f[5]);
  const auto& c = std::get<ComposedLayout>(tensor.data);
  const TiledMma t = make_tiled_mma(mma_atom(f[2]), parse_layout(f[3]), eval(f[8]));
  const std::int64_t thread = std::stoll(f[4]);
  const Partition plain = f[1] == "A" ? partition_A(t, thread, c.layout) : partition_B(t, thread, c.layout);
  const std::int64_t len = size_value(plain.layout);
  ValueHash h;
  for (std::int64_t i = 0; i < len; ++i) h.add(plain.offset + apply_index(plain.layout, i));
  if (std::to_string(h.digest()) != f[7]) ++swizzle_visible;
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: compare_atoms RECORDED_DISAGREEMENTS DUMP_OUTPUT...\n";
    return 2;
  }
  try {
    const std::set<std::string> recorded = recorded_exprs(argv[1]);
    std::map<std::string, Tally> tally;
    long shown = 0;
    for (int i = 2; i < argc; ++i) {
      std::ifstream lines(argv[i]);
      if (!lines) throw Error(std::string("cannot read the dump output ") + argv[i]);
      std::string line;
      while (std::getline(lines, line)) {
        const auto f = split_tabs(line);
        const bool part = f[0] == "partition", swizzled = f[0] == "swizzled_partition",
                   copy_part = f[0] == "copy_partition";
        if (copy_part ? f.size() != 8 : part ? f.size() != 9 : swizzled ? f.size() != 10 : f.size() != 3) continue;
        const std::string expr = copy_part ? "partition_" + f[1] + "(" + f[2] + ", " + f[3] + ", " + f[4] + ")"
                                 : part || swizzled
                                     ? "partition_" + f[1] + "(make_tiled_mma(" + f[2] + ", " + f[3] + ", " + f[8] +
                                           "), " + f[4] + ", " + f[5] + ")"
                                     : f[1];
        std::string d;
        try {
          // CuTe coalesces tma_partition's SMEM and coordinate views separately: compared as functions.
          d = copy_part  ? cuteref::vendor_check::check_copy_partition(f)
              : part     ? check_partition(f)
              : swizzled ? check_swizzled_partition(f, expr)
                         : difference(eval(f[1]), eval(f[2]), f[0] != "tma_copies");
        } catch (const Error& e) {
          d = std::string("model error: ") + e.what() + (part || swizzled ? "" : " (CuTe: " + f[2] + ")");
        }
        Tally& t = tally[f[0]];
        if (d.empty()) {
          ++t.agree;
        } else if (recorded.count(expr)) {
          ++t.recorded;
        } else {
          ++t.differ;
          if (shown++ < 40) std::cout << "DIFFER " << f[0] << ": " << expr << ": " << d << "\n";
        }
      }
    }
    long agree = 0, recorded_n = 0, differ = 0;
    for (const auto& [kind, t] : tally) {
      std::cout << "vendor atoms " << kind << ": " << t.agree + t.recorded + t.differ << " cases, " << t.agree
                << " agree, " << t.recorded << " recorded disagreements, " << t.differ << " new disagreements\n";
      agree += t.agree;
      recorded_n += t.recorded;
      differ += t.differ;
    }
    const long swizzled_n = tally.count("swizzled_partition") ? tally["swizzled_partition"].agree : 0;
    std::cout << "vendor atoms swizzled_partition: " << swizzle_visible << "/" << swizzled_n
              << " agreeing partitions differ from the same partition without the swizzle\n";
    if (swizzled_n > 0 && swizzle_visible == 0) {
      std::cout << "FAIL: no swizzled partition depends on its swizzle: the check cannot see a dropped swizzle\n";
      return 1;
    }
    std::cout << "vendor atoms total: " << agree + recorded_n + differ << " cases checked, " << agree << " agree, "
              << recorded_n << " recorded, " << differ << " new disagreements\n";
    if (agree + recorded_n + differ == 0) {
      std::cout << "FAIL: no case was checked\n";
      return 1;
    }
    return differ == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "compare_atoms: " << e.what() << "\n";
    return 1;
  }
}
