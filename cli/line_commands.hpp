// The text-in, text-out cores of `cuteref batch` and `cuteref describe`, shared by the CLI
// (main.cpp) and the fuzz target (fuzz/), so that the fuzzer runs exactly what a user runs.
#pragma once

#include <string>

namespace cuteref {

// One `batch` line: the value of EXPR in CuTe notation, or `error: <diagnostic>`.
// Pre: `line` has no line terminator (the caller strips "\n" and a trailing "\r").
// Post: never throws cuteref::Error (it becomes the `error:` text).
std::string batch_line(const std::string& line);

// `describe DESC [SHAPE]`: the normalized descriptor, its stride tree, one line per basis
// saying what a step along its mode adds, and with a shape the layout SHAPE:DESC and its size.
// Everything is computed before the text is returned: on bad input it throws cuteref::Error
// and nothing is printed. `shape` may be null.
std::string describe_report(const std::string& descriptor, const std::string* shape);

}  // namespace cuteref
