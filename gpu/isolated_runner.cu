#include "isolated_runner.hpp"

#include <sstream>
#include <stdexcept>

#include <sys/wait.h>
#include <unistd.h>

namespace cuteref_gpu {

namespace {

// Child: runs cases from `first`, one line per case on `fd`: "<index> <ok> <flag> <message>".
[[noreturn]] void child_run(std::size_t count, std::size_t first, const std::function<CaseOutcome(std::size_t)>& run,
                            int fd) {
  for (std::size_t i = first; i < count; ++i) {
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

}  // namespace

std::vector<CaseOutcome> run_isolated(std::size_t count, const std::function<CaseOutcome(std::size_t)>& run) {
  std::vector<CaseOutcome> results(count);
  std::size_t next = 0;
  while (next < count) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
      close(fds[0]);
      child_run(count, next, run, fds[1]);
    }
    close(fds[1]);
    std::string buffer;
    char chunk[4096];
    ssize_t n;
    while ((n = read(fds[0], chunk, sizeof chunk)) > 0) buffer.append(chunk, static_cast<std::size_t>(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    std::istringstream lines(buffer);
    std::string line;
    std::size_t last = next;
    bool any = false;
    while (std::getline(lines, line)) {
      std::istringstream f(line);
      std::size_t i;
      int ok, flag;
      f >> i >> ok >> flag;
      std::string msg;
      std::getline(f, msg);
      results[i] = {true, ok == 1, flag == 1, msg.empty() ? msg : msg.substr(1)};
      last = i;
      any = true;
    }
    if (!any) {
      results[next] = {true, false, false, "the case's process died without a result"};
      last = next;
    }
    next = last + 1;
  }
  return results;
}

}  // namespace cuteref_gpu
