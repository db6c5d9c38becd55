#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "sdk_mock.hpp"
#include "webdata/transport.hpp"

using webdata::testing::SdkMock;

namespace {

/// A GET of `url` through `transport`.
webdata::Result<webdata::HttpResponse> fetch(webdata::Transport& transport,
                                             const std::string& url) {
  webdata::HttpRequest req;
  req.url = url;
  return transport.send(req);
}

}  // namespace

TEST_CASE("curl transport exchanges with a real server", "[transport]") {
  SdkMock mock;
  auto res = fetch(*webdata::make_curl_transport(), mock.url("/health"));
  REQUIRE(res.ok());
  CHECK(res->status == 200);
  CHECK(res->header("Content-Type") == "application/json");
  CHECK(res->body.find("\"ok\"") != std::string::npos);
}

TEST_CASE("HTTP errors are responses, not transport errors", "[transport]") {
  SdkMock mock;
  auto res = fetch(*webdata::make_curl_transport(), mock.url("/missing"));
  REQUIRE(res.ok());
  CHECK(res->status == 404);
}

TEST_CASE("a refused connection is a retryable transport error", "[transport]") {
  std::string url;
  {
    SdkMock mock;
    url = mock.url("/health");
  }  // stopped: nothing listens on that port any more
  auto res = fetch(*webdata::make_curl_transport(), url);
  REQUIRE_FALSE(res.ok());
  CHECK(res.error().kind == webdata::ErrorKind::kTransport);
  CHECK(res.error().retryable);
}

TEST_CASE("a response over the size limit is an error", "[transport]") {
  SdkMock mock;
  webdata::CurlTransportOptions options;
  options.max_response_bytes = 8;
  auto res = fetch(*webdata::make_curl_transport(options), mock.url("/health"));
  REQUIRE_FALSE(res.ok());
  CHECK(res.error().message.find("limit") != std::string::npos);
}

TEST_CASE("one transport is safe to share across threads", "[transport]") {
  SdkMock mock;
  auto transport = webdata::make_curl_transport();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        auto res = fetch(*transport, mock.url("/health"));
        if (res.ok() && res->status == 200) ++ok;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(ok == 100);
}
