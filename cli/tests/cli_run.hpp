// Running the built `cuteref` binary (path in $CUTEREF_BIN, set by meson) from a test:
// shared by cli_test.cpp and cli_hardening_test.cpp.
#pragma once

#include <unistd.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuteref::test {

struct RunResult {
  int exit_code;
  std::string out;
  std::string err;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Single-quotes `s` for the shell.
inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// A per-process temporary path: several test runs (other checkouts) may share the folder.
inline std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "cli_" + std::to_string(::getpid()) + "_" + name;
}

// Runs `cuteref ARGS` with `input` (bytes, NULs allowed) on stdin. `stdin_from` / `stdout_to`,
// when given, replace the redirections (e.g. "/" or "/dev/full"); stdout is then not captured.
inline RunResult run_cli(const std::string& args, const std::string& input = "", const std::string& stdin_from = "",
                         const std::string& stdout_to = "") {
  const char* bin = std::getenv("CUTEREF_BIN");
  if (!bin) throw std::runtime_error("CUTEREF_BIN is not set (run through meson test)");
  const std::string in = temp_path("in.txt"), out = temp_path("out.txt"), err = temp_path("err.txt");
  std::ofstream(in, std::ios::binary) << input;
  std::ofstream(out, std::ios::trunc).close();
  const std::string cmd = quote(bin) + " " + args + " < " + quote(stdin_from.empty() ? in : stdin_from) + " > " +
                          quote(stdout_to.empty() ? out : stdout_to) + " 2> " + quote(err);
  const int status = std::system(cmd.c_str());
  if (status == -1 || !WIFEXITED(status)) throw std::runtime_error("could not run (or killed by a signal): " + cmd);
  return {WEXITSTATUS(status), read_file(out), read_file(err)};
}

inline std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> r;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) r.push_back(l);
  return r;
}

inline bool contains(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }

}  // namespace cuteref::test
