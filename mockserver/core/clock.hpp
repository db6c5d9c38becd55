#pragma once

#include <atomic>
#include <chrono>

namespace webdata::mock {

/// The mock's notion of "now": the system clock plus an offset that tests move forward with
/// POST /__admin/clock/advance, so retention and cache ages can be tested without waiting.
class Clock {
 public:
  std::chrono::system_clock::time_point now() const {
    return std::chrono::system_clock::now() + std::chrono::milliseconds(offset_ms_.load());
  }
  void advance(std::chrono::milliseconds by) { offset_ms_ += by.count(); }
  std::chrono::milliseconds offset() const { return std::chrono::milliseconds(offset_ms_.load()); }
  void reset() { offset_ms_ = 0; }

 private:
  std::atomic<long long> offset_ms_{0};
};

}  // namespace webdata::mock
