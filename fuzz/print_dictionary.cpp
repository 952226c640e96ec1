// Prints a libFuzzer dictionary (-dict=FILE) of the expression language: every function name
// of the function table (so the dictionary follows the table), and the tokens of the
// notation, the corpus format and the claim language. fuzz/run writes it into the build.
#include <iostream>
#include <string>

#include "function_table.hpp"

namespace {

// libFuzzer's dictionary syntax: a quoted string with \\ and \" escaped.
void entry(const std::string& text) {
  std::string quoted;
  for (char c : text) {
    if (c == '\\' || c == '"') quoted += '\\';
    quoted += c;
  }
  std::cout << '"' << quoted << "\"\n";
}

}  // namespace

int main() {
  int count = 0;
  for (const auto& [name, spec] : cuteref::standard_functions().all()) {
    entry(name + "(");
    ++count;
  }
  // Notation (notation.hpp), descriptors (descriptor.hpp), the corpus format
  // (corpus_runner.hpp), claims and --where (claim.hpp).
  for (const char* token :
       {"(", ")", ",", ":", "_", "@", "/", "-", "Sw<", ">", " o ", "smem_ptr[16b](unset)", "smem_ptr[", "b](", "unset",
        "()", "(_,", "==", "descriptor(", "=>", " | claimed: ", "=> error: ", "#", "true", "false", "+", "*", "%", "&",
        "|", "^", "<<", ">>", "x", " in [", "]", "9223372036854775807", "-9223372036854775808", "4294967296",
        "LayoutLeft", "LayoutRight", "K", "MN", "SW128", "SW64", "SW32", "INTER", "A", "B", "C", "Src", "Dst", "Ref"}) {
    entry(token);
    ++count;
  }
  std::cerr << "fuzz dictionary: " << count << " entries\n";
  return 0;
}
