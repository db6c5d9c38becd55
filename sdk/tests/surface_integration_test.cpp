// The SDK's map, crawl params preview, team usage and extract calls over real HTTP against a
// webdata-mock process, v2 and v1.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

#include "api_client.hpp"
#include "eventually.hpp"
#include "sdk_mock.hpp"
#include "stub_mapping.hpp"
#include "webdata/webdata.hpp"

using webdata::testing::MockAndClient;
using webdata::testing::MockAndV1Client;
using webdata::testing::SdkMock;
using namespace std::chrono_literals;

TEST_CASE_METHOD(MockAndClient,
                 "Client::map lists a synthetic site with titles, honours limit and search",
                 "[integration][map]") {
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

TEST_CASE_METHOD(MockAndClient,
                 "Client::crawl_params_preview gives a crawl request start_crawl accepts",
                 "[integration][crawl-preview]") {
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

TEST_CASE_METHOD(MockAndClient, "Client usage calls read the mock's accounting, v2 and v1",
                 "[integration][team]") {
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

// ---- extract

namespace {

/// The job `result` names: it must have started, with an id.
template <class Job>
Job started_job(webdata::Result<Job> result) {
  REQUIRE(result.ok());
  REQUIRE_FALSE(result->id.empty());
  return *result;
}

void add_shop(const SdkMock& mock) {
  webdata::testing::ApiClient api(mock.url());
  const auto page = [](const std::string& title, const std::string& body) {
    return "<html><head><title>" + title + "</title></head><body><main><h1>" + title + "</h1>" +
           body + "</main></body></html>";
  };
  for (const auto& [path, html] : std::vector<std::pair<std::string, std::string>>{
           {"/products/", page("Products",
                               "<a href=\"/products/anvil\">anvil</a> "
                               "<a href=\"/products/hammer\">hammer</a>")},
           {"/products/anvil", page("Anvil", "<p>Colour: black</p>")},
           {"/products/hammer", page("Hammer", "<p>Material: steel</p>")}}) {
    REQUIRE(api.post("/__admin/mappings", webdata::testing::page_stub("shop.test", path, html))
                .status == 201);
  }
}

webdata::Json product_schema() {
  return webdata::Json::parse(R"({"type":"object","properties":{"colour":{"type":"string"},)"
                              R"("material":{"type":"string"}},"required":["colour","material"]})")
      .value();
}

/// `client`'s extract of `req` (v1 or v2), waited for; it must have completed.
template <class Client, class Request>
auto completed_extract(const Client& client, const Request& req) {
  auto done = client.extract(req, {50ms, 30s, {}});
  REQUIRE(done.ok());
  CHECK(done->status == "completed");
  return *done;
}

/// The extract job `id` once done, read until then (the last status read when it never is).
webdata::ExtractResult status_once_done(const webdata::Client& client, const std::string& id) {
  webdata::ExtractResult last;
  webdata::testing::eventually([&] {
    auto status = client.extract_status(id);
    REQUIRE(status.ok());
    last = *status;
    return last.done();
  });
  return last;
}

}  // namespace

TEST_CASE_METHOD(MockAndClient,
                 "Client::extract starts, waits and returns data merged across a glob's pages",
                 "[integration][extract]") {
  add_shop(mock);
  webdata::ExtractRequest req;
  req.urls = {"http://shop.test/products/*"};
  req.schema = product_schema();
  req.show_sources = true;
  auto done = completed_extract(client, req);
  CHECK(done.success);
  CHECK(done.data.text() == R"({"colour":"black","material":"steel"})");
  CHECK(done.sources["colour"] == std::vector<std::string>{"http://shop.test/products/anvil"});
  CHECK(done.credits_used == 15);
  REQUIRE(done.tokens_used);
  CHECK(*done.tokens_used > 0);
  REQUIRE(done.expires_at);

  // The tokens show in the team's token usage.
  auto tokens = client.token_usage();
  REQUIRE(tokens.ok());
  REQUIRE(tokens->plan_tokens);
  CHECK(*tokens->plan_tokens - tokens->remaining_tokens == *done.tokens_used);
}

TEST_CASE_METHOD(MockAndClient,
                 "start_extract and extract_status: processing, then completed, errors as errors",
                 "[integration][extract]") {
  add_shop(mock);
  webdata::testing::ApiClient(mock.url()).post("/__admin/settings", {{"pagePacingMs", 300}});
  webdata::ExtractRequest req;
  req.urls = {"http://shop.test/products/*"};
  req.prompt = "the colour";
  const auto started = started_job(client.start_extract(req));
  auto first = client.extract_status(started.id);
  REQUIRE(first.ok());
  CHECK(first->status == "processing");
  CHECK_FALSE(first->done());
  const auto last = status_once_done(client, started.id);
  CHECK(last.status == "completed");
  CHECK(last.data.is_object());
  CHECK(last.sources.empty());  // not asked for

  auto unknown = client.extract_status("00000000-0000-4000-8000-000000000000");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().http_status == 404);

  webdata::ExtractRequest bad;
  bad.urls = {"ftp://shop.test/"};
  auto refused = client.start_extract(bad);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().http_status == 400);
  CHECK(refused.error().details.find("urls") != std::string::npos);

  auto empty = client.start_extract(webdata::ExtractRequest{});
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().kind == webdata::ErrorKind::kInvalidArgument);

  // A wait shorter than the job: kTimeout.
  auto slow = client.extract(req, {50ms, 100ms, {}});
  REQUIRE_FALSE(slow.ok());
  CHECK(slow.error().kind == webdata::ErrorKind::kTimeout);
}

TEST_CASE_METHOD(MockAndV1Client, "v1::Client::extract", "[integration][extract]") {
  add_shop(mock);
  webdata::v1::ExtractRequest req;
  req.urls = {"shop.test/products/anvil"};
  req.schema = product_schema();
  req.include_subdomains = false;
  CHECK(completed_extract(v1, req).data.text().find(R"("colour":"black")") != std::string::npos);
  // A v1 job is readable through v2, as deployments share one store.
  auto job = v1.start_extract(req);
  REQUIRE(job.ok());
  webdata::Client v2(mock.url(), "test-key");
  CHECK(v2.extract_status(job->id).ok());
}

TEST_CASE_METHOD(MockAndClient,
                 "a failed extract job is an ExtractResult with its error, not an Error",
                 "[integration][extract]") {
  webdata::ExtractRequest req;
  req.urls = {"http://nowhere.invalid/"};
  req.prompt = "the heading";
  auto done = client.extract(req, {50ms, 30s, {}});
  REQUIRE(done.ok());
  CHECK(done->status == "failed");
  CHECK_FALSE(done->success);
  REQUIRE(done->error);
  CHECK(done->error->find("nowhere.invalid") != std::string::npos);

  // The same through extract_status of a started job.
  auto started = client.start_extract(req);
  REQUIRE(started.ok());
  CHECK(status_once_done(client, started->id).status == "failed");
}

TEST_CASE_METHOD(MockAndV1Client, "v1::Client deep research: start, status, wait",
                 "[integration][v1-jobs]") {
  webdata::v1::DeepResearchRequest req;
  req.query = "trail kettle";
  req.max_depth = 2;
  req.max_urls = 3;
  req.formats = {"markdown", "json"};
  const auto started = started_job(v1.start_deep_research(req));
  auto first = v1.deep_research_status(started.id);
  REQUIRE(first.ok());
  CHECK(first->status == "processing");
  CHECK(first->final_analysis.empty());

  auto done = v1.deep_research(req, {50ms, 30s, {}});
  REQUIRE(done.ok());
  CHECK(done->status == "completed");
  CHECK(done->max_depth == 2);
  REQUIRE_FALSE(done->sources.empty());
  CHECK(done->sources.size() <= 3);
  CHECK(done->activities.size() >= 3);
  CHECK(done->activities.front().type == "search");
  CHECK(done->final_analysis.find(done->sources.front().url) != std::string::npos);
  CHECK(done->json.has_value());
  CHECK(done->diagnostics.empty());

  auto missing = v1.deep_research_status("00000000-0000-4000-8000-000000000000");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().http_status == 404);
}

TEST_CASE_METHOD(MockAndV1Client, "v1::Client llms.txt: start, status, wait",
                 "[integration][v1-jobs]") {
  webdata::v1::LlmsTxtRequest req;
  req.url = "http://pages-5.synthetic.test/";
  req.max_urls = 3;
  req.show_full_text = true;
  auto done = v1.llms_txt(req, {50ms, 30s, {}});
  REQUIRE(done.ok());
  CHECK(done->status == "completed");
  CHECK(done->llmstxt.rfind("# http://pages-5.synthetic.test/ llms.txt", 0) == 0);
  REQUIRE(done->llmsfulltxt);
  CHECK_FALSE(done->llmsfulltxt->empty());
  CHECK(done->diagnostics.empty());

  webdata::v1::LlmsTxtRequest bad;
  auto refused = v1.start_llms_txt(bad);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().http_status == 400);
}
