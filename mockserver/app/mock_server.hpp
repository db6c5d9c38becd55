#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "app/config.hpp"
#include "app/journal.hpp"
#include "core/teams.hpp"
#include "http/router.hpp"
#include "http/server.hpp"
#include "jobs/extract_jobs.hpp"
#include "jobs/job_engine.hpp"
#include "scrape/scraper.hpp"
#include "web/stub_store.hpp"
#include "webhooks/dispatcher.hpp"
#include "web/virtual_web.hpp"

namespace webdata::mock {

namespace search {
class SearchService;
class AgentEngine;
}  // namespace search

/// One authenticated, validated API request as a handler receives it.
struct ApiCall {
  const http::Request& request;
  const http::PathParams& params;
  const Team& team;
  nlohmann::json body;  ///< Validated, with the version's defaults applied; null for GET/DELETE.
  std::string version;  ///< "v1" or "v2".
};
using ApiHandler = std::function<http::Response(ApiCall&)>;

/// The whole mock service: routes, state and the HTTP server, in one object that tests can
/// start in-process on a free port. Request flow: admin (/__admin/) -> API stubs -> JSON parse
/// -> auth -> schema validation -> handler; every non-admin request goes into the journal.
/// Construction loads the web root and the API stub root; a bad mapping throws
/// web::MappingError naming the file.
class MockServer {
 public:
  MockServer(Config config, std::ostream& log);
  ~MockServer();
  MockServer(const MockServer&) = delete;
  MockServer& operator=(const MockServer&) = delete;

  void start();
  void stop();
  void wait();
  std::uint16_t port() const;
  /// "http://HOST:PORT" (or https) of the running server.
  std::string base_url() const;
  /// With TLS, the certificate served (the self-signed one is also the CA clients trust).
  std::string certificate_file() const;
  const Config& config() const { return config_; }
  Clock& clock() { return clock_; }
  Teams& teams() { return teams_; }
  web::VirtualWeb& web() { return *web_; }
  web::StubStore& api_stubs() { return *api_stubs_; }
  scrape::Scraper& scraper() { return *scraper_; }
  jobs::JobEngine& jobs() { return *jobs_; }
  jobs::ExtractEngine& extracts() { return *extracts_; }
  webhooks::Dispatcher& webhooks() { return *webhooks_; }

  /// Handles one request without sockets (used by the server and by handler tests).
  http::Response handle(const http::Request& request);

  /// Queue bounds and timeouts of crawl watcher connections opened from now on.
  void set_watcher_limits(const http::WebSocketLimits& limits);
  /// Off: upgrade requests are answered as plain HTTP, like a deployment without the watcher.
  void set_watcher_enabled(bool enabled) { watcher_enabled_ = enabled; }
  /// Crawl watcher connections currently open.
  std::size_t open_watchers() const;

 private:
  /// Registers an API route. `schema` names the request-body schema ("" for no body).
  void api(const std::string& method, const std::string& pattern, const std::string& schema,
           ApiHandler handler);
  http::Response run_api(const http::Request& request, const http::PathParams& params,
                         const std::string& schema, const ApiHandler& handler);
  /// Validates `body` against the named request schema and applies the schema's defaults; an
  /// answer (400 with field-level details) when it is refused.
  std::optional<http::Response> validate_request(const std::string& schema,
                                                 nlohmann::json& body) const;
  /// 400 when a request with a body does not send it as `application/json`.
  static std::optional<http::Response> check_content_type(const http::Request& request);
  /// Accepted request bodies by schema and exact text, with their defaults applied: validation
  /// is a pure function of the two, and it was the largest part of a cached scrape after the
  /// content work was cached (bench/analysis.md). Bounded; see validation.cpp.
  std::shared_ptr<const nlohmann::json> accepted_body(const std::string& schema,
                                                      const std::string& text) const;
  void remember_accepted(const std::string& schema, const std::string& text,
                         const nlohmann::json& body) const;
  mutable std::mutex accepted_mutex_;
  mutable std::map<std::string, std::shared_ptr<const nlohmann::json>> accepted_;
  /// 409 when the team already used this x-idempotency-key, 400 when it is not a UUID.
  std::optional<http::Response> check_idempotency(const http::Request& request,
                                                  const Team& team);
  /// Everything but CORS: admin, API stubs, the API.
  http::Response handle_request(const http::Request& request);
  /// The API's answer to a request no stub took.
  http::Response dispatch(const http::Request& request) const;
  /// Whether the imitated deployment had the request's route (app/imitation.cpp).
  bool imitated_route(const http::Request& request) const;
  /// The router's answer as the imitated build validates (--inject-fault baseline-validation).
  http::Response validate_as_imitated(const http::Request& request) const;
  /// Express's HTML 404 page, as a deployment answers a route it does not have.
  static http::Response express_not_found(const http::Request& request);
  /// 500 UNKNOWN_ERROR with an exception id, as a deployment without its database answers
  /// what needs it.
  static http::Response database_unavailable();
  void add_routes();
  void add_scrape_routes();
  /// POST /v1|v2/search (app/search_routes.cpp).
  void add_search_routes();
  http::Response run_search(ApiCall& call);
  /// POST /v2/agent, GET and DELETE /v2/agent/{id}, the list, trace, snapshots and threads
  /// (app/agent_routes.cpp).
  void add_agent_routes();
  /// POST /v1|v2/map (app/map_routes.cpp).
  void add_map_routes();
  /// GET team/credit-usage, token-usage (+ historical), queue-status, concurrency-check
  /// (app/team_routes.cpp).
  void add_team_routes();
  /// POST /v2/crawl/params-preview (app/crawl_preview_routes.cpp).
  void add_crawl_preview_routes();
  /// POST /v2/parse, a multipart file upload (app/parse_routes.cpp).
  void add_parse_routes();
  /// POST /v1|v2/extract, GET /v1|v2/extract/{id} (app/extract_routes.cpp).
  void add_extract_routes();
  void add_job_routes();
  /// POST /v1|v2/crawl and /v1|v2/batch/scrape (app/job_routes.cpp).
  http::Response start_crawl(ApiCall& call);
  http::Response start_batch(ApiCall& call);
  /// GET .../{id}/errors of a crawl or batch scrape.
  http::Response job_errors(ApiCall& call, jobs::JobKind kind);
  void add_job_resource_routes(const std::string& prefix, jobs::JobKind kind);
  /// The crawl watcher: a WebSocket route for `GET /v1|v2/crawl/{id}` upgrade requests
  /// (app/job_routes.cpp); nullopt for any other upgrade request.
  std::optional<http::WebSocketRoute> watch_crawl(const http::Request& request);
  void add_admin_routes();
  /// "scheme://Host" of a request, for the absolute URLs the API returns (`url`, `next`).
  std::string public_base(const http::Request& request) const;
  std::optional<http::Response> check_scrape_options(const nlohmann::json& options,
                                                     const std::string& version,
                                                     const Team& team) const;
  /// 400 when the request's `webhook` cannot be used.
  std::optional<http::Response> check_webhook(const nlohmann::json& body) const;
  /// The key webhook deliveries of `team` are signed with ("" sends no signature).
  std::string webhook_secret(const Team& team) const;
  /// Job event -> signed webhook delivery, when the job's request named a webhook.
  void deliver_event(const jobs::Job& job, const std::string& event, bool success,
                     const nlohmann::json& data, const std::optional<std::string>& error);
  void add_admin_mapping_routes();
  /// The answer of a matching API stub mapping, if any (matched before the built-in API).
  std::optional<http::Response> match_api_stub(const http::Request& request) const;
  /// Refuses with 402 when the team cannot pay `credits` (wire-decisions section 8).
  std::optional<http::Response> require_credits(const Team& team, std::int64_t credits) const;
  /// Everything back to the start state: journal, stubs, scenarios, clock, credits, cache.
  void reset_all();
  /// The live settings changeable through POST /__admin/settings.
  nlohmann::json settings_json() const;

  Config config_;
  Clock clock_;
  Teams teams_;
  Journal journal_;
  std::unique_ptr<web::VirtualWeb> web_;
  std::unique_ptr<web::StubStore> api_stubs_;
  std::unique_ptr<scrape::Scraper> scraper_;
  std::unique_ptr<webhooks::Dispatcher> webhooks_;
  std::unique_ptr<jobs::JobEngine> jobs_;  // after webhooks_: its events go there
  std::unique_ptr<search::SearchService> search_;  // shared by the search and agent routes
  std::unique_ptr<search::AgentEngine> agents_;    // after search_ and teams_: its jobs use them
  std::unique_ptr<jobs::ExtractEngine> extracts_;  // after scraper_: its workers use it
  http::Router router_;
  http::Router admin_router_;
  std::mutex idempotency_mutex_;
  std::map<std::string, std::chrono::system_clock::time_point> idempotency_keys_;
  mutable std::mutex watcher_mutex_;
  http::WebSocketLimits watcher_limits_;
  std::atomic<bool> watcher_enabled_{true};
  std::shared_ptr<std::atomic<std::size_t>> open_watchers_ =
      std::make_shared<std::atomic<std::size_t>>(0);
  bool express_404_ = false;          ///< --inject-fault express-404
  bool baseline_validation_ = false;  ///< --inject-fault baseline-validation
  std::unique_ptr<http::Server> server_;
};

}  // namespace webdata::mock
