#include "jobs/feedback.hpp"

#include "core/ids.hpp"
#include "core/time.hpp"

namespace webdata::mock::jobs {

FeedbackStore::Added FeedbackStore::add(const std::string& team_id, const std::string& endpoint,
                                        const std::string& job_id, nlohmann::json body,
                                        std::chrono::system_clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& entry : entries_) {
    if (entry.team_id == team_id && entry.endpoint == endpoint && entry.job_id == job_id) {
      return {entry.id, true};
    }
  }
  entries_.push_back({uuid4(), team_id, endpoint, job_id, std::move(body), now});
  return {entries_.back().id, false};
}

nlohmann::json FeedbackStore::list() const {
  std::lock_guard<std::mutex> lock(mutex_);
  nlohmann::json out = nlohmann::json::array();
  for (const auto& entry : entries_) {
    out.push_back({{"id", entry.id},
                   {"teamId", entry.team_id},
                   {"endpoint", entry.endpoint},
                   {"jobId", entry.job_id},
                   {"createdAt", iso8601(entry.at)},
                   {"feedback", entry.body}});
  }
  return out;
}

void FeedbackStore::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.clear();
}

}  // namespace webdata::mock::jobs
