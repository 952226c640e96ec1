// A command whose --timeout bounds the whole run, also where its work cannot be interrupted
// (a Z3 call in a phase that does not look at its interrupt flag, the model's enumeration).
#pragma once

#include <chrono>
#include <functional>
#include <ostream>
#include <string>

namespace cuteref {

// How long past its deadline a command may take to end and report on its own.
inline constexpr std::chrono::milliseconds kCommandGrace{500};

// Runs `work(out, err)` on a thread of its own, its output held back. If it ends by
// `deadline` + kCommandGrace, prints its output and returns its exit status. Otherwise prints
// `timeout_line()` (one line, on stdout) and ends the process with exit status 2 (`unknown`),
// without the work. @pre `work` touches no state of the caller's but what it captures by value.
int run_within_deadline(std::chrono::steady_clock::time_point deadline,
                        std::function<int(std::ostream& out, std::ostream& err)> work,
                        const std::function<std::string()>& timeout_line);

}  // namespace cuteref
