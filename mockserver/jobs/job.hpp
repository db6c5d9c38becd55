#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::mock::jobs {

enum class JobKind { crawl, batch_scrape };
const char* kind_name(JobKind kind);  ///< "crawl" | "batch_scrape" (webhook event prefixes).

/// A page the service failed to scrape (wire-decisions section 3, errors endpoint).
struct JobError {
  std::string id;
  std::string timestamp;  ///< ISO 8601.
  std::string url;
  std::string code;
  std::string error;
  nlohmann::json to_json() const;
};

/// One chunk of a status response (wire-decisions section 3).
struct Chunk {
  std::size_t begin = 0;
  std::size_t end = 0;  ///< Exclusive.
  bool more = false;    ///< Documents exist beyond `end`.
};

/// A crawl or batch scrape job. Identity and options are fixed at creation; the mutable part
/// (state, counters, documents, errors) is guarded by `mutex`. Documents are kept as their
/// serialized JSON with a running sum of sizes, so a chunk at any offset is found by binary
/// search, never by rescanning.
struct Job {
  // Fixed at creation.
  std::string id;
  std::string team_id;
  JobKind kind = JobKind::crawl;
  std::string version;  ///< "v1" | "v2"
  std::string url;      ///< Crawl start URL (empty for a batch).
  nlohmann::json options;  ///< The validated request body, defaults applied.
  std::chrono::system_clock::time_point created_at;
  bool zero_data_retention = false;

  mutable std::mutex mutex;
  // Guarded by `mutex`.
  std::string status = "scraping";
  std::int64_t total = 0;
  std::int64_t completed = 0;
  std::int64_t credits_used = 0;
  std::optional<std::chrono::system_clock::time_point> finished_at;
  std::optional<std::string> error;  ///< Why a failed job failed.
  std::vector<std::string> documents;
  std::vector<std::uint64_t> offsets{0};  ///< offsets[i]: bytes of documents[0..i).
  std::vector<JobError> errors;
  std::vector<std::string> robots_blocked;
  bool expired_data_dropped = false;

  bool terminal_locked() const { return status != "scraping"; }
  void add_document_locked(std::string serialized);
  /// Documents from `skip`: as many as fit in `chunk_bytes` (at least one), at most `limit`.
  Chunk chunk_locked(std::size_t skip, std::size_t limit, std::size_t chunk_bytes) const;
  /// When results stop being served: completion + 24 h; while running, `now` + 24 h.
  std::chrono::system_clock::time_point expires_at_locked(
      std::chrono::system_clock::time_point now) const;
};

}  // namespace webdata::mock::jobs
