// Small observation helpers the laws share: a layout seen as a function (its values, its
// image), and the exhaustive-check driver. Evaluation is the model's own (apply_index); the
// laws state relations between operations, not a second implementation of them.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "coordinates.hpp"
#include "error.hpp"
#include "law_report.hpp"
#include "layout.hpp"
#include "universe.hpp"

namespace cuteref::props {

// L(0), ..., L(size(L)-1).
std::vector<std::int64_t> values(const Layout& l);
// The set of offsets L reaches.
std::set<std::int64_t> image(const Layout& l);
bool is_injective(const Layout& l);
// nullopt when f(i) == g(i) for every 0 <= i < n, else the first differing index and values.
Violation same_values(const Layout& f, const Layout& g, std::int64_t n, const std::string& f_name, const std::string& g_name);
// Complement's domain, decided from the definition (not by asking the model): non-negative
// strides and, with the modes of extent > 1 and stride != 0 sorted by stride, s_k:d_k,
// d_{k+1} >= s_k * d_k (injective up to broadcast modes, no interleaving). `divisible`: every
// d_{k+1} is a multiple of s_k * d_k (d_0 of 1). `extent`: s_last * d_last (1 with no modes).
struct Domain {
  bool inside = false;
  bool divisible = false;
  std::int64_t extent = 1;
};
Domain complement_domain(const Layout& a);

// Runs `op`, turning a model Error into a violation naming `what`.
Violation rejected(const std::string& what, const Error& e);

// The exhaustive check of `law` over one universe: `enumerate` visits every input and calls
// the law; the first violations are reported as GoogleTest failures with the input, and the
// universe size is recorded. `skipped` counts inputs outside the law's domain (reported, never
// counted as checked).
class Exhaustive {
 public:
  Exhaustive(std::string law, std::string universe) : law_(std::move(law)), universe_(std::move(universe)) {}
  // One input checked.
  void check(const std::string& input, const Violation& v);
  // One input outside the law's precondition (e.g. the model rejects the pair).
  void skip() { ++skipped_; }
  ~Exhaustive();

 private:
  std::string law_, universe_;
  std::int64_t checked_ = 0, skipped_ = 0, failures_ = 0;
};

}  // namespace cuteref::props
