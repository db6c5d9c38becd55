#pragma once

#include <cstdint>
#include <memory>
#include <ostream>

#include "app/config.hpp"
#include "http/router.hpp"
#include "http/server.hpp"

namespace webdata::mock {

/// The whole mock service: routes, state and the HTTP server, in one object that tests can
/// start in-process on a free port.
class MockServer {
 public:
  explicit MockServer(Config config, std::ostream& log);
  ~MockServer();
  MockServer(const MockServer&) = delete;
  MockServer& operator=(const MockServer&) = delete;

  void start();
  void stop();
  void wait();
  std::uint16_t port() const;
  /// "http://HOST:PORT" of the running server.
  std::string base_url() const;

  /// Handles one request without sockets (used by the server and by handler tests).
  http::Response handle(const http::Request& request) const;

 private:
  void add_routes();

  Config config_;
  http::Router router_;
  std::unique_ptr<http::Server> server_;
};

}  // namespace webdata::mock
