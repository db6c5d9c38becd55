#include "app/mock_server.hpp"

#include "app/version.hpp"

namespace webdata::mock {

MockServer::MockServer(Config config, std::ostream& log) : config_(std::move(config)) {
  add_routes();
  server_ = std::make_unique<http::Server>(
      config_.server, [this](const http::Request& request) { return handle(request); }, log);
}

MockServer::~MockServer() { stop(); }

void MockServer::add_routes() {
  router_.add("GET", "/health", [](const http::Request&, const http::PathParams&) {
    return http::Response::json(200, {{"status", "ok"}, {"service", "webdata-mock"},
                                      {"version", kVersion}});
  });
}

http::Response MockServer::handle(const http::Request& request) const {
  return router_.dispatch(request);
}

void MockServer::start() { server_->start(); }
void MockServer::stop() { server_->stop(); }
void MockServer::wait() { server_->wait(); }
std::uint16_t MockServer::port() const { return server_->port(); }

std::string MockServer::base_url() const {
  std::string host = config_.server.host;
  if (host == "0.0.0.0") host = "127.0.0.1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(port());
}

}  // namespace webdata::mock
