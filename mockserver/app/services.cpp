#include "app/services.hpp"

#include <algorithm>

#include "app/answers.hpp"
#include "search/agent_jobs.hpp"
#include "search/research_jobs.hpp"
#include "search/research.hpp"
#include "search/service.hpp"

namespace webdata::mock {

namespace {

/// A monitor's search query over the search service's web results, at most `query.limit`.
std::vector<jobs::MonitorSearchHit> monitor_search(search::SearchService& service,
                                                   const jobs::MonitorSearchQuery& query,
                                                   std::string& error) {
  search::SearchRequest request;
  request.query = query.query;
  request.include_domains = query.include_domains;
  request.exclude_domains = query.exclude_domains;
  request.tbs = query.tbs;
  request.country = "US";
  search::SearchAnswer answer;
  if (const auto refused = service.search(request, answer)) {
    error = refused->field + ": " + refused->message;
    return {};
  }
  std::vector<jobs::MonitorSearchHit> hits;
  for (const auto& hit : answer.web) {
    if (static_cast<std::int64_t>(hits.size()) >= query.limit) break;
    const auto& page = answer.index->page(hit.doc);
    hits.push_back({page.url, page.title, page.description.empty() ? hit.snippet : page.description});
  }
  return hits;
}

}  // namespace

using nlohmann::json;

http::WebSocketLimits WatcherState::limits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return limits_;
}

void WatcherState::set_limits(const http::WebSocketLimits& limits) {
  std::lock_guard<std::mutex> lock(mutex_);
  limits_ = limits;
}

Services::Services(Config config_in)
    : config(std::move(config_in)), teams(config.effective_teams()), journal(config.journal_limit) {
  teams.set_clock(&clock);
  make_web();
  make_scraper();
  make_engines();
  route_events();
}

Services::~Services() = default;

void Services::make_web() {
  web::VirtualWeb::Options options;
  for (const auto& root : config.effective_web_roots()) options.roots.emplace_back(root);
  options.live_fetch = config.live_fetch;
  options.allow_private_targets = config.allow_private_targets;
  options.clock = &clock;
  web = std::make_unique<web::VirtualWeb>(options);
  api_stubs = config.api_stub_root.empty() ? std::make_unique<web::StubStore>()
                                           : std::make_unique<web::StubStore>(config.api_stub_root);
}

void Services::make_scraper() {
  scraper = std::make_unique<scrape::Scraper>(*web, clock);
  scraper->set_drop_status_code(config.has_fault("missing-status-code"));
  scraper->set_no_llm(config.has_fault("no-llm"));
  scraper->set_no_screenshot(config.has_fault("no-screenshot"));
  scrape::Conditions conditions;
  conditions.no_result_cache = config.has_fault("no-result-cache");
  conditions.no_browser = config.has_fault("no-browser");
  conditions.no_llm_key = config.has_fault("no-llm-key");
  conditions.baseline_fields = config.has_fault("baseline-fields");
  conditions.no_pdf_engine = config.has_fault("no-pdf-engine");
  scraper->set_conditions(conditions);
}

void Services::make_engines() {
  jobs::EngineSettings engine;
  engine.chunk_bytes = config.chunk_bytes;
  engine.pacing = std::chrono::milliseconds(config.page_pacing_ms);
  engine.state_dir = config.state_dir;
  engine.fault_repeat_skip = config.has_fault("repeat-skip");
  engine.fault_ignore_skip = config.has_fault("ignore-skip");
  engine.fault_cancel_finished_flips = config.has_fault("cancel-finished-flips");
  engine.fault_ignore_limit = config.has_fault("ignore-limit");
  engine.fault_one_job_store = config.has_fault("one-job-store");
  engine.fault_baseline_fields = config.has_fault("baseline-fields");
  engine.fault_first_status_without_next = config.has_fault("first-status-without-next");
  webhooks::Settings delivery;
  delivery.signature_header = config.webhook_signature_header;
  webhooks = std::make_unique<webhooks::Dispatcher>(delivery, clock);
  jobs = std::make_unique<jobs::JobEngine>(*scraper, *web, teams, clock, engine);
  search = std::make_unique<search::SearchService>(*web, clock);
  agents = std::make_unique<search::AgentEngine>(*search, teams, clock,
                                                 std::chrono::milliseconds(config.agent_pacing_ms));
  jobs::ExtractSettings extract;
  extract.pacing = engine.pacing;
  extract.no_model = config.has_fault("no-llm-key");
  extract.baseline_fields = config.has_fault("baseline-fields");
  extract.fault_error_object = config.has_fault("extract-error-object");
  extracts = std::make_unique<jobs::ExtractEngine>(*scraper, *web, teams, clock, extract);
  deep_research = std::make_unique<search::ResearchEngine>(*search, clock);
  llmstxt = std::make_unique<jobs::LlmsTxtEngine>(*scraper, *web, clock);
  monitors = std::make_unique<jobs::MonitorEngine>(*scraper, teams, clock);
  research = std::make_unique<search::ResearchService>(*search);
  browsers = std::make_unique<scrape::BrowserSessions>(
      *web, clock, [this](const std::string& team, std::int64_t credits) {
        teams.charge(team, credits);
      });
}

void Services::route_events() {
  jobs->set_event_sink([this](const jobs::Job& job, jobs::JobEvent event, bool success,
                              const json& data, const std::optional<std::string>& error) {
    const auto& webhook = job.webhook();
    if (!webhook) return;
    deliver(job.id, webhooks::Target::parse(*webhook, nullptr), job.team_id,
            std::string(jobs::kind_name(job.kind)) + "." + jobs::event_name(event), success, data,
            error);
  });
  // A monitor's events, signed as job events are; the check's id stands for the job's.
  monitors->set_event_sink([this](const std::string& team_id, const json& webhook,
                                  const std::string& check_id, const std::string& event,
                                  const json& data) {
    deliver(check_id, monitor_webhook(webhook, nullptr), team_id, event, true, data, std::nullopt);
  });
  monitors->set_searcher([this](const jobs::MonitorSearchQuery& query, std::string& error) {
    return monitor_search(*search, query, error);
  });
  // Webhook events of agent runs, signed as job events are.
  agents->set_event_sink([this](const search::AgentJob& job, const std::string& event, bool success,
                                const json& data, const std::optional<std::string>& error) {
    deliver(job.id, webhooks::Target::parse(job.webhook, nullptr, webhooks::EventSet::agent),
            job.team_id, "agent." + event, success, data, error);
  });
}

void Services::deliver(const std::string& job_id, const std::optional<webhooks::Target>& target,
                       const std::string& team_id, const std::string& event, bool success,
                       const json& data, const std::optional<std::string>& error) {
  const Team* team = teams.find(team_id);
  if (!target || team == nullptr) return;
  webhooks->enqueue(job_id, *target, webhook_secret(*team), event, success, data, error);
}

std::optional<http::Response> Services::require_credits(const Team& team,
                                                        std::int64_t credits) const {
  const std::int64_t balance = teams.balance(team.id);
  if (balance >= credits) return std::nullopt;
  return http::Response::error(
      402, "Insufficient credits to perform this request: it needs " + std::to_string(credits) +
               " credit" + (credits == 1 ? "" : "s") + " and the team has " +
               std::to_string(std::max<std::int64_t>(balance, 0)) + " left.");
}

std::optional<http::Response> Services::check_scrape_options(const requests::ScrapeOptions& options,
                                                             const Team& team) const {
  if (auto refused = scraper->check(options, team)) return failure_answer(*refused);
  return std::nullopt;
}

std::optional<http::Response> Services::check_webhook(const std::optional<json>& webhook) const {
  if (!webhook) return std::nullopt;
  std::string error;
  if (webhooks::Target::parse(*webhook, &error)) return std::nullopt;
  return field_error("webhook", "webhook: " + error, error);
}

std::string Services::webhook_secret(const Team& team) const {
  // An empty secret sends no signature header, as deployments without a secret do.
  if (config.has_fault("unsigned-webhooks")) return std::string();
  if (config.has_fault("bad-signature")) return team.webhook_secret + "-deliberately-wrong";
  return team.webhook_secret;
}

std::optional<webhooks::Target> Services::monitor_webhook(const json& webhook,
                                                          std::string* error) const {
  // The delivery layer filters on an event's last word: monitor.page -> page,
  // monitor.check.completed -> completed.
  json target = webhook;
  if (auto events = target.find("events"); events != target.end() && events->is_array()) {
    for (auto& event : *events) {
      const std::string name = event.is_string() ? event.get<std::string>() : std::string();
      event = name.substr(name.rfind('.') + 1);
    }
  }
  return webhooks::Target::parse(target, error);
}

std::string Services::public_base(const http::Request& request) const {
  const auto host = request.header("Host");
  if (!host || host->empty()) return base_url();
  return request.scheme + "://" + *host;
}

json Services::settings_json() const {
  const auto engine = jobs->settings();
  const auto delivery = webhooks->settings();
  return {{"chunkBytes", engine.chunk_bytes},
          {"pagePacingMs", engine.pacing.count()},
          {"webhookMaxAttempts", delivery.max_attempts},
          {"webhookBackoffMs", delivery.first_backoff.count()},
          {"webhookTimeoutMs", delivery.receiver_timeout.count()},
          {"crawlWatcher", watchers.enabled()}};
}

void Services::reset() {
  journal.clear();
  clock.reset();
  teams.reset_balances();
  api_stubs->reset();
  web->stubs().reset();
  scraper->cache().clear();
  scraper->change_tracker().clear();
  scraper->results().clear();
  jobs->reset();
  agents->reset();
  extracts->reset();
  deep_research->reset();
  llmstxt->reset();
  monitors->reset();
  feedback.clear();
  browsers->clear();
  webhooks->reset();
}

}  // namespace webdata::mock
