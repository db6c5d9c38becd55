// How the SDK's integration tests reach the in-process mock. The same test sources are compiled
// twice: webdata_sdk_tests speaks plain HTTP (and ws), webdata_sdk_https_tests (built with
// WEBDATA_SDK_TESTS_TLS) speaks HTTPS (and wss) to a mock serving its own self-signed
// certificate, which the clients trust as their CA. Everything else is the same code path.
#pragma once

#include <string>

#include "mock_fixture.hpp"
#include "webdata/webdata.hpp"

namespace webdata::testing {

/// True in the HTTPS build of the tests.
constexpr bool kSdkTestsOverTls =
#ifdef WEBDATA_SDK_TESTS_TLS
    true;
#else
    false;
#endif

/// The mock's configuration for an SDK test: `base` (quiet by default), over TLS in the HTTPS build.
inline mock::Config sdk_mock_config(mock::Config base = RunningMock::quiet_config()) {
  if (kSdkTestsOverTls) base.server.tls.self_signed = true;
  return base;
}

/// Client options for `mock` with `key`: in the HTTPS build, a curl transport that trusts the
/// mock's certificate (the watcher takes the same CA from it).
inline ClientOptions sdk_client_options(RunningMock& mock, const std::string& key = "test-key") {
  ClientOptions options;
  options.api_url = mock.url();
  options.api_key = key;
  if (kSdkTestsOverTls) {
    CurlTransportOptions tls;
    tls.ca_file = mock.server().certificate_file();
    options.transport = make_curl_transport(std::move(tls));
  }
  return options;
}

}  // namespace webdata::testing
