#include "bounded_command.hpp"

#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

namespace cuteref {

int run_within_deadline(std::chrono::steady_clock::time_point deadline,
                        std::function<int(std::ostream& out, std::ostream& err)> work,
                        const std::function<std::string()>& timeout_line) {
  struct Outcome {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    int rc = 0;
    std::string out, err;
  };
  const auto outcome = std::make_shared<Outcome>();
  std::thread worker([outcome, work = std::move(work)] {
    std::ostringstream out, err;
    const int rc = work(out, err);
    const std::lock_guard<std::mutex> lock(outcome->m);
    outcome->rc = rc;
    outcome->out = out.str();
    outcome->err = err.str();
    outcome->done = true;
    outcome->cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(outcome->m);
  if (!outcome->cv.wait_until(lock, deadline + kCommandGrace, [&] { return outcome->done; })) {
    std::cout << timeout_line() << "\n";
    std::cout.flush();
    std::_Exit(2);  // the work is still running where it cannot be stopped: end without it
  }
  lock.unlock();
  worker.join();
  std::cout << outcome->out;
  std::cerr << outcome->err;
  return outcome->rc;
}

}  // namespace cuteref
