// The SDK's map, crawl params preview and team usage calls over real HTTP against the
// in-process mock, v2 and v1.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>

#include "mock_fixture.hpp"
#include "webdata/webdata.hpp"

using webdata::testing::RunningMock;
using namespace std::chrono_literals;

TEST_CASE("Client::map lists a synthetic site with titles, honours limit and search",
          "[integration][map]") {
  RunningMock mock;
  webdata::Client client(mock.url(), "test-key");
  webdata::MapRequest req;
  req.url = "https://pages-40.synthetic.test/";
  auto all = client.map(req);
  REQUIRE(all.ok());
  CHECK(all->links.size() == 40);
  CHECK(all->links.front().url == "https://pages-40.synthetic.test/");
  CHECK(all->links.front().title.has_value());

  req.limit = 5;
  req.sitemap = webdata::SitemapMode::skip();
  auto few = client.map(req);
  REQUIRE(few.ok());
  CHECK(few->links.size() == 5);

  webdata::MapRequest bad;
  bad.url = "https://pages-40.synthetic.test/";
  bad.sitemap = webdata::SitemapMode("sometimes");
  auto refused = client.map(bad);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().http_status == 400);

  webdata::v1::Client v1(mock.url(), "test-key");
  webdata::v1::MapRequest old;
  old.url = "https://pages-40.synthetic.test/";
  old.sitemap_only = true;
  auto v1_links = v1.map(old);
  REQUIRE(v1_links.ok());
  CHECK(v1_links->links.size() == 40);
  CHECK_FALSE(v1_links->links.front().title.has_value());  // v1 answers plain URLs
}

TEST_CASE("Client::crawl_params_preview gives a crawl request start_crawl accepts",
          "[integration][crawl-preview]") {
  RunningMock mock;
  webdata::Client client(mock.url(), "test-key");
  auto preview = client.crawl_params_preview(
      {"https://pages-40.synthetic.test/", "only /p1, at most 5 pages, skip the sitemap"});
  REQUIRE(preview.ok());
  CHECK(preview->request.url == "https://pages-40.synthetic.test/");
  CHECK(preview->request.limit == 5);
  REQUIRE(preview->request.include_paths);
  CHECK(*preview->request.include_paths == std::vector<std::string>{"^/p1(/.*)?$"});
  CHECK(preview->request.sitemap == webdata::SitemapMode::skip());
  webdata::PollingPolicy policy;
  policy.interval = 50ms;
  policy.max_wait = 60s;
  auto crawled = client.crawl(preview->request, policy);
  REQUIRE(crawled.ok());
  CHECK(crawled->status.value() == "completed");
  CHECK(crawled->completed >= 1);
  CHECK(crawled->completed <= 5);
}

TEST_CASE("Client usage calls read the mock's accounting, v2 and v1", "[integration][team]") {
  RunningMock mock;
  webdata::Client client(mock.url(), "test-key");
  webdata::v1::Client v1(mock.url(), "test-key");
  auto before = client.credit_usage();
  REQUIRE(before.ok());
  webdata::MapRequest req;
  req.url = "https://pages-10.synthetic.test/";
  REQUIRE(client.map(req).ok());  // one credit
  auto after = client.credit_usage();
  REQUIRE(after.ok());
  CHECK(after->remaining_credits == before->remaining_credits - 1);
  CHECK(after->plan_credits == before->remaining_credits);
  REQUIRE(after->billing_period_start);
  CHECK(after->billing_period_start->time().has_value());

  auto v1_usage = v1.credit_usage();
  REQUIRE(v1_usage.ok());
  CHECK(v1_usage->remaining_credits == after->remaining_credits);

  auto history = client.credit_usage_history(true);
  REQUIRE(history.ok());
  REQUIRE(history->periods.size() == 1);
  CHECK(history->periods[0].used == 1);
  CHECK(history->periods[0].api_key == std::optional<std::string>("********"));

  auto tokens = client.token_usage();
  REQUIRE(tokens.ok());
  CHECK(tokens->remaining_tokens == tokens->plan_tokens.value_or(-1));
  auto token_history = v1.token_usage_history();
  REQUIRE(token_history.ok());
  CHECK(token_history->periods.back().used == 0);

  auto queue = client.queue_status();
  REQUIRE(queue.ok());
  CHECK(queue->jobs_in_queue == 0);
  CHECK(queue->max_concurrency == 8);
  CHECK(queue->most_recent_success.has_value());  // the map a moment ago
  auto v1_queue = v1.queue_status();
  REQUIRE(v1_queue.ok());

  auto concurrency = client.concurrency();
  REQUIRE(concurrency.ok());
  CHECK(concurrency->concurrency == 0);
  CHECK(concurrency->max_concurrency == 8);
  REQUIRE(v1.concurrency().ok());
}
