#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::mock::jobs {

/// Feedback on jobs (POST /v2/feedback, POST /v2/search/{id}/feedback), kept per team and
/// listed by the admin API. A team's second feedback on the same endpoint and job is not stored
/// again: it answers the first one's id with `alreadySubmitted`. Thread-safe.
class FeedbackStore {
 public:
  struct Added {
    std::string id;
    bool already_submitted = false;
  };
  /// Keeps `body` (the request as decoded) of `team_id` about `endpoint`'s job `job_id`.
  Added add(const std::string& team_id, const std::string& endpoint, const std::string& job_id,
            nlohmann::json body, std::chrono::system_clock::time_point now);
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
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace webdata::mock::jobs
