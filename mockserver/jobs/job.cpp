#include "jobs/job.hpp"

#include <algorithm>

namespace webdata::mock::jobs {

const char* kind_name(JobKind kind) {
  return kind == JobKind::crawl ? "crawl" : "batch_scrape";
}

nlohmann::json JobError::to_json() const {
  return {{"id", id}, {"timestamp", timestamp}, {"url", url}, {"code", code}, {"error", error}};
}

void Job::add_document_locked(std::string serialized) {
  offsets.push_back(offsets.back() + serialized.size());
  documents.push_back(std::move(serialized));
}

Chunk Job::chunk_locked(std::size_t skip, std::size_t limit, std::size_t chunk_bytes) const {
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

std::chrono::system_clock::time_point Job::expires_at_locked(
    std::chrono::system_clock::time_point now) const {
  return (finished_at ? *finished_at : now) + std::chrono::hours(24);
}

}  // namespace webdata::mock::jobs
