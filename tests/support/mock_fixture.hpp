#pragma once

#include <chrono>
#include <sstream>
#include <string>

#include "app/mock_server.hpp"
#include "eventually.hpp"

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

  /// Lets the jobs' slow pages take their time on the mock's clock instead of in real time: a
  /// second at a time whenever a page waits for its delay, until no job runs (true) or
  /// `timeout` passes in real time. Pages come due in the order their delays give.
  bool finish_jobs(std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    auto& jobs = server_.jobs();
    return eventually(
        [&] {
          if (jobs.wait_idle(std::chrono::milliseconds(0))) return true;
          if (jobs.deferred_count() > 0) server_.clock().advance(std::chrono::seconds(1));
          return false;
        },
        timeout);
  }

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
