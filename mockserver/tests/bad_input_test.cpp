// The bad-input table of docs/reliability.md, rows not already covered by api_test.cpp,
// http_server_test.cpp and jobs_api_test.cpp: each answer has its documented status and a clear
// message, the server stays up, and other clients are not held up beyond a generous bound.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio.hpp>

#include "api_client.hpp"
#include "mock_fixture.hpp"
#include "raw_http.hpp"

using webdata::testing::ApiClient;
using webdata::testing::ApiReply;
using webdata::testing::RunningMock;
using json = nlohmann::json;
namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {

// "Not delayed" means well under this on a loaded CI machine under sanitizers; a server that
// serialises clients behind a stuck one takes the full header timeout (or forever).
constexpr auto kBound = std::chrono::seconds(5);

/// A successful /health answer, and how long it took.
std::chrono::milliseconds timed_health(const ApiClient& api) {
  const auto start = Clock::now();
  const auto r = api.get("/health");
  CHECK(r.status == 200);
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

/// The service's `error` with Zod issues in `details`; the mock's `hint` names what is wrong.
void expect_bad_request(const ApiReply& r, const std::string& mentions,
                        const std::string& error = "Bad Request") {
  CHECK(r.status == 400);
  CHECK(r.body.is_object());
  CHECK(r.body.value("success", true) == false);
  CHECK(r.body.value("code", "") == "BAD_REQUEST");
  CHECK(r.body.value("error", "") == error);
  CHECK(r.body["details"].is_array());
  const std::string hint = r.body.value("hint", "");
  INFO("hint: " << hint);
  CHECK(hint.find(mentions) != std::string::npos);
}

std::string nested(char open, char close, std::size_t depth, const std::string& inner = "") {
  return std::string(depth, open) + inner + std::string(depth, close);
}

net::ip::tcp::endpoint endpoint(RunningMock& mock) {
  return {net::ip::make_address("127.0.0.1"), mock.server().port()};
}

/// Raises the descriptor soft limit towards `wanted` (the hard limit caps it); returns the limit.
rlim_t raise_fd_limit(rlim_t wanted) {
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur < wanted) {
    limit.rlim_cur = std::min(wanted, limit.rlim_max);
    setrlimit(RLIMIT_NOFILE, &limit);
    getrlimit(RLIMIT_NOFILE, &limit);
  }
  return limit.rlim_cur;
}

}  // namespace

TEST_CASE("an empty or blank body is a request without fields", "[bad-input]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  for (const std::string body : {"", "  \r\n\t "}) {
    const auto r = api.post_text("/v2/scrape", body);
    expect_bad_request(r, "url");
    REQUIRE(r.body["details"].is_array());
    CHECK(r.body["details"][0]["path"] == json::array({"url"}));
  }
  expect_bad_request(api.post_text("/v2/batch/scrape", ""), "urls");
  expect_bad_request(api.post_text("/v1/crawl", ""), "url");
}

TEST_CASE("a 50 MB body is refused with 413 without being read", "[bad-input][limits]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const std::size_t fifty_mb = 50u * 1024 * 1024;

  SECTION("declared by Content-Length: refused from the header alone") {
    const auto reply = webdata::testing::raw_exchange(
        mock.server().port(),
        "POST /v2/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-key\r\n"
        "Content-Type: application/json\r\nContent-Length: " +
            std::to_string(fifty_mb) + "\r\n\r\n{\"url\":");
    REQUIRE(reply.rfind("HTTP/1.1 413", 0) == 0);
    const auto body = json::parse(reply.substr(reply.find("\r\n\r\n") + 4), nullptr, false);
    REQUIRE(body.is_object());
    CHECK(body["code"] == "BAD_REQUEST");
    CHECK(body["error"].get<std::string>().find("10485760") != std::string::npos);
  }
  SECTION("streamed in chunks: the server stops reading soon after the limit") {
    net::io_context ioc;
    net::ip::tcp::socket socket(ioc);
    socket.connect(endpoint(mock));
    net::write(socket, net::buffer(std::string(
                           "POST /v2/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-key\r\n"
                           "Transfer-Encoding: chunked\r\n\r\n")));
    const std::string chunk_data(64 * 1024, ' ');
    const std::string chunk = "10000\r\n" + chunk_data + "\r\n";
    std::size_t sent = 0;
    std::string reply;
    socket.non_blocking(true);
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    boost::system::error_code ec;
    std::size_t offset = 0;  // within the current chunk
    while (sent < fifty_mb && Clock::now() < deadline) {
      const std::size_t n = socket.write_some(net::buffer(chunk.data() + offset, chunk.size() - offset), ec);
      if (ec == net::error::would_block) {
        char buf[4096];
        const std::size_t got = socket.read_some(net::buffer(buf), ec);
        if (!ec) reply.append(buf, got);
        if (ec && ec != net::error::would_block) break;
        if (!reply.empty()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      if (ec) break;  // reset or broken pipe: the server closed after answering
      sent += n;
      offset = (offset + n) % chunk.size();
    }
    INFO("bytes sent before the server stopped reading: " << sent);
    // Kernel buffers on both sides hold a few MB at most; the server read up to its 10 MiB limit.
    CHECK(sent < 30u * 1024 * 1024);
    if (!reply.empty()) CHECK(reply.rfind("HTTP/1.1 413", 0) == 0);
  }
  CHECK(timed_health(api) < kBound);
}

TEST_CASE("deeply nested JSON is refused with a limit, not a crash", "[bad-input][limits]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const std::size_t depth = 100000;
  SECTION("in an unknown field") {
    const auto r = api.post_text(
        "/v2/scrape", "{\"url\":\"https://docs.example.test/\",\"bogus\":" + nested('[', ']', depth) + "}");
    expect_bad_request(r, "nested deeper than 256");
    CHECK(r.body["details"][0]["code"] == "too_big");
  }
  SECTION("as a json format schema (which the extractor would walk)") {
    std::string schema;
    for (std::size_t i = 0; i < depth; ++i) schema += "{\"type\":\"object\",\"properties\":{\"a\":";
    schema += "{\"type\":\"string\"}";
    for (std::size_t i = 0; i < depth; ++i) schema += "}}";
    const auto r = api.post_text("/v2/scrape",
                                 "{\"url\":\"https://docs.example.test/\",\"formats\":[{\"type\":"
                                 "\"json\",\"schema\":" + schema + "}]}");
    expect_bad_request(r, "nested deeper than 256");
  }
  SECTION("as a whole body, on every endpoint") {
    for (const std::string path : {"/v1/scrape", "/v2/crawl", "/v2/batch/scrape", "/v2/search"}) {
      INFO(path);
      // v2 search says it in its own words.
      expect_bad_request(api.post_text(path, nested('[', ']', depth)), "nested deeper",
                         path == "/v2/search" ? "Invalid request body" : "Bad Request");
    }
  }
  SECTION("below the limit, the validator names the field as usual") {
    const auto r = api.post_text(
        "/v2/scrape", "{\"url\":\"https://docs.example.test/\",\"timeout\":" + nested('[', ']', 200) + "}");
    expect_bad_request(r, "timeout");
  }
  CHECK(timed_health(api) < kBound);
}

TEST_CASE("invalid UTF-8 is refused as malformed JSON, and echoed paths stay valid JSON",
          "[bad-input]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const auto r = api.post_text("/v2/scrape", "{\"url\":\"https://docs.example.test/\xff\xfe\"}");
  CHECK(r.status == 400);
  CHECK(r.body["code"] == "BAD_REQUEST_INVALID_JSON");
  // A raw invalid byte in the path: the 404 names the path, and its body still parses.
  const auto reply = webdata::testing::raw_exchange(
      mock.server().port(), "GET /v2/\xff\xc0/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  REQUIRE(reply.rfind("HTTP/1.1 404", 0) == 0);
  const auto body = json::parse(reply.substr(reply.find("\r\n\r\n") + 4), nullptr, false);
  CHECK_FALSE(body.is_discarded());
  // In an idempotency key header (checked after validation): a clear 400.
  const auto key = api.post("/v2/scrape", {{"url", "http://nowhere.invalid/"}},
                            {{"x-idempotency-key", "\xff\xfe-not-a-uuid"}});
  CHECK(key.status == 400);
  CHECK_FALSE(key.body.is_null());
}

TEST_CASE("huge arrays of URLs and very long URLs are refused with a limit", "[bad-input][limits]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  json urls = json::array();
  for (int i = 0; i < 10001; ++i) urls.push_back("https://docs.example.test/p" + std::to_string(i));
  const auto batch = api.post("/v2/batch/scrape", {{"urls", urls}});
  expect_bad_request(batch, "10000");
  CHECK(batch.body["details"][0]["code"] == "too_big");
  CHECK(batch.body["details"][0]["path"] == json::array({"urls"}));
  // The limit is inclusive: 10,000 is a (large) valid batch... of invalid URLs, all dropped.
  json many_invalid = json::array();
  for (int i = 0; i < 10000; ++i) many_invalid.push_back("not a url " + std::to_string(i));
  const auto at_limit = api.post("/v2/batch/scrape", {{"urls", many_invalid}});
  CHECK(at_limit.status == 200);
  CHECK(at_limit.body["invalidURLs"].size() == 10000);

  const std::string long_url = "https://docs.example.test/" + std::string(9000, 'a');
  const auto scrape = api.post("/v2/scrape", {{"url", long_url}});
  expect_bad_request(scrape, "8192");
  CHECK(scrape.body["details"][0]["path"] == json::array({"url"}));
  const auto in_batch = api.post("/v1/batch/scrape", {{"urls", {"https://a.test/", long_url}}});
  expect_bad_request(in_batch, "urls.1");
  expect_bad_request(api.post("/v2/crawl", {{"url", long_url}}), "8192");
  CHECK(timed_health(api) < kBound);
}

TEST_CASE("invalid URLs and non-web schemes are refused", "[bad-input]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  for (const std::string url :
       {"file:///etc/passwd", "ftp://ftp.example.com/x", "javascript:alert(1)", "not a url", "",
        "http://", "data:text/html,<h1>x</h1>", "gopher://a.test/", "//docs.example.test/"}) {
    INFO("url: " << url);
    for (const char* path : {"/v2/scrape", "/v1/scrape", "/v2/crawl", "/v1/crawl"}) {
      INFO("endpoint: " << path);
      const auto r = api.post(path, {{"url", url}});
      CHECK(r.status == 400);
      CHECK(r.body.value("success", true) == false);
      CHECK(r.body.value("code", "") == "BAD_REQUEST");
    }
  }
  const auto batch = api.post("/v2/batch/scrape",
                              {{"urls", {"file:///etc/passwd", "javascript:alert(1)"}},
                               {"ignoreInvalidURLs", false}});
  CHECK(batch.status == 400);
  // Each URL gets its own issues.
  std::set<json> paths;
  for (const auto& issue : batch.body["details"]) paths.insert(issue["path"]);
  CHECK(paths == std::set<json>{json({"urls", 0}), json({"urls", 1})});
}

TEST_CASE("invalid regexes in crawl paths are refused, each one named", "[bad-input]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  // includePaths "(unclosed" is in jobs_api_test.cpp; here the other fields and v1.
  const auto exclude = api.post("/v2/crawl", {{"url", "https://docs.example.test/"},
                                              {"excludePaths", {"ok/.*", "[z-a]"}}});
  CHECK(exclude.status == 400);
  CHECK(exclude.body["error"].get<std::string>().find("[z-a]") != std::string::npos);
  const auto v1 = api.post("/v1/crawl", {{"url", "https://docs.example.test/"},
                                         {"includePaths", {"a{2,1}"}}});
  CHECK(v1.status == 400);
  CHECK(v1.body["error"].get<std::string>().find("a{2,1}") != std::string::npos);
}

TEST_CASE("job ids that are not UUIDs answer 404", "[bad-input]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  for (const std::string& id : std::vector<std::string>{"not-a-uuid", "..%2F..%2Fetc%2Fpasswd", "%00", std::string(5000, 'a')}) {
    INFO("id: " << id);
    for (const std::string prefix : {"/v2/crawl/", "/v1/batch/scrape/"}) {
      const auto r = api.get(prefix + id);
      CHECK(r.status == 404);
      CHECK(r.body.value("success", true) == false);
      CHECK_FALSE(r.body.value("error", "").empty());
      CHECK(api.del(prefix + id).status == 404);
    }
  }
}

TEST_CASE("garbled Authorization headers answer 401", "[bad-input][auth]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const json body = {{"url", "http://nowhere.invalid/"}};
  for (const std::string& value : std::vector<std::string>{
           "Basic dGVzdC1rZXk6", "bearer", "Bearer  ", "Bearertest-key", "Token test-key",
        "Bearer test-key extra", "Bearer " + std::string(8000, 'k'), "Bearer \xff\xfe"}) {
    INFO("Authorization: " << value);
    const auto r = api.post("/v2/scrape", body, {{"Authorization", value}});
    CHECK(r.status == 401);
    CHECK(r.body.value("error", "").rfind("Unauthorized", 0) == 0);
  }
  CHECK(api.get("/v2/crawl/active").status == 200);  // the real key still works
}

TEST_CASE("slowloris: a trickled header is cut off at the header timeout, others are served",
          "[bad-input][slow]") {
  auto config = RunningMock::quiet_config();
  config.server.header_timeout = std::chrono::milliseconds(1000);
  RunningMock mock(config);
  const ApiClient api(mock.url());
  constexpr int kSlow = 16;
  std::atomic<int> cut_off{0};
  std::atomic<long long> longest_ms{0};
  std::vector<std::thread> slow;
  for (int i = 0; i < kSlow; ++i) {
    slow.emplace_back([&] {
      net::io_context ioc;
      net::ip::tcp::socket socket(ioc);
      socket.connect(endpoint(mock));
      const std::string header = "GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ";
      const auto start = Clock::now();
      boost::system::error_code ec;
      // One byte every 50 ms, for up to 10 s: never a complete header.
      for (int n = 0; n < 200 && !ec; ++n) {
        const char c = n < static_cast<int>(header.size()) ? header[n] : 'a';
        net::write(socket, net::buffer(&c, 1), ec);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (socket.available(ec) > 0 || ec) break;
        // A closed peer shows as a readable EOF: poll without blocking.
        socket.non_blocking(true);
        char b;
        socket.read_some(net::buffer(&b, 1), ec);
        socket.non_blocking(false);
        if (ec == net::error::would_block) ec = {};
      }
      const auto ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
      if (ec) ++cut_off;
      long long prev = longest_ms.load();
      while (ms > prev && !longest_ms.compare_exchange_weak(prev, ms)) {
      }
    });
  }
  // A fixed wait, with its reason: the 16 trickling clients have connected and sent their first
  // bytes (the server counts no half-read header anywhere a test could wait on).
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::chrono::milliseconds worst{0};
  for (int i = 0; i < 10; ++i) {
    worst = std::max(worst, timed_health(api));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (auto& t : slow) t.join();
  CHECK(worst < kBound);
  CHECK(cut_off == kSlow);
  INFO("longest slow connection: " << longest_ms.load() << " ms");
  CHECK(longest_ms.load() < 8000);  // 1 s timeout, far from the 10 s the client would go on for
}

TEST_CASE("1,000 idle connections held open do not delay other clients", "[bad-input][slow]") {
  constexpr std::size_t kIdle = 1000;
  const rlim_t fds = raise_fd_limit(4 * kIdle);
  // Client and server ends of each connection live in this process.
  REQUIRE(fds >= 2 * kIdle + 200);
  RunningMock mock;
  const ApiClient api(mock.url());
  net::io_context ioc;
  std::vector<std::unique_ptr<net::ip::tcp::socket>> idle;
  idle.reserve(kIdle);
  for (std::size_t i = 0; i < kIdle; ++i) {
    auto socket = std::make_unique<net::ip::tcp::socket>(ioc);
    socket->connect(endpoint(mock));
    if (i % 2 == 1) net::write(*socket, net::buffer(std::string("GET /health HTTP/1.1\r\n")));
    idle.push_back(std::move(socket));
  }
  std::chrono::milliseconds worst{0};
  for (int i = 0; i < 10; ++i) worst = std::max(worst, timed_health(api));
  CHECK(worst < kBound);
  const auto scrape = api.post("/v2/scrape", {{"url", "https://docs.example.test/"}});
  CHECK(scrape.status == 200);
  // Every idle connection is still open (no one was dropped to make room), and still usable.
  const std::string request = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  net::write(*idle.front(), net::buffer(request));
  std::string reply;
  boost::system::error_code ec;
  net::read(*idle.front(), net::dynamic_buffer(reply), ec);
  CHECK(reply.rfind("HTTP/1.1 200", 0) == 0);
  idle.clear();
  CHECK(timed_health(api) < kBound);
}
