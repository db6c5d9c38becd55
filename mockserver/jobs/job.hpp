#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job_runner.hpp"
#include "requests/requests.hpp"

namespace webdata::mock::jobs {

enum class JobKind { crawl, batch_scrape };
const char* kind_name(JobKind kind);  ///< "crawl" | "batch_scrape" (webhook event prefixes).

/// The `warning` of a v2 status once a job has ended with robots-blocked pages (the newer
/// service's text).
inline constexpr const char* kRobotsBlockedWarning =
    "One or more pages were unable to be crawled because the robots.txt file prevented this. "
    "Please use the /scrape endpoint instead.";

/// A page the service failed to scrape (wire-decisions section 3, errors endpoint).
struct JobError {
  std::string id;
  std::string timestamp;  ///< ISO 8601.
  std::string url;
  std::string code;
  std::string error;
  nlohmann::json to_json() const;
  /// The error to_json() wrote (persisted jobs); fields it lacks stay empty.
  static JobError from_json(const nlohmann::json& stored);
};

/// One chunk of a status response (wire-decisions section 3).
struct Chunk {
  std::size_t begin = 0;
  std::size_t end = 0;  ///< Exclusive.
  bool more = false;    ///< Documents exist beyond `end`.
};

/// Where a job is. Every state but `scraping` is final.
enum class JobState { scraping, completed, failed, cancelled };
const char* state_name(JobState state);  ///< The wire value: "scraping", "completed", ...
std::optional<JobState> parse_state(std::string_view name);

/// What happened to a job, in order: `started`, a `page` per stored document, then one of
/// `completed` (also for a cancelled job) or `failed`.
enum class JobEvent { started, page, completed, failed };
const char* event_name(JobEvent event);  ///< "started" | "page" | "completed" | "failed"

/// The mutable part of a job. Reached only through Job::lock(), so nothing reads or writes it
/// without the job's lock. Documents are kept as their serialized JSON with a running sum of
/// sizes, so a chunk at any offset is found by binary search, never by rescanning.
struct JobProgress {
  JobState status = JobState::scraping;
  std::int64_t total = 0;
  std::int64_t completed = 0;
  std::int64_t credits_used = 0;
  std::optional<std::chrono::system_clock::time_point> finished_at;
  std::optional<std::string> error;  ///< Why a failed job failed.
  /// Serialized documents, shared with the scrape store (GET /scrape/{id} serves the same text).
  std::vector<std::shared_ptr<const std::string>> documents;
  std::vector<std::uint64_t> offsets{0};  ///< offsets[i]: bytes of documents[0..i).
  std::vector<JobError> errors;
  std::vector<std::string> robots_blocked;
  bool expired_data_dropped = false;

  bool terminal() const { return status != JobState::scraping; }
  void add_document(std::shared_ptr<const std::string> serialized);
  /// Documents from `skip`: as many as fit in `chunk_bytes` (at least one), at most `limit`.
  Chunk chunk(std::size_t skip, std::size_t limit, std::size_t chunk_bytes) const;
  /// Every document stored so far, in one chunk (a watcher's catch-up).
  Chunk all() const;
  /// When results stop being served: completion + 24 h; while running, `now` + 24 h.
  std::chrono::system_clock::time_point expires_at(std::chrono::system_clock::time_point now) const;
};

/// A crawl or batch scrape job. Identity and options are fixed at creation (written before the
/// job is shared, read freely after); the progress belongs to the job and its lock (lock()).
class Job : public Guarded<JobProgress> {
 public:
  // Fixed at creation.
  std::string id;
  std::string team_id;
  JobKind kind = JobKind::crawl;
  std::string version;  ///< "v1" | "v2"
  std::string url;      ///< Crawl start URL (empty for a batch).
  /// The request that started it: a crawl's, or a batch's (the other is null).
  std::shared_ptr<const requests::CrawlRequest> crawl;
  std::shared_ptr<const requests::BatchScrapeRequest> batch;
  std::chrono::system_clock::time_point created_at;
  bool zero_data_retention = false;

  /// The request's `webhook`, if it named one.
  const std::optional<nlohmann::json>& webhook() const;
  /// The request as its version's wire writes it (what is persisted).
  nlohmann::json request_json() const;
};

}  // namespace webdata::mock::jobs
