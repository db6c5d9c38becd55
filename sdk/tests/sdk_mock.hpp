// How the SDK's tests reach the mock: as any user of the SDK does. Each test starts the real
// webdata-mock executable (WEBDATA_MOCK_EXE, built first) on a free port and talks to it over
// HTTP(S) and WebSocket only; what it configured in-process before is a command-line flag now,
// and what it changes at run time goes through the admin API (--admin). No SDK test links or
// includes the mock (the CTest check "sdk: tests see the mock only as a process").
//
// The integration sources are compiled three times: webdata_sdk_tests speaks plain HTTP (and ws),
// webdata_sdk_https_tests (built with WEBDATA_SDK_TESTS_TLS) speaks HTTPS (and wss) to a mock
// serving its own self-signed certificate, which the clients trust as their CA, and
// webdata_sdk_quirk_tests (WEBDATA_SDK_TESTS_MOCK_FAULT) runs them against a mock imitating a
// real deployment's quirk (`--inject-fault first-status-without-next`).
#pragma once

#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "spawned_mock.hpp"
#include "webdata/webdata.hpp"

#ifndef WEBDATA_MOCK_EXE
#error "WEBDATA_MOCK_EXE must name the webdata-mock executable (sdk/tests/CMakeLists.txt)"
#endif

namespace webdata::testing {

/// True in the HTTPS build of the tests.
constexpr bool kSdkTestsOverTls =
#ifdef WEBDATA_SDK_TESTS_TLS
    true;
#else
    false;
#endif

/// `webdata-mock --port 0 --quiet --admin FLAGS...` for one test (or one run of a section):
/// the admin API is on because tests drive stubs and settings through it. The mock must stop
/// cleanly (exit status 0 on SIGTERM): it runs under the tests' sanitizers, and a report of
/// theirs in it fails the test that started it, as it did when the mock ran in-process.
class SdkMock : public SpawnedMock {
 public:
  explicit SdkMock(std::vector<std::string> flags = {})
      : SpawnedMock(WEBDATA_MOCK_EXE, with_admin(std::move(flags))) {
    if (url().rfind("https://", 0) == 0 && certificate_file().empty()) {
      throw std::runtime_error("webdata-mock serves HTTPS but printed no certificate to trust");
    }
  }
  ~SdkMock() {
    const std::string problem = stop();
    // Not while a failed REQUIRE unwinds: that test has failed already.
    if (!problem.empty() && std::uncaught_exceptions() == 0) {
      FAIL_CHECK("webdata-mock (" << base_url() << ") stopped with " << problem
                                  << "; its stderr is in the test's output");
    }
  }
  SdkMock(const SdkMock&) = delete;
  SdkMock& operator=(const SdkMock&) = delete;

 private:
  static std::vector<std::string> with_admin(std::vector<std::string> flags) {
    flags.insert(flags.begin(), "--admin");
    return flags;
  }
};

/// `flags` for an SDK test's mock, with --tls-self-signed in the HTTPS build and the fault of the
/// quirk build.
inline std::vector<std::string> sdk_mock_flags(std::vector<std::string> flags = {}) {
  if (kSdkTestsOverTls) flags.emplace_back("--tls-self-signed");
#ifdef WEBDATA_SDK_TESTS_MOCK_FAULT
  flags.insert(flags.end(), {"--inject-fault", WEBDATA_SDK_TESTS_MOCK_FAULT});
#endif
  return flags;
}

/// --page-pacing: the mock's pause per scraped job page, so that a crawl is seen running.
inline std::vector<std::string> page_pacing(int milliseconds) {
  return {"--page-pacing", std::to_string(milliseconds)};
}

/// Client options for `mock` with `key`: in the HTTPS build, a curl transport that trusts the
/// mock's certificate (the watcher takes the same CA from it).
inline ClientOptions sdk_client_options(const SdkMock& mock, const std::string& key = "test-key") {
  ClientOptions options;
  options.api_url = mock.url();
  options.api_key = key;
  if (kSdkTestsOverTls) {
    CurlTransportOptions tls;
    tls.ca_file = mock.certificate_file();
    options.transport = make_curl_transport(std::move(tls));
  }
  return options;
}

/// What most integration tests start from (TEST_CASE_METHOD): a mock run with sdk_mock_flags()
/// and a v2 client of it with the test key (sdk_client_options()).
struct MockAndClient {
  SdkMock mock{sdk_mock_flags()};
  Client client{sdk_client_options(mock)};
};

/// The same with a v1 client.
struct MockAndV1Client {
  SdkMock mock{sdk_mock_flags()};
  v1::Client v1{sdk_client_options(mock)};
};

}  // namespace webdata::testing
