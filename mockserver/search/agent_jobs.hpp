#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "core/job_runner.hpp"
#include "core/teams.hpp"
#include "search/service.hpp"

// The agent as a job (`--agent-jobs`): POST /v2/agent answers with an id and the agent reads its
// pages one at a time, a pause apart, so `processing` can be observed and the job cancelled.

namespace webdata::mock::search {

enum class AgentState { processing, completed, failed, cancelled };
const char* agent_state_name(AgentState state);

/// What an agent job has done so far; reached only through AgentJob::lock().
struct AgentProgress {
  AgentState state = AgentState::processing;
  nlohmann::json data;  ///< {result, sources[, json]} once completed.
  std::int64_t credits_used = 0;
  std::optional<std::string> error;
  std::optional<std::string> stop_reason;  ///< "credit_limit_reached" when maxCredits stopped it.
  std::optional<std::chrono::system_clock::time_point> finished_at;
};

/// One agent job. The request part is fixed at start; the progress is guarded by its lock.
struct AgentJob : Guarded<AgentProgress> {
  std::string id;
  std::string team_id;
  std::string api_key;  ///< Whose use the credits are (UsageAttribution).
  std::string model;    ///< As requested; the status reports it.
  AgentRequest request;
};

/// Runs agent jobs on its own worker threads. Jobs are kept a day after they end (their results
/// "are available for 24 hours after completion"). Thread-safe.
class AgentEngine {
 public:
  AgentEngine(SearchService& service, Teams& teams, const Clock& clock,
              std::chrono::milliseconds pacing, int workers = 2);
  ~AgentEngine();
  AgentEngine(const AgentEngine&) = delete;
  AgentEngine& operator=(const AgentEngine&) = delete;

  /// Queues a job for `team`; the caller checked the request.
  std::shared_ptr<AgentJob> start(const Team& team, AgentRequest request, std::string model);
  /// The team's job, or null (unknown, another team's, or past its retention).
  std::shared_ptr<AgentJob> find(const std::string& id, const std::string& team_id);

  enum class CancelOutcome { cancelled, finished, not_found };
  /// Cancels a running job (and answers `cancelled` again for a cancelled one); `finished` for a
  /// job that completed or failed.
  CancelOutcome cancel(const std::string& id, const std::string& team_id);

  /// The GET /v2/agent/{id} answer.
  nlohmann::json status_body(const AgentJob& job) const;

  /// Drops every job; running ones stop at their next page (admin reset).
  void reset();
  /// Waits until no job is queued or running; false on timeout (tests).
  bool wait_idle(std::chrono::milliseconds timeout);

 private:
  void run(AgentJob& job);
  /// Ends a running job (no-op when it already ended, e.g. cancelled meanwhile).
  void finish(AgentJob& job, AgentState state, std::optional<std::string> error = std::nullopt,
              std::optional<std::string> stop_reason = std::nullopt);

  SearchService& service_;
  Teams& teams_;
  const Clock& clock_;
  const std::chrono::milliseconds pacing_;
  JobRunner<AgentJob> runner_;  // last: its workers run jobs with the members above
};

}  // namespace webdata::mock::search
