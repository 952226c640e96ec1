// The text-in, text-out cores of `cuteref eval`, `batch` and `describe`, shared by the CLI
// (main.cpp) and the fuzz target (fuzz/), so that the fuzzer runs exactly what a user runs.
#pragma once

#include <cstddef>
#include <string>

namespace cuteref {

// Most bytes of one printed value (eval, batch, describe): a few KB of input can denote a
// value whose text is far larger (e.g. make_basis_like of a deep shape: a basis path per leaf).
inline constexpr std::size_t kMaxResultBytes = std::size_t{1} << 20;

// A diagnostic as printed: `error: ` and the message, one printable line of bounded length.
std::string diagnostic(const std::string& message);

// The answer to one expression (eval, one batch line): its value's text, or a diagnostic
// (`failed` set). Nothing escapes: batch answers every line with exactly one line; an
// exception other than cuteref::Error and std::bad_alloc becomes `error: internal error: ...`.
// Pre: `expr` has no line terminator.
std::string answer(const std::string& expr, bool& failed);

// `describe DESC [SHAPE]`: the normalized descriptor, its stride tree, one line per basis
// saying what a step along its mode adds, and with a shape the layout SHAPE:DESC and its size.
// Everything is computed before the text is returned: on bad input (or a text longer than
// kMaxResultBytes) it throws cuteref::Error and nothing is printed. `shape` may be null.
std::string describe_report(const std::string& descriptor, const std::string* shape);

}  // namespace cuteref
