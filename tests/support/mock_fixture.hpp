#pragma once

#include <sstream>
#include <string>

#include "app/mock_server.hpp"

namespace webdata::testing {

/// An in-process mock server on a free loopback port, stopped on destruction.
class RunningMock {
 public:
  explicit RunningMock(mock::Config config = quiet_config()) : server_(std::move(config), log_) {
    server_.start();
  }
  ~RunningMock() { server_.stop(); }
  RunningMock(const RunningMock&) = delete;
  RunningMock& operator=(const RunningMock&) = delete;

  std::string url(const std::string& path = "") const { return server_.base_url() + path; }
  mock::MockServer& server() { return server_; }

  static mock::Config quiet_config() {
    mock::Config config;
    config.server.port = 0;
    config.server.access_log = false;
    config.admin = true;  // tests drive the clock, credits and stubs through /__admin/
    return config;
  }

 private:
  std::ostringstream log_;
  mock::MockServer server_;
};

}  // namespace webdata::testing
