#include "app/mock_server.hpp"

#include "app/handlers/handlers.hpp"
#include "app/version.hpp"

namespace webdata::mock {

using nlohmann::json;

MockServer::MockServer(Config config, std::ostream& log) : services_(std::move(config)) {
  express_404_ = services_.config.has_fault("express-404");
  baseline_validation_ = services_.config.has_fault("baseline-validation");
  services_.base_url = [this] { return base_url(); };
  add_routes();
  server_ = std::make_unique<http::Server>(
      services_.config.server, [this](const http::Request& request) { return handle(request); },
      log);
  // Stub delays and slow pages follow POST /__admin/clock/advance.
  server_->set_clock(services_.clock);
  server_->set_upgrade_handler([this](const http::Request& request) {
    if (auto route = handlers::watch_crawl(services_, request)) return route;
    return handlers::browser_cdp(services_, request);
  });
  // The health answer never waits: it stays on the I/O thread (the pool hop would be most of
  // its cost). Everything else may block and runs on the worker pool.
  server_->set_inline_filter([](const http::Request& request) {
    return request.path == "/health" && request.method == "GET";
  });
}

MockServer::~MockServer() { stop(); }

void MockServer::add_routes() {
  // Made once, CORS header included (with_cors then adds nothing): the answer never changes,
  // and /health is the HTTP layer's benchmark.
  static const http::Response health = [] {
    http::Response r = http::Response::json(
        200, {{"status", "ok"}, {"service", "webdata-mock"}, {"version", kVersion}});
    r.set_header("Access-Control-Allow-Origin", "*");
    return r;
  }();
  api_routes_.plain("GET", "/health",
                    [](const http::Request&, const http::PathParams&) { return health; });
  for (const auto add : {handlers::add_scrape_routes, handlers::add_crawl_routes,
                         handlers::add_batch_routes, handlers::add_job_status_routes,
                         handlers::add_search_routes, handlers::add_agent_routes,
                         handlers::add_map_routes, handlers::add_team_routes,
                         handlers::add_crawl_preview_routes, handlers::add_parse_routes,
                         handlers::add_extract_routes, handlers::add_exchange_routes,
                         handlers::add_v1_job_routes, handlers::add_monitor_routes,
                         handlers::add_research_routes, handlers::add_feedback_routes,
                         handlers::add_support_routes, handlers::add_browser_routes,
                         handlers::add_browser_view_routes}) {
    add(api_routes_, services_);
  }
  handlers::add_admin_routes(admin_router_, services_, api_routes_);
}

std::optional<http::Response> MockServer::match_api_stub(const http::Request& request) const {
  if (services_.api_stubs->size() == 0) return std::nullopt;
  web::StubRequest stub_request;
  stub_request.method = request.method;
  stub_request.url = request.target;
  stub_request.headers = request.headers;
  stub_request.body = request.body;
  stub_request.scheme = request.scheme;
  auto matched = services_.api_stubs->match(stub_request);
  if (!matched) return std::nullopt;
  http::Response response;
  response.delay = matched->delay;  // the server's timer, not a sleeping thread
  response.status = matched->status;
  response.headers = matched->headers;
  response.body = std::move(matched->body);
  response.fault = matched->fault;
  return response;
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
    services_.journal.record(request, response.status, stubbed.has_value(), services_.clock.now());
    return response;
  }
  return with_cors(handle_request(request));
}

http::Response MockServer::handle_request(const http::Request& request) {
  if (request.path.rfind("/__admin", 0) == 0) {
    if (!services_.config.admin) {
      return http::Response::error(404, "Route not found: " + request.method + " " +
                                            request.path + " (the admin API is off; start "
                                            "webdata-mock with --admin)");
    }
    return admin_router_.dispatch(request);
  }
  std::optional<http::Response> stubbed = match_api_stub(request);
  http::Response response = stubbed ? std::move(*stubbed) : dispatch(request);
  services_.journal.record(request, response.status, stubbed.has_value(), services_.clock.now());
  return response;
}

http::Response MockServer::dispatch(const http::Request& request) const {
  // --inject-fault express-404: what the imitated build had no route for answers Express's page.
  if (express_404_ && !imitated_route(request)) return express_not_found(request);
  if (baseline_validation_) return validate_as_imitated(request);
  return api_routes_.router().dispatch(request);
}

void MockServer::start() { server_->start(); }
void MockServer::stop() { server_->stop(); }
void MockServer::wait() { server_->wait(); }
std::uint16_t MockServer::port() const { return server_->port(); }
std::string MockServer::certificate_file() const { return server_->certificate_file(); }

void MockServer::set_watcher_limits(const http::WebSocketLimits& limits) {
  services_.watchers.set_limits(limits);
}

std::size_t MockServer::open_watchers() const { return services_.watchers.open()->load(); }

std::string MockServer::base_url() const {
  std::string host = services_.config.server.host;
  if (host == "0.0.0.0") host = "127.0.0.1";
  if (host == "::") host = "::1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return std::string(server_->scheme()) + "://" + host + ":" + std::to_string(port());
}

}  // namespace webdata::mock
