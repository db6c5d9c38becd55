#include "search/agent_jobs.hpp"

#include <algorithm>

#include "core/ids.hpp"
#include "core/time.hpp"
#include "core/usage.hpp"

namespace webdata::mock::search {

using nlohmann::json;

namespace {

constexpr auto kRetention = std::chrono::hours(24);
using TimePoint = std::chrono::system_clock::time_point;

std::int64_t to_ms(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

/// The trace's error object (AgentTraceError).
json trace_error(const std::string& code, const std::string& source, const std::string& message) {
  return {{"code", code}, {"source", source}, {"retryable", false}, {"message", message}};
}

/// The answer as the text a chat-mode run replies with: the passages, then the pages they
/// came from.
std::string chat_message(const AgentAnswer& answer) {
  std::string message = answer.object ? answer.object->dump() : answer.result;
  if (!answer.sources.empty()) {
    message += "\n\nSources:";
    for (const auto& url : answer.sources) message += "\n- " + url;
  }
  return message;
}

/// A run's thread-run status (AgentThreadRun.status).
const char* thread_run_status(const AgentProgress& progress) {
  // The thread's names differ from the status route's in two places only.
  if (progress.state == AgentState::completed) return "succeeded";
  if (progress.state == AgentState::failed &&
      progress.stop_reason == std::optional<std::string>("credit_limit_reached")) {
    return "credit_limit_reached";
  }
  return agent_state_name(progress.state);
}

/// The exchange summary of a status or thread run (AgentExchangeSummary): what the run was set
/// to, and what it did with it. The mock calls no toolkit, so no paid call and no credit.
json exchange_summary(const requests::AgentExchange& exchange) {
  json summary = {{"enabled", exchange.enabled.value_or(false)}};
  if (exchange.toolkits) summary["toolkits"] = *exchange.toolkits;
  if (exchange.require_approval) summary["requireApproval"] = *exchange.require_approval;
  if (exchange.on_terms_required) summary["onTermsRequired"] = *exchange.on_terms_required;
  summary["paidCalls"] = 0;
  summary["creditsUsed"] = 0;
  return summary;
}

bool thread_expired(const AgentThread& thread, TimePoint now) {
  if (thread.runs.empty()) return true;
  const auto finished = thread.runs.back()->lock()->finished_at;
  return finished && now >= *finished + kRetention;
}

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

AgentEngine::Started AgentEngine::create(const Team& team, AgentSpec spec) {
  Started started;
  auto job = std::make_shared<AgentJob>();
  std::lock_guard<std::mutex> lock(threads_mutex_);
  const auto now = clock_.now();
  for (auto it = threads_.begin(); it != threads_.end();) {
    it = thread_expired(it->second, now) ? threads_.erase(it) : std::next(it);
  }
  AgentThread* thread = nullptr;
  std::optional<requests::AgentExchange> inherited_exchange;
  if (spec.thread_id) {
    const auto it = threads_.find(*spec.thread_id);
    if (it == threads_.end() || it->second.team_id != team.id) {
      started.outcome = Outcome::thread_not_found;
      return started;
    }
    thread = &it->second;
    const auto& last = thread->runs.back();
    if (last->lock()->state == AgentState::processing) {
      started.outcome = Outcome::thread_busy;
      started.busy_run_id = last->id;
      return started;
    }
    // A follow-up continues where the last turn was: on its pages unless it names others, with
    // its exchange settings where it sets none.
    if (spec.request.urls.empty()) spec.request.urls = last->request.urls;
    inherited_exchange = last->exchange;
  } else {
    AgentThread fresh;
    fresh.id = uuid4();
    fresh.team_id = team.id;
    fresh.created_at = now;
    const std::string id = fresh.id;
    thread = &threads_.emplace(id, std::move(fresh)).first->second;
  }

  // Creation times strictly increase, so `before` pages through runs created in one millisecond.
  last_created_ms_ = std::max(last_created_ms_ + 1, to_ms(now));
  job->created_at = TimePoint(std::chrono::milliseconds(last_created_ms_));
  job->id = uuid4();
  job->team_id = team.id;
  job->api_key = UsageAttribution::current();
  job->model = std::move(spec.model);
  job->request = std::move(spec.request);
  job->effort = std::move(spec.effort);
  job->mode = std::move(spec.mode);
  job->origin = std::move(spec.origin);
  job->integration = std::move(spec.integration);
  job->webhook = std::move(spec.webhook);
  job->agent_id = uuid4();
  job->exchange = inherited_exchange;
  if (spec.exchange) {
    job->exchange = inherited_exchange.value_or(requests::AgentExchange{}).updated_by(*spec.exchange);
  }
  job->thread_id = thread->id;
  thread->runs.push_back(job);
  job->thread_turn = static_cast<std::int64_t>(thread->runs.size());
  started.job = std::move(job);
  return started;
}

AgentEngine::Started AgentEngine::start(const Team& team, AgentSpec spec) {
  Started started = create(team, std::move(spec));
  if (started.job) runner_.submit(started.job);
  return started;
}

AgentEngine::Started AgentEngine::run_now(const Team& team, AgentSpec spec) {
  Started started = create(team, std::move(spec));
  if (!started.job) return started;
  AgentJob& job = *started.job;
  runner_.keep(started.job);
  {
    const auto progress = job.lock();
    trace(job, *progress, {{"type", "run.started"}});
    trace(job, *progress, {{"type", "agent.started"}});
    trace(job, *progress,
          {{"type", "progress.reported"},
           {"phase", "planning"},
           {"message", "Choosing the pages to read for the prompt"}});
    emit(job, "started", true, json::array());
  }
  const std::vector<std::string> pages = service_.agent_pages(job.request, &started.ready_at);
  const AgentAnswer answer = service_.agent_answer(job.request, pages, &started.ready_at);
  const std::int64_t credits = std::max<std::int64_t>(1, answer.pages_read);
  const bool paid = teams_.try_charge(job.team_id, credits);
  const auto progress = job.lock();
  if (!paid) {
    started.credits_needed = credits;
    end_locked(job, *progress, AgentState::failed, "Insufficient credits", std::nullopt);
    return started;
  }
  for (const auto& url : pages) {
    progress->credits_used = std::min(credits, progress->credits_used + 1);
    record_read(job, *progress, url);
  }
  progress->credits_used = credits;
  complete(job, *progress, answer);
  return started;
}

std::shared_ptr<AgentJob> AgentEngine::find(const std::string& id, const std::string& team_id) {
  return runner_.find(id, team_id);
}

std::vector<std::shared_ptr<AgentJob>> AgentEngine::list(const std::string& team_id,
                                                         std::optional<std::int64_t> before_ms,
                                                         std::size_t limit, bool& more) {
  std::vector<std::shared_ptr<AgentJob>> jobs = runner_.list(team_id);
  if (before_ms) {
    jobs.erase(std::remove_if(jobs.begin(), jobs.end(),
                              [&](const auto& job) { return to_ms(job->created_at) >= *before_ms; }),
               jobs.end());
  }
  std::sort(jobs.begin(), jobs.end(),
            [](const auto& a, const auto& b) { return a->created_at > b->created_at; });
  more = jobs.size() > limit;
  if (more) jobs.resize(limit);
  return jobs;
}

std::optional<AgentThread> AgentEngine::thread(const std::string& thread_id,
                                               const std::string& team_id) {
  std::lock_guard<std::mutex> lock(threads_mutex_);
  const auto it = threads_.find(thread_id);
  if (it == threads_.end() || it->second.team_id != team_id) return std::nullopt;
  if (thread_expired(it->second, clock_.now())) {
    threads_.erase(it);
    return std::nullopt;
  }
  return it->second;
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
      trace(*job, *progress, {{"type", "run.cancel_requested"}, {"reason", "user"}});
      end_locked(*job, *progress, AgentState::cancelled, std::nullopt, std::nullopt);
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
               {"creditsUsed", progress->credits_used},
               {"threadId", job.thread_id},
               {"threadTurn", job.thread_turn},
               {"mode", job.mode}};
  // `data` only once completed, as the service answers; a chat run answers in `message`.
  if (progress->state == AgentState::completed && job.mode != "chat") body["data"] = progress->data;
  if (progress->message) body["message"] = *progress->message;
  if (job.effort) body["effort"] = *job.effort;
  if (job.exchange) body["exchange"] = exchange_summary(*job.exchange);
  if (progress->error) body["error"] = *progress->error;
  if (progress->stop_reason) body["stopReason"] = *progress->stop_reason;
  return body;
}

json AgentEngine::list_item(const AgentJob& job) const {
  const auto state = job.lock()->state;
  json options = {{"prompt", job.request.prompt}, {"model", job.model}};
  if (!job.request.urls.empty()) options["urls"] = job.request.urls;
  if (!job.request.schema.is_null()) options["schema"] = job.request.schema;
  if (job.effort) options["effort"] = *job.effort;
  // What the run was about at a glance: its first page, else its prompt.
  const std::string hint =
      job.request.urls.empty() ? job.request.prompt.substr(0, 100) : job.request.urls.front();
  json item = {{"id", job.id},
               {"createdAt", iso8601(job.created_at)},
               {"targetHint", hint},
               {"origin", job.origin},
               {"settings", {{"hidden", false}, {"starred", false}}},
               {"status", agent_state_name(state)},
               {"options", std::move(options)}};
  if (job.integration) item["integration"] = *job.integration;
  return item;
}

json AgentEngine::thread_run(const AgentJob& job, bool include_data) const {
  const auto progress = job.lock();
  json run = {{"id", job.id},
              {"turn", job.thread_turn},
              {"mode", job.mode},
              {"prompt", job.request.prompt},
              {"status", thread_run_status(*progress)},
              {"createdAt", iso8601(job.created_at)},
              {"finishedAt", progress->finished_at ? json(iso8601(*progress->finished_at))
                                                   : json(nullptr)},
              {"creditsUsed", progress->credits_used},
              {"message", progress->message ? json(*progress->message) : json(nullptr)},
              {"suggestions", nullptr},
              {"pendingApproval", nullptr},
              {"exchange", job.exchange ? exchange_summary(*job.exchange)
                                                    : json(nullptr)}};
  if (!job.request.urls.empty()) run["urls"] = job.request.urls;
  if (!job.request.schema.is_null()) run["schema"] = job.request.schema;
  if (job.effort) run["effort"] = *job.effort;
  if (include_data && progress->state == AgentState::completed && job.mode != "chat") {
    run["data"] = progress->data;
  }
  return run;
}

json AgentEngine::trace_body(const AgentJob& job, bool live_view) const {
  const auto progress = job.lock();
  json body = {{"success", true},
               {"id", job.id},
               {"events", progress->trace},
               {"creditsUsed", progress->credits_used}};
  // The mock's agent reads pages without a browser, so there is never a session to watch.
  if (live_view) body["activeBrowserSessions"] = json::array();
  return body;
}

std::optional<std::string> AgentEngine::snapshot(const AgentJob& job,
                                                 const std::string& snapshot_id) const {
  const auto progress = job.lock();
  const auto it = progress->snapshots.find(snapshot_id);
  if (it == progress->snapshots.end()) return std::nullopt;
  return it->second;
}

void AgentEngine::reset() {
  {
    std::lock_guard<std::mutex> lock(threads_mutex_);
    threads_.clear();
  }
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

void AgentEngine::trace(const AgentJob& job, AgentProgress& progress, json event) const {
  json full = {{"schemaVersion", 1},
               {"eventId", uuid4()},
               {"runId", job.id},
               {"occurredAt", iso8601(clock_.now())},
               {"producerSequence", progress.next_sequence++},
               {"agent", {{"id", job.agent_id}, {"role", "orchestrator"}, {"name", "orchestrator"}}}};
  for (auto& [key, value] : event.items()) full[key] = std::move(value);
  progress.trace.push_back(std::move(full));
}

void AgentEngine::emit(const AgentJob& job, const std::string& event, bool success,
                       const json& data, const std::optional<std::string>& error) const {
  if (sink_ && !job.webhook.is_null()) sink_(job, event, success, data, error);
}

void AgentEngine::record_read(AgentJob& job, AgentProgress& progress, const std::string& url) {
  const std::string call = uuid4();
  const json input = {{"url", url}};
  trace(job, progress,
        {{"type", "tool_call.started"}, {"toolCallId", call}, {"toolName", "scrape"},
         {"parameters", input}});
  trace(job, progress,
        {{"type", "tool_call.finished"}, {"toolCallId", call}, {"toolName", "scrape"},
         {"result", {{"url", url}, {"read", true}}}});
  emit(job, "action", true,
       json::array({{{"creditsUsed", progress.credits_used}, {"action", "scrape"},
                     {"input", input}}}));
}

void AgentEngine::complete(AgentJob& job, AgentProgress& progress, const AgentAnswer& answer) {
  if (progress.state != AgentState::processing) return;  // cancelled while it answered
  trace(job, progress,
        {{"type", "progress.reported"},
         {"phase", "finalizing"},
         {"message", "Answering from " + std::to_string(answer.pages_read) + " page" +
                         (answer.pages_read == 1 ? "" : "s") + " read"}});
  json data = {{"result", answer.result}, {"sources", answer.sources}};
  if (answer.object) {
    // The structured answer, and the same as text for clients that read only `result`.
    data["json"] = *answer.object;
    data["result"] = answer.object->dump();
  }
  std::string content;
  if (job.mode == "chat") {
    progress.message = chat_message(answer);
    content = *progress.message;
  } else {
    content = answer.object ? answer.object->dump() : answer.result;
  }
  const std::string snapshot_id = uuid4();
  progress.snapshots[snapshot_id] = content;
  json artifact = {{"kind", answer.object && job.mode != "chat" ? "json" : "text"},
                   {"artifactId", "answer"},
                   {"snapshotId", snapshot_id},
                   {"change", "init"}};
  if (answer.object) {
    json fields = json::array();
    for (const auto& item : answer.object->items()) fields.push_back(item.key());
    artifact["changedFields"] = std::move(fields);
  }
  trace(job, progress, {{"type", "artifact.updated"}, {"artifact", std::move(artifact)}});
  progress.data = std::move(data);
  end_locked(job, progress, AgentState::completed, std::nullopt, std::nullopt);
}

void AgentEngine::finish(AgentJob& job, AgentState state, std::optional<std::string> error,
                         std::optional<std::string> stop_reason) {
  const auto progress = job.lock();
  end_locked(job, *progress, state, std::move(error), std::move(stop_reason));
}

void AgentEngine::end_locked(AgentJob& job, AgentProgress& progress, AgentState state,
                             std::optional<std::string> error,
                             std::optional<std::string> stop_reason) {
  if (progress.state != AgentState::processing) return;
  const auto now = clock_.now();
  const auto duration =
      std::chrono::duration_cast<std::chrono::milliseconds>(now - job.created_at).count();
  json trace_err = nullptr;
  std::string outcome = "succeeded";
  std::string agent_outcome = "succeeded";
  if (state == AgentState::cancelled) {
    outcome = agent_outcome = "cancelled";
    trace_err = trace_error("cancelled", "system", "The run was cancelled");
  } else if (state == AgentState::failed) {
    agent_outcome = "failed";
    const bool billing = stop_reason || (error && error->rfind("Insufficient credits", 0) == 0);
    outcome = stop_reason ? "credit_limit_reached" : "failed";
    trace_err = trace_error(billing ? "credit_limit_reached" : "internal",
                            billing ? "billing" : "system", error.value_or("The run failed"));
    trace(job, progress, {{"type", "error.occurred"}, {"error", trace_err}});
  }
  trace(job, progress,
        {{"type", "agent.finished"},
         {"outcome", agent_outcome},
         {"durationMs", std::max<std::int64_t>(0, duration)},
         {"error", trace_err}});
  trace(job, progress, {{"type", "run.finished"}, {"outcome", outcome}, {"error", trace_err}});
  progress.state = state;
  progress.error = std::move(error);
  progress.stop_reason = std::move(stop_reason);
  progress.finished_at = now;

  const json credits = {{"creditsUsed", progress.credits_used}};
  switch (state) {
    case AgentState::completed: {
      json entry = credits;
      if (job.mode == "chat") {
        entry["message"] = progress.message.value_or("");
      } else {
        entry["data"] = progress.data;
      }
      emit(job, "completed", true, json::array({entry}));
      break;
    }
    case AgentState::failed:
      emit(job, "failed", false, json::array({credits}), progress.error);
      break;
    case AgentState::cancelled:
      emit(job, "cancelled", false, json::array({credits}));
      break;
    case AgentState::processing:
      break;
  }
}

void AgentEngine::run(AgentJob& job) {
  const UsageAttribution attribution(job.api_key);
  const auto ended = [&job] { return job.lock()->state != AgentState::processing; };
  // A pause of `pacing_` before each step; a cancel or a shutdown cuts it short.
  const auto pause = [&] { return runner_.pause(pacing_, ended); };
  // Pages read outside the index are fetched one after another from `due`; the run waits until
  // they are due through the runner, so a cancel or a shutdown cuts that wait short too.
  std::chrono::steady_clock::time_point due{};
  const auto wait_due = [&] {
    const auto left = clock_.due_in(due);
    return left.count() == 0 || runner_.pause(left, ended);
  };
  {
    const auto progress = job.lock();
    if (progress->state != AgentState::processing) return;
    trace(job, *progress, {{"type", "run.started"}});
    trace(job, *progress, {{"type", "agent.started"}});
    trace(job, *progress,
          {{"type", "progress.reported"},
           {"phase", "planning"},
           {"message", "Choosing the pages to read for the prompt"}});
    emit(job, "started", true, json::array());
  }

  // Planning: which pages to read. `maxCredits` does not shorten the plan as it does for the
  // synchronous form: a job that would spend more fails, as the service's jobs do.
  AgentRequest plan_request = job.request;
  plan_request.max_credits.reset();
  if (!pause()) return;
  const std::vector<std::string> plan = service_.agent_pages(plan_request, &due);
  if (!wait_due()) return;
  {
    const auto progress = job.lock();
    if (progress->state != AgentState::processing) return;
    trace(job, *progress,
          {{"type", "progress.reported"},
           {"phase", "working"},
           {"message", plan.empty() ? std::string("No page matches the prompt")
                                    : "Reading " + std::to_string(plan.size()) + " page" +
                                          (plan.size() == 1 ? "" : "s")}});
  }

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
    const auto progress = job.lock();
    if (progress->state != AgentState::processing) return;  // cancelled while it paid
    progress->credits_used += 1;
    record_read(job, *progress, url);
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
  const AgentAnswer answer = service_.agent_answer(job.request, read, &due);
  if (!wait_due()) return;
  const auto progress = job.lock();
  complete(job, *progress, answer);
}

}  // namespace webdata::mock::search
