#include <charconv>
#include <chrono>
#include <memory>

#include "app/mock_server.hpp"
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

namespace webdata::mock {

using nlohmann::json;

namespace {

/// Runs per page of GET /v2/agent.
constexpr std::size_t kListPage = 20;

/// What the service answers for an id it does not know, for another team's job and for an
/// expired one alike.
http::Response agent_not_found() { return http::Response::error(404, "Agent job not found"); }

http::Response bad_field(const std::string& path_text, const json& path,
                         const std::string& message) {
  return MockServer::refusal_answer(requests::Refusal{
      "Bad Request",
      json::array({{{"code", "custom"}, {"path", path}, {"message", message}}}),
      path_text + ": " + message});
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
      return bad_field("webhook", json::array({"webhook"}), error);
    }
    spec.webhook = *request.webhook;
  }
  if (request.exchange) {
    // An approval answers a pendingApproval of the thread's last turn, and the mock's agent
    // never asks for one (it calls no paid toolkit).
    for (const auto& [answer, given] : {std::pair<const char*, bool>{"approve", request.exchange->approve.has_value()},
                                        {"decline", request.exchange->decline.has_value()}}) {
      if (given) {
        return bad_field(std::string("exchange.") + answer + ".approvalId",
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
    return MockServer::refusal_answer(requests::Refusal{
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

}  // namespace

void MockServer::add_agent_routes() {
  // Webhook events of agent runs, signed as job events are.
  agents_->set_event_sink([this](const search::AgentJob& job, const std::string& event,
                                 bool success, const json& data,
                                 const std::optional<std::string>& error) {
    const auto target = webhooks::Target::parse(job.webhook, nullptr, webhooks::EventSet::agent);
    const Team* team = teams_.find(job.team_id);
    if (!target || team == nullptr) return;
    webhooks_->enqueue(job.id, *target, webhook_secret(*team), "agent." + event, success, data,
                       error);
  });

  api<requests::AgentRequest>(
      "POST", "/v2/agent", requests::Version::v2, Credits::checked,
      [this](ApiCall& call, std::shared_ptr<const requests::AgentRequest> request) {
        return start_agent(call, *request);
      });

  api("GET", "/v2/agent", [this](ApiCall& call) {
    std::optional<std::int64_t> before;
    if (auto refused = read_before(call.request, before)) return *refused;
    bool more = false;
    const auto jobs = agents_->list(call.team.id, before, kListPage, more);
    json agents = json::array();
    for (const auto& job : jobs) agents.push_back(agents_->list_item(*job));
    json answer = {{"success", true}, {"agents", std::move(agents)}};
    if (more) {
      const auto last_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                               jobs.back()->created_at.time_since_epoch())
                               .count();
      answer["next"] = public_base(call.request) + "/v2/agent?before=" + std::to_string(last_ms);
    }
    return http::Response::json(200, answer);
  });

  api("GET", "/v2/agent/{id}", [this](ApiCall& call) {
    const auto job = agents_->find(call.params.at("id"), call.team.id);
    if (!job) return agent_not_found();
    return http::Response::json(200, agents_->status_body(*job));
  });

  api("GET", "/v2/agent/{id}/trace", [this](ApiCall& call) {
    const auto job = agents_->find(call.params.at("id"), call.team.id);
    if (!job) return agent_not_found();
    const bool live_view = call.request.query_param("liveView").value_or("") == "true";
    return http::Response::json(200, agents_->trace_body(*job, live_view));
  });

  api("GET", "/v2/agent/{id}/snapshots/{snapshotId}", [this](ApiCall& call) {
    const auto job = agents_->find(call.params.at("id"), call.team.id);
    if (!job) return agent_not_found();
    const std::string& snapshot_id = call.params.at("snapshotId");
    const auto content = agents_->snapshot(*job, snapshot_id);
    if (!content) return http::Response::error(404, "Agent snapshot not found");
    return http::Response::json(
        200,
        {{"success", true}, {"id", job->id}, {"snapshotId", snapshot_id}, {"snapshot", *content}});
  });

  api("GET", "/v2/agent/threads/{threadId}", [this](ApiCall& call) {
    const auto thread = agents_->thread(call.params.at("threadId"), call.team.id);
    if (!thread) return http::Response::error(404, "Agent thread not found");
    const bool include_data = call.request.query_param("includeData").value_or("") == "true";
    return http::Response::json(
        200, {{"success", true}, {"thread", thread_body(*agents_, *thread, include_data)}});
  });

  api("DELETE", "/v2/agent/{id}", [this](ApiCall& call) {
    switch (agents_->cancel(call.params.at("id"), call.team.id)) {
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
  });
}

http::Response MockServer::start_agent(ApiCall& call, const requests::AgentRequest& request) {
  // --inject-fault no-llm: what a self-hosted deployment without the agent service answers.
  if (config_.has_fault("no-llm")) {
    return http::Response::error(500, "Agent beta is not enabled.");
  }
  search::AgentSpec spec;
  if (auto refused = agent_spec(request, spec)) return *refused;
  const auto started = config_.agent_jobs ? agents_->start(call.team, std::move(spec))
                                          : agents_->run_now(call.team, std::move(spec));
  switch (started.outcome) {
    case search::AgentEngine::Outcome::thread_not_found:
      return http::Response::error(404, "Agent thread not found");
    case search::AgentEngine::Outcome::thread_busy: {
      // One run at a time per thread: the caller waits for the running one (runId).
      auto response = http::Response::error(
          409, "This agent thread already has a run in progress; wait for it to finish "
               "before continuing the thread.");
      json answer = json::parse(response.body);
      answer["runId"] = started.busy_run_id;
      return http::Response::json(409, answer);
    }
    case search::AgentEngine::Outcome::started:
      break;
  }
  const auto& job = *started.job;
  json answer = {{"success", true},
                 {"id", job.id},
                 {"threadId", job.thread_id},
                 {"threadTurn", job.thread_turn}};
  if (config_.agent_jobs) return http::Response::json(200, answer);

  // The synchronous form answers with the result, or 402 when the team could not pay it (the
  // run is kept, failed, as the service keeps its failed runs). Slow pages it read are not
  // slept: the answer is written on the I/O thread's timer when they are due.
  http::Response response = [&] {
    if (started.credits_needed > 0) {
      if (auto refused = require_credits(call.team, started.credits_needed)) return *refused;
      return http::Response::error(402, "Insufficient credits to perform this request");
    }
    const json status = agents_->status_body(job);
    for (const char* key : {"data", "message", "creditsUsed"}) {
      if (status.contains(key)) answer[key] = status.at(key);
    }
    return http::Response::json(200, answer);
  }();
  response.delay = clock_.due_in(started.ready_at);
  return response;
}

}  // namespace webdata::mock
