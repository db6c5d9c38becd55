#include "search/agent_jobs.hpp"

#include <algorithm>

#include "core/ids.hpp"
#include "core/time.hpp"
#include "core/usage.hpp"

namespace webdata::mock::search {

using nlohmann::json;

namespace {

constexpr auto kRetention = std::chrono::hours(24);

}  // namespace

const char* agent_state_name(AgentState state) {
  switch (state) {
    case AgentState::processing:
      return "processing";
    case AgentState::completed:
      return "completed";
    case AgentState::failed:
      return "failed";
    case AgentState::cancelled:
      return "cancelled";
  }
  return "processing";
}

AgentEngine::AgentEngine(SearchService& service, Teams& teams, const Clock& clock,
                         std::chrono::milliseconds pacing, int workers)
    : service_(service),
      teams_(teams),
      clock_(clock),
      pacing_(pacing),
      runner_(clock, kRetention, workers, [this](AgentJob& job) { run(job); }) {}

AgentEngine::~AgentEngine() {
  reset();  // running jobs stop at their next page instead of holding the shutdown
}

std::shared_ptr<AgentJob> AgentEngine::start(const Team& team, AgentRequest request,
                                             std::string model) {
  auto job = std::make_shared<AgentJob>();
  job->id = uuid4();
  job->team_id = team.id;
  job->api_key = UsageAttribution::current();
  job->model = std::move(model);
  job->request = std::move(request);
  runner_.submit(job);
  return job;
}

std::shared_ptr<AgentJob> AgentEngine::find(const std::string& id, const std::string& team_id) {
  return runner_.find(id, team_id);
}

AgentEngine::CancelOutcome AgentEngine::cancel(const std::string& id, const std::string& team_id) {
  const auto job = find(id, team_id);
  if (!job) return CancelOutcome::not_found;
  // Through the runner: a job in its pause stops now, not after it.
  CancelOutcome outcome = CancelOutcome::cancelled;
  runner_.signal([&] {
    const auto progress = job->lock();
    if (progress->state == AgentState::completed || progress->state == AgentState::failed) {
      outcome = CancelOutcome::finished;
    } else if (progress->state == AgentState::processing) {
      progress->state = AgentState::cancelled;
      progress->finished_at = clock_.now();
    }
  });
  return outcome;
}

json AgentEngine::status_body(const AgentJob& job) const {
  const auto progress = job.lock();
  // While running the results live a day from now; milliseconds zeroed (wire-decisions 6).
  const auto base = progress->finished_at ? *progress->finished_at : clock_.now();
  json body = {{"success", true},
               {"status", agent_state_name(progress->state)},
               {"model", job.model},
               {"expiresAt", iso8601_seconds(base + kRetention)},
               {"creditsUsed", progress->credits_used}};
  // `data` only once completed, as the service answers.
  if (progress->state == AgentState::completed) body["data"] = progress->data;
  if (progress->error) body["error"] = *progress->error;
  if (progress->stop_reason) body["stopReason"] = *progress->stop_reason;
  return body;
}

void AgentEngine::reset() {
  runner_.reset([this](AgentJob& job) {
    const auto progress = job.lock();
    if (progress->state == AgentState::processing) {
      progress->state = AgentState::cancelled;
      progress->finished_at = clock_.now();
    }
  });
}

bool AgentEngine::wait_idle(std::chrono::milliseconds timeout) {
  return runner_.wait_idle(timeout);
}

void AgentEngine::finish(AgentJob& job, AgentState state, std::optional<std::string> error,
                         std::optional<std::string> stop_reason) {
  const auto progress = job.lock();
  if (progress->state != AgentState::processing) return;
  progress->state = state;
  progress->error = std::move(error);
  progress->stop_reason = std::move(stop_reason);
  progress->finished_at = clock_.now();
}

void AgentEngine::run(AgentJob& job) {
  const UsageAttribution attribution(job.api_key);
  const auto ended = [&job] { return job.lock()->state != AgentState::processing; };
  // A pause of `pacing_` before each step; a cancel or a shutdown cuts it short.
  const auto pause = [&] { return runner_.pause(pacing_, ended); };

  // Planning: which pages to read. `maxCredits` does not shorten the plan as it does for the
  // synchronous form: a job that would spend more fails, as the service's jobs do.
  AgentRequest plan_request = job.request;
  plan_request.max_credits.reset();
  if (!pause()) return;
  const std::vector<std::string> plan = service_.agent_pages(plan_request);

  std::vector<std::string> read;
  for (const auto& url : plan) {
    if (!pause()) return;
    if (job.request.max_credits && job.lock()->credits_used + 1 > *job.request.max_credits) {
      finish(job, AgentState::failed, "Agent reached max credits", "credit_limit_reached");
      return;
    }
    if (!teams_.try_charge(job.team_id, 1)) {
      finish(job, AgentState::failed, "Insufficient credits to read " + url);
      return;
    }
    job.lock()->credits_used += 1;
    read.push_back(url);
  }

  // Answering from the pages read (a run that read nothing still costs its one credit).
  if (!pause()) return;
  if (read.empty()) {
    if (!teams_.try_charge(job.team_id, 1)) {
      finish(job, AgentState::failed, "Insufficient credits to answer");
      return;
    }
    job.lock()->credits_used += 1;
  }
  const AgentAnswer answer = service_.agent_answer(job.request, read);
  json data = {{"result", answer.result}, {"sources", answer.sources}};
  if (answer.object) {
    data["json"] = *answer.object;
    data["result"] = answer.object->dump();
  }
  const auto progress = job.lock();
  if (progress->state != AgentState::processing) return;  // cancelled while it answered
  progress->data = std::move(data);
  progress->state = AgentState::completed;
  progress->finished_at = clock_.now();
}

}  // namespace webdata::mock::search
