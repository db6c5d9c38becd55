#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

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
  /// What a request leaves in the journal: kept as plain strings and made JSON only when read,
  /// since every request is recorded and the journal is rarely read (a JSON DOM per request was
  /// a tenth of a cache hit's time).
  struct Entry {
    std::string id;
    std::string target;
    std::string absolute_url;
    std::string method;
    std::string client_ip;
    std::vector<std::pair<std::string, std::string>> headers;  ///< credentials already masked
    std::string body;
    std::chrono::system_clock::time_point when;
    int status = 0;
    bool matched_stub = false;
  };
  static nlohmann::json entry_json(const Entry& entry);

  std::size_t limit_;
  mutable std::mutex mutex_;
  /// The last `limit_` entries in a ring: once it is full, a new entry takes the storage of the
  /// one it replaces (each thread fills a scratch entry and swaps it in), so recording allocates
  /// nothing once strings have grown to the requests' sizes.
  std::vector<Entry> ring_;
  std::size_t next_ = 0;  ///< The slot the next entry goes to.
  std::size_t total_ = 0;
};

}  // namespace webdata::mock
