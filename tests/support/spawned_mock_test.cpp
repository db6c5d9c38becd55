// The webdata-mock launcher shared by the conformance suite and the SDK's tests: what it gives,
// and that every way a child can misbehave ends in a clear error or a kill, never a hang.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "spawned_mock.hpp"

using webdata::testing::SpawnedMock;
using webdata::testing::SpawnTimeouts;
using namespace std::chrono_literals;

namespace {

/// An executable shell script in the temporary directory, removed on destruction: a stand-in
/// for a mock that misbehaves.
struct FakeMock {
  std::filesystem::path path;
  explicit FakeMock(const std::string& body)
      : path(std::filesystem::temp_directory_path() /
             ("webdata-fake-mock-" + std::to_string(::getpid()) + ".sh")) {
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    ::chmod(path.c_str(), 0700);
  }
  ~FakeMock() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

/// The message of the std::runtime_error `start` throws ("" when it throws none).
template <typename Start>
std::string start_error(Start start) {
  try {
    start();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

bool process_exists(pid_t pid) {
  return ::kill(pid, 0) == 0 || errno != ESRCH;
}

}  // namespace

TEST_CASE("a spawned mock gives its URL, port, pid and certificate, and stops cleanly",
          "[spawned-mock]") {
  SpawnedMock mock(WEBDATA_MOCK_EXE, {"--tls-self-signed"});
  CHECK(mock.base_url() == "https://127.0.0.1:" + std::to_string(mock.port()));
  CHECK(mock.url("/health") == mock.base_url() + "/health");
  CHECK(mock.port() > 0);
  const pid_t pid = mock.pid();
  REQUIRE(pid > 0);
  CHECK(process_exists(pid));
  const std::string certificate = mock.certificate_file();
  REQUIRE_FALSE(certificate.empty());
  CHECK(std::filesystem::exists(certificate));

  CHECK(mock.stop().empty());                         // exit status 0 on SIGTERM
  CHECK_FALSE(process_exists(pid));                   // reaped, not a zombie
  CHECK_FALSE(std::filesystem::exists(certificate));  // the mock removed it on its way out
  CHECK(mock.stop().empty());                         // once only

  SpawnedMock plain(WEBDATA_MOCK_EXE);
  CHECK(plain.base_url().rfind("http://127.0.0.1:", 0) == 0);
  CHECK(plain.certificate_file().empty());
}

TEST_CASE("a mock that refuses its arguments is an error with its exit status and stderr",
          "[spawned-mock]") {
  const std::string error = start_error([] { SpawnedMock mock(WEBDATA_MOCK_EXE, {"--bogus"}); });
  CHECK_THAT(error, Catch::Contains("webdata-mock did not start") &&
                        Catch::Contains("--port 0 --quiet --bogus") &&
                        Catch::Contains("exit status 2") &&
                        Catch::Contains("unknown option '--bogus'"));
}

TEST_CASE("a missing executable is an error naming it", "[spawned-mock]") {
  const std::string error = start_error([] { SpawnedMock mock("/nonexistent/webdata-mock"); });
  CHECK_THAT(error, Catch::Contains("cannot execute '/nonexistent/webdata-mock'"));
}

TEST_CASE("a child that never prints its URL is killed after the start timeout", "[spawned-mock]") {
  const FakeMock silent("echo 'starting...' >&2\nexec sleep 30");
  SpawnTimeouts timeouts;
  timeouts.start = 300ms;
  const auto started = std::chrono::steady_clock::now();
  const std::string error =
      start_error([&] { SpawnedMock mock(silent.path.string(), {}, timeouts); });
  CHECK(std::chrono::steady_clock::now() - started < 10s);
  CHECK_THAT(error, Catch::Contains("printed no URL within 300 ms") &&
                        Catch::Contains("killed by signal 9") && Catch::Contains("starting..."));
}

TEST_CASE("a child that ignores SIGTERM is killed after the stop timeout", "[spawned-mock]") {
  const FakeMock stubborn(
      "trap '' TERM\necho 'webdata-mock listening on http://127.0.0.1:9'\nexec sleep 30");
  SpawnTimeouts timeouts;
  timeouts.stop = 300ms;
  SpawnedMock mock(stubborn.path.string(), {}, timeouts);
  CHECK(mock.port() == 9);
  const pid_t pid = mock.pid();
  const auto started = std::chrono::steady_clock::now();
  CHECK_THAT(mock.stop(), Catch::Contains("killed by signal 9") && Catch::Contains("SIGKILL"));
  CHECK(std::chrono::steady_clock::now() - started < 10s);
  CHECK_FALSE(process_exists(pid));
}
