#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "jobs/job.hpp"

struct sqlite3;

namespace webdata::mock::jobs {

/// Jobs, documents, errors and robots-blocked URLs in SQLite (`<state dir>/jobs.sqlite3`), so
/// they survive a restart of the mock. Writes go through as they happen (WAL journal); a job
/// that was running when the mock stopped comes back `failed`, with its finished documents.
/// Thread-safe. Throws std::runtime_error naming the file when the database cannot be used.
class JobPersistence {
 public:
  explicit JobPersistence(const std::filesystem::path& dir);
  ~JobPersistence();
  JobPersistence(const JobPersistence&) = delete;
  JobPersistence& operator=(const JobPersistence&) = delete;

  /// Every stored job; running ones are marked failed at `now`.
  std::vector<std::shared_ptr<Job>> load(std::chrono::system_clock::time_point now);
  /// Upserts the job's identity, state and counters (call with the job's lock held).
  void save_job(const Job& job, const JobProgress& progress);
  void add_document(const std::string& job_id, std::size_t index, const std::string& body);
  void add_error(const std::string& job_id, const JobError& error);
  void add_robots_blocked(const std::string& job_id, const std::string& url);
  /// Past retention: documents, errors and blocked URLs go; the job row stays (tombstone).
  void drop_results(const std::string& job_id);
  void clear();

 private:
  void exec(const char* sql);
  std::mutex mutex_;
  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace webdata::mock::jobs
