#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "http/message.hpp"

namespace webdata::mock {

/// WireMock-style request journal: the last N requests with the status they got. Credentials
/// (Authorization, API keys in headers) are masked before they are stored.
class Journal {
 public:
  explicit Journal(std::size_t limit) : limit_(limit) {}

  void record(const http::Request& request, int status, bool matched_stub,
              std::chrono::system_clock::time_point when);
  /// `{"requests": [...newest first], "meta": {"total": N}, "requestJournalDisabled": bool}`.
  nlohmann::json to_json() const;
  void clear();

 private:
  std::size_t limit_;
  mutable std::mutex mutex_;
  std::deque<nlohmann::json> entries_;  // newest at the front
  std::size_t total_ = 0;
};

}  // namespace webdata::mock
