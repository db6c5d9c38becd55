#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace webdata::testing {

/// Waits until `condition` holds (an admin counter, the journal, a job's state): true as soon
/// as it does, false when `timeout` passes first. Tests wait on a condition, never for a fixed
/// time; the timeout only bounds a test that would otherwise hang, so it is generous.
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    // The one poll interval of the tests: short against any behaviour they observe.
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace webdata::testing
