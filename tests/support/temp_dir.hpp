#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace webdata::testing {

/// A fresh directory under /tmp, removed with everything in it on destruction.
struct TempDir {
  TempDir() {
    char name[] = "/tmp/webdata-test-XXXXXX";
    if (mkdtemp(name) == nullptr) throw std::runtime_error("mkdtemp failed");
    path = name;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// Writes `text` to `relative` (directories made as needed).
  void write(const std::string& relative, const std::string& text) const {
    const auto file = std::filesystem::path(path) / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
  }

  std::string path;
};

}  // namespace webdata::testing
