#pragma once

// A webdata-mock executable started as a child process, for tests that must see the mock only
// as its users do: over HTTP(S) and WebSocket. Shared by the conformance suite (--spawn-mock)
// and the SDK's tests.

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace webdata::testing {

/// How long a spawned mock may take to start, and to stop after SIGTERM before it is killed.
struct SpawnTimeouts {
  std::chrono::milliseconds start{std::chrono::seconds(30)};
  std::chrono::milliseconds stop{std::chrono::seconds(10)};
};

/// `EXECUTABLE --port 0 --quiet ARGS...` on a free loopback port. The constructor returns once
/// the mock prints "listening on URL", or throws std::runtime_error saying how it ended (exit
/// status or signal) with everything it wrote to stderr; a mock that prints nothing within the
/// start timeout is killed. The child's stderr is passed on to this process's stderr. The child
/// is always reaped: stop() or the destructor send SIGTERM, and SIGKILL after the stop timeout.
/// Should this process die first, the child gets SIGTERM (Linux: PR_SET_PDEATHSIG, sent when
/// the creating thread exits, so create it on a thread that outlives it).
class SpawnedMock {
 public:
  explicit SpawnedMock(const std::string& executable, const std::vector<std::string>& args = {},
                       SpawnTimeouts timeouts = {});
  ~SpawnedMock();
  SpawnedMock(const SpawnedMock&) = delete;
  SpawnedMock& operator=(const SpawnedMock&) = delete;

  /// "http://127.0.0.1:PORT" (https with --tls-self-signed or --tls-cert).
  const std::string& base_url() const { return base_url_; }
  std::string url(const std::string& path = "") const { return base_url_ + path; }
  std::uint16_t port() const { return port_; }
  pid_t pid() const { return pid_; }
  /// The certificate the mock printed to be trusted as the CA (--tls-self-signed); else "".
  const std::string& certificate_file() const { return certificate_file_; }

  /// Stops the mock (SIGTERM, SIGKILL after the stop timeout) and reaps it. Returns "" when it
  /// ended with exit status 0 (or was stopped before), else how it ended ("exit status 1",
  /// "killed by signal 6 (Aborted)"), which is also written to stderr.
  std::string stop();

 private:
  /// Reaps the child, SIGKILL once `deadline` has passed (then `*was_killed`); returns
  /// waitpid's status.
  int reap(std::chrono::steady_clock::time_point deadline, bool* was_killed = nullptr);
  /// Passes the child's stderr on (and drops its stdout) until both pipes close or the child
  /// has been reaped and they stay quiet.
  void forward_output();

  SpawnTimeouts timeouts_;
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  std::string base_url_;
  std::uint16_t port_ = 0;
  std::string certificate_file_;
  std::atomic<bool> reaped_{false};
  std::thread forwarder_;
};

}  // namespace webdata::testing
