#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "core/job_runner.hpp"
#include "core/teams.hpp"
#include "search/service.hpp"

// Every agent run, kept a day: the job form (`--agent-jobs`), where POST /v2/agent answers with
// an id and the agent reads its pages one at a time, a pause apart, so `processing` can be
// observed and the run cancelled; and the synchronous form, answered in the POST and kept so
// that status, list, trace and threads serve it alike. A run records what it did as trace
// events (docs/adr/0014-agent-threads-trace.md): the mock runs no model, so the trace tells the
// pages it read and the answer it built from them.

namespace webdata::mock::search {

enum class AgentState { processing, completed, failed, cancelled };
const char* agent_state_name(AgentState state);

/// What an agent run has done so far; reached only through AgentJob::lock().
struct AgentProgress {
  AgentState state = AgentState::processing;
  nlohmann::json data;  ///< {result, sources[, json]} once completed (extract mode).
  std::optional<std::string> message;  ///< The answer as text, chat mode.
  std::int64_t credits_used = 0;
  std::optional<std::string> error;
  std::optional<std::string> stop_reason;  ///< "credit_limit_reached" when maxCredits stopped it.
  std::optional<std::chrono::system_clock::time_point> finished_at;
  nlohmann::json trace = nlohmann::json::array();  ///< Trace events, in the order they happened.
  std::int64_t next_sequence = 1;                  ///< producerSequence of the next event.
  std::map<std::string, std::string> snapshots;    ///< Artifact content by snapshotId.
};

/// What a request asks beyond the search part; checked by the caller.
struct AgentSpec {
  AgentRequest request;
  std::string model;  ///< As requested; the status reports it.
  std::optional<std::string> effort;
  std::string mode = "extract";          ///< "extract" or "chat".
  std::optional<std::string> thread_id;  ///< Continue this thread (else a new one).
  std::optional<requests::AgentExchange> exchange;  ///< The request's `exchange`, if any.
  nlohmann::json webhook;                ///< The request's `webhook` field, or null.
  std::string origin = "api";
  std::optional<std::string> integration;
};

/// One agent run. The request part is fixed at start; the progress is guarded by its lock.
struct AgentJob : Guarded<AgentProgress> {
  std::string id;
  std::string team_id;
  std::string api_key;  ///< Whose use the credits are (UsageAttribution).
  std::string model;
  AgentRequest request;  ///< After thread inheritance (a follow-up without urls reads the last ones).
  std::optional<std::string> effort;
  std::string mode;
  std::string origin;
  std::optional<std::string> integration;
  std::string thread_id;
  std::int64_t thread_turn = 1;
  /// The exchange settings after thread inheritance, or none when neither this run nor its
  /// thread asked for any.
  std::optional<requests::AgentExchange> exchange;
  nlohmann::json webhook;
  std::chrono::system_clock::time_point created_at;
  std::string agent_id;  ///< The trace's orchestrator identity.
};

/// A conversation: the runs that continued each other through `threadId`.
struct AgentThread {
  std::string id;
  std::string team_id;
  std::chrono::system_clock::time_point created_at;
  std::vector<std::shared_ptr<AgentJob>> runs;  ///< Oldest first; turn = index + 1.
};

/// Runs agent jobs on its own worker threads and keeps every run (job or synchronous) a day
/// after it ends (results "are available for 24 hours after completion"). Thread-safe.
///
/// Lock order: the threads lock, then the runner's, then a job's.
class AgentEngine {
 public:
  /// A webhook event of a run (`started`, `action`, `completed`, `failed`, `cancelled`), called
  /// with the run's lock held so that its events leave in order; must not lock the job.
  using EventSink = std::function<void(const AgentJob& job, const std::string& event, bool success,
                                       const nlohmann::json& data,
                                       const std::optional<std::string>& error)>;

  AgentEngine(SearchService& service, Teams& teams, const Clock& clock,
              std::chrono::milliseconds pacing, int workers = 2);
  ~AgentEngine();
  AgentEngine(const AgentEngine&) = delete;
  AgentEngine& operator=(const AgentEngine&) = delete;

  /// Set before the first run.
  void set_event_sink(EventSink sink) { sink_ = std::move(sink); }

  enum class Outcome { started, thread_not_found, thread_busy };
  struct Started {
    Outcome outcome = Outcome::started;
    std::shared_ptr<AgentJob> job;  ///< When started.
    std::string busy_run_id;        ///< When the thread is busy: its running run.
    std::int64_t credits_needed = 0;  ///< run_now: what the team could not pay (run failed).
    /// run_now: when its answer is due (pages read outside the index may be slow; nothing is
    /// slept, the caller answers at this time). The epoch: now.
    std::chrono::steady_clock::time_point ready_at{};
  };
  /// Queues a job for `team` on a new thread or the spec's one.
  Started start(const Team& team, AgentSpec spec);
  /// Runs the synchronous form on the caller's thread: reads the planned pages, answers and
  /// charges max(1, pages read) credits. The run returned has ended: completed, or failed with
  /// `error` "Insufficient credits" when the team could not pay (the caller answers 402).
  Started run_now(const Team& team, AgentSpec spec);

  /// The team's run, or null (unknown, another team's, or past its retention).
  std::shared_ptr<AgentJob> find(const std::string& id, const std::string& team_id);
  /// The team's runs created before `before` (all when null), newest first, at most `limit`;
  /// `more` tells whether older ones remain.
  std::vector<std::shared_ptr<AgentJob>> list(const std::string& team_id,
                                              std::optional<std::int64_t> before_ms,
                                              std::size_t limit, bool& more);
  /// The team's thread with its runs, or nullopt (unknown, another team's, or every run past
  /// its retention).
  std::optional<AgentThread> thread(const std::string& thread_id, const std::string& team_id);

  enum class CancelOutcome { cancelled, finished, not_found };
  /// Cancels a running job (and answers `cancelled` again for a cancelled one); `finished` for a
  /// run that completed or failed.
  CancelOutcome cancel(const std::string& id, const std::string& team_id);

  /// The GET /v2/agent/{id} answer.
  nlohmann::json status_body(const AgentJob& job) const;
  /// One item of GET /v2/agent.
  nlohmann::json list_item(const AgentJob& job) const;
  /// One run of GET /v2/agent/threads/{id}; `include_data` adds the run's `data`.
  nlohmann::json thread_run(const AgentJob& job, bool include_data) const;
  /// The GET /v2/agent/{id}/trace answer.
  nlohmann::json trace_body(const AgentJob& job, bool live_view) const;
  /// The content of a snapshot the trace named, or nullopt.
  std::optional<std::string> snapshot(const AgentJob& job, const std::string& snapshot_id) const;

  /// Drops every run and thread; running jobs stop at their next page (admin reset).
  void reset();
  /// Waits until no job is queued or running; false on timeout (tests).
  bool wait_idle(std::chrono::milliseconds timeout);

 private:
  /// Makes the run and puts it on its thread, unless the thread is unknown or busy.
  Started create(const Team& team, AgentSpec spec);
  void run(AgentJob& job);
  /// Reads one planned page: a tool call in the trace and an `action` webhook.
  void record_read(AgentJob& job, AgentProgress& progress, const std::string& url);
  /// Records the answer (data or message, its snapshot) and ends the run as completed.
  void complete(AgentJob& job, AgentProgress& progress, const AgentAnswer& answer);
  /// Ends a running job (no-op when it already ended, e.g. cancelled meanwhile).
  void finish(AgentJob& job, AgentState state, std::optional<std::string> error = std::nullopt,
              std::optional<std::string> stop_reason = std::nullopt);
  void end_locked(AgentJob& job, AgentProgress& progress, AgentState state,
                  std::optional<std::string> error, std::optional<std::string> stop_reason);
  /// Appends a trace event (the common fields filled in) to the run's progress.
  void trace(const AgentJob& job, AgentProgress& progress, nlohmann::json event) const;
  void emit(const AgentJob& job, const std::string& event, bool success, const nlohmann::json& data,
            const std::optional<std::string>& error = std::nullopt) const;

  SearchService& service_;
  Teams& teams_;
  const Clock& clock_;
  const std::chrono::milliseconds pacing_;
  EventSink sink_;
  std::mutex threads_mutex_;
  std::map<std::string, AgentThread> threads_;
  std::int64_t last_created_ms_ = 0;  // under threads_mutex_: creation times strictly increase
  JobRunner<AgentJob> runner_;        // last: its workers run jobs with the members above
};

}  // namespace webdata::mock::search
