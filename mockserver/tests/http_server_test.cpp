#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/buffers.hpp"
#include "http/message.hpp"
#include "mock_fixture.hpp"
#include "raw_http.hpp"
#include "webdata/transport.hpp"

using webdata::testing::RunningMock;
using json = nlohmann::json;

namespace {

webdata::HttpResponse get(const std::string& url, const std::string& method = "GET",
                          std::string body = "") {
  static auto transport = webdata::make_curl_transport();
  webdata::HttpRequest req;
  req.method = method;
  req.url = url;
  req.body = std::move(body);
  if (!req.body.empty()) req.headers.emplace_back("Content-Type", "application/json");
  auto res = transport->send(req);
  REQUIRE(res.ok());
  return res.value();
}

}  // namespace

TEST_CASE("health answers JSON", "[http]") {
  RunningMock mock;
  const auto res = get(mock.url("/health"));
  CHECK(res.status == 200);
  CHECK(res.header("content-type") == "application/json");
  const auto body = json::parse(res.body);
  CHECK(body["status"] == "ok");
}

TEST_CASE("unknown route answers a JSON 404", "[http]") {
  RunningMock mock;
  const auto res = get(mock.url("/nope/at/all"));
  CHECK(res.status == 404);
  const auto body = json::parse(res.body);
  CHECK(body["success"] == false);
  CHECK(body["error"].get<std::string>().find("/nope/at/all") != std::string::npos);
}

TEST_CASE("wrong method answers a JSON 405 with Allow", "[http]") {
  RunningMock mock;
  const auto res = get(mock.url("/health"), "DELETE");
  CHECK(res.status == 405);
  CHECK(res.header("allow") == "GET");
  CHECK(json::parse(res.body)["success"] == false);
}

TEST_CASE("a body over the limit answers 413", "[http]") {
  auto config = RunningMock::quiet_config();
  config.server.body_limit = 1024;
  RunningMock mock(config);
  const auto res = get(mock.url("/health"), "POST", std::string(4096, 'x'));
  CHECK(res.status == 413);
  const auto body = json::parse(res.body);
  CHECK(body["code"] == "BAD_REQUEST");
}

TEST_CASE("malformed HTTP answers 400 and the server stays up", "[http]") {
  RunningMock mock;
  const auto reply = webdata::testing::raw_exchange(mock.server().port(),
                                                    "GET /health HTTP/1.1\r\nBad Header\r\n\r\n");
  CHECK(reply.rfind("HTTP/1.1 400", 0) == 0);
  CHECK(get(mock.url("/health")).status == 200);
}

TEST_CASE("a negative Content-Length is refused, not waited on", "[http]") {
  RunningMock mock;
  const auto reply = webdata::testing::raw_exchange(
      mock.server().port(), "POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n");
  CHECK(reply.rfind("HTTP/1.1 400", 0) == 0);
}

TEST_CASE("oversized headers answer 431", "[http]") {
  auto config = RunningMock::quiet_config();
  config.server.header_limit = 2048;
  RunningMock mock(config);
  const auto reply = webdata::testing::raw_exchange(
      mock.server().port(),
      "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(4096, 'a') + "\r\n\r\n");
  CHECK(reply.rfind("HTTP/1.1 431", 0) == 0);
}

TEST_CASE("keep-alive serves several requests on one connection", "[http]") {
  RunningMock mock;
  const std::string one = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n";
  const std::string last = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  const auto reply = webdata::testing::raw_exchange(mock.server().port(), one + one + last);
  std::size_t count = 0;
  for (auto pos = reply.find("HTTP/1.1 200"); pos != std::string::npos;
       pos = reply.find("HTTP/1.1 200", pos + 1)) {
    ++count;
  }
  CHECK(count == 3);
}

TEST_CASE("an idle connection is closed after the header timeout", "[http]") {
  auto config = RunningMock::quiet_config();
  config.server.header_timeout = std::chrono::milliseconds(200);
  RunningMock mock(config);
  const auto start = std::chrono::steady_clock::now();
  // A partial header that never completes: the server must give up, not hold the connection.
  const auto reply = webdata::testing::raw_exchange(mock.server().port(), "GET /health HTTP/1.1\r\n",
                                                    std::chrono::seconds(5));
  const auto waited = std::chrono::steady_clock::now() - start;
  CHECK(reply.empty());
  CHECK(waited < std::chrono::seconds(4));
}

TEST_CASE("stop finishes promptly with idle keep-alive connections open", "[http]") {
  auto mock = std::make_unique<RunningMock>();
  namespace net = boost::asio;
  net::io_context ioc;
  net::ip::tcp::socket idle(ioc);
  idle.connect({net::ip::make_address("127.0.0.1"), mock->server().port()});
  const auto start = std::chrono::steady_clock::now();
  mock.reset();
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));
}

TEST_CASE("large response bodies are built in recycled, resident buffers", "[http][buffers]") {
  using webdata::mock::LargeBuffers;
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  LargeBuffers::clear();

  // Small bodies never touch the pool.
  std::string small = LargeBuffers::take(1000);
  CHECK(small.empty());
  CHECK(small.capacity() >= 1000);
  LargeBuffers::recycle(std::move(small));
  CHECK(LargeBuffers::pooled() == 0);

  // A written large body comes back and serves the next one of about its size.
  std::string body = LargeBuffers::take(10 * kMiB + 123);
  CHECK(body.capacity() >= 10 * kMiB + 123);
  body.assign(10 * kMiB, 'x');
  const char* pages = body.data();
  LargeBuffers::recycle(std::move(body));
  CHECK(LargeBuffers::pooled() == 1);
  std::string again = LargeBuffers::take(10 * kMiB + 4567);  // a few bytes more: same buffer
  CHECK(again.data() == pages);
  CHECK(again.empty());
  CHECK(LargeBuffers::pooled() == 0);

  // A request larger than every pooled buffer gets a new one and leaves the pool alone.
  LargeBuffers::recycle(std::move(again));
  std::string bigger = LargeBuffers::take(20 * kMiB);
  CHECK(bigger.capacity() >= 20 * kMiB);
  CHECK(LargeBuffers::pooled() == 1);

  // Bounded: at most kMaxBuffers kept, the larger ones win; oversized ones are freed.
  std::vector<std::string> many;
  for (int i = 0; i < 6; ++i) many.push_back(LargeBuffers::take(2 * kMiB));
  for (auto& b : many) LargeBuffers::recycle(std::move(b));
  LargeBuffers::recycle(std::move(bigger));
  CHECK(LargeBuffers::pooled() == LargeBuffers::kMaxBuffers);
  std::string huge;
  huge.reserve(LargeBuffers::kMaxCapacity + kMiB);
  LargeBuffers::recycle(std::move(huge));
  CHECK(LargeBuffers::pooled() == LargeBuffers::kMaxBuffers);
  CHECK(LargeBuffers::take(20 * kMiB).capacity() >= 20 * kMiB);
  CHECK(LargeBuffers::take(10 * kMiB).capacity() >= 10 * kMiB);

  // prefault() tops the pool up to the count asked for, no further.
  LargeBuffers::clear();
  LargeBuffers::prefault(10 * kMiB, 2);
  CHECK(LargeBuffers::pooled() == 2);
  LargeBuffers::prefault(10 * kMiB, 2);
  CHECK(LargeBuffers::pooled() == 2);
  CHECK(LargeBuffers::take(10 * kMiB + 64 * 1024).capacity() >= 10 * kMiB);
  CHECK(LargeBuffers::pooled() == 1);
  LargeBuffers::clear();
}
