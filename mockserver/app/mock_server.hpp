#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "app/api_routes.hpp"
#include "app/config.hpp"
#include "app/services.hpp"
#include "http/router.hpp"
#include "http/server.hpp"

namespace webdata::mock {

/// The whole mock service, in one object that tests can start in-process on a free port: it
/// owns the services (app/services.hpp), the API's routes (app/api_routes.hpp), the admin router
/// and the HTTP server, and routes each request. Request flow: admin (/__admin/) -> API stubs ->
/// the API's routes (JSON parse -> auth -> schema validation -> handler, app/handlers/); every
/// non-admin request goes into the journal. Construction loads the web root and the API stub
/// root; a bad mapping throws web::MappingError naming the file.
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
  const Config& config() const { return services_.config; }
  Clock& clock() { return services_.clock; }
  Teams& teams() { return services_.teams; }
  web::VirtualWeb& web() { return *services_.web; }
  web::StubStore& api_stubs() { return *services_.api_stubs; }
  scrape::Scraper& scraper() { return *services_.scraper; }
  jobs::JobEngine& jobs() { return *services_.jobs; }
  jobs::ExtractEngine& extracts() { return *services_.extracts; }
  webhooks::Dispatcher& webhooks() { return *services_.webhooks; }

  /// Handles one request without sockets (used by the server and by handler tests).
  http::Response handle(const http::Request& request);

  /// Queue bounds and timeouts of crawl watcher connections opened from now on.
  void set_watcher_limits(const http::WebSocketLimits& limits);
  /// Off: upgrade requests are answered as plain HTTP, like a deployment without the watcher.
  void set_watcher_enabled(bool enabled) { services_.watchers.set_enabled(enabled); }
  /// Crawl watcher connections currently open.
  std::size_t open_watchers() const;

 private:
  void add_routes();
  /// Everything but CORS: admin, API stubs, the API.
  http::Response handle_request(const http::Request& request);
  /// The API's answer to a request no stub took.
  http::Response dispatch(const http::Request& request) const;
  /// The answer of a matching API stub mapping, if any (matched before the built-in API).
  std::optional<http::Response> match_api_stub(const http::Request& request) const;
  /// Whether the imitated deployment had the request's route (app/imitation.cpp).
  bool imitated_route(const http::Request& request) const;
  /// The router's answer as the imitated build validates (--inject-fault baseline-validation).
  http::Response validate_as_imitated(const http::Request& request) const;
  /// Express's HTML 404 page, as a deployment answers a route it does not have.
  static http::Response express_not_found(const http::Request& request);

  Services services_;
  ApiRoutes api_routes_{services_};
  http::Router admin_router_;
  bool express_404_ = false;          ///< --inject-fault express-404
  bool baseline_validation_ = false;  ///< --inject-fault baseline-validation
  std::unique_ptr<http::Server> server_;
};

}  // namespace webdata::mock
