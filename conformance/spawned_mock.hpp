#pragma once

#include <sys/types.h>
#include <string>
#include <vector>

namespace webdata::conformance {

/// A webdata-mock child process on a free port; terminated (SIGTERM) on destruction.
class SpawnedMock {
 public:
  SpawnedMock(const std::string& executable, const std::vector<std::string>& extra_args);
  ~SpawnedMock();
  SpawnedMock(const SpawnedMock&) = delete;
  SpawnedMock& operator=(const SpawnedMock&) = delete;

  const std::string& base_url() const { return base_url_; }

 private:
  pid_t pid_ = -1;
  std::string base_url_;
};

}  // namespace webdata::conformance
