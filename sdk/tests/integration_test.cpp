// The SDK over real HTTP against a webdata-mock process (bundled virtual web); compiled a second
// time into webdata_sdk_https_tests, where the same calls go over HTTPS and wss (sdk_mock.hpp).
#include <catch2/catch.hpp>

#include <set>

#include "sdk_mock.hpp"
#include "webdata/webdata.hpp"

using webdata::testing::sdk_client_options;
using webdata::testing::sdk_mock_flags;
using webdata::testing::SdkMock;
using namespace std::chrono_literals;

namespace {

webdata::Client client_for(const SdkMock& mock, const std::string& key = "test-key") {
  return webdata::Client(sdk_client_options(mock, key));
}

webdata::PollingPolicy fast_polling() {
  webdata::PollingPolicy policy;
  policy.interval = 50ms;
  policy.max_wait = 60s;
  return policy;
}

// Walks a job's documents, each page once (or a failed check); how many there were.
int walk_once(const webdata::Job& job) {
  std::set<std::string> urls;
  int count = 0;
  for (auto& doc : job.documents(fast_polling())) {
    REQUIRE(doc.ok());
    urls.insert(doc->metadata.source_url.value_or(""));
    ++count;
  }
  CHECK(count == static_cast<int>(urls.size()));  // nothing twice
  return count;
}

// A crawl of `url` started on the mock (or a failed check).
webdata::CrawlJob started_crawl(const webdata::Client& client, const std::string& url, int limit) {
  webdata::CrawlRequest req;
  req.url = url;
  req.limit = limit;
  auto job = client.start_crawl(req);
  REQUIRE(job.ok());
  return std::move(*job);
}

}  // namespace

TEST_CASE("scrape over HTTP returns the page's markdown and metadata", "[integration]") {
  SdkMock mock(sdk_mock_flags());
  webdata::ScrapeRequest req;
  req.url = "https://docs.example.test/";
  req.formats = {"markdown", "links"};
  req.only_main_content = true;
  req.timeout = 20s;
  auto doc = client_for(mock).scrape(req);
  REQUIRE(doc.ok());
  CHECK_FALSE(doc->markdown.value_or("").empty());
  CHECK(doc->metadata.status_code == 200);
  CHECK(doc->metadata.source_url == "https://docs.example.test/");
  CHECK(doc->metadata.title.has_value());
  CHECK(doc->links.has_value());

  webdata::v1::Client v1(sdk_client_options(mock));
  webdata::v1::ScrapeRequest old;
  old.url = "https://docs.example.test/";
  old.formats = {"markdown"};
  auto v1_doc = v1.scrape(old);
  REQUIRE(v1_doc.ok());
  CHECK_FALSE(v1_doc->markdown.value_or("").empty());
}

TEST_CASE("get_scrape reads a past scrape back by its scrapeId, v2 and v1", "[integration]") {
  SdkMock mock(sdk_mock_flags({"--api-key", "test-key:team-1", "--api-key", "other-key:team-2"}));
  const auto client = client_for(mock);
  webdata::ScrapeRequest req;
  req.url = "https://docs.example.test/";
  req.formats = {"markdown", "links"};
  auto made = client.scrape(req);
  REQUIRE(made.ok());
  REQUIRE(made->metadata.scrape_id.has_value());
  const std::string id = *made->metadata.scrape_id;

  auto read = client.get_scrape(id);
  REQUIRE(read.ok());
  CHECK(read->markdown == made->markdown);
  CHECK(read->links == made->links);
  CHECK(read->metadata.scrape_id == id);
  CHECK(read->metadata.source_url == "https://docs.example.test/");

  webdata::v1::Client v1(sdk_client_options(mock));
  auto made_v1 = v1.scrape("https://docs.example.test/", {"markdown"});
  REQUIRE(made_v1.ok());
  auto read_v1 = v1.get_scrape(made_v1->metadata.scrape_id.value_or(""));
  REQUIRE(read_v1.ok());
  CHECK(read_v1->markdown == made_v1->markdown);

  auto unknown = client.get_scrape("00000000-0000-4000-8000-000000000000");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().kind == webdata::ErrorKind::kHttp);
  CHECK(unknown.error().http_status == 404);
  CHECK(unknown.error().message == "Job not found.");
  CHECK_FALSE(unknown.error().retryable);
  auto other_team = client_for(mock, "other-key").get_scrape(id);
  REQUIRE_FALSE(other_team.ok());
  CHECK(other_team.error().http_status == 403);
  auto malformed = v1.get_scrape("not-a-uuid");
  REQUIRE_FALSE(malformed.ok());
  CHECK(malformed.error().http_status == 400);
}

TEST_CASE("API errors over HTTP are typed", "[integration]") {
  SdkMock mock(sdk_mock_flags());
  webdata::ScrapeRequest req;
  req.url = "https://docs.example.test/";
  auto unauthorized = client_for(mock, "wrong-key").scrape(req);
  REQUIRE_FALSE(unauthorized.ok());
  CHECK(unauthorized.error().http_status == 401);
  CHECK(unauthorized.error().message.find("Unauthorized") != std::string::npos);

  webdata::ScrapeRequest bad;
  bad.url = "https://docs.example.test/";
  bad.timeout = 400s;  // over the maximum
  auto refused = client_for(mock).scrape(bad);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().http_status == 400);
  CHECK(refused.error().code == "BAD_REQUEST");
  CHECK(refused.error().details.find("timeout") != std::string::npos);

  auto missing = client_for(mock).crawl_status("00000000-0000-4000-8000-000000000000");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().http_status == 404);
}

TEST_CASE("a crawl over HTTP: paging in small chunks returns every page once", "[integration]") {
  SdkMock mock(sdk_mock_flags({"--chunk-bytes", "4096"}));  // force several chunks
  auto client = client_for(mock);
  webdata::CrawlRequest req;
  req.url = "https://docs.example.test/";
  req.limit = 8;
  req.scrape_options = webdata::ScrapeOptions{};
  req.scrape_options->formats = {"markdown"};
  auto job = client.start_crawl(req);
  REQUIRE(job.ok());

  const int count = walk_once(*job);
  auto done = job->status();
  REQUIRE(done.ok());
  CHECK(done->status.is_terminal());
  CHECK(count == done->completed);
  CHECK(count > 1);

  auto all = job->wait(fast_polling());
  REQUIRE(all.ok());
  CHECK(static_cast<int>(all->data.size()) == count);
  CHECK(job->errors().ok());
}

TEST_CASE("documents() of a crawl followed from its first instant gives every page once",
          "[integration]") {
  // Pages that take 300 ms each: the first status comes before any page is done (under
  // --inject-fault first-status-without-next, with `total: 0` and no `next`, as a real
  // deployment answers).
  SdkMock mock(sdk_mock_flags(webdata::testing::page_pacing(0)));
  auto client = client_for(mock);
  auto job = started_crawl(client, "https://pages-4.delay-300.first-instant.synthetic.test/", 4);
  CHECK(walk_once(job) == 4);
  auto done = job.status();
  REQUIRE(done.ok());
  CHECK(done->status == webdata::JobState::completed());
}

TEST_CASE("batch scrape over HTTP with an invalid URL dropped", "[integration]") {
  SdkMock mock(sdk_mock_flags());
  webdata::BatchScrapeRequest req;
  req.urls = {"https://docs.example.test/", "https://blog.example.test/", "not a url"};
  req.ignore_invalid_urls = true;
  req.formats = {"markdown"};
  auto job = client_for(mock).start_batch_scrape(req);
  REQUIRE(job.ok());
  REQUIRE(job->started().invalid_urls);
  CHECK(job->started().invalid_urls->size() == 1);
  auto result = job->wait(fast_polling());
  REQUIRE(result.ok());
  CHECK(result->status == webdata::JobState::completed());
  CHECK(result->data.size() == 2);
}

TEST_CASE_METHOD(webdata::testing::MockAndClient,
                 "active crawls, cancel and idempotency keys over HTTP", "[integration]") {
  webdata::CrawlRequest req;
  req.url = "https://pages-500.synthetic.test/";
  req.limit = 500;
  webdata::CallOptions call;
  call.idempotency_key = webdata::make_idempotency_key();
  auto job = client.start_crawl(req, call);
  REQUIRE(job.ok());
  auto again = client.start_crawl(req, call);
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().http_status == 409);

  auto active = client.active_crawls();
  REQUIRE(active.ok());
  bool listed = false;
  for (const auto& c : *active) listed = listed || c.id == job->id();
  CHECK(listed);

  auto state = job->cancel();
  REQUIRE(state.ok());
  CHECK(*state == webdata::JobState::cancelled());
  CHECK(job->status().value().status == webdata::JobState::cancelled());
}

TEST_CASE_METHOD(webdata::testing::MockAndClient,
                 "search and agent over HTTP against the indexed virtual web", "[integration]") {
  webdata::SearchRequest req;
  req.query = "quickstart";
  req.limit = 3;
  req.sources = std::vector<webdata::SearchSource>{webdata::SearchSource::web()};
  auto found = client.search(req);
  REQUIRE(found.ok());
  REQUIRE(found->web.has_value());
  REQUIRE_FALSE(found->web->empty());
  CHECK(found->web->size() <= 3);
  CHECK(found->web->front().url.find("docs.example.test") != std::string::npos);
  CHECK_FALSE(found->images.has_value());  // only the requested sources come back
  CHECK(found->credits_used.value_or(0) >= 1);

  // scrapeOptions scrape every result through the scrape pipeline.
  req.scrape_options = webdata::ScrapeOptions{};
  req.scrape_options->formats = {"markdown"};
  auto scraped = client.search(req);
  REQUIRE(scraped.ok());
  REQUIRE(scraped->web.has_value());
  REQUIRE_FALSE(scraped->web->empty());
  CHECK_FALSE(scraped->web->front().markdown.value_or("").empty());

  webdata::v1::Client v1(sdk_client_options(mock));
  webdata::v1::SearchRequest old;
  old.query = "quickstart";
  old.limit = 2;
  auto v1_found = v1.search(old);
  REQUIRE(v1_found.ok());
  REQUIRE_FALSE(v1_found->data.empty());
  CHECK(v1_found->data.size() <= 2);

  webdata::AgentRequest ask;
  ask.prompt = "How do I get started with the quickstart?";
  auto answer = client.agent(ask, fast_polling());
  REQUIRE(answer.ok());
  CHECK(answer->status == webdata::JobState::completed());
  CHECK_FALSE(answer->sources.empty());
  CHECK_FALSE(answer->result.is_null());
}

TEST_CASE("errors endpoints and the v1 job calls over HTTP", "[integration]") {
  SdkMock mock(sdk_mock_flags(webdata::testing::page_pacing(0)));
  auto client = client_for(mock);

  // A synthetic site with a robots-disallowed /private/ page and a host whose fetches fail.
  auto job = started_crawl(client, "https://pages-6.private.synthetic.test/", 20);
  REQUIRE(job.wait(fast_polling()).ok());
  auto crawl_errors = client.crawl_errors(job.id());
  REQUIRE(crawl_errors.ok());
  REQUIRE(crawl_errors->robots_blocked.size() == 1);
  CHECK(crawl_errors->robots_blocked[0].find("/private/") != std::string::npos);

  webdata::BatchScrapeRequest batch;
  batch.urls = {"https://docs.example.test/", "https://pages-3.fail-reset.synthetic.test/"};
  auto batch_job = client.start_batch_scrape(batch);
  REQUIRE(batch_job.ok());
  auto batch_done = batch_job->wait(fast_polling());
  REQUIRE(batch_done.ok());
  CHECK(batch_done->data.size() == 1);
  auto batch_errors = client.batch_scrape_errors(batch_job->id());
  REQUIRE(batch_errors.ok());
  REQUIRE(batch_errors->errors.size() == 1);
  CHECK(batch_errors->errors[0].url == "https://pages-3.fail-reset.synthetic.test/");
  CHECK_FALSE(batch_errors->errors[0].code.empty());
  CHECK_FALSE(batch_errors->errors[0].error.empty());

  webdata::v1::Client v1(sdk_client_options(mock));
  webdata::v1::CrawlRequest old;
  old.url = "https://docs.example.test/";
  old.limit = 3;
  auto v1_crawl = v1.crawl(old, fast_polling());
  REQUIRE(v1_crawl.ok());
  CHECK(v1_crawl->status == webdata::JobState::completed());
  CHECK(v1_crawl->data.size() == 3);
  webdata::v1::BatchScrapeRequest v1_batch;
  v1_batch.urls = {"https://docs.example.test/", "https://blog.example.test/"};
  auto v1_done = v1.batch_scrape(v1_batch, fast_polling());
  REQUIRE(v1_done.ok());
  CHECK(v1_done->data.size() == 2);
  CHECK(v1.active_crawls().ok());
}

TEST_CASE("watch() streams a crawl over the mock's own WebSocket (wss in the HTTPS build)",
          "[integration][watch]") {
  SdkMock mock(sdk_mock_flags(webdata::testing::page_pacing(20)));
  CHECK(mock.url().rfind(webdata::testing::kSdkTestsOverTls ? "https://" : "http://", 0) == 0);
  auto client = client_for(mock);
  webdata::CrawlRequest req;
  req.url = "http://pages-6.synthetic.test/";
  req.max_concurrency = 1;
  auto job = client.start_crawl(req);
  REQUIRE(job.ok());
  webdata::WatchPolicy policy;
  policy.mode = webdata::WatchMode::kWebSocket;  // no fallback: the socket must work
  std::set<std::string> urls;
  bool finished = false;
  for (auto& event : job->watch(policy)) {
    REQUIRE(event.ok());
    CHECK(event->websocket);
    if (event->document) urls.insert(event->document->metadata.source_url.value_or(""));
    if (event->kind == webdata::WatchEvent::Kind::kFinished) {
      finished = true;
      CHECK(event->status.status == "completed");
    }
  }
  CHECK(finished);
  CHECK(urls.size() == 6);
}

TEST_CASE("a client that does not trust the mock's certificate fails clearly",
          "[integration][tls]") {
  if (!webdata::testing::kSdkTestsOverTls) return;  // only the HTTPS build has a certificate
  SdkMock mock(sdk_mock_flags());
  auto refused = webdata::Client(mock.url(), "test-key").scrape("https://docs.example.test/");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().kind == webdata::ErrorKind::kTransport);
  CHECK_FALSE(refused.error().retryable);
}
