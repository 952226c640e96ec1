// bench/algebra: throughput of the model's layout algebra, timed side by side with pycute
// (from the nvidia-cutlass wheel) on the same seeded cases, in one run.
//
// The cases: a fixed-seed mix of coalesce / composition / complement / logical_divide /
// logical_product over random layouts (flat rank 1-3 and depth-2 nestings, compact,
// permuted, gapped strides); only cases the model accepts are kept, and the same list is
// handed to pycute. Usage: bench_algebra [--cases N] [--repeats R] [--pycute DIR]
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "coalesce.hpp"
#include "complement.hpp"
#include "composition.hpp"
#include "divide.hpp"
#include "error.hpp"
#include "layout.hpp"
#include "make_layout.hpp"
#include "product.hpp"

using namespace cuteref;

namespace {

// Process CPU time in seconds: the machine may be shared, and CPU time is what both sides
// of the comparison are charged for (pycute's side uses time.process_time()).
double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Case {
  std::string op;
  Layout a;
  Layout b;
  std::int64_t m = 0;  // complement's cotarget
};

// A random layout: rank 1-3 modes, some split into two leaves; strides a permuted compact
// order times a gap factor.
Layout random_layout(std::mt19937& rng, bool nested) {
  static const std::int64_t sizes[] = {2, 3, 4, 6, 8};
  const int rank = 1 + static_cast<int>(rng() % 3);
  std::vector<std::int64_t> shape;
  for (int i = 0; i < rank; ++i) shape.push_back(sizes[rng() % 5]);
  std::vector<int> order(rank);
  for (int i = 0; i < rank; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<std::int64_t> stride(rank);
  std::int64_t running = 1 + static_cast<std::int64_t>(rng() % 2);
  for (int i : order) {
    stride[i] = running;
    running *= shape[i] * (1 + static_cast<std::int64_t>(rng() % 2));
  }
  std::vector<IntTuple> s, d;
  for (int i = 0; i < rank; ++i) {
    if (nested && shape[i] % 2 == 0 && shape[i] > 2 && rng() % 2) {
      s.push_back(IntTuple::tuple({IntTuple::integer(2), IntTuple::integer(shape[i] / 2)}));
      d.push_back(IntTuple::tuple({IntTuple::integer(stride[i]), IntTuple::integer(2 * stride[i])}));
    } else {
      s.push_back(IntTuple::integer(shape[i]));
      d.push_back(IntTuple::integer(stride[i]));
    }
  }
  if (rank == 1 && !s[0].is_tuple()) return Layout(s[0], d[0]);
  return Layout(IntTuple::tuple(s), IntTuple::tuple(d));
}

Layout compact(std::mt19937& rng) {
  static const std::int64_t sizes[] = {2, 4};
  const int rank = 1 + static_cast<int>(rng() % 2);
  std::vector<IntTuple> s;
  for (int i = 0; i < rank; ++i) s.push_back(IntTuple::integer(sizes[rng() % 2]));
  return make_layout(rank == 1 ? s[0] : IntTuple::tuple(s));
}

void run_op(const Case& c) {
  if (c.op == "coalesce") coalesce(c.a);
  else if (c.op == "composition") composition(c.a, c.b);
  else if (c.op == "complement") complement(c.a, IntTuple::integer(c.m));
  else if (c.op == "logical_divide") logical_divide(c.a, c.b);
  else logical_product(c.a, c.b);
}

// CuTe notation without static markers, for pycute.
std::string plain(const IntTuple& t) {
  if (!t.is_tuple()) return std::to_string(t.value());
  std::string s = "(";
  for (std::size_t i = 0; i < t.rank(); ++i) s += (i ? "," : "") + plain(t[i]);
  return s + (t.rank() == 1 ? ",)" : ")");
}
std::string plain(const Layout& l) { return plain(l.shape()) + ":" + plain(l.stride()); }

}  // namespace

int main(int argc, char** argv) {
  int n_cases = 2000, repeats = 20;
  std::string pycute_dir = ".vendor/wheel";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--cases") n_cases = std::atoi(argv[i + 1]);
    else if (k == "--repeats") repeats = std::atoi(argv[i + 1]);
    else if (k == "--pycute") pycute_dir = argv[i + 1];
  }
  std::mt19937 rng(20261123);
  static const char* ops[] = {"coalesce", "composition", "complement", "logical_divide", "logical_product"};
  std::vector<Case> cases;
  int rejected = 0;
  while (static_cast<int>(cases.size()) < n_cases) {
    Case c{ops[rng() % 5], random_layout(rng, rng() % 2), Layout(IntTuple::integer(1), IntTuple::integer(0))};
    if (c.op == "composition") c.b = compact(rng);
    if (c.op == "logical_divide") c.b = compact(rng);
    if (c.op == "logical_product") c.b = compact(rng);
    if (c.op == "complement") c.m = size_value(c.a) * (1 + static_cast<std::int64_t>(rng() % 4)) * 8;
    try {
      run_op(c);
      cases.push_back(c);
    } catch (const Error&) {
      ++rejected;
    }
  }
  const std::string path = "/tmp/cuteref_bench_algebra_cases.txt";
  {
    std::ofstream f(path);
    for (const Case& c : cases)
      f << c.op << "|" << plain(c.a) << "|"
        << (c.op == "complement" ? std::to_string(c.m) : c.op == "coalesce" ? "" : plain(c.b)) << "\n";
  }
  std::map<std::string, std::pair<long, double>> per_op;
  // Per operation: all cases of that operation, `repeats` times, timed as one block.
  double model_seconds = 0;
  for (const char* op : ops) {
    const double t0 = cpu_seconds();
    long count = 0;
    for (int r = 0; r < repeats; ++r)
      for (const Case& c : cases)
        if (c.op == op) {
          run_op(c);
          ++count;
        }
    const double dt = cpu_seconds() - t0;
    per_op[op] = {count, dt};
    model_seconds += dt;
  }
  const double model_rate = static_cast<double>(cases.size()) * repeats / model_seconds;

  const int py_repeats = std::max(1, repeats / 10);
  const std::string cmd = "PYTHONPATH=" + pycute_dir + " python3 " + std::string(CUTEREF_BENCH_DIR) +
                          "/pycute_algebra.py " + path + " " + std::to_string(py_repeats);
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    std::cerr << "bench_algebra: cannot run pycute\n";
    return 1;
  }
  std::map<std::string, double> py_op;
  double py_rate = 0;
  char line[512];
  while (fgets(line, sizeof line, p)) {
    std::istringstream s(line);
    std::string head;
    s >> head;
    if (head.rfind("ops_per_second=", 0) == 0) py_rate = std::atof(head.c_str() + 15);
    if (head == "op") {
      std::string name;
      double rate;
      s >> name >> rate;
      py_op[name] = rate;
    }
  }
  if (pclose(p) != 0 || py_rate <= 0) {
    std::cerr << "bench_algebra: the pycute run failed\n";
    return 1;
  }
  std::printf("bench/algebra: %zu cases (%d generated cases the model rejects were dropped), seed 20261123\n",
              cases.size(), rejected);
  std::printf("%-16s %14s %14s %8s\n", "operation", "model ops/s", "pycute ops/s", "ratio");
  for (const auto& [op, pr] : per_op) {
    const double rate = pr.first / pr.second;
    std::printf("%-16s %14.0f %14.0f %7.0fx\n", op.c_str(), rate, py_op[op], rate / py_op[op]);
  }
  std::printf("%-16s %14.0f %14.0f %7.0fx\n", "mix", model_rate, py_rate, model_rate / py_rate);
  return 0;
}
