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
#include "requests/requests.hpp"
#include "requests/validate.hpp"
#include "scrape/scraper.hpp"
#include "web/stub_store.hpp"
#include "webhooks/dispatcher.hpp"
#include "web/virtual_web.hpp"

namespace webdata::mock {

namespace search {
class SearchService;
class AgentEngine;
struct SearchAnswer;
}  // namespace search

/// One authenticated API request as a handler receives it; a body comes beside it, checked and
/// decoded into its typed request (requests/requests.hpp).
struct ApiCall {
  const http::Request& request;
  const http::PathParams& params;
  const Team& team;
  std::string version;  ///< "v1" or "v2", the path's.
};
using ApiHandler = std::function<http::Response(ApiCall&)>;
template <class T>
using BodyHandler = std::function<http::Response(ApiCall&, std::shared_ptr<const T>)>;

/// Whether a route checks that the team can pay before it reads the body (the service's credit
/// check comes before its validation).
enum class Credits { checked, free };

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
  /// 400 BAD_REQUEST with the refusal's `error`, `details` and `hint`.
  static http::Response refusal_answer(const requests::Refusal& refusal);

  /// Queue bounds and timeouts of crawl watcher connections opened from now on.
  void set_watcher_limits(const http::WebSocketLimits& limits);
  /// Off: upgrade requests are answered as plain HTTP, like a deployment without the watcher.
  void set_watcher_enabled(bool enabled) { watcher_enabled_ = enabled; }
  /// Crawl watcher connections currently open.
  std::size_t open_watchers() const;

 private:
  /// A route's body: the schema it is checked against, whether the team's credits are checked
  /// first, and how an accepted body becomes its typed request.
  struct BodySpec {
    std::string schema;
    Credits credits = Credits::checked;
    std::function<std::shared_ptr<const void>(const nlohmann::json&)> decode;
  };
  using ErasedHandler =
      std::function<http::Response(ApiCall&, const std::shared_ptr<const void>&)>;

  /// Registers an API route without a body (GET, DELETE).
  void api(const std::string& method, const std::string& pattern, ApiHandler handler);
  /// Registers an API route whose body is a `T` of `version` (requests::decode).
  template <class T>
  void api(const std::string& method, const std::string& pattern, requests::Version version,
           Credits credits, BodyHandler<T> handler) {
    BodySpec spec{requests::schema_name<T>(version), credits,
                  [version](const nlohmann::json& body) -> std::shared_ptr<const void> {
                    return std::make_shared<const T>(requests::decode<T>(body, version));
                  }};
    add_route(method, pattern, std::move(spec),
              [handler = std::move(handler)](ApiCall& call, const std::shared_ptr<const void>& body) {
                return handler(call, std::static_pointer_cast<const T>(body));
              });
  }
  void add_route(const std::string& method, const std::string& pattern,
                 std::optional<BodySpec> spec, ErasedHandler handler);
  /// Request flow: JSON parse -> auth -> credits -> body checks -> idempotency -> handler.
  http::Response run_api(const http::Request& request, const http::PathParams& params,
                         const std::optional<BodySpec>& spec, const ErasedHandler& handler);
  /// The body's typed request (from the memo, or checked and decoded now), or the refusal.
  std::shared_ptr<const void> accept_body(const BodySpec& spec, const http::Request& request,
                                          nlohmann::json& body,
                                          std::optional<http::Response>& refused) const;
  /// 400 when a request with a body does not send it as `application/json`.
  static std::optional<http::Response> check_content_type(const http::Request& request);
  /// A body as the service's JSON reader takes it (strict: an object or an array at the top; a
  /// blank body is `{}`); nullopt for anything else (400 BAD_REQUEST_INVALID_JSON).
  static std::optional<nlohmann::json> parse_body(const std::string& text);

  /// Accepted request bodies by schema and exact text, typed: checking and decoding are a pure
  /// function of the two, and they were the largest part of a cached scrape after the content
  /// work was cached (bench/analysis.md). Bounded; see validation.cpp.
  std::shared_ptr<const void> accepted_body(const std::string& schema,
                                            const std::string& text) const;
  void remember_accepted(const std::string& schema, const std::string& text,
                         std::shared_ptr<const void> request) const;
  mutable std::mutex accepted_mutex_;
  mutable std::map<std::string, std::shared_ptr<const void>> accepted_;
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
  struct SearchRun;  // a search's results being scraped and billed (search_routes.cpp)
  http::Response answer_search(ApiCall& call, const requests::SearchRequest& request);
  /// The items of a web or news source, scraped when the request asks for it.
  nlohmann::json search_pages(SearchRun& run, const search::SearchAnswer& answer,
                              const std::string& source);
  void bill_search_scrape(SearchRun& run, const scrape::Outcome& outcome);
  /// The 200 answer (or 402 when the team cannot pay what the results cost).
  http::Response search_answer(ApiCall& call, const requests::SearchRequest& request,
                               std::int64_t credits, nlohmann::json data,
                               std::vector<std::string> warnings);
  static http::Response bad_search_field(const std::string& field, const std::string& message);
  /// POST /v2/agent, GET and DELETE /v2/agent/{id}, the list, trace, snapshots and threads
  /// (app/agent_routes.cpp).
  void add_agent_routes();
  /// POST /v2/agent: a run, synchronous or as a job (--agent-jobs).
  http::Response start_agent(ApiCall& call, const requests::AgentRequest& request);
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
  http::Response start_extract(ApiCall& call, const requests::ExtractRequest& request);
  void add_job_routes();
  /// POST /v1|v2/batch/scrape: a new batch, or more pages for one (`appendToId`).
  http::Response start_batch(ApiCall& call,
                             std::shared_ptr<const requests::BatchScrapeRequest> request);
  /// GET .../{id}/errors of a crawl or batch scrape.
  http::Response job_errors(ApiCall& call, jobs::JobKind kind);
  void add_job_resource_routes(const std::string& prefix, jobs::JobKind kind);
  /// The crawl watcher: a WebSocket route for `GET /v1|v2/crawl/{id}` upgrade requests
  /// (app/job_routes.cpp); nullopt for any other upgrade request.
  std::optional<http::WebSocketRoute> watch_crawl(const http::Request& request);
  void add_admin_routes();
  /// "scheme://Host" of a request, for the absolute URLs the API returns (`url`, `next`).
  std::string public_base(const http::Request& request) const;
  std::optional<http::Response> check_scrape_options(const requests::ScrapeOptions& options,
                                                     const Team& team) const;
  /// The answer of a scrape that produced no document.
  static http::Response failure_answer(const scrape::Failure& failure);
  /// 400 when the request's `webhook` cannot be used.
  std::optional<http::Response> check_webhook(const std::optional<nlohmann::json>& webhook) const;
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
