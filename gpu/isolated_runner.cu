#include "isolated_runner.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <stdexcept>

#include <sys/wait.h>
#include <unistd.h>

namespace cuteref_gpu {

namespace {

// Child: runs cases indices[first..], one line per case on `fd`: "<index> <ok> <flag> <message>".
[[noreturn]] void child_run(const std::vector<std::size_t>& indices, std::size_t first,
                            const std::function<CaseOutcome(std::size_t)>& run, int fd) {
  for (std::size_t j = first; j < indices.size(); ++j) {
    const std::size_t i = indices[j];
    std::string line;
    bool fatal = false;
    try {
      CaseOutcome o = run(i);
      line = std::to_string(i) + " " + (o.ok ? "1" : "0") + " " + (o.flag ? "1" : "0") + " " + o.message;
    } catch (const std::exception& e) {
      line = std::to_string(i) + " 0 0 " + e.what();
      fatal = true;
    }
    for (char& ch : line)
      if (ch == '\n') ch = ' ';
    line += "\n";
    if (write(fd, line.data(), line.size()) < 0) _exit(4);
    if (fatal) _exit(3);
  }
  _exit(0);
}

// A child running indices[first..] and writing to its own temporary file (read after it ends,
// so that no pipe can fill up and block it).
struct Child {
  pid_t pid = -1;
  FILE* out = nullptr;
};

Child start_child(const std::vector<std::size_t>& indices, std::size_t first, const std::function<CaseOutcome(std::size_t)>& run) {
  Child c;
  c.out = std::tmpfile();
  if (!c.out) throw std::runtime_error("tmpfile failed");
  std::fflush(stdout);
  c.pid = fork();
  if (c.pid < 0) throw std::runtime_error("fork failed");
  if (c.pid == 0) child_run(indices, first, run, fileno(c.out));
  return c;
}

// Reads a finished child's lines into `results`; returns the position in `indices` after the
// last case it reported (first when it reported none).
std::size_t collect(Child& c, const std::vector<std::size_t>& indices, std::size_t first, std::vector<CaseOutcome>& results) {
  std::rewind(c.out);
  std::string buffer;
  for (int ch; (ch = std::fgetc(c.out)) != EOF;) buffer += static_cast<char>(ch);
  std::fclose(c.out);
  c.out = nullptr;
  std::istringstream lines(buffer);
  std::string line;
  std::size_t next = first;
  while (std::getline(lines, line)) {
    std::istringstream f(line);
    std::size_t i;
    int ok, flag;
    f >> i >> ok >> flag;
    std::string msg;
    std::getline(f, msg);
    results[i] = {true, ok == 1, flag == 1, msg.empty() ? msg : msg.substr(1)};
    while (next < indices.size() && indices[next] != i) ++next;
    if (next < indices.size()) ++next;
  }
  return next;
}

}  // namespace

std::vector<CaseOutcome> run_isolated(std::size_t count, const std::function<CaseOutcome(std::size_t)>& run,
                                      const std::function<bool(std::size_t)>& may_fault) {
  std::vector<CaseOutcome> results(count);
  std::vector<std::size_t> shared, alone;
  for (std::size_t i = 0; i < count; ++i) (may_fault && may_fault(i) ? alone : shared).push_back(i);

  // The shared child: resumes after the last reported case when a case ends it.
  for (std::size_t next = 0; next < shared.size();) {
    Child c = start_child(shared, next, run);
    int status = 0;
    waitpid(c.pid, &status, 0);
    const std::size_t after = collect(c, shared, next, results);
    if (after == next) {  // it died before reporting its first case
      results[shared[next]] = {true, false, false, "the case's process died without a result"};
      ++next;
    } else {
      next = after;
    }
  }

  // One child per case expected to fault, `workers` at a time.
  int workers = 8;
  if (const char* w = std::getenv("CUTEREF_GPU_FAULT_WORKERS")) workers = std::max(1, std::atoi(w));
  std::map<pid_t, std::pair<Child, std::size_t>> running;  // pid -> (child, position in `alone`)
  std::size_t launched = 0;
  while (launched < alone.size() || !running.empty()) {
    while (launched < alone.size() && static_cast<int>(running.size()) < workers) {
      const std::vector<std::size_t> one{alone[launched]};
      Child c = start_child(one, 0, run);
      running[c.pid] = {c, launched};
      ++launched;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) throw std::runtime_error("waitpid failed");
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const std::vector<std::size_t> one{alone[it->second.second]};
    if (collect(it->second.first, one, 0, results) == 0)
      results[one[0]] = {true, false, false, "the case's process died without a result"};
    running.erase(it);
  }
  return results;
}

}  // namespace cuteref_gpu
