#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "webdata/json.hpp"
#include "webdata/open_enum.hpp"
#include "webdata/time.hpp"
#include "webdata/webhook_spec.hpp"

namespace webdata {

/// An answer to a pendingApproval of the thread's last turn.
struct AgentApproval {
  std::string approval_id;
  std::optional<std::vector<std::string>> call_ids;
  std::optional<bool> always;
};

/// `exchange` of an agent request: paid toolkit calls. A follow-up turn inherits what it leaves
/// unset from its thread.
struct AgentExchange {
  std::optional<bool> enabled;
  std::optional<std::vector<std::string>> toolkits;  ///< At most 5.
  std::optional<int> max_calls;                      ///< 1 to 30.
  std::optional<bool> require_approval;
  std::optional<std::string> on_terms_required;  ///< "skip" or "ask"
  std::optional<AgentApproval> approve;
  std::optional<std::string> decline;  ///< Sent as `decline: {approvalId}`.
};

/// `exchange` of an agent status or thread run: the settings the run resolved to and what its
/// paid calls cost.
struct AgentExchangeSummary {
  bool enabled = false;
  std::vector<std::string> toolkits;
  std::optional<bool> require_approval;
  std::optional<std::string> on_terms_required;
  long long paid_calls = 0;
  std::optional<long long> credits_used;
};

/// POST /v2/agent.
struct AgentRequest {
  std::string prompt;
  std::optional<std::vector<std::string>> urls;  ///< Start from these pages.
  std::optional<Json> schema;                    ///< Shape of the wanted result.
  std::optional<int> max_credits;
  std::optional<std::string> model;   ///< "spark-1-pro", "spark-1-mini" or "spark-2"
  std::optional<std::string> effort;  ///< "low", "medium" or "high"
  /// Read only the given `urls`, never pages found by searching.
  std::optional<bool> strict_constrain_to_urls;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
  std::optional<Json> threat_protection;  ///< as ScrapeOptions::threat_protection
  std::optional<Json> audit_metadata;     ///< as ScrapeOptions::audit_metadata
  /// Enterprise: the team's own allow list for this run (no effect in the mock).
  std::optional<std::string> override_whitelist;
  /// Continue this thread (the `thread_id` of an earlier run): the run is its next turn.
  std::optional<std::string> thread_id;
  std::optional<std::string> mode;  ///< "extract" (the default) or "chat"
  std::optional<AgentExchange> exchange;
  /// Agent events: started, action, completed, failed, cancelled.
  std::optional<WebhookSpec> webhook;
};

/// The agent's answer. Deployments answer synchronously or run the agent as a job; the
/// client polls the job form until it ends, so both arrive here.
struct AgentResult {
  std::optional<bool> success;
  std::optional<std::string> id;  ///< Job id (job form only).
  JobState status;                ///< "completed" for the synchronous form.
  /// `data.result`: a JSON string in the specification's form, an object when `schema` shaped
  /// it. `result.as_string()` gives the text.
  Json result;
  std::vector<std::string> sources;
  std::optional<int> credits_used;
  std::optional<std::string> error;     ///< Set when the job failed.
  /// Why a failed job stopped early: "credit_limit_reached" when `max_credits` would have been
  /// exceeded (the job fails rather than spend more).
  std::optional<std::string> stop_reason;
  std::optional<Timestamp> expires_at;  ///< Job form only.
  std::optional<std::string> model;     ///< The model the request named.
  std::optional<std::string> effort;    ///< The effort the request named, when the service echoes it.
  std::optional<std::string> thread_id;     ///< The run's thread: pass it to continue.
  std::optional<long long> thread_turn;  ///< 1-based position in the thread.
  std::optional<std::string> mode;          ///< "extract" or "chat"
  std::optional<std::string> message;       ///< Chat mode: the answer as text.
  /// Chat mode: follow-up prompts the service offers, `[{label, prompt}]` (the mock sends none).
  std::optional<Json> suggestions;
  /// Exchange: a tool call waiting for approval (the mock never has one).
  std::optional<Json> pending_approval;
  std::optional<AgentExchangeSummary> exchange;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

/// One run of GET /v2/agent.
struct AgentListItem {
  std::string id;
  std::optional<Timestamp> created_at;
  std::string target_hint;  ///< What the run was about at a glance.
  std::optional<std::string> origin;
  std::optional<std::string> integration;
  JobState status;
  std::string prompt;  ///< `options.prompt`.
  std::vector<std::string> urls;
  std::optional<std::string> model;
  std::optional<std::string> effort;
  Extras extras;
};

/// A page of the team's agent runs, newest first.
struct AgentList {
  std::vector<AgentListItem> agents;
  /// The next (older) page's address; unset on the last page.
  std::optional<std::string> next;
  /// `before` of `next`: pass it to `list_agents` for the next page.
  std::optional<long long> next_before;
  /// Keys of this answer that did not have the expected type (dropped), one line each.
  Diagnostics diagnostics;
};

/// One event of an agent run's trace. The common fields are typed; `fields` is the whole event
/// (e.g. `toolName` and `parameters` of a `tool_call.started`).
struct AgentTraceEvent {
  std::string type;  ///< "run.started", "tool_call.started", "artifact.updated", ...
  std::string event_id;
  std::string run_id;
  std::optional<Timestamp> occurred_at;
  long long producer_sequence = 0;
  std::string agent_id;
  std::string agent_role;  ///< "orchestrator", "subagent", "browser", "system"
  Json fields;
};

/// GET /v2/agent/{id}/trace.
struct AgentTrace {
  std::string id;
  std::vector<AgentTraceEvent> events;
  std::optional<long long> credits_used;
  /// With live view only: the run's open browser sessions.
  std::optional<Json> active_browser_sessions;
  /// Keys of this answer that did not have the expected type (dropped), one line each.
  Diagnostics diagnostics;
};

/// One turn of a thread.
struct AgentThreadRun {
  std::string id;
  long long turn = 0;
  std::string mode;
  std::string prompt;
  std::vector<std::string> urls;
  /// "processing", "succeeded", "failed", "cancelled", "refused", "credit_limit_reached"
  std::string status;
  std::optional<Timestamp> created_at;
  std::optional<Timestamp> finished_at;
  std::optional<long long> credits_used;
  std::optional<std::string> message;
  std::optional<Json> data;  ///< Only when asked for with `include_data`.
  std::optional<AgentExchangeSummary> exchange;
  Extras extras;
};

/// GET /v2/agent/threads/{id}: a conversation of agent runs.
struct AgentThread {
  std::string id;
  std::optional<Timestamp> created_at;
  std::optional<Timestamp> updated_at;
  std::string status;  ///< "idle" or "running"
  std::vector<AgentThreadRun> runs;  ///< Oldest first.
  /// Keys of this answer that did not have the expected type (kept in a run's `extras`, or
  /// dropped), one line each.
  Diagnostics diagnostics;
};

}  // namespace webdata
