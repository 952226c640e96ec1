// Replays saved fuzz inputs through the fuzz target without libFuzzer (any compiler, any
// build): `fuzz_replay PATH...` runs every regular file under each PATH (recursively, sorted)
// as one input. A crash, a sanitizer report or a broken contract ends the process with a
// failure (the target aborts); otherwise it prints how many inputs it ran and exits 0, or 1
// when it found none (a replay that checks nothing fails).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
    } else if (std::filesystem::is_regular_file(p)) {
      files.push_back(p);
    } else {
      std::cerr << "fuzz_replay: " << p << " is neither a file nor a directory\n";
      return 1;
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::cerr << "fuzz_replay: cannot read " << f << "\n";
      return 1;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::cout << "fuzz_replay: " << files.size() << " inputs replayed, 0 failed\n";
  if (files.empty()) {
    std::cout << "fuzz_replay: no inputs found: nothing was checked\n";
    return 1;
  }
  return 0;
}
