#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "core/teams.hpp"
#include "jobs/job.hpp"
#include "scrape/scraper.hpp"
#include "web/virtual_web.hpp"

namespace webdata::mock::jobs {

class JobPersistence;

struct EngineSettings {
  std::size_t chunk_bytes = 10485760;        ///< Status chunk limit (wire-decisions section 3).
  std::chrono::milliseconds pacing{20};      ///< A job's next page starts this long after one ends.
  int workers = 16;                          ///< Pages scraped at once across all jobs.
  std::string state_dir;                     ///< SQLite persistence; empty: memory only.
  bool fault_repeat_skip = false;  ///< --inject-fault repeat-skip: `next` repeats a document.
  bool fault_ignore_skip = false;  ///< --inject-fault ignore-skip: chunks start at document 0.
  bool fault_cancel_finished_flips = false;  ///< --inject-fault cancel-finished-flips.
  bool fault_ignore_limit = false;    ///< --inject-fault ignore-limit: status ignores `limit`.
  bool fault_one_job_store = false;   ///< --inject-fault one-job-store: kinds share their ids.
  bool fault_baseline_fields = false;  ///< --inject-fault baseline-fields: no robots warning.
  bool fault_first_status_without_next = false;  ///< --inject-fault first-status-without-next.
};

/// Receives job events in order (see JobEvent); `data` is `[document]` for a page event and
/// empty otherwise. Called with the job's lock held, so events of one job arrive in the order
/// they happened; the sink must not block (the webhook dispatcher only queues) and must not
/// lock the job again (it may read the job's fixed fields).
using EventSink = std::function<void(const Job& job, JobEvent event, bool success,
                                     const nlohmann::json& data,
                                     const std::optional<std::string>& error)>;

/// One watcher's view of a job's events: for `page`, the stored document as its serialized
/// JSON (the bytes the status endpoint serves); for `failed`, why. Called with the job's lock
/// held, in event order; must not block (the crawl watcher only queues a message).
using WatchListener = std::function<void(JobEvent event, std::string_view document,
                                         const std::optional<std::string>& error)>;

/// What a watcher sees first: the status body with every document so far (no `next`), and
/// whether the job already ended.
struct WatchSnapshot {
  std::string body;
  JobState state = JobState::scraping;
  std::optional<std::string> error;
};

/// Runs crawl and batch scrape jobs: a worker pool that picks pages round-robin across jobs
/// within each job's `maxConcurrency` and each team's concurrency limit, a crawler (robots.txt,
/// sitemaps, scope, dedupe, limit, depth) over the virtual web, and the job store with
/// retention. Thread-safe.
class JobEngine {
 public:
  JobEngine(scrape::Scraper& scraper, const web::VirtualWeb& web, Teams& teams,
            const Clock& clock, EngineSettings settings);
  ~JobEngine();
  JobEngine(const JobEngine&) = delete;
  JobEngine& operator=(const JobEngine&) = delete;

  /// Starts a crawl from `request->url` (the caller has checked the regexes and the scrape
  /// options). As the service does, its `limit` is cut to the team's credits when they are
  /// fewer.
  std::shared_ptr<Job> start_crawl(const Team& team,
                                   std::shared_ptr<const requests::CrawlRequest> request);
  /// Starts a batch scrape of `urls` (already filtered to valid ones).
  std::shared_ptr<Job> start_batch(const Team& team,
                                   std::shared_ptr<const requests::BatchScrapeRequest> request,
                                   std::vector<std::string> urls);

  enum class AppendOutcome { appended, not_found, expired, already_finished };
  /// Adds `urls` to the team's batch scrape `id` (`appendToId`), each scraped with
  /// `scrape_options` (the appending request's). A running job takes them in its queue; a
  /// completed one runs again (status `scraping` until they are done); a cancelled or failed
  /// one refuses them. A batch of the other API version is not found (its options would not fit).
  AppendOutcome append_batch(const Team& team, const std::string& id,
                             requests::ScrapeOptions scrape_options,
                             std::vector<std::string> urls);

  enum class Lookup { found, not_found, expired, other_team };
  /// The team's job of this kind. Past its retention the job is `expired` (its documents are
  /// dropped then; the id stays known as a tombstone); a job of this kind that another team
  /// started is `other_team` (most routes answer it as not found).
  Lookup find(const std::string& id, const std::string& team_id, JobKind kind,
              std::shared_ptr<Job>& out);

  enum class CancelOutcome { cancelled, not_found, expired, already_finished };
  CancelOutcome cancel(const std::string& id, const std::string& team_id, JobKind kind);

  /// The team's crawls still in state `scraping`, oldest first.
  std::vector<std::shared_ptr<Job>> active_crawls(const std::string& team_id);

  /// The status response body of `job` from `skip` (at most `limit` documents, 0: no cap), with
  /// `next` built on `next_base` ("http://HOST/v2/crawl/ID").
  std::string status_body(const Job& job, std::size_t skip, std::size_t limit,
                          const std::string& next_base);
  /// The errors endpoint body (wire-decisions section 3).
  nlohmann::json errors_body(const Job& job) const;
  nlohmann::json active_entry(const Job& job) const;

  /// Pages of the team's jobs being scraped now (`active`) and queued (`waiting`).
  struct QueueFigures {
    std::int64_t active = 0;
    std::int64_t waiting = 0;
  };
  QueueFigures queue_figures(const std::string& team_id) const;

  void set_event_sink(EventSink sink);

  /// Subscribes `listener` to the events of `job`. `snapshot` runs first, with the job's lock
  /// held, so that what it reads and the events that follow neither overlap nor leave a gap.
  /// A job that already ended gets the snapshot only, and the result is 0. Otherwise the
  /// result identifies the subscription for unwatch(); the listener also hears `completed` when
  /// reset() stops the job.
  std::uint64_t watch(const std::shared_ptr<Job>& job,
                      const std::function<void(const WatchSnapshot&)>& snapshot,
                      WatchListener listener);
  /// Ends a subscription. When it returns, the listener is not running and will not run again.
  void unwatch(std::uint64_t id);
  /// Subscriptions currently registered (all jobs).
  std::size_t watcher_count() const;
  EngineSettings settings() const;
  void set_chunk_bytes(std::size_t bytes);
  void set_pacing(std::chrono::milliseconds pacing);
  /// Blocks until no job is running or `timeout` passes; true when idle.
  bool wait_idle(std::chrono::milliseconds timeout);
  /// Tasks whose fetches are not due yet (slow pages, a crawl's first step): what a test waits
  /// for before it advances the clock.
  std::size_t deferred_count() const;
  /// Forgets every job (running ones stop taking pages).
  void reset();

 private:
  struct Task;
  struct Runtime;

  void worker_loop();
  bool runnable_locked(const Runtime& runtime, std::chrono::steady_clock::time_point now);
  bool pick_locked(std::shared_ptr<Runtime>& runtime, Task& task);
  /// What is left of a task once its fetches are made: `complete` records their results when
  /// they are due (`ready_at`). A task that is not due yet (a slow page, a fixture delay, a
  /// timeout, slow robots.txt or sitemaps) waits in `deferred_` instead of a worker sleeping
  /// for it; it stays in flight meanwhile.
  struct Later;
  struct Deferred;
  /// Runs one task's fetches; nothing when the job ended while the task was queued.
  std::optional<Later> run_task(const std::shared_ptr<Runtime>& runtime, const Task& task);
  /// The crawl's first step: robots.txt and sitemaps, then the start page and the sitemaps'
  /// pages are queued.
  Later seed_crawl(const std::shared_ptr<Runtime>& runtime);
  std::optional<Later> scrape_page(const std::shared_ptr<Runtime>& runtime, const Task& task);
  /// Records a scraped page (or its failure) in its job and follows its links.
  void record_page(Runtime& runtime, const Task& task, const requests::ScrapeOptions& options,
                   scrape::Outcome& outcome);
  /// Whether robots.txt lets the crawl read `url`: known for the start origin and for origins
  /// whose robots.txt was read already (then `due` is when that answer is due); nullopt when
  /// it must be fetched first.
  std::optional<bool> known_robots(Runtime& runtime, const std::string& url,
                                   std::chrono::steady_clock::time_point& due);
  /// Queues `url` for the crawl if it is new, in scope, allowed and within the limit.
  void offer_locked(Runtime& runtime, const std::string& url, int depth);
  void finish_locked(Runtime& runtime);
  /// The one builder of a status body, for the status endpoint and the watcher's catch-up;
  /// `shown_total` replaces the job's `total` (a fault imitating a deployment).
  std::string status_body_locked(const Job& job, const JobProgress& progress, const Chunk& chunk,
                                 const std::optional<std::string>& next,
                                 std::optional<std::int64_t> shown_total = std::nullopt) const;
  void emit(const Job& job, const JobProgress& progress, JobEvent event, bool success,
            const nlohmann::json& data, const std::optional<std::string>& error);
  void notify_watchers(const Job& job, const JobProgress& progress, JobEvent event,
                       const std::optional<std::string>& error);
  void fail_job(Runtime& runtime, const std::string& message);
  void persist(const Job& job);

  scrape::Scraper& scraper_;
  const web::VirtualWeb& web_;
  Teams& teams_;
  const Clock& clock_;

  mutable std::mutex mutex_;  // scheduling state and the job map
  std::condition_variable wake_;
  std::condition_variable idle_;
  EngineSettings settings_;
  bool stopping_ = false;
  std::map<std::string, std::shared_ptr<Job>> jobs_;
  std::list<std::shared_ptr<Runtime>> running_;  // round-robin order
  std::map<std::string, int> team_in_flight_;
  /// Tasks waiting for their fetches to be due, earliest first (the workers' timers).
  std::multimap<std::chrono::steady_clock::time_point, std::shared_ptr<Deferred>> deferred_;
  EventSink sink_;
  std::unique_ptr<JobPersistence> persistence_;
  std::vector<std::thread> workers_;

  // Watchers: locked after a job's lock (listeners run under both), never before it.
  mutable std::mutex watchers_mutex_;
  std::map<std::string, std::map<std::uint64_t, WatchListener>> watchers_;  // by job id
  std::map<std::uint64_t, std::string> watcher_jobs_;
  std::uint64_t next_watcher_ = 1;

  /// An advance of the clock wakes the workers to re-read their deadlines (deferred pages and
  /// paced jobs come due at once). Last, so it ends before the state it wakes.
  ClockSubscription clock_advanced_;
};

}  // namespace webdata::mock::jobs
