#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::mock::jobs {

/// Feedback on jobs (POST /v2/feedback, POST /v2/search/{id}/feedback), kept per team and
/// listed by the admin API. A team's second feedback on the same endpoint and job is not stored
/// again: it answers the first one's id with `alreadySubmitted`. It also keeps the ids the mock
/// answered that feedback may name (a search's `id`, a parse's `scrapeId`) for the retention
/// window of 24 h. Thread-safe.
class FeedbackStore {
 public:
  struct Added {
    std::string id;
    bool already_submitted = false;
  };
  /// Keeps `body` (the request as decoded) of `team_id` about `endpoint`'s job `job_id`.
  Added add(const std::string& team_id, const std::string& endpoint, const std::string& job_id,
            nlohmann::json body, std::chrono::system_clock::time_point now);
  /// The window in which feedback may name an issued id.
  static constexpr std::chrono::hours kWindow{24};
  /// Records that `team_id` was answered `job_id` of `endpoint` ("search", "parse") at `now`.
  void issue(const std::string& team_id, const std::string& endpoint, const std::string& job_id,
             std::chrono::system_clock::time_point now);
  /// Whether `job_id` of `endpoint` was issued to `team_id` within the window before `now`.
  bool issued(const std::string& team_id, const std::string& endpoint, const std::string& job_id,
              std::chrono::system_clock::time_point now) const;
  /// Every entry, oldest first: {id, teamId, endpoint, jobId, createdAt, feedback}.
  nlohmann::json list() const;
  void clear();

 private:
  struct Entry {
    std::string id;
    std::string team_id;
    std::string endpoint;
    std::string job_id;
    nlohmann::json body;
    std::chrono::system_clock::time_point at;
  };
  static std::string issued_key(const std::string& team_id, const std::string& endpoint,
                                const std::string& job_id);
  void forget_expired(std::chrono::system_clock::time_point now);

  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
  std::unordered_map<std::string, std::chrono::system_clock::time_point> issued_;
  std::size_t sweep_at_ = 1024;  ///< issued_'s size at which expired ids are dropped
};

}  // namespace webdata::mock::jobs
