// Behaviours the recorded deployment showed (tests/data/real/) that the mock now follows
// (docs/mockserver/fidelity.md): each over real HTTP against the running mock.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

#include "api_client.hpp"
#include "mock_fixture.hpp"
#include "stub_mapping.hpp"

using webdata::testing::ApiClient;
using webdata::testing::page_stub;
using webdata::testing::RunningMock;
using json = nlohmann::json;

namespace {

const char* kHome = R"html(<!DOCTYPE html><html lang="en"><head><title>Home</title></head><body>
<main><h1>Home</h1><ul><li><a href="/a">a</a></li><li><a href="/b">b</a></li>
<li><a href="mailto:team@example.test">write to us</a></li>
<li><a href="javascript:void(0)">script</a></li><li><a href="/a#part">a again</a></li>
<li><a href="/c">c</a></li><li><a href="/d">d</a></li></ul></main></body></html>)html";

/// Two teams, `test-key` (team-1) and `other-key` (team-2), and a small site at site.test.
struct TwoTeamsSite {
  RunningMock mock{config()};
  ApiClient api{mock.url()};
  ApiClient other{mock.url(), "other-key"};

  static webdata::mock::Config config() {
    auto config = RunningMock::quiet_config();
    config.page_pacing_ms = 0;
    config.teams = {{"team-1", {"test-key"}}, {"team-2", {"other-key"}}};
    return config;
  }

  TwoTeamsSite() {
    REQUIRE(api.post("/__admin/mappings", page_stub("site.test", "/", kHome)).status == 201);
    for (const char* path : {"/a", "/b", "/c", "/d"}) {
      const std::string body = std::string("<html><head><title>") + path +
                               "</title></head><body><main><p>Page " + path +
                               "</p></main></body></html>";
      REQUIRE(api.post("/__admin/mappings", page_stub("site.test", path, body)).status == 201);
    }
  }

  json wait_done(const std::string& path) {
    const json body = api.wait_job(path, std::chrono::seconds(20));
    INFO(body.dump());
    REQUIRE((body.is_object() && body.value("status", "") != "scraping"));
    return body;
  }
};

}  // namespace

TEST_CASE_METHOD(TwoTeamsSite, "links keep mailto: links, as the service does",
                 "[fidelity][scrape]") {
  for (const std::string version : {"v1", "v2"}) {
    INFO(version);
    const auto r =
        api.post("/" + version + "/scrape", {{"url", "http://site.test/"}, {"formats", {"links"}}});
    REQUIRE(r.status == 200);
    const json links = r.body["data"]["links"];
    CHECK(links == json({"http://site.test/a", "http://site.test/b", "mailto:team@example.test",
                         "http://site.test/c", "http://site.test/d"}));
  }
  // A crawl follows only the page links: the mailto: link is not a page of the crawl.
  const auto crawl = api.post("/v2/crawl", {{"url", "http://site.test/"}, {"sitemap", "skip"}});
  REQUIRE(crawl.status == 200);
  const json done = wait_done("/v2/crawl/" + crawl.body["id"].get<std::string>());
  CHECK(done["status"] == "completed");
  CHECK(done["total"] == 5);
  const auto errors = api.get("/v2/crawl/" + crawl.body["id"].get<std::string>() + "/errors");
  CHECK(errors.body["errors"].empty());
}

TEST_CASE_METHOD(TwoTeamsSite, "metadata always lists ogLocaleAlternate", "[fidelity][scrape]") {
  REQUIRE(api.post("/__admin/mappings",
                   page_stub("site.test", "/notes.txt", "two\nlines", 200, "text/plain"))
              .status == 201);
  for (const char* path : {"/", "/notes.txt"}) {
    INFO(path);
    const auto r = api.post("/v2/scrape", {{"url", std::string("http://site.test") + path}});
    REQUIRE(r.status == 200);
    CHECK(r.body["data"]["metadata"]["ogLocaleAlternate"] == json::array());
  }
}

TEST_CASE_METHOD(TwoTeamsSite, "a crawl beyond the team's credits is cut to them and completes",
                 "[fidelity][jobs][credits]") {
  REQUIRE(api.post("/__admin/settings/credits", {{"team", "team-1"}, {"credits", 3}}).status ==
          200);
  const auto started = api.post("/v1/crawl", {{"url", "http://site.test/"}, {"limit", 10}});
  REQUIRE(started.status == 200);
  const json done = wait_done("/v1/crawl/" + started.body["id"].get<std::string>());
  CHECK(done["status"] == "completed");
  CHECK(done["success"] == true);
  CHECK(done["total"] == 3);
  CHECK(done["completed"] == 3);
  CHECK(done["creditsUsed"] == 3);
  CHECK_FALSE(done.contains("error"));
  // With no credit left, nothing starts: 402, as before.
  CHECK(api.post("/v2/crawl", {{"url", "http://site.test/"}}).status == 402);
  // A limit that fits the credits is kept.
  REQUIRE(api.post("/__admin/settings/credits", {{"team", "team-1"}, {"credits", 100}}).status ==
          200);
  const auto fits = api.post("/v2/crawl", {{"url", "http://site.test/"}, {"limit", 2}});
  REQUIRE(fits.status == 200);
  CHECK(wait_done("/v2/crawl/" + fits.body["id"].get<std::string>())["total"] == 2);
  // Bad input is still refused with details, never a 500.
  const auto bad = api.post("/v2/crawl", {{"url", "http://site.test/"}, {"limit", "ten"}});
  CHECK(bad.status == 400);
  CHECK(bad.body["details"].is_array());
}

TEST_CASE_METHOD(TwoTeamsSite, "v1 search without results says so", "[fidelity][search]") {
  const auto none = api.post("/v1/search", {{"query", "zyxwvutsrq qqxjjz"}});
  REQUIRE(none.status == 200);
  CHECK(none.body["data"] == json::array());
  CHECK(none.body["warning"] == "No search results found");
  const auto found = api.post("/v1/search", {{"query", "quarry"}});  // the bundled docs site
  REQUIRE(found.status == 200);
  CHECK_FALSE(found.body["data"].empty());
  CHECK_FALSE(found.body.contains("warning"));
  // Bad input is still refused with details, never a 500.
  const auto bad = api.post("/v1/search", {{"query", 7}});
  CHECK(bad.status == 400);
  CHECK(bad.body["details"].is_array());
}

TEST_CASE_METHOD(TwoTeamsSite, "the errors of another team's job answer 403 Forbidden",
                 "[fidelity][jobs]") {
  const auto crawl = api.post("/v1/crawl", {{"url", "http://site.test/"}, {"limit", 1}});
  const auto batch = api.post("/v2/batch/scrape", {{"urls", {"http://site.test/a"}}});
  REQUIRE(crawl.status == 200);
  REQUIRE(batch.status == 200);
  const std::string crawl_id = crawl.body["id"];
  const std::string batch_id = batch.body["id"];
  for (const std::string& path : {"/v1/crawl/" + crawl_id, "/v2/crawl/" + crawl_id,
                                  "/crawl/" + crawl_id, "/v2/batch/scrape/" + batch_id}) {
    INFO(path);
    const auto errors = other.get(path + "/errors");
    CHECK(errors.status == 403);
    CHECK(errors.body == json({{"success", false}, {"error", "Forbidden"}}));
    CHECK(api.get(path + "/errors").status == 200);  // its own team reads them
  }
  // The status and the cancel of another team's job still say it is not found.
  CHECK(other.get("/v1/crawl/" + crawl_id).status == 404);
  CHECK(other.del("/v1/crawl/" + crawl_id).status == 404);
  // An id no team has is not found, and a batch id is not a crawl's.
  CHECK(other.get("/v2/crawl/00000000-0000-4000-8000-000000000000/errors").status == 404);
  CHECK(other.get("/v2/crawl/" + batch_id + "/errors").status == 404);
}

TEST_CASE_METHOD(TwoTeamsSite, "a scrape that times out says so in the service's words",
                 "[fidelity][scrape]") {
  json slow = page_stub("site.test", "/slow", "<p>late</p>");
  slow["response"]["fixedDelayMilliseconds"] = 3000;
  REQUIRE(api.post("/__admin/mappings", slow).status == 201);
  const auto v1 = api.post("/v1/scrape", {{"url", "http://site.test/slow"}, {"timeout", 500}});
  CHECK(v1.status == 408);
  CHECK(v1.body["code"] == "SCRAPE_TIMEOUT");
  CHECK(v1.body["error"] == "Scrape timed out");
  const auto v2 = api.post("/v2/scrape", {{"url", "http://site.test/slow"}, {"timeout", 500}});
  CHECK(v2.status == 408);
  CHECK(v2.body["error"] == "Scrape timed out after waiting in the concurrency limit queue");
}

TEST_CASE_METHOD(TwoTeamsSite, "an extract start carries urlTrace", "[fidelity][extract]") {
  const auto started =
      api.post("/v2/extract", {{"urls", {"http://site.test/a"}}, {"prompt", "the page"}});
  REQUIRE(started.status == 200);
  CHECK(started.body["urlTrace"] == json::array());
  CHECK(started.body["id"].is_string());
}
