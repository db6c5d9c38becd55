#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <thread>

#include <nlohmann/json.hpp>

#include "fakes.hpp"
#include "webdata/webdata.hpp"

using nlohmann::json;
using webdata::testing::connection_refused;
using webdata::testing::FakeClock;
using webdata::testing::FakeTransport;
using webdata::testing::json_response;
using webdata::testing::path_of;
using namespace std::chrono_literals;

namespace {

using Fixture = webdata::testing::FakeClientFixture;
constexpr const char* kBase = webdata::testing::kFakeApi;

std::string query_param(const std::string& url, const std::string& name) {
  const auto q = url.find('?');
  if (q == std::string::npos) return "";
  std::string rest = url.substr(q + 1);
  while (!rest.empty()) {
    const auto amp = rest.find('&');
    const std::string pair = rest.substr(0, amp);
    const auto eq = pair.find('=');
    if (pair.substr(0, eq) == name) return eq == std::string::npos ? "" : pair.substr(eq + 1);
    if (amp == std::string::npos) break;
    rest = rest.substr(amp + 1);
  }
  return "";
}

json document(int i) {
  return json{
      {"markdown", "page " + std::to_string(i)},
      {"metadata", {{"sourceURL", "https://site.test/" + std::to_string(i)}, {"statusCode", 200}}}};
}

/// A crawl of `total` documents served `chunk` at a time, running for `running_polls` status
/// answers before it completes. `next` is absolute with an internal host name, as deployments
/// behind proxies send it.
struct FakeCrawl {
  int total = 7;
  int chunk = 3;
  int running_polls = 0;
  std::atomic<int> polls{0};

  webdata::Result<webdata::HttpResponse> operator()(const webdata::HttpRequest& req) {
    const std::string path = path_of(req.url);
    if (req.method == "POST") {
      return json_response(
          200,
          R"({"success": true, "id": "crawl-1", "url": "http://api.test:3002/v2/crawl/crawl-1"})");
    }
    if (path != "/v2/crawl/crawl-1")
      return json_response(404, R"({"success": false, "error": "Job not found"})");
    const bool running = polls++ < running_polls;
    const std::string skip_text = query_param(req.url, "skip");
    const int skip = skip_text.empty() ? 0 : std::stoi(skip_text);
    const std::string limit_text = query_param(req.url, "limit");
    const int available = running ? std::min(total, 2) : total;
    int n = std::min(chunk, std::max(0, available - skip));
    if (!limit_text.empty()) n = std::min(n, std::stoi(limit_text));
    json body{{"success", true},          {"status", running ? "scraping" : "completed"},
              {"total", total},           {"completed", available},
              {"creditsUsed", available}, {"data", json::array()}};
    for (int i = skip; i < skip + n; ++i) body["data"].push_back(document(i));
    if (running || skip + n < total) {
      body["next"] = "http://internal-host:8080/v2/crawl/crawl-1?skip=" + std::to_string(skip + n);
    }
    return json_response(200, body.dump());
  }
};

/// Answers `f`'s requests as a FakeCrawl of `total` documents, `chunk` at a time, running for
/// `running_polls` status answers.
void serve_crawl(Fixture& f, int total = 7, int chunk = 3, int running_polls = 0) {
  auto crawl = std::make_shared<FakeCrawl>();
  crawl->total = total;
  crawl->chunk = chunk;
  crawl->running_polls = running_polls;
  f.transport = std::make_shared<FakeTransport>([crawl](const auto& r) { return (*crawl)(r); });
}

}  // namespace

TEST_CASE("scrape posts the request with auth and reads the document", "[client]") {
  Fixture f;
  f.transport->push(json_response(
      200,
      R"({"success": true, "data": {"markdown": "# Hi", "metadata": {"sourceURL": "https://a.test", "statusCode": 200, "title": "Hi"}}})"));
  webdata::ScrapeRequest req;
  req.url = "https://a.test";
  req.formats = {"markdown"};
  auto doc = f.client().scrape(req);
  REQUIRE(doc.ok());
  CHECK(doc->markdown == "# Hi");
  CHECK(doc->metadata.title == "Hi");
  const auto sent = f.transport->requests().at(0);
  CHECK(sent.method == "POST");
  CHECK(sent.url == std::string(kBase) + "/v2/scrape");
  CHECK(webdata::find_header(sent.headers, "authorization") == "Bearer test-key");
  CHECK(webdata::find_header(sent.headers, "content-type") == "application/json");
  CHECK(json::parse(sent.body) ==
        json::parse(R"({"url": "https://a.test", "formats": ["markdown"]})"));
}

TEST_CASE("per-call options: headers, timeout, and the scrape timeout margin", "[client]") {
  Fixture f;
  const auto ok = json_response(200, R"({"success": true, "data": {"metadata": {}}})");
  f.transport->push(ok);
  f.transport->push(ok);
  webdata::ScrapeRequest req;
  req.url = "https://a.test";
  req.timeout = 200s;
  webdata::CallOptions call;
  call.headers = {{"X-Trace", "abc"}};
  REQUIRE(f.client().scrape(req, call).ok());
  call.timeout = 5s;
  REQUIRE(f.client().scrape(req, call).ok());
  const auto sent = f.transport->requests();
  CHECK(webdata::find_header(sent[0].headers, "X-Trace") == "abc");
  CHECK(sent[0].timeout == 210s);  // the service may take 200 s; the SDK waits a little longer
  CHECK(sent[1].timeout == 5s);
}

TEST_CASE("API errors carry status, code, message and details", "[client][errors]") {
  Fixture f;
  f.transport->push(json_response(
      400,
      R"({"success": false, "code": "BAD_REQUEST", "error": "Bad Request", "details": [{"code": "invalid_type", "path": ["url"], "message": "Required"}]})"));
  webdata::ScrapeRequest req;
  auto doc = f.client().scrape(req);
  REQUIRE_FALSE(doc.ok());
  const auto& e = doc.error();
  CHECK(e.kind == webdata::ErrorKind::kHttp);
  CHECK(e.http_status == 400);
  CHECK(e.code == "BAD_REQUEST");
  CHECK(e.message == "Bad Request");
  CHECK(json::parse(e.details).at(0).at("code") == "invalid_type");
  CHECK_FALSE(e.retryable);
  CHECK(f.transport->count() == 1);
  CHECK_THROWS_AS(doc.value(), webdata::ApiError);

  f.transport->push(json_response(404, "<html>Not Found</html>"));
  auto missing = f.client().crawl_status("nope");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().kind == webdata::ErrorKind::kNotJson);
  CHECK(missing.error().http_status == 404);
  CHECK(missing.error().message == "this deployment has no GET /v2/crawl/nope (HTTP 404, HTML page)");
  CHECK(missing.error().raw_body == "<html>Not Found</html>");
}

TEST_CASE("answers that are not JSON are one line of their own kind, never their HTML",
          "[client][errors]") {
  const auto html = [](int status) {
    webdata::HttpResponse r;
    r.status = status;
    r.headers = {{"Content-Type", "text/html; charset=utf-8"}};
    r.body = "<!DOCTYPE html>\n<html><body><pre>Cannot GET /v2/team/queue-status</pre></body></html>";
    return r;
  };
  Fixture f;
  f.transport->push(html(404));
  auto queue = f.client().queue_status();
  REQUIRE_FALSE(queue.ok());
  CHECK(queue.error().kind == webdata::ErrorKind::kNotJson);
  CHECK(queue.error().describe() ==
        "this deployment has no GET /v2/team/queue-status (HTTP 404, HTML page)");
  CHECK(webdata::to_string(queue.error().kind) == std::string("not_json"));

  // A proxy's 502 page is retried like any 502, then reported in one line.
  webdata::CallOptions once;
  once.retry = webdata::RetryPolicy::none();
  f.transport->push(html(502));
  auto crawl = f.client().crawl_status("c1", once);
  REQUIRE_FALSE(crawl.ok());
  CHECK(crawl.error().kind == webdata::ErrorKind::kNotJson);
  CHECK(crawl.error().retryable);
  CHECK(crawl.error().message == "GET /v2/crawl/c1 answered HTTP 502 with an HTML page instead of JSON");

  // A 2xx answer with an empty body or plain text, and the query left out of the line.
  f.transport->push(json_response(200, ""));
  auto empty = f.client().crawl_job("c1").documents();
  std::vector<std::string> errors;
  for (auto& doc : empty) errors.push_back(doc.ok() ? "a document" : doc.error().message);
  CHECK(errors == std::vector<std::string>{
                      "GET /v2/crawl/c1 answered HTTP 200 with an empty body instead of JSON"});
  webdata::HttpResponse text;
  text.status = 200;
  text.headers = {{"Content-Type", "text/plain"}};
  text.body = "OK";
  CHECK(webdata::describe_non_json_answer("GET", "http://h:1/v1/crawl/x?skip=2", text) ==
        "GET /v1/crawl/x answered HTTP 200 with plain text instead of JSON");
  // JSON, or what begins as JSON (a truncated answer is a parse error), is not described.
  text.body = " {\"success\": tr";
  CHECK_FALSE(webdata::describe_non_json_answer("GET", "/v2/x", text).has_value());
}

TEST_CASE("malformed and truncated answers are parse errors", "[client][errors]") {
  Fixture f;
  f.transport->push(json_response(200, R"({"success": true, "data": {"markdown": "cut off)",
                                  {{"x-request-id", "req-7"}}));
  f.transport->push(json_response(200, R"({"success": true, "data": {"links": 5}})"));
  f.transport->push(json_response(200, R"({"success": true})"));
  f.transport->push(json_response(200, R"({"success": false, "error": "Job failed"})"));
  webdata::ScrapeRequest req;
  req.url = "https://a.test";
  auto client = f.client();
  auto truncated = client.scrape(req);
  REQUIRE_FALSE(truncated.ok());
  CHECK(truncated.error().kind == webdata::ErrorKind::kParse);
  // Told about the call and the answer, as every call's unreadable answer is.
  CHECK(truncated.error().http_status == 200);
  CHECK(truncated.error().request_id == "req-7");
  CHECK_THAT(truncated.error().message, Catch::Contains("(POST /v2/scrape)"));
  // A known member of another type does not fail the call: it is kept and named.
  auto wrong_type = client.scrape(req);
  REQUIRE(wrong_type.ok());
  CHECK_FALSE(wrong_type->links.has_value());
  CHECK(wrong_type->extras.at("links").text() == "5");
  CHECK(wrong_type->diagnostics ==
        webdata::Diagnostics{"at links: expected an array, got an integer; kept as raw JSON in extras"});
  auto no_data = client.scrape(req);
  REQUIRE_FALSE(no_data.ok());
  CHECK(no_data.error().kind == webdata::ErrorKind::kParse);
  auto unsuccessful = client.scrape(req);
  REQUIRE_FALSE(unsuccessful.ok());
  CHECK(unsuccessful.error().message == "Job failed");
}

TEST_CASE("retries: which answers are retried, with exponential backoff", "[client][retry]") {
  webdata::ScrapeRequest req;
  req.url = "https://a.test";
  const auto ok = json_response(200, R"({"success": true, "data": {"metadata": {}}})");

  SECTION("429, 408, 502, 503, 504 and connection errors are retried") {
    Fixture f;
    f.transport->push(json_response(503, R"({"success": false, "error": "busy"})"));
    f.transport->push(json_response(502, "bad gateway"));
    f.transport->push(connection_refused());
    f.transport->push(ok);
    REQUIRE(f.client().scrape(req).ok());
    CHECK(f.transport->count() == 4);
    CHECK(f.clock->sleeps() == std::vector<std::chrono::milliseconds>{800ms, 1600ms, 3200ms});
  }
  SECTION("other errors are not") {
    for (int status : {400, 401, 402, 404, 409, 500}) {
      Fixture f;
      f.transport->push(json_response(status, R"({"success": false, "error": "no"})"));
      f.transport->push(ok);
      auto res = f.client().scrape(req);
      REQUIRE_FALSE(res.ok());
      CHECK(res.error().http_status == status);
      CHECK(f.transport->count() == 1);
    }
  }
  SECTION("max_retries bounds the attempts") {
    Fixture f;
    for (int i = 0; i < 10; ++i) f.transport->push(json_response(504, "{}"));
    auto res = f.client().scrape(req);
    REQUIRE_FALSE(res.ok());
    CHECK(res.error().http_status == 504);
    CHECK(res.error().retryable);
    CHECK(f.transport->count() == 4);
  }
  SECTION("Retry-After replaces the computed delay") {
    Fixture f;
    f.transport->push(json_response(429, R"({"success": false, "error": "Rate limit exceeded"})",
                                    {{"Retry-After", "7"}}));
    f.transport->push(ok);
    REQUIRE(f.client().scrape(req).ok());
    CHECK(f.clock->sleeps() == std::vector<std::chrono::milliseconds>{7000ms});
  }
  SECTION("backoff is capped and jitter stays within its band") {
    Fixture f;
    auto options = f.options();
    options.retry.max_retries = 6;
    options.retry.max_backoff = 5s;
    options.retry.jitter = 0.5;
    for (int i = 0; i < 6; ++i) f.transport->push(json_response(503, "{}"));
    f.transport->push(ok);
    REQUIRE(webdata::Client(options).scrape(req).ok());
    const auto sleeps = f.clock->sleeps();
    REQUIRE(sleeps.size() == 6);
    CHECK(sleeps[0] >= 400ms);
    CHECK(sleeps[0] <= 1200ms);
    for (auto s : sleeps) CHECK(s <= 7500ms);
  }
}

TEST_CASE("a job-creating POST is retried only with an idempotency key", "[client][retry]") {
  webdata::CrawlRequest req;
  req.url = "https://a.test";
  const auto started = json_response(
      200, R"({"success": true, "id": "c1", "url": "http://api.test:3002/v2/crawl/c1"})");

  Fixture f;
  f.transport->push(json_response(503, "{}"));
  f.transport->push(started);
  auto without = f.client().start_crawl(req);
  REQUIRE_FALSE(without.ok());
  CHECK(without.error().http_status == 503);
  CHECK(f.transport->count() == 1);

  Fixture g;
  g.transport->push(connection_refused());
  g.transport->push(json_response(503, "{}"));
  g.transport->push(started);
  webdata::CallOptions call;
  call.idempotency_key = webdata::make_idempotency_key();
  auto with = g.client().start_crawl(req, call);
  REQUIRE(with.ok());
  CHECK(with->id() == "c1");
  const auto sent = g.transport->requests();
  REQUIRE(sent.size() == 3);
  for (const auto& r : sent)
    CHECK(webdata::find_header(r.headers, "x-idempotency-key") == *call.idempotency_key);

  Fixture h;
  h.transport->push(json_response(503, "{}"));
  webdata::BatchScrapeRequest batch;
  batch.urls = {"https://a.test"};
  CHECK_FALSE(h.client().start_batch_scrape(batch).ok());
  h.transport->push(json_response(503, "{}"));
  webdata::AgentRequest agent;
  agent.prompt = "p";
  CHECK_FALSE(h.client().agent(agent).ok());
  CHECK(h.transport->count() == 2);
}

TEST_CASE("idempotency keys are version 4 UUIDs", "[client]") {
  const auto a = webdata::make_idempotency_key();
  const auto b = webdata::make_idempotency_key();
  CHECK(a != b);
  REQUIRE(a.size() == 36);
  CHECK(a[14] == '4');
  CHECK(std::string("89ab").find(a[19]) != std::string::npos);
}

TEST_CASE("deadlines bound retries and shorten the last request", "[client][retry]") {
  webdata::ScrapeRequest req;
  req.url = "https://a.test";
  Fixture f;
  f.transport->push(json_response(503, "{}", {{"Retry-After", "5"}}));
  webdata::CallOptions call;
  call.total_timeout = 2s;
  auto res = f.client().scrape(req, call);
  REQUIRE_FALSE(res.ok());
  CHECK(res.error().http_status == 503);
  CHECK(f.transport->count() == 1);  // waiting 5 s would pass the deadline: no retry
  CHECK(f.clock->sleeps().empty());
  CHECK(f.transport->requests().at(0).timeout <= 2s);

  Fixture g;
  call.total_timeout.reset();
  call.deadline = g.clock->now() - 1ms;
  auto late = g.client().scrape(req, call);
  REQUIRE_FALSE(late.ok());
  CHECK(late.error().kind == webdata::ErrorKind::kTimeout);
  CHECK(g.transport->count() == 0);
}

TEST_CASE("status() fetches one chunk and never follows next", "[client][jobs]") {
  Fixture f;
  serve_crawl(f, /*total=*/10);
  auto status = f.client().crawl_job("crawl-1").status();
  REQUIRE(status.ok());
  CHECK(status->data.size() == 3);
  CHECK(status->next.has_value());
  CHECK(f.transport->count() == 1);
}

TEST_CASE("documents() follows next one chunk at a time", "[client][jobs]") {
  Fixture f;
  serve_crawl(f);
  auto job = f.client().crawl_job("crawl-1");
  webdata::CallOptions call;
  call.timeout = 1234ms;
  auto docs = job.documents({}, call);
  std::vector<std::string> seen;
  auto it = docs.begin();
  REQUIRE(it != docs.end());
  CHECK(f.transport->count() == 1);  // lazy: only the first chunk so far
  for (; it != docs.end(); ++it) {
    REQUIRE(it->ok());
    seen.push_back((*it)->markdown.value());
  }
  CHECK(seen == std::vector<std::string>{"page 0", "page 1", "page 2", "page 3", "page 4", "page 5",
                                         "page 6"});
  const auto sent = f.transport->requests();
  REQUIRE(sent.size() == 3);
  for (const auto& r : sent) {
    CHECK(r.timeout == 1234ms);         // the per-request timeout reaches every page
    CHECK(r.url.rfind(kBase, 0) == 0);  // `next` is rebased onto the configured API
    CHECK(webdata::find_header(r.headers, "Authorization") == "Bearer test-key");
  }
  CHECK(sent[1].url == std::string(kBase) + "/v2/crawl/crawl-1?skip=3");
}

TEST_CASE("documents() while the job runs waits between empty chunks", "[client][jobs]") {
  Fixture f;
  serve_crawl(f, /*total=*/5, /*chunk=*/10, /*running_polls=*/3);
  webdata::PollingPolicy policy;
  policy.interval = 250ms;
  int count = 0;
  for (auto& doc : f.client().crawl_job("crawl-1").documents(policy)) {
    REQUIRE(doc.ok());
    ++count;
  }
  CHECK(count == 5);
  // chunk 1 (2 docs, running), chunk 2 (none, running), wait, chunk 3 (none, running), wait,
  // chunk 4 (the rest, completed)
  CHECK(f.transport->count() == 4);
  CHECK(f.clock->sleeps() == std::vector<std::chrono::milliseconds>{250ms, 250ms});
}

TEST_CASE("wait() polls without paging and downloads the documents once", "[client][jobs]") {
  Fixture f;
  serve_crawl(f, /*total=*/7, /*chunk=*/3, /*running_polls=*/4);
  webdata::CrawlRequest req;
  req.url = "https://site.test";
  webdata::PollingPolicy policy;
  policy.interval = 1s;
  auto result = f.client().crawl(req, policy);
  REQUIRE(result.ok());
  CHECK(result->status == webdata::JobState::completed());
  REQUIRE(result->data.size() == 7);
  CHECK(result->data[6].markdown == "page 6");
  CHECK_FALSE(result->next);

  const auto sent = f.transport->requests();
  int polls = 0, pages = 0;
  for (const auto& r : sent) {
    if (r.method != "GET") continue;
    if (query_param(r.url, "limit") == "1") {
      ++polls;
      CHECK(r.url.find("skip") == std::string::npos);
    } else {
      ++pages;
    }
  }
  CHECK(polls == 5);  // 4 while running, 1 that saw completion
  CHECK(pages == 3);  // 7 documents in chunks of 3, each fetched once
  CHECK(f.clock->sleeps().size() == 4);
}

TEST_CASE("poll_until_done gives up at max_wait and on cancellation", "[client][jobs]") {
  Fixture f;
  serve_crawl(f, /*total=*/7, /*chunk=*/3, /*running_polls=*/1000);
  auto job = f.client().crawl_job("crawl-1");
  webdata::PollingPolicy policy;
  policy.interval = 1s;
  policy.max_wait = 5s;
  auto res = job.poll_until_done(policy);
  REQUIRE_FALSE(res.ok());
  CHECK(res.error().kind == webdata::ErrorKind::kTimeout);
  CHECK(f.transport->count() <= 7);

  webdata::PollingPolicy stop;
  stop.cancel.cancel();
  auto cancelled = job.poll_until_done(stop);
  REQUIRE_FALSE(cancelled.ok());
  CHECK(cancelled.error().kind == webdata::ErrorKind::kCancelled);
}

TEST_CASE("a page that fails ends the range with its error", "[client][jobs]") {
  Fixture f;
  f.transport->push(json_response(
      200,
      R"({"status": "completed", "total": 4, "completed": 4, "data": [{"metadata": {}}], "next": "http://api.test:3002/v2/batch/scrape/b1?skip=1"})"));
  f.transport->push(json_response(404, R"({"success": false, "error": "Job expired"})"));
  std::vector<bool> oks;
  for (auto& doc : f.client().batch_scrape_job("b1").documents()) oks.push_back(doc.ok());
  CHECK(oks == std::vector<bool>{true, false});
  CHECK(f.transport->requests().at(0).url == std::string(kBase) + "/v2/batch/scrape/b1");
}

TEST_CASE("a next address outside the API is not followed", "[client][jobs]") {
  Fixture f;
  f.transport->push(json_response(
      200,
      R"({"status": "completed", "total": 2, "completed": 2, "data": [{"markdown": "a"}], "next": "https://elsewhere.test/steal?skip=1"})"));
  auto pages = f.client().crawl_job("c").pages();
  std::vector<bool> oks;
  for (auto& page : pages) oks.push_back(page.ok());
  CHECK(oks == std::vector<bool>{true, false});
  CHECK(f.transport->count() == 1);
}

TEST_CASE("cancel, errors, active crawls and search use their endpoints", "[client]") {
  Fixture f;
  f.transport->push(json_response(200, R"({"status": "cancelled"})"));
  f.transport->push(json_response(
      200,
      R"({"errors": [{"id": "e", "url": "https://a.test/x", "error": "timeout", "code": "SCRAPE_TIMEOUT"}], "robotsBlocked": []})"));
  f.transport->push(json_response(
      200,
      R"({"success": true, "crawls": [{"id": "c1", "teamId": "team-1", "url": "https://a.test", "options": {"scrapeOptions": {"formats": ["markdown"]}}}]})"));
  f.transport->push(json_response(
      200,
      R"({"success": true, "data": {"web": [{"url": "https://a.test", "title": "A", "description": "d"}]}, "creditsUsed": 1, "id": "s1"})"));
  auto client = f.client();
  auto job = client.crawl_job("c/1");
  CHECK(job.cancel().value() == webdata::JobState::cancelled());
  CHECK(job.errors().value().errors.at(0).code == "SCRAPE_TIMEOUT");
  CHECK(client.active_crawls().value().at(0).scrape_options->formats->at(0).type ==
        webdata::FormatType::markdown());
  webdata::SearchRequest search;
  search.query = "a";
  CHECK(client.search(search).value().web->at(0).title == "A");
  const auto sent = f.transport->requests();
  CHECK(sent[0].method == "DELETE");
  CHECK(sent[0].url == std::string(kBase) + "/v2/crawl/c%2F1");
  CHECK(sent[1].url == std::string(kBase) + "/v2/crawl/c%2F1/errors");
  CHECK(sent[2].url == std::string(kBase) + "/v2/crawl/active");
  CHECK(sent[3].url == std::string(kBase) + "/v2/search");
}

TEST_CASE("agent: the synchronous form and the job form", "[client][agent]") {
  Fixture f;
  f.transport->push(json_response(
      200, R"({"success": true, "data": {"result": "42", "sources": ["https://a.test"]}})"));
  f.transport->push(json_response(200, R"({"success": true, "id": "ag-1"})"));
  f.transport->push(json_response(200, R"({"success": true, "status": "processing"})"));
  f.transport->push(json_response(
      200,
      R"({"success": true, "status": "completed", "data": {"result": "done", "sources": []}})"));
  webdata::AgentRequest req;
  req.prompt = "p";
  auto client = f.client();
  auto sync = client.agent(req);
  REQUIRE(sync.ok());
  CHECK(sync->status == webdata::JobState::completed());
  CHECK(sync->result.as_string() == "42");
  webdata::PollingPolicy policy;
  policy.interval = 3s;
  auto job = client.agent(req, policy);
  REQUIRE(job.ok());
  CHECK(job->id == "ag-1");
  CHECK(job->result.as_string() == "done");
  const auto sent = f.transport->requests();
  REQUIRE(sent.size() == 4);
  CHECK(sent[2].url == std::string(kBase) + "/v2/agent/ag-1");
  CHECK(f.clock->sleeps() == std::vector<std::chrono::milliseconds>{3s, 3s});
}

TEST_CASE("agent: the job form's wait ends at max_wait, and when cancelled without another poll",
          "[client][agent]") {
  Fixture f;
  webdata::AgentRequest req;
  req.prompt = "p";
  webdata::PollingPolicy policy;
  policy.interval = 2s;
  // Every status answer: still processing. `cancel_on` fires the token when a request of that
  // method arrives ("" never).
  std::string cancel_on;
  f.transport = std::make_shared<FakeTransport>([&](const webdata::HttpRequest& request) {
    if (request.method == cancel_on) policy.cancel.cancel();
    if (request.method == "POST") return json_response(200, R"({"success": true, "id": "ag-1"})");
    return json_response(200, R"({"success": true, "status": "processing"})");
  });
  const auto statuses = [&] { return f.transport->count() - 1; };
  // The wait, which must fail: the kind of its error.
  const auto failed_wait = [&] {
    auto res = f.client().agent(req, policy);
    REQUIRE_FALSE(res.ok());
    return res.error().kind;
  };

  SECTION("max_wait: polled until it runs out, the last pause cut to it") {
    policy.max_wait = 5s;
    CHECK(failed_wait() == webdata::ErrorKind::kTimeout);
    CHECK(f.clock->sleeps() == std::vector<std::chrono::milliseconds>{2s, 2s, 1s});
    CHECK(statuses() == 3);
  }
  SECTION("cancelled while the job starts: no status is asked for") {
    cancel_on = "POST";
    CHECK(failed_wait() == webdata::ErrorKind::kCancelled);
    CHECK(statuses() == 0);
  }
  SECTION("cancelled during a poll: the pause after it ends the wait") {
    cancel_on = "GET";
    CHECK(failed_wait() == webdata::ErrorKind::kCancelled);
    CHECK(statuses() == 1);
  }
}

TEST_CASE("the v1 client talks to /v1", "[client][v1]") {
  Fixture f;
  f.transport->push(json_response(
      200,
      R"({"success": true, "data": {"markdown": "m", "llm_extraction": {"a": 1}, "metadata": {}}})"));
  f.transport->push(
      json_response(200, R"({"success": true, "id": "b1", "url": "x", "invalidURLs": []})"));
  f.transport->push(json_response(
      200, R"({"success": true, "data": [{"url": "https://a.test", "title": "t"}]})"));
  webdata::v1::Client client(f.options());
  webdata::v1::ScrapeRequest scrape;
  scrape.url = "https://a.test";
  auto doc = client.scrape(scrape);
  REQUIRE(doc.ok());
  CHECK(doc->llm_extraction->text() == R"({"a":1})");
  webdata::v1::BatchScrapeRequest batch;
  batch.urls = {"https://a.test"};
  auto job = client.start_batch_scrape(batch);
  REQUIRE(job.ok());
  CHECK(job->started().invalid_urls->empty());
  webdata::v1::SearchRequest search;
  search.query = "q";
  CHECK(client.search(search).value().data.at(0).title == "t");
  const auto sent = f.transport->requests();
  CHECK(path_of(sent[0].url) == "/v1/scrape");
  CHECK(path_of(sent[1].url) == "/v1/batch/scrape");
  CHECK(path_of(sent[2].url) == "/v1/search");
  f.transport->push(
      json_response(200, R"({"status": "completed", "total": 0, "completed": 0, "data": []})"));
  REQUIRE(job->status().ok());
  CHECK(path_of(f.transport->requests().back().url) == "/v1/batch/scrape/b1");
}

TEST_CASE("base URL and key come from the environment when not given", "[client]") {
  auto transport = std::make_shared<FakeTransport>();
  transport->push(json_response(200, R"({"success": true, "crawls": []})"));
  ::setenv("WEBDATA_API_URL", "http://env.test:9/", 1);
  ::setenv("WEBDATA_API_KEY", "env-key", 1);
  webdata::ClientOptions options;
  options.transport = transport;
  webdata::Client client(options);
  ::unsetenv("WEBDATA_API_URL");
  ::unsetenv("WEBDATA_API_KEY");
  CHECK(client.api_url() == "http://env.test:9");
  REQUIRE(client.active_crawls().ok());
  const auto sent = transport->requests().at(0);
  CHECK(sent.url == "http://env.test:9/v2/crawl/active");
  CHECK(webdata::find_header(sent.headers, "Authorization") == "Bearer env-key");
}

TEST_CASE("one client is safe to share across threads", "[client][threads]") {
  Fixture f;
  auto crawl = std::make_shared<FakeCrawl>();
  f.transport = std::make_shared<FakeTransport>([crawl](const webdata::HttpRequest& r) {
    if (path_of(r.url) == "/v2/scrape") {
      return webdata::Result<webdata::HttpResponse>(
          json_response(200, R"({"success": true, "data": {"markdown": "x", "metadata": {}}})"));
    }
    return (*crawl)(r);
  });
  const auto client = f.client();
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        webdata::ScrapeRequest req;
        req.url = "https://a.test";
        if (client.scrape(req).ok()) ++ok;
        int docs = 0;
        for (auto& d : client.crawl_job("crawl-1").documents()) docs += d.ok() ? 1 : 0;
        if (docs == 7) ++ok;
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(ok == 6 * 20 * 2);
}
