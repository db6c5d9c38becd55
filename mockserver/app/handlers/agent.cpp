#include <charconv>
#include <chrono>
#include <memory>

#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "core/ids.hpp"
#include "core/time.hpp"
#include "core/url.hpp"
#include "search/agent_jobs.hpp"
#include "search/service.hpp"
#include "webhooks/dispatcher.hpp"

// The agent (specification 4.9, wire-decisions 6, docs/adr/0011 and 0014): POST /v2/agent, its
// status and cancel, the team's list of runs, a run's trace and snapshots, and threads. By
// default the agent answers synchronously, as the specification shows; with --agent-jobs it runs
// as a job, as newer deployments do. Both forms are kept by the agent engine
// (search/agent_jobs.hpp), so every other route serves them alike.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

/// Runs per page of GET /v2/agent.
constexpr std::size_t kListPage = 20;

/// What the service answers for an id it does not know, for another team's job and for an
/// expired one alike.
http::Response agent_not_found() {
  return http::Response::error(404, "Agent job not found");
}

/// The run the agent engine takes for `request`; a refusal for what cannot be done.
std::optional<http::Response> agent_spec(const requests::AgentRequest& request,
                                         search::AgentSpec& spec) {
  spec.request.prompt = request.prompt;
  if (request.urls) spec.request.urls = *request.urls;
  spec.request.schema = request.schema.value_or(json());
  spec.request.max_credits = request.max_credits;
  if (request.webhook) {
    std::string error;
    if (!webhooks::Target::parse(*request.webhook, &error, webhooks::EventSet::agent)) {
      return field_refusal("webhook", json::array({"webhook"}), error);
    }
    spec.webhook = *request.webhook;
  }
  if (request.exchange) {
    // An approval answers a pendingApproval of the thread's last turn, and the mock's agent
    // never asks for one (it calls no paid toolkit).
    for (const auto& [answer, given] :
         {std::pair<const char*, bool>{"approve", request.exchange->approve.has_value()},
          {"decline", request.exchange->decline.has_value()}}) {
      if (given) {
        return field_refusal(std::string("exchange.") + answer + ".approvalId",
                             json::array({"exchange", answer, "approvalId"}),
                             "no approval is pending on this thread");
      }
    }
    spec.exchange = request.exchange;
  }
  // `model` and `effort` choose the service's model and its effort; the mock answers the same
  // way for each and reports them. `strictConstrainToURLs` is how the mock always reads
  // given `urls` (only those pages).
  spec.model = request.model;
  spec.effort = request.effort;
  spec.mode = request.mode;
  spec.thread_id = request.thread_id;
  spec.origin = request.origin;
  spec.integration = request.integration;
  return std::nullopt;
}

/// The `before` query parameter of GET /v2/agent (Unix milliseconds) into `before`; a refusal in
/// the service's words when it is not one.
std::optional<http::Response> read_before(const http::Request& request,
                                          std::optional<std::int64_t>& before) {
  const auto value = request.query_param("before");
  if (!value) return std::nullopt;
  std::int64_t ms = 0;
  const auto* end = value->data() + value->size();
  const auto [ptr, ec] = std::from_chars(value->data(), end, ms);
  if (value->empty() || ec != std::errc() || ptr != end || ms < 0) {
    return refusal_answer(requests::Refusal{
        "Bad Request",
        json::array({{{"code", "invalid_type"},
                      {"path", json::array({"before"})},
                      {"message", "Expected a non-negative integer (milliseconds)"}}}),
        "before: query parameter 'before' must be a Unix time in milliseconds"});
  }
  before = ms;
  return std::nullopt;
}

/// A thread as GET /v2/agent/threads/{threadId} shows it: running while its last run is.
json thread_body(const search::AgentEngine& agents, const search::AgentThread& thread,
                 bool include_data) {
  json runs = json::array();
  bool running = false;
  auto updated = thread.created_at;
  for (const auto& run : thread.runs) {
    runs.push_back(agents.thread_run(*run, include_data));
    const auto progress = run->lock();
    running = progress->state == search::AgentState::processing;
    updated = std::max(updated, progress->finished_at.value_or(run->created_at));
  }
  return {{"id", thread.id},
          {"createdAt", iso8601(thread.created_at)},
          {"updatedAt", iso8601(updated)},
          {"status", running ? "running" : "idle"},
          {"runs", std::move(runs)}};
}

http::Response list_agents(Services& s, ApiCall& call) {
  std::optional<std::int64_t> before;
  if (auto refused = read_before(call.request, before)) return *refused;
  bool more = false;
  const auto jobs = s.agents->list(call.team.id, before, kListPage, more);
  json agents = json::array();
  for (const auto& job : jobs) agents.push_back(s.agents->list_item(*job));
  json answer = {{"success", true}, {"agents", std::move(agents)}};
  if (more) {
    const auto last_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             jobs.back()->created_at.time_since_epoch())
                             .count();
    answer["next"] = s.public_base(call.request) + "/v2/agent?before=" + std::to_string(last_ms);
  }
  return http::Response::json(200, answer);
}

http::Response agent_status(Services& s, ApiCall& call) {
  const auto job = s.agents->find(call.params.at("id"), call.team.id);
  if (!job) return agent_not_found();
  return http::Response::json(200, s.agents->status_body(*job));
}

http::Response agent_trace(Services& s, ApiCall& call) {
  const auto job = s.agents->find(call.params.at("id"), call.team.id);
  if (!job) return agent_not_found();
  const bool live_view = call.request.query_param("liveView").value_or("") == "true";
  return http::Response::json(200, s.agents->trace_body(*job, live_view));
}

http::Response agent_snapshot(Services& s, ApiCall& call) {
  const auto job = s.agents->find(call.params.at("id"), call.team.id);
  if (!job) return agent_not_found();
  const std::string& snapshot_id = call.params.at("snapshotId");
  const auto content = s.agents->snapshot(*job, snapshot_id);
  if (!content) return http::Response::error(404, "Agent snapshot not found");
  return http::Response::json(
      200,
      {{"success", true}, {"id", job->id}, {"snapshotId", snapshot_id}, {"snapshot", *content}});
}

http::Response agent_thread(Services& s, ApiCall& call) {
  const auto thread = s.agents->thread(call.params.at("threadId"), call.team.id);
  if (!thread) return http::Response::error(404, "Agent thread not found");
  const bool include_data = call.request.query_param("includeData").value_or("") == "true";
  return http::Response::json(
      200, {{"success", true}, {"thread", thread_body(*s.agents, *thread, include_data)}});
}

http::Response cancel_agent(Services& s, ApiCall& call) {
  switch (s.agents->cancel(call.params.at("id"), call.team.id)) {
    case search::AgentEngine::CancelOutcome::cancelled:
      return http::Response::json(200, {{"success", true}});
    case search::AgentEngine::CancelOutcome::finished:
      // The service answers `{success: false}` when there is nothing left to cancel.
      return http::Response::json(200,
                                  {{"success", false}, {"error", "Agent job already finished"}});
    case search::AgentEngine::CancelOutcome::not_found:
      break;
  }
  return agent_not_found();
}

/// 404 or 409 when the run could not start on its thread; nullopt when it started.
std::optional<http::Response> thread_refusal(const search::AgentEngine::Started& started) {
  switch (started.outcome) {
    case search::AgentEngine::Outcome::thread_not_found:
      return http::Response::error(404, "Agent thread not found");
    case search::AgentEngine::Outcome::thread_busy: {
      // One run at a time per thread: the caller waits for the running one (runId).
      auto response = http::Response::error(
          409,
          "This agent thread already has a run in progress; wait for it to finish "
          "before continuing the thread.");
      json answer = json::parse(response.body);
      answer["runId"] = started.busy_run_id;
      return http::Response::json(409, answer);
    }
    case search::AgentEngine::Outcome::started:
      break;
  }
  return std::nullopt;
}

// The synchronous form answers with the result, or 402 when the team could not pay it (the run
// is kept, failed, as the service keeps its failed runs). Slow pages it read are not slept: the
// answer is written on the I/O thread's timer when they are due.
http::Response agent_result(Services& s, ApiCall& call, const search::AgentEngine::Started& started,
                            json answer) {
  if (started.credits_needed > 0) {
    if (auto refused = s.require_credits(call.team, started.credits_needed)) return *refused;
    return http::Response::error(402, "Insufficient credits to perform this request");
  }
  const json status = s.agents->status_body(*started.job);
  for (const char* key : {"data", "message", "creditsUsed"}) {
    if (status.contains(key)) answer[key] = status.at(key);
  }
  return http::Response::json(200, answer);
}

http::Response start_agent(Services& s, ApiCall& call, const requests::AgentRequest& request) {
  // --inject-fault no-llm: what a self-hosted deployment without the agent service answers.
  if (s.config.has_fault("no-llm")) return http::Response::error(500, "Agent beta is not enabled.");
  search::AgentSpec spec;
  if (auto refused = agent_spec(request, spec)) return *refused;
  const auto started = s.config.agent_jobs ? s.agents->start(call.team, std::move(spec))
                                           : s.agents->run_now(call.team, std::move(spec));
  if (auto refused = thread_refusal(started)) return *refused;
  const auto& job = *started.job;
  json answer = {{"success", true},
                 {"id", job.id},
                 {"threadId", job.thread_id},
                 {"threadTurn", job.thread_turn}};
  if (s.config.agent_jobs) return http::Response::json(200, answer);
  http::Response response = agent_result(s, call, started, std::move(answer));
  response.delay = s.clock.due_in(started.ready_at);
  return response;
}

}  // namespace

void add_agent_routes(ApiRoutes& routes, Services& s) {
  routes.api<requests::AgentRequest>(
      "POST", "/v2/agent", requests::Version::v2, Credits::checked,
      [&s](ApiCall& call, std::shared_ptr<const requests::AgentRequest> request) {
        return start_agent(s, call, *request);
      });
  const std::pair<const char*, http::Response (*)(Services&, ApiCall&)> reads[] = {
      {"/v2/agent", list_agents},
      {"/v2/agent/{id}", agent_status},
      {"/v2/agent/{id}/trace", agent_trace},
      {"/v2/agent/{id}/snapshots/{snapshotId}", agent_snapshot},
      {"/v2/agent/threads/{threadId}", agent_thread}};
  for (const auto& [path, handler] : reads) {
    routes.api("GET", path, [&s, handler = handler](ApiCall& call) { return handler(s, call); });
  }
  routes.api("DELETE", "/v2/agent/{id}", [&s](ApiCall& call) { return cancel_agent(s, call); });
}

}  // namespace webdata::mock::handlers
