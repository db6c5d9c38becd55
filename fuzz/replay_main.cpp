// Runs a fuzz target's entry point over files, without libFuzzer: every regular file below each
// argument (a file or a directory, walked recursively in sorted order) is one input. A crash,
// a sanitizer report or an escaping exception fails the test; so does finding no input at all.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// Optional: a target with background threads releases them here, before static destruction.
extern "C" void webdata_fuzz_cleanup() __attribute__((weak));

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const fs::path root(argv[i]);
    if (fs::is_regular_file(root)) {
      files.push_back(root);
    } else if (fs::is_directory(root)) {
      for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') {
          files.push_back(entry.path());
        }
      }
    } else {
      std::fprintf(stderr, "replay: %s does not exist\n", argv[i]);
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  if (webdata_fuzz_cleanup != nullptr) webdata_fuzz_cleanup();
  std::printf("replay: %zu inputs ran clean\n", files.size());
  return files.empty() ? 1 : 0;
}
