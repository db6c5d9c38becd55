// Monitors over real HTTP: create/list/get/update/delete, run now, checks and a check's pages;
// the schedule driven by the mock's clock, each page's status across checks (new, same,
// changed, removed, error), signed webhooks on change, credits, bad input, unknown ids and
// team isolation.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

#include "api_client.hpp"
#include "eventually.hpp"
#include "mock_fixture.hpp"
#include "schema_check.hpp"
#include "stub_mapping.hpp"
#include "webdata/webhooks.hpp"
#include "webhook_receiver.hpp"

using webdata::testing::ApiClient;
using webdata::testing::eventually;
using webdata::testing::page_stub;
using webdata::testing::RunningMock;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

webdata::mock::Config monitor_config() {
  auto config = RunningMock::quiet_config();
  config.teams = {{"team-a", {"key-a"}}, {"team-b", {"key-b"}}};
  config.teams[0].webhook_secret = "monitor-secret";
  return config;
}

std::string watch_page(const std::string& title, const std::string& body,
                       const std::vector<std::string>& links = {}) {
  std::string html = "<html><head><title>" + title + "</title></head><body><main><h1>" + title +
                     "</h1><p>" + body + "</p>";
  for (const auto& l : links) html += "<p><a href=\"" + l + "\">" + l + "</a></p>";
  return html + "</main></body></html>";
}

struct Watched {
  RunningMock mock{monitor_config()};
  ApiClient api{mock.url(), "key-a"};
  ApiClient other{mock.url(), "key-b"};

  void page(const std::string& path, const std::string& body, int status = 200,
            const std::vector<std::string>& links = {}) {
    REQUIRE(api.post("/__admin/mappings",
                     page_stub("watch.test", path, watch_page(path, body, links), status))
                .status == 201);
  }
  json create(json body) {
    const auto r = api.post("/v2/monitor", body);
    INFO(r.body.dump());
    REQUIRE(r.status == 200);
    surface_test::check_schema("v2/monitor.response", r.body);
    return r.body["data"];
  }
  /// Waits until the check leaves queued/running and answers its detail.
  json finished(const std::string& monitor, const std::string& check) {
    json detail;
    REQUIRE(eventually(
        [&] {
          const auto r = api.get("/v2/monitor/" + monitor + "/checks/" + check);
          if (r.status != 200) return false;
          detail = r.body["data"];
          return detail["status"] != "queued" && detail["status"] != "running";
        },
        10s));
    surface_test::check_schema("v2/monitor-check-detail.response",
                               {{"success", true}, {"data", detail}});
    return detail;
  }
  json run(const std::string& monitor) {
    const auto r = api.post("/v2/monitor/" + monitor + "/run", json::object());
    REQUIRE(r.status == 200);
    surface_test::check_schema("v2/monitor-check.response", r.body);
    return finished(monitor, r.body["data"]["id"]);
  }
  void advance(std::chrono::milliseconds by) {
    REQUIRE(api.post("/__admin/clock/advance", {{"milliseconds", by.count()}}).status == 200);
  }
};

std::map<std::string, std::string> statuses(const json& detail) {
  std::map<std::string, std::string> out;
  for (const auto& page : detail["pages"]) out[page["url"]] = page["status"];
  return out;
}

}  // namespace

TEST_CASE("monitor: create, list, get, update and delete", "[monitors]") {
  Watched w;
  const json monitor = w.create(
      {{"name", "Pricing"},
       {"schedule", {{"text", "every 30 minutes"}}},
       {"targets", {{{"type", "scrape"}, {"urls", {"http://watch.test/a", "http://watch.test/b"}}}}}});
  CHECK(monitor["schedule"]["cron"] == "*/30 * * * *");
  CHECK(monitor["status"] == "active");
  CHECK(monitor["targets"][0]["id"] == "target-1");
  CHECK(monitor["estimatedCreditsPerMonth"] == 2 * 48 * 30);
  CHECK(monitor["nextRunAt"].is_string());
  const std::string id = monitor["id"];

  const auto list = w.api.get("/v2/monitor?limit=10&offset=0");
  REQUIRE(list.status == 200);
  surface_test::check_schema("v2/monitor-list.response", list.body);
  REQUIRE(list.body["data"].size() == 1);
  CHECK(w.api.get("/v2/monitor?offset=1").body["data"].empty());
  CHECK(w.api.get("/v2/monitor?limit=0").status == 400);

  const auto patched = w.api.send("PATCH", "/v2/monitor/" + id,
                                  json({{"name", "Prices"}, {"status", "paused"},
                                        {"schedule", {{"cron", "0 9 * * 1-5"}}}})
                                      .dump(),
                                  {});
  REQUIRE(patched.status == 200);
  CHECK(patched.body["data"]["name"] == "Prices");
  CHECK(patched.body["data"]["status"] == "paused");
  CHECK(patched.body["data"]["nextRunAt"].is_null());
  CHECK(w.api.get("/v2/monitor/" + id).body["data"]["schedule"]["cron"] == "0 9 * * 1-5");

  // Another team sees none of it.
  CHECK(w.other.get("/v2/monitor/" + id).status == 404);
  CHECK(w.other.get("/v2/monitor").body["data"].empty());
  CHECK(w.other.del("/v2/monitor/" + id).status == 404);
  CHECK(w.other.post("/v2/monitor/" + id + "/run", json::object()).status == 404);

  REQUIRE(w.api.del("/v2/monitor/" + id).status == 200);
  CHECK(w.api.get("/v2/monitor/" + id).status == 404);
  CHECK(w.api.get("/v2/monitor/" + id + "/checks").status == 404);
}

TEST_CASE("monitor: bad input answers 400 with details", "[monitors]") {
  Watched w;
  const json target = {{"type", "scrape"}, {"urls", {"http://watch.test/a"}}};
  const auto bad_cron = w.api.post(
      "/v2/monitor", {{"name", "x"}, {"schedule", {{"cron", "61 * * * *"}}}, {"targets", {target}}});
  CHECK(bad_cron.status == 400);
  CHECK(bad_cron.body["details"][0]["path"] == json({"schedule", "cron"}));
  const auto four_fields = w.api.post(
      "/v2/monitor", {{"name", "x"}, {"schedule", {{"cron", "* * * *"}}}, {"targets", {target}}});
  CHECK(four_fields.status == 400);
  const auto bad_text = w.api.post(
      "/v2/monitor", {{"name", "x"}, {"schedule", {{"text", "whenever"}}}, {"targets", {target}}});
  CHECK(bad_text.status == 400);
  CHECK(bad_text.body["details"][0]["path"] == json({"schedule", "text"}));
  const auto no_urls = w.api.post("/v2/monitor", {{"name", "x"},
                                                  {"schedule", {{"cron", "0 * * * *"}}},
                                                  {"targets", {{{"type", "scrape"}}}}});
  CHECK(no_urls.status == 400);
  CHECK(no_urls.body["details"][0]["path"] == json({"targets", 0, "urls"}));
  const auto unknown_key = w.api.post(
      "/v2/monitor",
      {{"name", "x"}, {"schedule", {{"cron", "0 * * * *"}}}, {"targets", {target}}, {"cadence", 1}});
  CHECK(unknown_key.status == 400);
  CHECK(unknown_key.body.contains("details"));
  const auto no_targets = w.api.post(
      "/v2/monitor", {{"name", "x"}, {"schedule", {{"cron", "0 * * * *"}}}, {"targets", json::array()}});
  CHECK(no_targets.status == 400);
  CHECK(w.api.send("POST", "/v2/monitor", json({{"name", "x"}}).dump(), {}, false).status == 401);
  CHECK(w.api.get("/v2/monitor/no-such-monitor").status == 404);
  CHECK(w.api.send("PATCH", "/v2/monitor/no-such-monitor", json({{"name", "y"}}).dump(), {}).status ==
        404);
}

TEST_CASE("monitor: each check compares with the one before, page by page", "[monitors]") {
  Watched w;
  w.page("/a", "Price: 10");
  w.page("/b", "Stock: 3");
  const json monitor = w.create(
      {{"name", "Shop"},
       {"schedule", {{"cron", "0 0 1 1 *"}}},
       {"targets", {{{"type", "scrape"}, {"urls", {"http://watch.test/a", "http://watch.test/b"}}}}}});
  const std::string id = monitor["id"];
  const long long before = w.api.get("/v2/team/credit-usage").body["data"]["remainingCredits"];

  const json first = w.run(id);
  CHECK(first["status"] == "completed");
  CHECK(first["trigger"] == "manual");
  CHECK(first["summary"]["new"] == 2);
  CHECK(first["actualCredits"] == 2);
  CHECK(first["billingStatus"] == "confirmed");
  const long long after = w.api.get("/v2/team/credit-usage").body["data"]["remainingCredits"];
  CHECK(before - after == 2);

  w.page("/a", "Price: 12");
  const json second = w.run(id);
  CHECK(statuses(second) == std::map<std::string, std::string>{
                                {"http://watch.test/a", "changed"}, {"http://watch.test/b", "same"}});
  for (const auto& page : second["pages"]) {
    CHECK(page["previousScrapeId"].is_string());
    if (page["status"] == "changed") {
      CHECK(page["diff"]["text"].get<std::string>().find("+Price: 12") != std::string::npos);
      // The page's scrape is readable by its id, as any scrape.
      CHECK(w.api.get("/v2/scrape/" + page["currentScrapeId"].get<std::string>()).status == 200);
    }
  }
  const auto filtered = w.api.get("/v2/monitor/" + id + "/checks/" + second["id"].get<std::string>() +
                                  "?status=changed");
  CHECK(filtered.body["data"]["pages"].size() == 1);
  const auto paged = w.api.get("/v2/monitor/" + id + "/checks/" + second["id"].get<std::string>() +
                               "?limit=1");
  CHECK(paged.body["data"]["pages"].size() == 1);
  CHECK(paged.body["next"].get<std::string>().find("skip=1") != std::string::npos);

  // A page gone (404) is removed; a URL taken out of the targets is removed too.
  w.page("/a", "Gone", 404);
  REQUIRE(w.api.send("PATCH", "/v2/monitor/" + id,
                     json({{"targets", {{{"type", "scrape"}, {"urls", {"http://watch.test/a"}}}}}}).dump(),
                     {})
              .status == 200);
  const json third = w.run(id);
  CHECK(statuses(third) == std::map<std::string, std::string>{
                               {"http://watch.test/a", "removed"}, {"http://watch.test/b", "removed"}});

  const auto checks = w.api.get("/v2/monitor/" + id + "/checks?limit=2");
  surface_test::check_schema("v2/monitor-checks.response", checks.body);
  REQUIRE(checks.body["data"].size() == 2);
  CHECK(checks.body["data"][0]["id"] == third["id"]);
  CHECK(w.api.get("/v2/monitor/" + id).body["data"]["lastCheckSummary"]["removed"] == 2);
  CHECK(w.other.get("/v2/monitor/" + id + "/checks/" + third["id"].get<std::string>()).status == 404);
}

TEST_CASE("monitor: a crawl target reads the pages its start page links to", "[monitors]") {
  Watched w;
  w.page("/", "Home", 200, {"/one", "/two", "http://elsewhere.test/x"});
  w.page("/one", "One");
  w.page("/two", "Two");
  const json monitor = w.create({{"name", "Site"},
                                 {"schedule", {{"cron", "0 0 1 1 *"}}},
                                 {"targets", {{{"type", "crawl"}, {"url", "http://watch.test/"}}}}});
  const json first = w.run(monitor["id"]);
  CHECK(first["summary"]["totalPages"] == 3);
  w.page("/", "Home", 200, {"/one"});
  const json second = w.run(monitor["id"]);
  CHECK(statuses(second)["http://watch.test/two"] == "removed");
  CHECK(statuses(second)["http://watch.test/one"] == "same");
}

TEST_CASE("monitor: the clock runs due checks and changes send signed webhooks", "[monitors]") {
  Watched w;
  webdata::mock::webhooks::testing::Receiver receiver;
  w.page("/price", "Price: 10");
  const json monitor = w.create(
      {{"name", "Hourly"},
       {"schedule", {{"text", "hourly"}}},
       {"webhook", {{"url", receiver.url("/monitor")}, {"metadata", {{"team", "pricing"}}}}},
       {"targets", {{{"type", "scrape"}, {"urls", {"http://watch.test/price"}}}}}});
  const std::string id = monitor["id"];
  CHECK(w.api.get("/v2/monitor/" + id + "/checks").body["data"].empty());

  w.advance(61min);  // past the next full hour
  json checks;
  REQUIRE(eventually(
      [&] {
        checks = w.api.get("/v2/monitor/" + id + "/checks").body["data"];
        return checks.size() == 1 && checks[0]["status"] == "completed";
      },
      10s));
  CHECK(checks[0]["trigger"] == "scheduled");
  CHECK(checks[0]["scheduledFor"].is_string());
  // The new page and the check each send an event.
  REQUIRE(receiver.wait_for_count(2, 10s));

  w.page("/price", "Price: 15");
  w.advance(60min);
  REQUIRE(receiver.wait_for_count(4, 10s));
  const auto requests = receiver.requests();
  std::vector<std::string> types;
  for (const auto& r : requests) {
    const auto event = webdata::webhooks::verify_and_parse("monitor-secret", r.body,
                                                           r.header("x-service-signature"));
    REQUIRE(event.ok());
    const json body = json::parse(r.body);
    types.push_back(body["type"]);
    CHECK(body["metadata"]["team"] == "pricing");
  }
  CHECK(types == std::vector<std::string>{"monitor.page", "monitor.check.completed",
                                          "monitor.page", "monitor.check.completed"});
  const json last = json::parse(requests[2].body);
  CHECK(last["data"][0]["page"]["status"] == "changed");

  // Paused: the clock passes its runs by.
  REQUIRE(w.api.send("PATCH", "/v2/monitor/" + id, json({{"status", "paused"}}).dump(), {}).status ==
          200);
  w.advance(180min);
  CHECK(w.api.get("/v2/monitor/" + id + "/checks").body["data"].size() == 2);
}

TEST_CASE("monitor: crawlOptions decide the scope, depth and limit of a crawl target", "[monitors]") {
  Watched w;
  w.page("/", "Home", 200, {"/docs/a", "/docs/b", "/blog/x", "/docs/c"});
  w.page("/docs/a", "A", 200, {"/docs/a/deep"});
  w.page("/docs/b", "B");
  w.page("/docs/c", "C");
  w.page("/docs/a/deep", "Deep");
  w.page("/blog/x", "Blog");
  const json monitor = w.create(
      {{"name", "Docs"},
       {"schedule", {{"cron", "0 0 1 1 *"}}},
       {"targets",
        {{{"type", "crawl"},
          {"url", "http://watch.test/"},
          {"crawlOptions", {{"includePaths", {"^/docs/"}}, {"maxDiscoveryDepth", 1}, {"limit", 3}}}}}}});
  CHECK(monitor["targets"][0]["crawlOptions"]["limit"] == 3);
  CHECK(monitor["estimatedCreditsPerMonth"] == 3);  // a yearly schedule: one run in 30 days
  const auto pages = statuses(w.run(monitor["id"]));
  // The start page, then the first two in-scope links at depth 1: the limit stops there.
  CHECK(pages == std::map<std::string, std::string>{{"http://watch.test/", "new"},
                                                    {"http://watch.test/docs/a", "new"},
                                                    {"http://watch.test/docs/b", "new"}});

  SECTION("a pattern that is not a regular expression is refused") {
    const auto r = w.api.post(
        "/v2/monitor", {{"name", "Bad"},
                        {"schedule", {{"cron", "0 0 1 1 *"}}},
                        {"targets",
                         {{{"type", "crawl"},
                           {"url", "http://watch.test/"},
                           {"crawlOptions", {{"excludePaths", {"(unclosed"}}}}}}}});
    CHECK(r.status == 400);
    CHECK(r.body["details"][0]["path"] == json::array({"targets", 0, "crawlOptions", "excludePaths"}));
  }
  SECTION("an option the crawl does not have is refused by the schema") {
    const auto r = w.api.post("/v2/monitor", {{"name", "Bad"},
                                              {"schedule", {{"cron", "0 0 1 1 *"}}},
                                              {"targets",
                                               {{{"type", "crawl"},
                                                 {"url", "http://watch.test/"},
                                                 {"crawlOptions", {{"depthFirst", true}}}}}}});
    CHECK(r.status == 400);
  }
}

TEST_CASE("monitor: a search target runs its queries and judges results against the goal",
          "[monitors]") {
  Watched w;
  const json target = {{"type", "search"},
                       {"queries", {"trail kettle"}},
                       {"includeDomains", {"shop.example.test"}},
                       {"maxResults", 3}};
  const json monitor = w.create({{"name", "Kettles"},
                                 {"schedule", {{"cron", "0 0 1 1 *"}}},
                                 {"goal", "a trail kettle for camping"},
                                 {"judgeEnabled", true},
                                 {"targets", {target}}});
  const json first = w.run(monitor["id"]);
  const json result = first["targetResults"][0];
  CHECK(result["searchCompleted"] == true);
  CHECK(result["resultCount"].get<int>() >= 1);
  CHECK(result["resultCount"].get<int>() <= 3);
  CHECK(result["resultsJudged"] == result["resultCount"]);
  CHECK(result["searchCredits"] == result["resultCount"]);
  CHECK(result["matches"].get<int>() >= 1);
  bool kettle = false;
  for (const auto& page : first["pages"]) {
    CHECK(page["status"] == "new");
    CHECK(page["url"].get<std::string>().find("shop.example.test") != std::string::npos);
    REQUIRE(page["judgment"].is_object());
    if (page["url"] == "https://shop.example.test/products/trail-kettle") {
      kettle = true;
      CHECK(page["judgment"]["meaningful"] == true);
    }
  }
  CHECK(kettle);

  // Nothing changed: every result is the same, and nothing is a meaningful change.
  const json second = w.run(monitor["id"]);
  CHECK(second["summary"]["same"] == second["summary"]["totalPages"]);
  CHECK(second["targetResults"][0]["matches"] == 0);
}
