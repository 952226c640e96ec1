// Running `cuteref prove` in-process for the proof tests: the exit code and both streams,
// and a variable's value from a printed counterexample.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "claim.hpp"

namespace cuteref::proofs::testing {

struct ProveRun {
  int rc;
  std::string out, err;
};

// `where`: the --where texts (an empty text is left out).
inline ProveRun prove(const std::string& claim, const std::vector<std::string>& where = {}, double timeout_s = 60) {
  ProveRequest r;
  r.claim = claim;
  for (const auto& w : where)
    if (!w.empty()) r.where.push_back(w);
  r.timeout_s = timeout_s;
  std::ostringstream out, err;
  const int rc = prove_command(r, out, err);
  return {rc, out.str(), err.str()};
}

// `cuteref prove` with --assume hypotheses.
inline ProveRun prove_assuming(const std::string& claim, std::vector<std::string> where, std::vector<std::string> assume,
                               double timeout_s = 60) {
  ProveRequest r;
  r.claim = claim;
  r.where = std::move(where);
  r.assume = std::move(assume);
  r.timeout_s = timeout_s;
  std::ostringstream out, err;
  const int rc = prove_command(r, out, err);
  return {rc, out.str(), err.str()};
}

inline std::int64_t value_of(const std::string& out, const std::string& name) {
  std::smatch m;
  const std::regex re("  " + name + " = (-?[0-9]+)");
  if (!std::regex_search(out, m, re)) {
    ADD_FAILURE() << "no value of " << name << " in:\n" << out;
    return -1;
  }
  return std::stoll(m[1]);
}

}  // namespace cuteref::proofs::testing
