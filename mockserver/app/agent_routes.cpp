#include <chrono>
#include <map>
#include <memory>
#include <mutex>

#include "app/mock_server.hpp"
#include "core/ids.hpp"
#include "core/time.hpp"
#include "core/url.hpp"
#include "search/agent_jobs.hpp"
#include "search/service.hpp"

// POST /v2/agent, GET and DELETE /v2/agent/{id} (specification 4.9, wire-decisions 6). By
// default the agent answers synchronously, as the specification shows, and the run is kept for
// GET; with --agent-jobs it runs as a job (search/agent_jobs.hpp), as newer deployments do.

namespace webdata::mock {

using nlohmann::json;

namespace {

/// Synchronous agent runs kept for GET /v2/agent/{id}: per team, for 24 hours. Thread-safe.
class AgentRuns {
 public:
  struct Run {
    std::string team;
    json data;
    std::int64_t credits = 0;
    std::chrono::system_clock::time_point expires_at;
    std::string model;  ///< As requested; the status reports it.
  };

  void add(const std::string& id, Run run, std::chrono::system_clock::time_point now) {
    std::lock_guard<std::mutex> lock(mutex_);
    // Forget runs past their retention, so the store is bounded by a day's runs.
    for (auto it = runs_.begin(); it != runs_.end();) {
      it = now >= it->second.expires_at ? runs_.erase(it) : std::next(it);
    }
    runs_[id] = std::move(run);
  }
  /// The team's run, unless unknown or expired.
  bool find(const std::string& id, const std::string& team,
            std::chrono::system_clock::time_point now, Run& out) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = runs_.find(id);
    if (it == runs_.end() || it->second.team != team || now >= it->second.expires_at) return false;
    out = it->second;
    return true;
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    runs_.clear();
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, Run> runs_;
};

/// What the service answers for an id it does not know, for another team's job and for an
/// expired one alike.
http::Response agent_not_found() {
  return http::Response::error(404, "Agent job not found");
}

}  // namespace

void MockServer::add_agent_routes() {
  auto runs = std::make_shared<AgentRuns>();
  agent_runs_reset_ = [runs] { runs->clear(); };

  api("POST", "/v2/agent", "v2/agent.request", [this, runs](ApiCall& call) {
    // --inject-fault no-llm: what a self-hosted deployment without the agent service answers.
    if (config_.has_fault("no-llm")) {
      return http::Response::error(500, "Agent beta is not enabled.");
    }
    if (auto refused = require_credits(call.team, 1)) return *refused;
    search::AgentRequest request;
    request.prompt = call.body.value("prompt", "");
    if (call.body.contains("urls"))
      request.urls = call.body.at("urls").get<std::vector<std::string>>();
    request.schema = call.body.value("schema", json());
    if (call.body.contains("maxCredits"))
      request.max_credits = call.body.at("maxCredits").get<std::int64_t>();
    for (const auto& url : request.urls) {
      if (!parse_http_url(url)) {
        return http::Response::error(
            400,
            "Bad Request: invalid URL '" + url + "': the agent reads absolute http or https URLs",
            "BAD_REQUEST",
            json::array({{{"code", "invalid_string"},
                          {"path", json::array({"urls"})},
                          {"message", "Invalid URL: " + url}}}));
      }
    }
    // `model` and `effort` choose the service's model and its effort; the mock answers the same
    // way for each and reports the model. `strictConstrainToURLs` is how the mock always reads
    // given `urls` (only those pages).
    const std::string model = call.body.value("model", "spark-1-pro");

    if (config_.agent_jobs) {
      const auto job = agents_->start(call.team, std::move(request), model);
      return http::Response::json(200, {{"success", true}, {"id", job->id}});
    }

    const search::AgentAnswer answer = search_->agent(request);
    const std::int64_t credits = std::max<std::int64_t>(1, answer.pages_read);
    if (!teams_.try_charge(call.team.id, credits)) return *require_credits(call.team, credits);

    json data = {{"result", answer.result}, {"sources", answer.sources}};
    if (answer.object) {
      // The structured answer, and the same as text for clients that read only `result`.
      data["json"] = *answer.object;
      data["result"] = answer.object->dump();
    }
    const std::string id = uuid4();
    const auto now = clock_.now();
    runs->add(id, {call.team.id, data, credits, now + std::chrono::hours(24), model}, now);
    return http::Response::json(
        200, {{"success", true}, {"id", id}, {"data", data}, {"creditsUsed", credits}});
  });

  api("GET", "/v2/agent/{id}", "", [this, runs](ApiCall& call) {
    const std::string& id = call.params.at("id");
    if (const auto job = agents_->find(id, call.team.id)) {
      return http::Response::json(200, agents_->status_body(*job));
    }
    AgentRuns::Run run;
    if (!runs->find(id, call.team.id, clock_.now(), run)) return agent_not_found();
    return http::Response::json(200, {{"success", true},
                                      {"status", "completed"},
                                      {"model", run.model},
                                      {"data", run.data},
                                      {"creditsUsed", run.credits},
                                      {"expiresAt", iso8601_seconds(run.expires_at)}});
  });

  api("DELETE", "/v2/agent/{id}", "", [this, runs](ApiCall& call) {
    const std::string& id = call.params.at("id");
    switch (agents_->cancel(id, call.team.id)) {
      case search::AgentEngine::CancelOutcome::cancelled:
        return http::Response::json(200, {{"success", true}});
      case search::AgentEngine::CancelOutcome::finished:
        // The service answers `{success: false}` when there is nothing left to cancel.
        return http::Response::json(200,
                                    {{"success", false}, {"error", "Agent job already finished"}});
      case search::AgentEngine::CancelOutcome::not_found:
        break;
    }
    AgentRuns::Run run;
    if (runs->find(id, call.team.id, clock_.now(), run)) {
      // A synchronous run ended before its answer was sent.
      return http::Response::json(200,
                                  {{"success", false}, {"error", "Agent job already finished"}});
    }
    return agent_not_found();
  });
}

}  // namespace webdata::mock
