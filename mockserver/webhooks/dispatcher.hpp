#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"

namespace webdata::mock::webhooks {

/// Which events a `webhook` field may name: those of crawl, batch and extract jobs, or those of
/// agent jobs (`action` for each step, `cancelled`).
enum class EventSet { job, agent };

/// Where and how one job's events are delivered: the request's `webhook` field (specification
/// 2.8, wire decisions 4), already validated.
struct Target {
  std::string url;
  /// Sent with every delivery, in this order; a `Content-Type` here replaces the default one, the
  /// signature header cannot be replaced.
  std::vector<std::pair<std::string, std::string>> headers;
  /// Echoed as `metadata` in every payload.
  nlohmann::json metadata = nlohmann::json::object();
  /// Short event names (`started`, `page`, `completed`, `failed`; for agents `started`, `action`,
  /// `completed`, `failed`, `cancelled`) to deliver; empty means all.
  std::set<std::string> events;

  /// Parses and validates a `webhook` field: a string URL, or
  /// `{url, headers?: {str: str}, metadata?: {...}, events?: [started|page|completed|failed]}`.
  /// The URL must be absolute http or https with a host; unknown keys and an empty `events` list
  /// are refused. On failure returns nullopt and, when `error` is given, a human message naming
  /// the offending key. `event_set` says which event names `events` may hold.
  static std::optional<Target> parse(const nlohmann::json& webhook_field, std::string* error,
                                     EventSet event_set = EventSet::job);

  /// Whether an event type such as "crawl.page" passes the `events` filter (the part after the
  /// last dot is compared).
  bool wants(const std::string& type) const;
};

struct Settings {
  /// Attempts per event including the first (default: 3 retries, wire decisions 4).
  int max_attempts = 4;
  /// Wait before the second attempt; each later wait is the previous one times `backoff_factor`.
  std::chrono::milliseconds first_backoff{200};
  double backoff_factor = 2.0;
  /// Connect and total time an attempt may take before it counts as failed.
  std::chrono::milliseconds receiver_timeout{10000};
  std::string signature_header = "X-Service-Signature";
  /// Delivery log entries kept (oldest dropped first).
  std::size_t log_limit = 10000;
  /// Delivery threads, started on demand; read when a thread would be added, so lowering it
  /// later does not stop threads already running.
  std::size_t workers = 8;
};

/// "sha256=<lowercase hex HMAC-SHA256 of `body` keyed with `secret`>", the value of the
/// signature header.
std::string sign(const std::string& body, const std::string& secret);

/// Builds the exact payload bytes of one event: `{"success","type","id","data","metadata","error"}`
/// in that order. An array `data` is sent as it is (a page's documents, an agent event's
/// `[{creditsUsed, ...}]`); otherwise `data` is `[]`, except for `page`, whose `data` is `[document]`.
std::string build_payload(const std::string& job_id, const std::string& type, bool success,
                          const nlohmann::json& data, const nlohmann::json& metadata,
                          const std::optional<std::string>& error);

/// Delivers signed webhook events over HTTP. Thread-safe.
///
/// Events of one job are delivered strictly in order: an event is attempted only after the
/// previous event of the same job was delivered or given up, so a retrying event holds back the
/// later ones. Different jobs are delivered in parallel by up to `Settings::workers` threads.
/// An attempt succeeds on a 2xx answer; any other status (redirects are not followed), a
/// connection error or a timeout is retried after a backoff until `max_attempts` is reached.
/// Every attempt is recorded in the delivery log.
///
/// Nothing here waits on the network in the caller's thread: `enqueue` only queues.
/// Destruction and `reset()` abandon queued events, wake backoff waits at once, and abort
/// attempts in flight within about a second (libcurl's progress callback); call `drain()` first
/// for a graceful stop.
class Dispatcher {
 public:
  /// `clock`: the mock's clock, whose advances bring retries due at once.
  explicit Dispatcher(Settings settings = {}, const Clock& clock = Clock::unadvanced());
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  /// Queues one event of a job, e.g. type "crawl.page" or "batch_scrape.completed". Events the
  /// target's filter excludes are dropped here. The payload is built and signed once (all attempts
  /// send the same bytes): headers `Content-Type: application/json`, the target's headers, and
  /// the signature header with `sign(body, secret)`.
  void enqueue(const std::string& job_id, const Target& target, const std::string& secret,
               const std::string& type, bool success, nlohmann::json data,
               std::optional<std::string> error);

  /// Waits until every queued event of `job_id` (of all jobs when empty) is delivered or given
  /// up, or `timeout` passes. Returns true when drained.
  bool drain(const std::string& job_id, std::chrono::milliseconds timeout);

  /// The delivery log, oldest first: one object per attempt with `jobId`, `event`, `url`,
  /// `attempt` (1-based), `status` (HTTP status or null), `latencyMs`, `error` (string or null),
  /// `outcome` (`delivered`, `retrying` or `failed`), `attemptedAt` (ISO 8601 UTC),
  /// `payloadBytes`, `signature`.
  nlohmann::json log_json() const;
  void clear_log();

  /// Drops queued events and the log; attempts in flight are aborted and not logged.
  void reset();

  Settings settings() const;
  /// Applies to attempts started afterwards; a smaller `log_limit` trims the log at once.
  void set_settings(Settings settings);

 private:
  struct Event;
  struct Job;
  struct LogEntry;
  struct Attempt;

  void worker_loop();
  bool next_job(std::unique_lock<std::mutex>& lock, std::string& job_id);
  Attempt attempt(void* curl, const Event& event, const Settings& settings,
                  std::uint64_t generation) const;
  void append_log(LogEntry entry);
  void start_worker_if_needed();

  const Clock& clock_;
  mutable std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable drained_cv_;
  Settings settings_;
  bool stopping_ = false;
  // Bumped by reset() and destruction: attempts started under an older generation are aborted
  // (libcurl's progress callback reads it without the lock) and their results forgotten.
  std::atomic<std::uint64_t> generation_{0};
  std::map<std::string, Job> jobs_;
  std::deque<std::string> runnable_;
  std::multimap<std::chrono::steady_clock::time_point, std::string> delayed_;
  std::deque<LogEntry> log_;
  std::size_t idle_workers_ = 0;
  std::vector<std::thread> workers_;
  /// An advance of the clock wakes the workers to re-read the retries' times. Last, so it ends
  /// before the state it wakes.
  ClockSubscription clock_advanced_;
};

}  // namespace webdata::mock::webhooks
