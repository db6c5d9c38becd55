#include "jobs/job.hpp"

#include <algorithm>

namespace webdata::mock::jobs {

const char* kind_name(JobKind kind) {
  return kind == JobKind::crawl ? "crawl" : "batch_scrape";
}

const char* state_name(JobState state) {
  switch (state) {
    case JobState::scraping: return "scraping";
    case JobState::completed: return "completed";
    case JobState::failed: return "failed";
    case JobState::cancelled: return "cancelled";
  }
  return "failed";
}

std::optional<JobState> parse_state(std::string_view name) {
  for (const JobState state :
       {JobState::scraping, JobState::completed, JobState::failed, JobState::cancelled}) {
    if (name == state_name(state)) return state;
  }
  return std::nullopt;
}

const char* event_name(JobEvent event) {
  switch (event) {
    case JobEvent::started: return "started";
    case JobEvent::page: return "page";
    case JobEvent::completed: return "completed";
    case JobEvent::failed: return "failed";
  }
  return "failed";
}

JobError JobError::from_json(const nlohmann::json& stored) {
  JobError out;
  if (!stored.is_object()) return out;
  const auto text = [&stored](const char* key) {
    const auto it = stored.find(key);
    return it != stored.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  out.id = text("id");
  out.timestamp = text("timestamp");
  out.url = text("url");
  out.code = text("code");
  out.error = text("error");
  return out;
}

const std::optional<nlohmann::json>& Job::webhook() const {
  static const std::optional<nlohmann::json> kNone;
  if (crawl) return crawl->webhook;
  return batch ? batch->webhook : kNone;
}

nlohmann::json Job::request_json() const {
  if (crawl) return requests::encode(*crawl);
  return batch ? requests::encode(*batch) : nlohmann::json::object();
}

nlohmann::json JobError::to_json() const {
  return {{"id", id}, {"timestamp", timestamp}, {"url", url}, {"code", code}, {"error", error}};
}

void JobProgress::add_document(std::shared_ptr<const std::string> serialized) {
  offsets.push_back(offsets.back() + serialized->size());
  documents.push_back(std::move(serialized));
}

Chunk JobProgress::chunk(std::size_t skip, std::size_t limit, std::size_t chunk_bytes) const {
  Chunk chunk;
  const std::size_t n = documents.size();
  chunk.begin = std::min(skip, n);
  if (chunk.begin == n) {
    chunk.end = n;
    return chunk;
  }
  // The last end whose bytes from `begin` stay within the limit: offsets is sorted.
  const std::uint64_t budget = offsets[chunk.begin] + chunk_bytes;
  const auto it = std::upper_bound(offsets.begin() + static_cast<std::ptrdiff_t>(chunk.begin) + 1,
                                   offsets.end(), budget);
  std::size_t end = static_cast<std::size_t>(it - offsets.begin()) - 1;
  end = std::max(end, chunk.begin + 1);  // an oversized document comes alone
  if (limit > 0) end = std::min(end, chunk.begin + limit);
  chunk.end = end;
  chunk.more = end < n;
  return chunk;
}

Chunk JobProgress::all() const {
  Chunk chunk;
  chunk.end = documents.size();
  return chunk;
}

std::chrono::system_clock::time_point JobProgress::expires_at(
    std::chrono::system_clock::time_point now) const {
  return (finished_at ? *finished_at : now) + std::chrono::hours(24);
}

}  // namespace webdata::mock::jobs
