#include "jobs/feedback.hpp"

#include <algorithm>
#include <iterator>

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

std::string FeedbackStore::issued_key(const std::string& team_id, const std::string& endpoint,
                                      const std::string& job_id) {
  return team_id + '\n' + endpoint + '\n' + job_id;
}

void FeedbackStore::issue(const std::string& team_id, const std::string& endpoint,
                          const std::string& job_id, std::chrono::system_clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  issued_[issued_key(team_id, endpoint, job_id)] = now;
  if (issued_.size() >= sweep_at_) forget_expired(now);
}

// Drops the ids past the window; the next sweep waits until the map has doubled, so a sweep's
// cost is spread over the issues before it.
void FeedbackStore::forget_expired(std::chrono::system_clock::time_point now) {
  for (auto it = issued_.begin(); it != issued_.end();) {
    it = now - it->second > kWindow ? issued_.erase(it) : std::next(it);
  }
  sweep_at_ = std::max<std::size_t>(1024, issued_.size() * 2);
}

bool FeedbackStore::issued(const std::string& team_id, const std::string& endpoint,
                           const std::string& job_id,
                           std::chrono::system_clock::time_point now) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = issued_.find(issued_key(team_id, endpoint, job_id));
  return found != issued_.end() && now - found->second <= kWindow;
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
  issued_.clear();
}

}  // namespace webdata::mock::jobs
