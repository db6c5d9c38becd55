// What a C++ user reaches for in the first hour: printing errors and states, comparing a state
// with its wire string, value_or, error() on a success, the failed job's reason, the request id
// of an error, Retry-After within the policy's cap, the short forms, and one implementation
// behind the v1 and v2 clients. That these lines compile is half of each test.
#include <catch2/catch.hpp>

#include <sstream>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "fakes.hpp"
#include "sdk_mock.hpp"
#include "webdata/webdata.hpp"

using nlohmann::json;
using webdata::testing::json_response;
using webdata::testing::MockAndClient;
using namespace std::chrono_literals;

namespace {

using Fixture = webdata::testing::FakeClientFixture;

template <class T>
std::string printed(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

const auto kStarted =
    json_response(200, R"({"success": true, "id": "j1", "url": "http://api.test:3002/x/j1"})");
const auto kScraped = json_response(200, R"({"success": true, "data": {"markdown": "# Hi"}})");
const auto kSearched = json_response(200, R"({"success": true, "data": {"web": []}})");
const auto kFailedJob = json_response(
    200, R"({"success": true, "status": "failed", "total": 1, "completed": 0, "creditsUsed": 0,)"
         R"( "error": "The start URL could not be reached", "data": []})");

}  // namespace

TEST_CASE("errors, error kinds and job states print with operator<<", "[ergonomics]") {
  webdata::Error error;
  error.kind = webdata::ErrorKind::kHttp;
  error.http_status = 429;
  error.code = "RATE_LIMIT";
  error.message = "slow down";
  CHECK(printed(error) == "HTTP 429 RATE_LIMIT: slow down");
  CHECK(printed(error.kind) == "http");
  CHECK(printed(webdata::ErrorKind::kInvalidArgument) == "invalid_argument");
  CHECK(std::string(webdata::to_string(webdata::ErrorKind::kTimeout)) == "timeout");

  webdata::Result<int> failed = error;
  CHECK(printed(failed.error()) == error.describe());

  webdata::JobStatus status;
  status.status = webdata::JobState("scraping");
  CHECK(printed(status.status) == "scraping");
  CHECK(printed(webdata::JobState("a-state-from-the-future")) == "a-state-from-the-future");
  CHECK(printed(webdata::ProxyMode::automatic()) == "auto");
  CHECK(printed(webdata::FormatType::raw_html()) == "rawHtml");
}

TEST_CASE("open enums compare with their wire string", "[ergonomics]") {
  webdata::JobStatus status;
  status.status = webdata::JobState::completed();
  CHECK(status.status == "completed");
  CHECK("completed" == status.status);
  CHECK(status.status != "failed");
  CHECK("failed" != status.status);
  CHECK(status.status == std::string("completed"));
  CHECK(status.status == std::string_view("completed"));
  CHECK(status.status == webdata::JobState::completed());
  std::optional<webdata::ProxyMode> proxy = webdata::ProxyMode::basic();
  CHECK(proxy == "basic");
}

TEST_CASE("Result: value_or, error() on a success, nodiscard", "[ergonomics]") {
  webdata::Error error;
  error.message = "no";
  webdata::Result<int> bad = error;
  webdata::Result<int> good = 5;
  CHECK(bad.value_or(7) == 7);
  CHECK(good.value_or(7) == 5);
  webdata::Result<std::string> text = std::string("kept");
  CHECK(text.value_or("fallback") == "kept");
  CHECK(webdata::Result<std::string>(error).value_or("fallback") == "fallback");
  CHECK(webdata::Result<webdata::JobStatus>(error).value_or({}).credits_used == 0);
  // The rvalue form moves the value out.
  CHECK(webdata::Result<std::string>(std::string(100, 'x')).value_or("").size() == 100);

  // Asking a success for its error is a bug of the caller: a clear exception, not UB.
  CHECK_THROWS_AS(good.error(), webdata::BadResultAccess);
  CHECK_THROWS_WITH(good.error(), Catch::Contains("check ok() first"));
  CHECK_THROWS_AS(webdata::Result<void>().error(), webdata::BadResultAccess);
  CHECK_NOTHROW(bad.error());
  static_assert(std::is_base_of_v<std::logic_error, webdata::BadResultAccess>);
  // [[nodiscard]] itself is checked by the compile test "sdk: ignoring a Result does not
  // compile" (sdk/tests/compile/); here only that (void) still silences it.
  (void)good;
}

TEST_CASE("a failed job's reason is JobStatus::error (and still in extras)", "[ergonomics]") {
  Fixture f;
  f.transport->push(kFailedJob);
  auto status = f.client().crawl_status("j1");
  REQUIRE(status.ok());
  CHECK(status->status == "failed");
  CHECK(status->error == "The start URL could not be reached");
  REQUIRE(status->extras.count("error") == 1);
  CHECK(status->extras.at("error").as_string() == "The start URL could not be reached");
  // Written back once, from the typed field.
  const auto text = webdata::to_json(*status).text();
  CHECK(json::parse(text).at("error") == "The start URL could not be reached");
  webdata::JobStatus edited = *status;
  edited.error = "edited";
  CHECK(json::parse(webdata::to_json(edited).text()).at("error") == "edited");
  // A status without one has none; a non-string one stays in extras only.
  f.transport->push(json_response(200, R"({"status": "completed", "data": []})"));
  CHECK_FALSE(f.client().crawl_status("j1")->error.has_value());
  f.transport->push(json_response(200, R"({"status": "failed", "error": {"why": 1}, "data": []})"));
  auto odd = f.client().crawl_status("j1");
  REQUIRE(odd.ok());
  CHECK_FALSE(odd->error.has_value());
  CHECK(odd->extras.at("error").is_object());
}

TEST_CASE_METHOD(MockAndClient, "a failed crawl of the mock reports its reason as JobStatus::error",
                 "[ergonomics][integration]") {
  auto status = client.crawl("http://nowhere.invalid/", {20ms, 30s, {}});
  REQUIRE(status.ok());
  CHECK(status->status == "failed");
  REQUIRE(status->error);
  CHECK_THAT(*status->error, Catch::Contains("could not be reached"));
}

TEST_CASE("an Error carries the answer's request id and headers", "[ergonomics]") {
  SECTION("x-request-id") {
    Fixture f;
    f.transport->push(json_response(400, R"({"success": false, "error": "Bad Request"})",
                                    {{"X-Request-Id", "req-42"}, {"X-Extra", "1"}}));
    auto res = f.client().scrape("https://a.test");
    REQUIRE_FALSE(res.ok());
    CHECK(res.error().request_id == "req-42");
    CHECK(webdata::find_header(res.error().headers, "x-extra") == "1");
    CHECK(res.error().describe() == "HTTP 400: Bad Request (request id req-42)");
  }
  SECTION("cf-ray when that is all there is; an unparseable 2xx keeps them too") {
    Fixture f;
    f.transport->push(json_response(200, "{not json", {{"CF-RAY", "8a1b-FRA"}}));
    f.transport->push(json_response(200, "not json", {{"CF-RAY", "8a1b-FRA"}}));
    auto res = f.client().search("q");
    REQUIRE_FALSE(res.ok());
    CHECK(res.error().kind == webdata::ErrorKind::kParse);
    CHECK(res.error().request_id == "8a1b-FRA");
    auto text = f.client().search("q");
    REQUIRE_FALSE(text.ok());
    CHECK(text.error().kind == webdata::ErrorKind::kNotJson);
    CHECK(text.error().request_id == "8a1b-FRA");
  }
  SECTION("none") {
    Fixture f;
    f.transport->push(json_response(404, R"({"success": false, "error": "Job not found"})"));
    auto res = f.client().crawl_status("j1");
    REQUIRE_FALSE(res.ok());
    CHECK(res.error().request_id.empty());
    CHECK(webdata::find_header(res.error().headers, "content-type") == "application/json");
  }
}

TEST_CASE("Retry-After is honoured up to the policy's max_backoff", "[ergonomics][retry]") {
  Fixture f;
  auto options = f.options();
  options.retry.max_backoff = 5s;
  const webdata::Client client(options);
  SECTION("delta-seconds") {
    f.transport->push(json_response(429, "{}", {{"Retry-After", "3600"}}));
    f.transport->push(kScraped);
    REQUIRE(client.scrape("https://a.test").ok());
    CHECK(f.clock->sleeps() == std::vector<std::chrono::milliseconds>{5000ms});
  }
  SECTION("an HTTP date a day ahead") {
    f.transport->push(
        json_response(503, "{}", {{"Retry-After", "Fri, 31 Dec 2100 23:59:59 GMT"}}));
    f.transport->push(kScraped);
    REQUIRE(client.scrape("https://a.test").ok());
    CHECK(f.clock->sleeps() == std::vector<std::chrono::milliseconds>{5000ms});
  }
  SECTION("a shorter wish is kept") {
    f.transport->push(json_response(429, "{}", {{"Retry-After", "2"}}));
    f.transport->push(kScraped);
    REQUIRE(client.scrape("https://a.test").ok());
    CHECK(f.clock->sleeps() == std::vector<std::chrono::milliseconds>{2000ms});
  }
}

TEST_CASE("short forms send what the long forms send", "[ergonomics][client]") {
  Fixture f;
  const auto client = f.client();
  const webdata::v1::Client v1(f.options());
  auto body = [&](std::size_t i) { return json::parse(f.transport->requests().at(i).body); };

  f.transport->push(kScraped);
  REQUIRE(client.scrape("https://a.test", {webdata::Format::markdown, webdata::Format::links}).ok());
  CHECK(body(0) == json{{"url", "https://a.test"}, {"formats", {"markdown", "links"}}});
  f.transport->push(kScraped);
  REQUIRE(client.scrape("https://a.test").ok());
  CHECK(body(1) == json{{"url", "https://a.test"}});  // no formats: the service default
  f.transport->push(kScraped);
  REQUIRE(client.scrape("https://a.test", {"markdown", webdata::FormatEntry::screenshot(true)}).ok());
  CHECK(body(2).at("formats") ==
        json::array({"markdown", {{"type", "screenshot"}, {"fullPage", true}}}));

  f.transport->push(kStarted);
  REQUIRE(client.start_crawl("https://a.test").ok());
  CHECK(body(3) == json{{"url", "https://a.test"}});
  f.transport->push(kSearched);
  REQUIRE(client.search("site:a.test pool").ok());
  CHECK(body(4) == json{{"query", "site:a.test pool"}});
  f.transport->push(kStarted);
  REQUIRE(client.start_batch_scrape({"https://a.test", "https://b.test"}).ok());
  CHECK(body(5) == json{{"urls", {"https://a.test", "https://b.test"}}});

  f.transport->push(kScraped);
  REQUIRE(v1.scrape("https://a.test", {webdata::Format::markdown, "screenshot@fullPage"}).ok());
  CHECK(body(6) == json{{"url", "https://a.test"}, {"formats", {"markdown", "screenshot@fullPage"}}});
  f.transport->push(kStarted);
  REQUIRE(v1.start_crawl("https://a.test").ok());
  f.transport->push(json_response(200, R"({"success": true, "data": []})"));
  REQUIRE(v1.search("q").ok());

  const auto sent = f.transport->requests();
  const std::vector<std::string> paths = {"/v2/scrape", "/v2/scrape", "/v2/scrape",
                                          "/v2/crawl",  "/v2/search", "/v2/batch/scrape",
                                          "/v1/scrape", "/v1/crawl",  "/v1/search"};
  REQUIRE(sent.size() == paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i)
    CHECK(webdata::testing::path_of(sent[i].url) == paths[i]);
}

TEST_CASE("the v1 and v2 clients are one implementation with the version's paths",
          "[ergonomics][client]") {
  // Every endpoint both versions have, called on each: same requests, only the prefix differs.
  for (auto version : {webdata::ApiVersion::kV1, webdata::ApiVersion::kV2}) {
    Fixture f;
    f.transport->push(kScraped);          // scrape
    f.transport->push(kStarted);          // start_crawl
    f.transport->push(kFailedJob);        // crawl_status
    f.transport->push(json_response(200, R"({"status": "cancelled"})"));  // cancel_crawl
    f.transport->push(json_response(200, R"({"errors": [], "robotsBlocked": []})"));
    f.transport->push(kStarted);          // start_batch_scrape
    f.transport->push(kFailedJob);        // batch_scrape_status
    f.transport->push(json_response(200, R"({"success": true, "crawls": []})"));
    f.transport->push(version == webdata::ApiVersion::kV1
                          ? json_response(200, R"({"success": true, "data": []})")
                          : kSearched);
    auto calls = [&](const auto& client) {
      REQUIRE(client.scrape("https://a.test").ok());
      REQUIRE(client.start_crawl("https://a.test")->id() == "j1");
      REQUIRE(client.crawl_status("j1")->error == "The start URL could not be reached");
      REQUIRE(client.cancel_crawl("j1").value() == "cancelled");
      REQUIRE(client.crawl_errors("j1").ok());
      REQUIRE(client.start_batch_scrape({"https://a.test"}).ok());
      REQUIRE(client.batch_scrape_status("j1").ok());
      REQUIRE(client.active_crawls().ok());
      REQUIRE(client.search("q").ok());
    };
    if (version == webdata::ApiVersion::kV1) {
      calls(webdata::v1::Client(f.options()));
    } else {
      calls(webdata::Client(f.options()));
    }
    const std::string v = std::string("/") + webdata::to_string(version);
    const std::vector<std::string> expected = {
        v + "/scrape",           v + "/crawl",       v + "/crawl/j1",
        v + "/crawl/j1",         v + "/crawl/j1/errors", v + "/batch/scrape",
        v + "/batch/scrape/j1",  v + "/crawl/active", v + "/search"};
    const auto sent = f.transport->requests();
    REQUIRE(sent.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
      CHECK(webdata::testing::path_of(sent[i].url) == expected[i]);
    CHECK(sent[3].method == "DELETE");
  }
}

TEST_CASE_METHOD(MockAndClient, "the short forms against the mock", "[ergonomics][integration]") {
  auto doc = client.scrape("https://docs.example.test/getting-started/quickstart",
                           {webdata::Format::markdown});
  REQUIRE(doc.ok());
  CHECK_THAT(doc->metadata.title.value_or(""), Catch::StartsWith("Quickstart"));
  CHECK_FALSE(doc->markdown.value_or("").empty());

  auto crawled = client.crawl("http://pages-3.synthetic.test/", {20ms, 60s, {}});
  REQUIRE(crawled.ok());
  CHECK(crawled->status == "completed");
  CHECK(crawled->data.size() == 3);
  CHECK_FALSE(crawled->error);

  auto found = client.search("quickstart");
  REQUIRE(found.ok());
  REQUIRE(found->web);
  CHECK_FALSE(found->web->empty());
}
