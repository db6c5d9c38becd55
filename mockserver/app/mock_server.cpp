#include "app/mock_server.hpp"

#include "core/ids.hpp"
#include "core/time.hpp"
#include "app/version.hpp"
#include "search/agent_jobs.hpp"
#include "search/service.hpp"

#include <algorithm>

namespace webdata::mock {

using nlohmann::json;

MockServer::MockServer(Config config, std::ostream& log)
    : config_(std::move(config)),
      teams_(config_.effective_teams()),
      journal_(config_.journal_limit) {
  teams_.set_clock(&clock_);
  web::VirtualWeb::Options web_options;
  for (const auto& root : config_.effective_web_roots()) web_options.roots.emplace_back(root);
  web_options.live_fetch = config_.live_fetch;
  web_options.allow_private_targets = config_.allow_private_targets;
  web_ = std::make_unique<web::VirtualWeb>(web_options);
  api_stubs_ = config_.api_stub_root.empty()
                   ? std::make_unique<web::StubStore>()
                   : std::make_unique<web::StubStore>(config_.api_stub_root);
  scraper_ = std::make_unique<scrape::Scraper>(*web_, clock_);
  scraper_->set_drop_status_code(config_.has_fault("missing-status-code"));
  scraper_->set_no_llm(config_.has_fault("no-llm"));
  scraper_->set_no_screenshot(config_.has_fault("no-screenshot"));
  express_404_ = config_.has_fault("express-404");
  baseline_validation_ = config_.has_fault("baseline-validation");
  scrape::Conditions conditions;
  conditions.no_result_cache = config_.has_fault("no-result-cache");
  conditions.no_browser = config_.has_fault("no-browser");
  conditions.no_llm_key = config_.has_fault("no-llm-key");
  conditions.baseline_fields = config_.has_fault("baseline-fields");
  conditions.no_pdf_engine = config_.has_fault("no-pdf-engine");
  scraper_->set_conditions(conditions);
  jobs::EngineSettings engine;
  engine.chunk_bytes = config_.chunk_bytes;
  engine.pacing = std::chrono::milliseconds(config_.page_pacing_ms);
  engine.state_dir = config_.state_dir;
  engine.fault_repeat_skip = config_.has_fault("repeat-skip");
  engine.fault_ignore_skip = config_.has_fault("ignore-skip");
  engine.fault_cancel_finished_flips = config_.has_fault("cancel-finished-flips");
  engine.fault_ignore_limit = config_.has_fault("ignore-limit");
  engine.fault_one_job_store = config_.has_fault("one-job-store");
  engine.fault_baseline_fields = config_.has_fault("baseline-fields");
  engine.fault_first_status_without_next = config_.has_fault("first-status-without-next");
  webhooks::Settings delivery;
  delivery.signature_header = config_.webhook_signature_header;
  webhooks_ = std::make_unique<webhooks::Dispatcher>(delivery);
  jobs_ = std::make_unique<jobs::JobEngine>(*scraper_, *web_, teams_, clock_, engine);
  jobs_->set_event_sink([this](const jobs::Job& job, jobs::JobEvent event, bool success,
                               const json& data, const std::optional<std::string>& error) {
    deliver_event(job, jobs::event_name(event), success, data, error);
  });
  search_ = std::make_unique<search::SearchService>(*web_, clock_);
  agents_ = std::make_unique<search::AgentEngine>(
      *search_, teams_, clock_, std::chrono::milliseconds(config_.agent_pacing_ms));
  jobs::ExtractSettings extract;
  extract.pacing = engine.pacing;
  extract.no_model = config_.has_fault("no-llm-key");
  extract.baseline_fields = config_.has_fault("baseline-fields");
  extract.fault_error_object = config_.has_fault("extract-error-object");
  extracts_ = std::make_unique<jobs::ExtractEngine>(*scraper_, *web_, teams_, clock_, extract);
  add_routes();
  add_admin_routes();
  server_ = std::make_unique<http::Server>(
      config_.server, [this](const http::Request& request) { return handle(request); }, log);
  server_->set_upgrade_handler(
      [this](const http::Request& request) { return watch_crawl(request); });
  // The health answer never waits: it stays on the I/O thread (the pool hop would be most of
  // its cost). Everything else may block and runs on the worker pool.
  server_->set_inline_filter([](const http::Request& request) {
    return request.path == "/health" && request.method == "GET";
  });
}

MockServer::~MockServer() { stop(); }

void MockServer::api(const std::string& method, const std::string& pattern,
                     ApiHandler handler) {
  add_route(method, pattern, std::nullopt,
            [handler = std::move(handler)](ApiCall& call, const std::shared_ptr<const void>&) {
              return handler(call);
            });
}

void MockServer::add_route(const std::string& method, const std::string& pattern,
                           std::optional<BodySpec> spec, ErasedHandler handler) {
  router_.add(method, pattern,
              [this, spec = std::move(spec), handler = std::move(handler)](
                  const http::Request& request, const http::PathParams& params) {
                return run_api(request, params, spec, handler);
              });
}

http::Response MockServer::run_api(const http::Request& request, const http::PathParams& params,
                                   const std::optional<BodySpec>& spec,
                                   const ErasedHandler& handler) {
  // Malformed JSON is reported before authentication (wire-decisions section 1). A body seen and
  // accepted before (same schema, same bytes) is neither parsed, checked nor decoded again.
  std::shared_ptr<const void> typed = spec ? accepted_body(spec->schema, request.body) : nullptr;
  json body;
  if (spec && !typed) {
    auto parsed = parse_body(request.body);
    if (!parsed) {
      return http::Response::error(400, "Bad request, malformed JSON", "BAD_REQUEST_INVALID_JSON");
    }
    body = std::move(*parsed);
  }
  AuthResult auth = teams_.authenticate(request.header("Authorization"));
  // --inject-fault no-auth: a self-hosted deployment with authentication off serves everyone.
  if (auth.team == nullptr && config_.has_fault("no-auth")) {
    auth.team = teams_.find(config_.effective_teams().front().id);
  }
  if (auth.team == nullptr) return http::Response::error(401, auth.error);

  if (spec) {
    // The service checks credits before it reads the body (its middleware order: auth,
    // credits, ..., then the controller's validation).
    if (spec->credits == Credits::checked) {
      if (auto refused = require_credits(*auth.team, 1)) return *refused;
    }
    if (!typed) {
      std::optional<http::Response> refused;
      typed = accept_body(*spec, request, body, refused);
      if (refused) return *refused;
    } else if (auto refused = check_content_type(request)) {
      return *refused;
    }
    if (auto refused = check_idempotency(request, *auth.team)) return *refused;
  }
  ApiCall call{request, params, *auth.team, requests::version_name(requests::version_of_path(request.path))};
  const UsageAttribution attribution(auth.key);  // what the handler charges is this key's use
  return handler(call, typed);
}

std::optional<http::Response> MockServer::check_idempotency(const http::Request& request,
                                                            const Team& team) {
  const auto key = request.header("x-idempotency-key");
  if (!key) return std::nullopt;
  // --inject-fault no-database: the keys are kept in the database a deployment may not have.
  if (config_.has_fault("no-database")) return database_unavailable();
  if (!is_uuid(*key)) {
    return http::Response::error(400, "x-idempotency-key must be a UUID", "BAD_REQUEST",
                                 json::array({{{"code", "invalid_string"},
                                               {"validation", "uuid"},
                                               {"path", json::array({"x-idempotency-key"})},
                                               {"message", "Invalid uuid"}}}));
  }
  const auto now = clock_.now();
  std::lock_guard<std::mutex> lock(idempotency_mutex_);
  // Keys are remembered for 24 hours, like job results.
  for (auto it = idempotency_keys_.begin(); it != idempotency_keys_.end();) {
    it = now - it->second > std::chrono::hours(24) ? idempotency_keys_.erase(it) : std::next(it);
  }
  if (!idempotency_keys_.emplace(team.id + "/" + *key, now).second) {
    return http::Response::error(409, "Idempotency key already used");
  }
  return std::nullopt;
}

void MockServer::add_routes() {
  // Made once, CORS header included (with_cors then adds nothing): the answer never changes,
  // and /health is the HTTP layer's benchmark.
  static const http::Response health = [] {
    http::Response r = http::Response::json(
        200, {{"status", "ok"}, {"service", "webdata-mock"}, {"version", kVersion}});
    r.set_header("Access-Control-Allow-Origin", "*");
    return r;
  }();
  router_.add("GET", "/health",
              [](const http::Request&, const http::PathParams&) { return health; });
  add_scrape_routes();
  add_job_routes();
  add_search_routes();
  add_agent_routes();
  add_map_routes();
  add_team_routes();
  add_crawl_preview_routes();
  add_parse_routes();
  add_extract_routes();
}

std::optional<http::Response> MockServer::check_webhook(
    const std::optional<nlohmann::json>& webhook) const {
  if (!webhook) return std::nullopt;
  std::string error;
  if (webhooks::Target::parse(*webhook, &error)) return std::nullopt;
  return http::Response::error(400, "webhook: " + error, "BAD_REQUEST",
                               json::array({{{"code", "custom"},
                                             {"path", json::array({"webhook"})},
                                             {"message", error}}}));
}

std::string MockServer::webhook_secret(const Team& team) const {
  // An empty secret sends no signature header, as deployments without a secret do.
  if (config_.has_fault("unsigned-webhooks")) return std::string();
  if (config_.has_fault("bad-signature")) return team.webhook_secret + "-deliberately-wrong";
  return team.webhook_secret;
}

void MockServer::deliver_event(const jobs::Job& job, const std::string& event, bool success,
                               const json& data, const std::optional<std::string>& error) {
  const auto& webhook = job.webhook();
  if (!webhook) return;
  const auto target = webhooks::Target::parse(*webhook, nullptr);
  const Team* team = teams_.find(job.team_id);
  if (!target || team == nullptr) return;
  webhooks_->enqueue(job.id, *target, webhook_secret(*team),
                     std::string(jobs::kind_name(job.kind)) + "." + event, success, data, error);
}

std::optional<http::Response> MockServer::match_api_stub(const http::Request& request) const {
  if (api_stubs_->size() == 0) return std::nullopt;
  web::StubRequest stub_request;
  stub_request.method = request.method;
  stub_request.url = request.target;
  stub_request.headers = request.headers;
  stub_request.body = request.body;
  stub_request.scheme = request.scheme;
  auto matched = api_stubs_->match(stub_request);
  if (!matched) return std::nullopt;
  http::Response response;
  response.delay = matched->delay;  // the server's timer, not a sleeping thread
  response.status = matched->status;
  response.headers = matched->headers;
  response.body = std::move(matched->body);
  response.fault = matched->fault;
  return response;
}

std::optional<http::Response> MockServer::require_credits(const Team& team,
                                                          std::int64_t credits) const {
  const std::int64_t balance = teams_.balance(team.id);
  if (balance >= credits) return std::nullopt;
  return http::Response::error(
      402, "Insufficient credits to perform this request: it needs " + std::to_string(credits) +
               " credit" + (credits == 1 ? "" : "s") + " and the team has " +
               std::to_string(std::max<std::int64_t>(balance, 0)) + " left.");
}

namespace {

/// Browser apps call deployments directly (they answer every origin): a preflight gets the
/// methods and the headers the browser asked for, and every answer allows any origin.
http::Response preflight(const http::Request& request) {
  http::Response response;
  response.status = 204;
  response.set_header("Access-Control-Allow-Methods", "GET,HEAD,PUT,PATCH,POST,DELETE");
  const auto asked = request.header("Access-Control-Request-Headers");
  if (asked && !asked->empty()) response.set_header("Access-Control-Allow-Headers", *asked);
  response.set_header("Vary", "Access-Control-Request-Headers");
  return response;
}

http::Response with_cors(http::Response response) {
  if (!response.header("Access-Control-Allow-Origin")) {
    response.set_header("Access-Control-Allow-Origin", "*");
  }
  return response;
}

}  // namespace

http::Response MockServer::handle(const http::Request& request) {
  if (request.method == "OPTIONS" && request.path.rfind("/__admin", 0) != 0) {
    // API stubs may answer a preflight themselves (a test of a CORS failure); otherwise the
    // service's own answer.
    std::optional<http::Response> stubbed = match_api_stub(request);
    http::Response response = with_cors(stubbed ? std::move(*stubbed) : preflight(request));
    journal_.record(request, response.status, stubbed.has_value(), clock_.now());
    return response;
  }
  return with_cors(handle_request(request));
}

http::Response MockServer::handle_request(const http::Request& request) {
  if (request.path.rfind("/__admin", 0) == 0) {
    if (!config_.admin) {
      return http::Response::error(404, "Route not found: " + request.method + " " +
                                            request.path + " (the admin API is off; start "
                                            "webdata-mock with --admin)");
    }
    return admin_router_.dispatch(request);
  }
  std::optional<http::Response> stubbed = match_api_stub(request);
  http::Response response = stubbed ? std::move(*stubbed) : dispatch(request);
  journal_.record(request, response.status, stubbed.has_value(), clock_.now());
  return response;
}

http::Response MockServer::dispatch(const http::Request& request) const {
  // --inject-fault express-404: what the imitated build had no route for answers Express's page.
  if (express_404_ && !imitated_route(request)) return express_not_found(request);
  if (baseline_validation_) return validate_as_imitated(request);
  return router_.dispatch(request);
}

void MockServer::start() { server_->start(); }
void MockServer::stop() { server_->stop(); }
void MockServer::wait() { server_->wait(); }
std::uint16_t MockServer::port() const { return server_->port(); }
std::string MockServer::certificate_file() const { return server_->certificate_file(); }

std::string MockServer::base_url() const {
  std::string host = config_.server.host;
  if (host == "0.0.0.0") host = "127.0.0.1";
  if (host == "::") host = "::1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return std::string(server_->scheme()) + "://" + host + ":" + std::to_string(port());
}

}  // namespace webdata::mock
