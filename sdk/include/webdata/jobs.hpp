#pragma once

#include <memory>
#include <string>

#include "webdata/api_version.hpp"
#include "webdata/job_status.hpp"
#include "webdata/options.hpp"
#include "webdata/result.hpp"
#include "webdata/stream.hpp"
#include "webdata/watch.hpp"

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

  /// The status chunks, lazily: one request per chunk, following `next`, each chunk with only
  /// the documents not given before. Driven by the job's state: it ends once the job is
  /// terminal and no `next` remains (or a terminal chunk brings nothing new); while the job
  /// runs, a chunk without `next` or without anything new is followed by another request after
  /// `policy.interval` (with `skip` = documents so far). `policy.max_wait` and the call's
  /// deadline bound it. See docs/sdk.md, "How a job is followed".
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
  const std::shared_ptr<const detail::ClientCore>& core() const noexcept { return core_; }
  const std::string& resource() const noexcept { return resource_; }

 private:
  std::shared_ptr<const detail::ClientCore> core_;
  std::string resource_;  ///< e.g. "/v2/crawl"
  JobStarted started_;
};

/// A crawl (`/v1` or `/v2/crawl`).
class CrawlJob : public Job {
 public:
  CrawlJob(std::shared_ptr<const detail::ClientCore> core, ApiVersion version, JobStarted started);
  /// `version` is "v1" or "v2".
  CrawlJob(std::shared_ptr<const detail::ClientCore> core, std::string version, JobStarted started);

  /// The crawl as it happens: a `kStatus` event first, then each document as it is scraped
  /// (and status changes), then one `kFinished` event with the final status; lazily, on the
  /// caller's thread, in bounded memory.
  ///
  /// With `WatchMode::kAuto` it uses the service's WebSocket watcher (`ws://`, or `wss://` when
  /// the API URL is `https://`, on the API's host and port) and falls back to polling when the
  /// service does not offer it (the upgrade is declined) or the connection breaks later;
  /// polling asks for status with `skip` = documents already delivered, so no document is
  /// downloaded or delivered twice. A TLS failure (an untrusted certificate), a refused key or a
  /// proxy's refusal is an error, never a silent fallback. The WebSocket connects as the
  /// transport does (`Transport::connection_options`: TLS verification, CA file and path, HTTP
  /// proxy, user agent, connect timeout). `policy.polling.cancel` stops the watch
  /// (kCancelled), `policy.polling.max_wait` and the call's deadline bound it (kTimeout).
  ///
  ///     for (auto& event : job.watch()) {
  ///       if (!event.ok()) { report(event.error()); break; }
  ///       if (event->document) store(*event->document);
  ///     }
  Stream<WatchEvent> watch(const WatchPolicy& policy = {}, const CallOptions& options = {}) const;
};

/// A batch scrape (`/v1` or `/v2/batch/scrape`).
class BatchScrapeJob : public Job {
 public:
  BatchScrapeJob(std::shared_ptr<const detail::ClientCore> core, ApiVersion version,
                 JobStarted started);
  /// `version` is "v1" or "v2".
  BatchScrapeJob(std::shared_ptr<const detail::ClientCore> core, std::string version,
                 JobStarted started);
};

}  // namespace webdata
