// Crawl and batch scrape over real HTTP: states, scope, robots, sitemaps, chunking with `next`,
// cancel, errors, the active list, retention and persistence.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <thread>

#include <unistd.h>

#include "api_client.hpp"
#include "eventually.hpp"
#include "mock_fixture.hpp"
#include "webhook_receiver.hpp"
#include "stub_mapping.hpp"

using webdata::testing::ApiClient;
using webdata::testing::ApiReply;
using webdata::testing::eventually;
using webdata::testing::RunningMock;
using json = nlohmann::json;
using webdata::testing::page_stub;

namespace {

std::string links_to(const std::vector<std::string>& targets, const std::string& title) {
  std::string html = "<html><head><title>" + title + "</title></head><body><main><h1>" + title +
                     "</h1>";
  for (const auto& t : targets) html += "<p><a href=\"" + t + "\">" + t + "</a></p>";
  return html + "</main></body></html>";
}

webdata::mock::Config fast_config() {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  return config;
}

/// A small site: / -> /docs/, /docs/a, /blog/post, /private/x (robots), an external link; the
/// sitemap adds /docs/hidden (linked from nowhere); /docs/a -> /docs/b -> /docs/c (depth).
struct SiteFixture {
  RunningMock mock{fast_config()};
  ApiClient api{mock.url()};

  SiteFixture() {
    const std::string h = "site.test";
    add(page_stub(h, "/", links_to({"/docs/", "/docs/a", "/blog/post", "/private/x",
                               "https://other.test/", "/docs/a#section"},
                              "Home")));
    add(page_stub(h, "/docs/", links_to({"/docs/a", "/"}, "Docs")));
    add(page_stub(h, "/docs/a", links_to({"/docs/b"}, "A")));
    add(page_stub(h, "/docs/b", links_to({"/docs/c"}, "B")));
    add(page_stub(h, "/docs/c", links_to({"/docs/missing"}, "C")));
    add(page_stub(h, "/docs/missing", links_to({}, "Missing"), 404));
    add(page_stub(h, "/docs/hidden", links_to({}, "Hidden")));
    add(page_stub(h, "/blog/post", links_to({}, "Post")));
    add(page_stub(h, "/private/x", links_to({}, "Private")));
    add(page_stub(h, "/robots.txt", "User-agent: *\nDisallow: /private/\n", 200, "text/plain"));
    add(page_stub(h, "/sitemap.xml",
             "<urlset><url><loc>http://site.test/docs/hidden</loc></url></urlset>", 200,
             "application/xml"));
    add(page_stub("other.test", "/", links_to({}, "Other")));
  }
  void add(const json& mapping) { REQUIRE(api.post("/__admin/mappings", mapping).status == 201); }

  /// Polls the status until the job leaves `scraping`.
  json wait_done(const std::string& status_path) {
    const json body = api.wait_job(status_path, std::chrono::seconds(12));
    INFO(body.dump());
    REQUIRE(body.value("status", "scraping") != "scraping");
    return body;
  }

  /// Every document's sourceURL, following `next` from the first chunk.
  std::vector<std::string> walk(const std::string& status_path) {
    std::vector<std::string> urls;
    std::string path = status_path;
    for (int guard = 0; guard < 100000; ++guard) {
      const auto r = api.get(path);
      REQUIRE(r.status == 200);
      for (const auto& doc : r.body["data"]) urls.push_back(doc["metadata"]["sourceURL"]);
      if (!r.body.contains("next")) break;
      const std::string next = r.body["next"];
      REQUIRE(next.rfind(mock.url(), 0) == 0);  // absolute, on the host we called
      path = next.substr(mock.url().size());
    }
    return urls;
  }

  std::set<std::string> crawl(json request) {
    const auto started = api.post("/v2/crawl", request);
    REQUIRE(started.status == 200);
    const std::string id = started.body["id"];
    const auto done = wait_done("/v2/crawl/" + id);
    CHECK(done["status"] == "completed");
    const auto urls = walk("/v2/crawl/" + id);
    return {urls.begin(), urls.end()};
  }
};

using Urls = std::set<std::string>;

}  // namespace

TEST_CASE_METHOD(SiteFixture, "a crawl starts, reports its status URL and completes",
                 "[jobs][crawl]") {
  const auto started = api.post("/v2/crawl", {{"url", "http://site.test/"}});
  REQUIRE(started.status == 200);
  CHECK(started.body["success"] == true);
  const std::string id = started.body["id"];
  CHECK(id.size() == 36);
  CHECK(started.body["url"] == mock.url("/v2/crawl/" + id));
  const auto done = wait_done("/v2/crawl/" + id);
  CHECK(done["status"] == "completed");
  CHECK(done["completed"] == done["data"].size());
  CHECK(done["total"] >= done["completed"]);
  CHECK(done["creditsUsed"] == done["completed"]);
  CHECK(done["expiresAt"].is_string());
  CHECK_FALSE(done.contains("next"));  // absent, not null, on the last chunk of a finished job
}

TEST_CASE_METHOD(SiteFixture, "crawl scope options decide which pages are found", "[jobs][crawl]") {
  SECTION("default: the whole site from /, robots and sitemap applied") {
    CHECK(crawl({{"url", "http://site.test/"}}) ==
          Urls{"http://site.test/", "http://site.test/docs/", "http://site.test/docs/a",
               "http://site.test/docs/b", "http://site.test/docs/c", "http://site.test/docs/missing",
               "http://site.test/docs/hidden", "http://site.test/blog/post"});
  }
  SECTION("children of the start path only") {
    CHECK(crawl({{"url", "http://site.test/docs/a"}}) == Urls{"http://site.test/docs/a"});
    const auto docs = crawl({{"url", "http://site.test/docs/"}, {"sitemap", "skip"}});
    CHECK(docs == Urls{"http://site.test/docs/", "http://site.test/docs/a", "http://site.test/docs/b",
                       "http://site.test/docs/c", "http://site.test/docs/missing"});
  }
  SECTION("crawlEntireDomain admits pages outside the start path") {
    const auto all = crawl({{"url", "http://site.test/docs/c"}, {"crawlEntireDomain", true},
                            {"sitemap", "skip"}});
    CHECK(all == Urls{"http://site.test/docs/c", "http://site.test/docs/missing"});
    const auto from_docs = crawl({{"url", "http://site.test/docs/"}, {"crawlEntireDomain", true},
                                  {"sitemap", "skip"}});
    CHECK(from_docs.count("http://site.test/") == 1);
    CHECK(from_docs.count("http://site.test/blog/post") == 1);
  }
  SECTION("allowExternalLinks follows other hosts") {
    CHECK(crawl({{"url", "http://site.test/"}, {"allowExternalLinks", true}}).count(
              "https://other.test/") == 1);
  }
  SECTION("sitemap only and skip") {
    CHECK(crawl({{"url", "http://site.test/"}, {"sitemap", "only"}}) ==
          Urls{"http://site.test/", "http://site.test/docs/hidden"});
    CHECK(crawl({{"url", "http://site.test/"}, {"sitemap", "skip"}}).count(
              "http://site.test/docs/hidden") == 0);
  }
  SECTION("ignoreRobotsTxt") {
    CHECK(crawl({{"url", "http://site.test/"}, {"ignoreRobotsTxt", true}}).count(
              "http://site.test/private/x") == 1);
  }
  SECTION("includePaths and excludePaths") {
    CHECK(crawl({{"url", "http://site.test/"}, {"includePaths", {"^/docs/[ab]$"}},
                 {"sitemap", "skip"}}) ==
          Urls{"http://site.test/", "http://site.test/docs/a", "http://site.test/docs/b"});
    CHECK(crawl({{"url", "http://site.test/"}, {"excludePaths", {"^/docs"}}}) ==
          Urls{"http://site.test/", "http://site.test/blog/post"});
  }
  SECTION("query strings: distinct pages unless ignoreQueryParameters") {
    add(page_stub("site.test", "/", links_to({"/docs/a?utm=1", "/docs/a?utm=2"}, "Home")));
    CHECK(crawl({{"url", "http://site.test/"}, {"sitemap", "skip"}, {"maxDiscoveryDepth", 1}}) ==
          Urls{"http://site.test/", "http://site.test/docs/a?utm=1", "http://site.test/docs/a?utm=2"});
    CHECK(crawl({{"url", "http://site.test/"}, {"sitemap", "skip"}, {"maxDiscoveryDepth", 1},
                 {"ignoreQueryParameters", true}}) ==
          Urls{"http://site.test/", "http://site.test/docs/a"});
  }
  SECTION("maxDiscoveryDepth and limit") {
    CHECK(crawl({{"url", "http://site.test/"}, {"maxDiscoveryDepth", 1}, {"sitemap", "skip"}}) ==
          Urls{"http://site.test/", "http://site.test/docs/", "http://site.test/docs/a",
               "http://site.test/blog/post"});
    CHECK(crawl({{"url", "http://site.test/"}, {"limit", 3}}).size() == 3);
  }
  SECTION("v1: maxDepth counts path segments, allowBackwardLinks, ignoreSitemap") {
    const auto started = api.post("/v1/crawl", {{"url", "http://site.test/docs/c"},
                                                {"allowBackwardLinks", true},
                                                {"ignoreSitemap", true}});
    REQUIRE(started.status == 200);
    const std::string id = started.body["id"];
    CHECK(started.body["url"] == mock.url("/v1/crawl/" + id));
    wait_done("/v1/crawl/" + id);
    const auto urls = walk("/v1/crawl/" + id);
    CHECK(Urls(urls.begin(), urls.end()) ==
          Urls{"http://site.test/docs/c", "http://site.test/docs/missing"});
  }
}

TEST_CASE_METHOD(SiteFixture, "robots-blocked pages and failed pages go to the errors endpoint",
                 "[jobs][crawl][errors]") {
  add(page_stub("site.test", "/", links_to({"/private/x", "/docs/c"}, "Home")));
  add({{"request", {{"method", "GET"}, {"host", {{"equalTo", "site.test"}}}, {"urlPath", "/docs/c"}}},
       {"response", {{"fault", "CONNECTION_RESET_BY_PEER"}}}});
  const auto started = api.post("/v2/crawl", {{"url", "http://site.test/"}, {"sitemap", "skip"}});
  const std::string id = started.body["id"];
  const auto done = wait_done("/v2/crawl/" + id);
  CHECK(done["status"] == "completed");
  for (const auto& doc : done["data"]) CHECK(doc["metadata"]["sourceURL"] != "http://site.test/docs/c");
  const auto errors = api.get("/v2/crawl/" + id + "/errors");
  REQUIRE(errors.status == 200);
  CHECK(errors.body["robotsBlocked"] == json::array({"http://site.test/private/x"}));
  bool found = false;
  for (const auto& e : errors.body["errors"]) {
    CHECK(e["id"].get<std::string>().size() == 36);
    CHECK(e["timestamp"].is_string());
    CHECK(e["code"].is_string());
    CHECK(e["error"].is_string());
    if (e["url"] == "http://site.test/docs/c") found = true;
  }
  CHECK(found);
  // The unversioned alias.
  CHECK(api.get("/crawl/" + id + "/errors").body == errors.body);
}

TEST_CASE_METHOD(SiteFixture, "a crawl whose start host does not resolve fails", "[jobs][crawl]") {
  const auto started = api.post("/v2/crawl", {{"url", "http://nowhere.invalid/"}});
  REQUIRE(started.status == 200);
  const auto done = wait_done("/v2/crawl/" + started.body["id"].get<std::string>());
  CHECK(done["status"] == "failed");
  CHECK(done["data"].empty());
  CHECK(done["error"].is_string());
}

TEST_CASE_METHOD(SiteFixture, "bad crawl requests are refused", "[jobs][crawl]") {
  CHECK(api.post("/v2/crawl", {{"url", "http://site.test/"}, {"includePaths", {"(unclosed"}}})
            .status == 400);
  CHECK(api.post("/v2/crawl", {{"url", "ftp://site.test/"}}).status == 400);
  CHECK(api.post("/v2/crawl", {{"url", "http://site.test/"}, {"maxDepth", 2}}).status == 400);
  CHECK(api.post("/v1/crawl", {{"url", "http://site.test/"}, {"crawlEntireDomain", true}})
            .status == 400);
  CHECK(api.post("/v2/crawl", {{"url", "http://site.test/"}, {"webhook", "not a url"}}).status ==
        400);
}

TEST_CASE_METHOD(SiteFixture, "status: unknown ids, other teams, bad paging parameters",
                 "[jobs][status]") {
  const std::string unknown = "00000000-0000-4000-8000-000000000000";
  auto r = api.get("/v2/crawl/" + unknown);
  CHECK(r.status == 404);
  CHECK(r.body["error"] == "Job not found");
  const auto started = api.post("/v2/crawl", {{"url", "http://site.test/"}});
  const std::string id = started.body["id"];
  const auto skip = api.get("/v2/crawl/" + id + "?skip=-1");
  CHECK(skip.status == 400);
  CHECK(skip.body["details"][0]["path"] == json::array({"skip"}));
  CHECK(api.get("/v2/crawl/" + id + "?skip=abc").status == 400);
  const auto limit = api.get("/v2/crawl/" + id + "?limit=0");
  CHECK(limit.status == 400);
  CHECK(limit.body["details"][0]["path"] == json::array({"limit"}));
  CHECK(api.get("/v2/crawl/" + id + "?limit=1001").status == 400);
  CHECK(api.get("/v2/batch/scrape/" + id).status == 404);  // a crawl is not a batch
}

TEST_CASE("jobs are team-scoped", "[jobs][status]") {
  auto config = fast_config();
  config.teams = {{"alpha", {"key-a"}}, {"beta", {"key-b"}}};
  RunningMock mock(config);
  const ApiClient alpha(mock.url(), "key-a");
  const ApiClient beta(mock.url(), "key-b");
  const auto started = alpha.post("/v2/batch/scrape", {{"urls", {"http://nowhere.invalid/"}}});
  REQUIRE(started.status == 200);
  const std::string id = started.body["id"];
  CHECK(alpha.get("/v2/batch/scrape/" + id).status == 200);
  CHECK(beta.get("/v2/batch/scrape/" + id).status == 404);
  CHECK(beta.del("/v2/batch/scrape/" + id).status == 404);
}

TEST_CASE_METHOD(SiteFixture, "chunking: following next yields every document exactly once",
                 "[jobs][chunks]") {
  REQUIRE(api.post("/__admin/settings", {{"chunkBytes", 600}}).status == 200);
  const auto started = api.post("/v2/crawl", {{"url", "http://site.test/"}});
  const std::string id = started.body["id"];
  wait_done("/v2/crawl/" + id);
  const auto first = api.get("/v2/crawl/" + id);
  REQUIRE(first.body.contains("next"));
  CHECK(first.body["next"].get<std::string>().find("/v2/crawl/" + id + "?skip=") !=
        std::string::npos);
  const auto urls = walk("/v2/crawl/" + id);
  CHECK(urls.size() == first.body["completed"].get<std::size_t>());
  CHECK(Urls(urls.begin(), urls.end()).size() == urls.size());

  SECTION("limit caps documents and is carried into next") {
    const auto limited = api.get("/v2/crawl/" + id + "?limit=1");
    CHECK(limited.body["data"].size() == 1);
    CHECK(limited.body["next"].get<std::string>().find("&limit=1") != std::string::npos);
  }
  SECTION("skip past the end is an empty last chunk") {
    const auto past = api.get("/v2/crawl/" + id + "?skip=1000");
    CHECK(past.status == 200);
    CHECK(past.body["data"].empty());
    CHECK_FALSE(past.body.contains("next"));
  }
}

TEST_CASE_METHOD(SiteFixture, "batch scrape: invalid URLs both ways, v1 and v2", "[jobs][batch]") {
  const json urls = {"http://site.test/docs/a", "not a url", "javascript:alert(1)",
                     "http://site.test/docs/b"};
  const auto v2 = api.post("/v2/batch/scrape", {{"urls", urls}, {"formats", {"markdown", "links"}}});
  REQUIRE(v2.status == 200);
  CHECK(v2.body["invalidURLs"] == json::array({"not a url", "javascript:alert(1)"}));
  CHECK(v2.body["url"] == mock.url("/v2/batch/scrape/" + v2.body["id"].get<std::string>()));
  const auto done = wait_done("/v2/batch/scrape/" + v2.body["id"].get<std::string>());
  CHECK(done["status"] == "completed");
  CHECK(done["total"] == 2);
  CHECK(done["completed"] == 2);
  for (const auto& doc : done["data"]) CHECK(doc.contains("links"));

  const auto none_invalid = api.post("/v2/batch/scrape", {{"urls", {"http://site.test/"}}});
  CHECK(none_invalid.body["invalidURLs"] == json::array());

  const auto strict = api.post("/v2/batch/scrape", {{"urls", urls}, {"ignoreInvalidURLs", false}});
  CHECK(strict.status == 400);
  CHECK(strict.body["error"] == "Bad Request");
  CHECK(strict.body["hint"].get<std::string>().find("urls.1") != std::string::npos);
  std::set<json> paths;
  for (const auto& issue : strict.body["details"]) paths.insert(issue["path"]);
  CHECK(paths == std::set<json>{json({"urls", 1}), json({"urls", 2})});

  // v1 defaults to refusing invalid URLs, and leaves invalidURLs out when it does not ignore.
  CHECK(api.post("/v1/batch/scrape", {{"urls", urls}}).status == 400);
  const auto v1 = api.post("/v1/batch/scrape", {{"urls", {"http://site.test/"}}});
  REQUIRE(v1.status == 200);
  CHECK_FALSE(v1.body.contains("invalidURLs"));
  const auto v1_done = wait_done("/v1/batch/scrape/" + v1.body["id"].get<std::string>());
  CHECK(v1_done["completed"] == 1);
}

TEST_CASE("cancel: queued pages dropped, status cancelled, finished jobs refused",
          "[jobs][cancel]") {
  auto config = fast_config();
  config.page_pacing_ms = 200;  // slow enough to cancel mid-run
  RunningMock mock(config);
  const ApiClient api(mock.url());
  std::vector<std::string> urls;
  for (int i = 0; i < 40; ++i) urls.push_back("http://nowhere.invalid/" + std::to_string(i));
  const auto started = api.post("/v2/batch/scrape", {{"urls", urls}, {"maxConcurrency", 1}});
  REQUIRE(started.status == 200);
  const std::string id = started.body["id"];
  const auto cancelled = api.del("/v2/batch/scrape/" + id);
  CHECK(cancelled.status == 200);
  CHECK(cancelled.body["status"] == "cancelled");
  const auto status = api.get("/v2/batch/scrape/" + id);
  CHECK(status.body["status"] == "cancelled");
  CHECK_FALSE(status.body.contains("next"));
  // Past the time every queued page would have started (pacing): none did.
  mock.server().clock().advance(std::chrono::seconds(10));
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(10)));
  const auto errors = api.get("/v2/batch/scrape/" + id + "/errors");
  CHECK(errors.body["errors"].size() < 10);  // the queued pages never ran
  const auto again = api.del("/v2/batch/scrape/" + id);
  CHECK(again.status == 409);
  CHECK(again.body["error"] == "Job already finished");
  CHECK(api.get("/v2/batch/scrape/" + id).body["status"] == "cancelled");
}

TEST_CASE("active crawls list the team's running crawls", "[jobs][active]") {
  auto config = fast_config();
  config.page_pacing_ms = 200;
  RunningMock mock(config);
  const ApiClient api(mock.url());
  const auto crawl = api.post("/v2/crawl", {{"url", "http://pages-50.synthetic.test/"},
                                            {"scrapeOptions", {{"formats", {"links"}}}}});
  const auto batch = api.post("/v2/batch/scrape", {{"urls", {"http://nowhere.invalid/"}}});
  const auto active = api.get("/v2/crawl/active");
  REQUIRE(active.status == 200);
  CHECK(active.body["success"] == true);
  bool found = false;
  for (const auto& entry : active.body["crawls"]) {
    CHECK(entry["id"] != batch.body["id"]);
    if (entry["id"] == crawl.body["id"]) {
      found = true;
      CHECK(entry["teamId"] == "team-1");
      CHECK(entry["url"] == "http://pages-50.synthetic.test/");
      CHECK(entry["created_at"].is_string());
      CHECK(entry["options"]["scrapeOptions"]["formats"] == json::array({"links"}));
    }
  }
  CHECK(found);
  api.del("/v2/crawl/" + crawl.body["id"].get<std::string>());
  const auto after = api.get("/v1/crawl/active");  // keep the reply alive while iterating
  for (const auto& entry : after.body["crawls"]) {
    CHECK(entry["id"] != crawl.body["id"]);
  }
}

TEST_CASE_METHOD(SiteFixture, "results expire 24 hours after completion", "[jobs][retention]") {
  const auto started = api.post("/v2/batch/scrape", {{"urls", {"http://site.test/"}}});
  const std::string id = started.body["id"];
  wait_done("/v2/batch/scrape/" + id);
  REQUIRE(api.post("/__admin/clock/advance", {{"milliseconds", 23LL * 3600 * 1000}}).status == 200);
  CHECK(api.get("/v2/batch/scrape/" + id).status == 200);
  REQUIRE(api.post("/__admin/clock/advance", {{"milliseconds", 3600LL * 1000 + 1000}}).status ==
          200);
  const auto expired = api.get("/v2/batch/scrape/" + id);
  CHECK(expired.status == 404);
  CHECK(expired.body["error"] == "Job expired");
  CHECK(api.get("/v2/batch/scrape/" + id + "/errors").body["error"] == "Job expired");
}

TEST_CASE("jobs and documents survive a restart with a state directory",
          "[jobs][persistence]") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("webdata-state-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  auto config = fast_config();
  config.state_dir = dir.string();
  std::string done_id;
  std::string running_id;
  json done_body;
  {
    RunningMock mock(config);
    const ApiClient api(mock.url());
    REQUIRE(api.post("/__admin/mappings", page_stub("keep.test", "/", links_to({}, "Kept"))).status ==
            201);
    done_id = api.post("/v2/batch/scrape", {{"urls", {"http://keep.test/"}}}).body["id"];
    REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(20)));
    done_body = api.get("/v2/batch/scrape/" + done_id).body;
    REQUIRE(done_body["status"] == "completed");
    REQUIRE(api.post("/__admin/settings", {{"pagePacingMs", 5000}}).status == 200);
    std::vector<std::string> urls(20, "http://keep.test/");
    running_id = api.post("/v2/batch/scrape", {{"urls", urls}, {"maxConcurrency", 1}}).body["id"];
    // Stopped while it runs: its first page done, the next held back by the pacing.
    REQUIRE(eventually([&] {
      return api.get("/v2/batch/scrape/" + running_id).body.value("completed", 0) >= 1;
    }));
  }
  RunningMock again(config);
  const ApiClient api(again.url());
  const auto done = api.get("/v2/batch/scrape/" + done_id);
  REQUIRE(done.status == 200);
  CHECK(done.body["status"] == "completed");
  CHECK(done.body["data"] == done_body["data"]);
  const auto interrupted = api.get("/v2/batch/scrape/" + running_id);
  REQUIRE(interrupted.status == 200);
  CHECK(interrupted.body["status"] == "failed");
  CHECK(interrupted.body["error"].get<std::string>().find("stopped") != std::string::npos);
  CHECK(interrupted.body["completed"] == interrupted.body["data"].size());
  std::filesystem::remove_all(dir);
}

TEST_CASE("credits: a job is refused when the team cannot pay its first page",
          "[jobs][credits]") {
  RunningMock mock(fast_config());
  const ApiClient api(mock.url());
  REQUIRE(api.post("/__admin/settings/credits", {{"team", "team-1"}, {"credits", 0}}).status == 200);
  CHECK(api.post("/v2/crawl", {{"url", "http://site.test/"}}).status == 402);
  CHECK(api.post("/v1/batch/scrape", {{"urls", {"http://site.test/"}}}).status == 402);
}

TEST_CASE("a 10,000-page synthetic crawl pages through small chunks while it runs",
          "[jobs][chunks][large]") {
  RunningMock mock(fast_config());
  const ApiClient api(mock.url());
  REQUIRE(api.post("/__admin/settings", {{"chunkBytes", 256 * 1024}}).status == 200);
  const std::string host = "pages-10000.fanout-10.synthetic.test";
  const auto started = api.post("/v2/crawl", {{"url", "http://" + host + "/"},
                                              {"limit", 10000},
                                              {"sitemap", "skip"},
                                              {"scrapeOptions", {{"formats", {"markdown"}}}}});
  REQUIRE(started.status == 200);
  const std::string status_path = "/v2/crawl/" + started.body["id"].get<std::string>();

  // Follow `next` from the first chunk while the crawl is still running: a chunk at the end of
  // what exists so far carries `next` again, and every document arrives exactly once.
  std::vector<std::string> seen;
  std::string path = status_path;
  std::size_t chunks = 0;
  json last;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(8);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto r = api.get(path);
    REQUIRE(r.status == 200);
    ++chunks;
    for (const auto& doc : r.body["data"]) seen.push_back(doc["metadata"]["sourceURL"]);
    last = r.body;
    if (!r.body.contains("next")) break;
    const std::string next = r.body["next"];
    REQUIRE(next.rfind(mock.url(), 0) == 0);
    path = next.substr(mock.url().size());
    // At the end of what exists so far: wait for the crawl to find more (or to end).
    if (r.body["data"].empty()) {
      REQUIRE(eventually([&] {
        const json more = api.get(path).body;
        return !more["data"].empty() || !more.contains("next");
      }));
    }
  }
  REQUIRE(last["status"] == "completed");
  CHECK(last["total"] == 10000);
  CHECK(last["completed"] == 10000);
  CHECK(seen.size() == 10000);
  const std::set<std::string> unique(seen.begin(), seen.end());
  CHECK(unique.size() == seen.size());  // no duplicate
  // No gap: the root, the deepest first page and the last page of the breadth-first tree.
  CHECK(unique.count("http://" + host + "/") == 1);
  CHECK(unique.count("http://" + host + "/p1/p1/p1") == 1);
  CHECK(unique.count("http://" + host + "/p9/p9/p9/p9") == 1);   // page 9999, the last
  CHECK(unique.count("http://" + host + "/p9/p9/p9/p10") == 0);  // page 10000 does not exist
  CHECK(chunks > 100);  // ~3 KB documents in 256 KiB chunks: the walk really paged

  // Finished: the same walk from the start ends without `next` and yields the same set.
  std::vector<std::string> again;
  path = status_path;
  for (int guard = 0; guard < 10000; ++guard) {
    const auto r = api.get(path);
    REQUIRE(r.status == 200);
    for (const auto& doc : r.body["data"]) again.push_back(doc["metadata"]["sourceURL"]);
    if (!r.body.contains("next")) break;
    path = r.body["next"].get<std::string>().substr(mock.url().size());
  }
  CHECK(again.size() == 10000);
  CHECK(std::set<std::string>(again.begin(), again.end()) == unique);
}

namespace {

/// The most requests a receiver was serving at once, each counted from its arrival for `hold`
/// (the receiver answers after that delay).
std::size_t max_in_flight(const std::vector<webdata::mock::webhooks::testing::Receiver::Request>& rs,
                          std::chrono::milliseconds hold) {
  std::vector<std::pair<std::chrono::steady_clock::time_point, int>> edges;
  for (const auto& r : rs) {
    edges.emplace_back(r.received_at, +1);
    // A little short of the answer, so that a worker's next request never counts as overlap.
    edges.emplace_back(r.received_at + hold - std::chrono::milliseconds(5), -1);
  }
  std::sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second < b.second;
  });
  int now = 0;
  int most = 0;
  for (const auto& edge : edges) {
    now += edge.second;
    most = std::max(most, now);
  }
  return static_cast<std::size_t>(most);
}

std::vector<std::string> local_urls(const webdata::mock::webhooks::testing::Receiver& site,
                                    const std::string& prefix, int n) {
  std::vector<std::string> urls;
  for (int i = 0; i < n; ++i) urls.push_back(site.url("/" + prefix + std::to_string(i)));
  return urls;
}

}  // namespace

TEST_CASE("concurrency: maxConcurrency per job and the team limit across jobs",
          "[jobs][concurrency]") {
  using webdata::mock::webhooks::testing::Receiver;
  const auto hold = std::chrono::milliseconds(150);
  Receiver site;  // a live target on loopback that answers every page after `hold`
  site.set_handler([hold](const Receiver::Request&) {
    Receiver::Reply reply;
    reply.delay = hold;
    reply.headers = {{"Content-Type", "text/html"}};
    return reply;
  });
  auto config = fast_config();
  config.live_fetch = true;
  config.allow_private_targets = true;
  config.teams = {{"team-1", {"test-key"}}};

  SECTION("a job never scrapes more than its maxConcurrency pages at once") {
    config.teams[0].concurrency = 8;
    RunningMock mock(config);
    const ApiClient api(mock.url());
    const auto started = api.post("/v2/batch/scrape", {{"urls", local_urls(site, "a", 12)},
                                                       {"maxConcurrency", 3}});
    REQUIRE(started.status == 200);
    REQUIRE(site.wait_for_count(12, std::chrono::seconds(60)));
    const std::string status = "/v2/batch/scrape/" + started.body["id"].get<std::string>();
    CHECK(api.wait_job(status, std::chrono::seconds(12))["completed"] == 12);
    const auto most = max_in_flight(site.requests(), hold);
    CHECK(most <= 3);
    CHECK(most >= 2);  // and it does run pages side by side
  }
  SECTION("a team's jobs together stay within the team's concurrency") {
    config.teams[0].concurrency = 2;
    RunningMock mock(config);
    const ApiClient api(mock.url());
    const auto a = api.post("/v2/batch/scrape", {{"urls", local_urls(site, "b", 6)},
                                                 {"maxConcurrency", 5}});
    const auto b = api.post("/v2/batch/scrape", {{"urls", local_urls(site, "c", 6)},
                                                 {"maxConcurrency", 5}});
    REQUIRE(a.status == 200);
    REQUIRE(b.status == 200);
    REQUIRE(site.wait_for_count(12, std::chrono::seconds(60)));
    const auto most = max_in_flight(site.requests(), hold);
    CHECK(most <= 2);
    CHECK(most >= 2);
  }
}

namespace {

/// Two teams: team-1 (`test-key`, room for 64 pages at once) fills the engine with slow work,
/// team-2 (`other-key`) must not wait for it.
webdata::mock::Config two_team_config() {
  auto config = fast_config();
  config.teams = {{"team-1", {"test-key"}}, {"team-2", {"other-key"}}};
  config.teams[0].concurrency = 64;
  return config;
}

/// How long a one-page batch of `api`'s team takes from its POST to `completed`.
std::chrono::milliseconds one_page_batch_ms(const ApiClient& api) {
  const auto at = std::chrono::steady_clock::now();
  const auto started = api.post("/v2/batch/scrape", {{"urls", {"https://docs.example.test/"}}});
  REQUIRE(started.status == 200);
  const json done = api.wait_job("/v2/batch/scrape/" + started.body["id"].get<std::string>(),
                                 std::chrono::seconds(10), std::chrono::milliseconds(10));
  CHECK(done["status"] == "completed");
  CHECK(done["completed"] == 1);
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               at);
}

}  // namespace

TEST_CASE("a job's slow pages hold no engine worker: another team's page is not kept waiting",
          "[jobs][concurrency]") {
  // 24 pages that answer after 3 s, more than the engine's 16 workers: a worker that slept for
  // its page would leave none for the other team's page until the first slow ones were done.
  RunningMock mock(two_team_config());
  const ApiClient slow_api(mock.url());
  const ApiClient other_api(mock.url(), "other-key");
  json urls = json::array();
  for (int i = 0; i < 24; ++i) {
    urls.push_back("https://delay-3000.p" + std::to_string(i) + ".synthetic.test/");
  }
  const auto slow = slow_api.post("/v2/batch/scrape", {{"urls", urls}, {"maxConcurrency", 64}});
  REQUIRE(slow.status == 200);
  // Every slow page in flight, waiting in the engine's deferred queue.
  REQUIRE(eventually([&] { return mock.server().jobs().deferred_count() == 24; }));

  const auto fast_ms = one_page_batch_ms(other_api);
  const std::string slow_status = "/v2/batch/scrape/" + slow.body["id"].get<std::string>();
  const json slow_while = slow_api.get(slow_status).body;
  INFO("the other team's page took " << fast_ms.count() << " ms behind 24 slow pages");
  CHECK(slow_while["status"] == "scraping");  // the slow pages were still waiting
  CHECK(slow_while["completed"] == 0);
  CHECK(fast_ms < std::chrono::milliseconds(2000));

  // The three seconds pass on the mock's clock: every slow page is due at once.
  mock.server().clock().advance(std::chrono::seconds(3));
  const json slow_done = slow_api.wait_job(slow_status);
  CHECK(slow_done["status"] == "completed");
  CHECK(slow_done["completed"] == 24);
  CHECK(slow_done["data"].size() == 24);
}

TEST_CASE("a crawl's slow robots.txt and sitemaps hold no engine worker",
          "[jobs][concurrency]") {
  // Every answer of these sites (robots.txt and sitemap.xml included) comes after 1 s. 24 crawls
  // are more than the engine's 16 workers: had each crawl's first step slept on a worker, the
  // other team's page would wait for the first seeds to finish.
  RunningMock mock(two_team_config());
  const ApiClient slow_api(mock.url());
  const ApiClient other_api(mock.url(), "other-key");
  std::vector<std::string> crawls;
  for (int i = 0; i < 24; ++i) {
    const auto reply = slow_api.post(
        "/v2/crawl",
        {{"url", "https://pages-2.delay-1000.seed" + std::to_string(i) + ".synthetic.test/"},
         {"limit", 5}});
    REQUIRE(reply.status == 200);
    crawls.push_back("/v2/crawl/" + reply.body["id"].get<std::string>());
  }
  // Every seed waiting for its robots.txt and sitemap in the engine's deferred queue.
  REQUIRE(eventually([&] { return mock.server().jobs().deferred_count() == 24; }));

  const auto fast_ms = one_page_batch_ms(other_api);
  const json first_while = slow_api.get(crawls.front()).body;
  INFO("the other team's page took " << fast_ms.count() << " ms behind 24 slow crawl seeds");
  CHECK(first_while["status"] == "scraping");
  CHECK(first_while["total"] == 0);  // robots.txt and the sitemap not due yet: nothing queued
  CHECK(fast_ms < std::chrono::milliseconds(1500));

  // Each crawl then reads robots.txt (1 s), sitemap.xml (1 s) and its two pages (1 s each, in
  // parallel as the team allows), on the mock's clock.
  REQUIRE(mock.finish_jobs());
  for (const auto& status : crawls) {
    const json done = slow_api.wait_job(status);
    INFO(status);
    CHECK(done["status"] == "completed");
    CHECK(done["completed"] == 2);
  }
}

TEST_CASE("a crawl cancelled while its robots.txt is due queues nothing afterwards",
          "[jobs][cancel]") {
  RunningMock mock(fast_config());
  const ApiClient api(mock.url());
  const auto started =
      api.post("/v2/crawl", {{"url", "https://pages-5.delay-800.cancelseed.synthetic.test/"}});
  REQUIRE(started.status == 200);
  const std::string status = "/v2/crawl/" + started.body["id"].get<std::string>();
  // robots.txt not due yet: the seed waits in the engine's deferred queue.
  REQUIRE(eventually([&] { return mock.server().jobs().deferred_count() == 1; }));
  REQUIRE(api.del(status).status == 200);
  // Past the time robots.txt and the sitemap were due (1.6 s): the seed found the job cancelled.
  mock.server().clock().advance(std::chrono::milliseconds(2500));
  REQUIRE(eventually([&] { return mock.server().jobs().deferred_count() == 0; }));
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(10)));
  const json after = api.get(status).body;
  CHECK(after["status"] == "cancelled");
  CHECK(after["total"] == 0);
  CHECK(after["completed"] == 0);
  CHECK(after["data"].empty());
}

TEST_CASE("another origin's slow robots.txt: its pages start when it is due, a disallowed one is "
          "blocked",
          "[jobs][robots]") {
  RunningMock mock(fast_config());
  const ApiClient api(mock.url());
  auto add = [&](const json& mapping) {
    REQUIRE(api.post("/__admin/mappings", mapping).status == 201);
  };
  add(page_stub("linker.test", "/",
                links_to({"http://slowbots.test/a", "http://slowbots.test/b",
                          "http://slowbots.test/private/c"},
                         "Links")));
  json robots = page_stub("slowbots.test", "/robots.txt", "User-agent: *\nDisallow: /private/\n",
                          200, "text/plain");
  robots["response"]["fixedDelayMilliseconds"] = 800;
  add(robots);
  for (const char* path : {"/a", "/b", "/private/c"}) {
    add(page_stub("slowbots.test", path, links_to({}, path)));
  }
  const auto started_at = std::chrono::steady_clock::now();
  const auto started = api.post("/v2/crawl", {{"url", "http://linker.test/"},
                                              {"allowExternalLinks", true},
                                              {"sitemap", "skip"}});
  REQUIRE(started.status == 200);
  const std::string status = "/v2/crawl/" + started.body["id"].get<std::string>();
  const json done = api.wait_job(status);
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started_at);
  REQUIRE(done["status"] == "completed");
  std::set<std::string> urls;
  for (const auto& doc : done["data"]) urls.insert(doc["metadata"]["sourceURL"].get<std::string>());
  CHECK(urls == std::set<std::string>{"http://linker.test/", "http://slowbots.test/a",
                                      "http://slowbots.test/b"});
  const json errors = api.get(status + "/errors").body;
  CHECK(errors["robotsBlocked"] == json::array({"http://slowbots.test/private/c"}));
  // The pages of slowbots.test waited for its robots.txt.
  INFO("the crawl took " << took.count() << " ms");
  CHECK(took >= std::chrono::milliseconds(750));
}
