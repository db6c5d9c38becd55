#pragma once

#include <memory>
#include <string>

#include "webdata/job_status.hpp"
#include "webdata/options.hpp"
#include "webdata/result.hpp"
#include "webdata/stream.hpp"

namespace webdata {

namespace detail {
class ClientCore;
}

/// A handle on a crawl or batch scrape job of the service. Cheap to copy; safe to use from
/// several threads. Every method takes the per-call options last, and they apply to each HTTP
/// request the method makes (paging included).
class Job {
 public:
  const std::string& id() const noexcept { return started_.id; }
  /// The start answer (`url` of the status resource, `invalidURLs` of a batch).
  const JobStarted& started() const noexcept { return started_; }

  /// One status request: counters, state and the first chunk of documents. Never follows
  /// `next`, so it returns promptly however large the job is.
  Result<JobStatus> status(const CallOptions& options = {}) const;

  /// Polls until the job ends (or the policy gives up), fetching no documents while it runs
  /// (each poll asks for at most one). Returns the final status with `data` empty; read the
  /// documents with `documents()`.
  Result<JobStatus> poll_until_done(const PollingPolicy& policy = {},
                                    const CallOptions& options = {}) const;

  /// Waits as `poll_until_done`, then fetches every document once, following `next`. The
  /// result holds all documents in `data` (and no `next`). For large jobs prefer
  /// `documents()`, which holds one chunk at a time.
  Result<JobStatus> wait(const PollingPolicy& policy = {}, const CallOptions& options = {}) const;

  /// The status chunks, lazily: one request per chunk, following `next`. Usable while the job
  /// runs: when a chunk brings nothing new and the job still runs, the next request waits
  /// `policy.interval`. Ends after the last chunk of a finished job.
  Stream<JobStatus> pages(const PollingPolicy& policy = {}, const CallOptions& options = {}) const;

  /// Every document of the job, lazily, one chunk in memory at a time (see `pages`).
  Stream<Document> documents(const PollingPolicy& policy = {},
                             const CallOptions& options = {}) const;

  /// Cancels the job; the resulting state (normally `cancelled`).
  Result<JobState> cancel(const CallOptions& options = {}) const;

  /// Pages the service failed to scrape, and URLs blocked by robots.txt.
  Result<JobErrors> errors(const CallOptions& options = {}) const;

 protected:
  Job(std::shared_ptr<const detail::ClientCore> core, std::string resource, JobStarted started);

 private:
  std::shared_ptr<const detail::ClientCore> core_;
  std::string resource_;  ///< e.g. "/v2/crawl"
  JobStarted started_;
};

/// A crawl (`/v1` or `/v2/crawl`).
class CrawlJob : public Job {
 public:
  CrawlJob(std::shared_ptr<const detail::ClientCore> core, std::string version, JobStarted started);
};

/// A batch scrape (`/v1` or `/v2/batch/scrape`).
class BatchScrapeJob : public Job {
 public:
  BatchScrapeJob(std::shared_ptr<const detail::ClientCore> core, std::string version,
                 JobStarted started);
};

}  // namespace webdata
