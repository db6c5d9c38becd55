// Job events delivered as signed webhooks by the running mock (issue 7, wire-decisions 4).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "api_client.hpp"
#include "mock_fixture.hpp"
#include "webhook_receiver.hpp"
#include "webhooks/dispatcher.hpp"
#include "stub_mapping.hpp"

using webdata::testing::ApiClient;
using webdata::testing::RunningMock;
using json = nlohmann::json;
using webdata::testing::page_stub;

TEST_CASE("a batch scrape's events arrive signed, in order, with metadata echoed",
          "[webhooks][jobs]") {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  config.teams = {{"team-1", {"test-key"}}};
  config.teams[0].webhook_secret = "hook-secret";
  RunningMock mock(config);
  const ApiClient api(mock.url());
  REQUIRE(api.post("/__admin/mappings", page_stub("hooks.test", "/a", "<h1>A</h1>")).status == 201);
  REQUIRE(api.post("/__admin/mappings", page_stub("hooks.test", "/b", "<h1>B</h1>")).status == 201);
  webdata::mock::webhooks::testing::Receiver receiver;

  const auto started = api.post(
      "/v2/batch/scrape",
      {{"urls", {"http://hooks.test/a", "http://hooks.test/b", "http://nowhere.invalid/"}},
       {"maxConcurrency", 1},
       {"webhook", {{"url", receiver.url()},
                    {"headers", {{"X-Custom", "yes"}}},
                    {"metadata", {{"run", "42"}}}}}});
  REQUIRE(started.status == 200);
  const std::string id = started.body["id"];
  REQUIRE(receiver.wait_for_count(4, std::chrono::seconds(30)));  // started, 2 pages, completed
  const auto requests = receiver.requests();
  std::vector<std::string> types;
  for (const auto& request : requests) {
    const auto body = json::parse(request.body);
    types.push_back(body["type"]);
    CHECK(body["id"] == id);
    CHECK(body["metadata"] == json{{"run", "42"}});
    CHECK(request.header("x-custom") == "yes");
    CHECK(request.header("x-service-signature") ==
          webdata::mock::webhooks::sign(request.body, "hook-secret"));
    if (body["type"] == "batch_scrape.page") {
      CHECK(body["success"] == true);
      REQUIRE(body["data"].size() == 1);
      CHECK(body["data"][0]["markdown"].is_string());
    } else {
      CHECK(body["data"] == json::array());
    }
  }
  CHECK(types == std::vector<std::string>{"batch_scrape.started", "batch_scrape.page",
                                          "batch_scrape.page", "batch_scrape.completed"});
  REQUIRE(mock.server().webhooks().drain("", std::chrono::seconds(10)));
  const auto log = api.get("/__admin/webhooks");
  REQUIRE(log.status == 200);
  CHECK(log.body["deliveries"].size() >= 4);
}

TEST_CASE("a crawl that fails sends crawl.failed, the events filter is honoured",
          "[webhooks][jobs]") {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  RunningMock mock(config);
  const ApiClient api(mock.url());
  webdata::mock::webhooks::testing::Receiver receiver;
  const auto started = api.post("/v2/crawl", {{"url", "http://nowhere.invalid/"},
                                              {"webhook", {{"url", receiver.url()},
                                                           {"events", {"failed"}}}}});
  REQUIRE(started.status == 200);
  REQUIRE(receiver.wait_for_count(1, std::chrono::seconds(30)));
  REQUIRE(mock.server().webhooks().drain("", std::chrono::seconds(10)));
  const auto requests = receiver.requests();
  REQUIRE(requests.size() == 1);
  const auto body = json::parse(requests[0].body);
  CHECK(body["type"] == "crawl.failed");
  CHECK(body["success"] == false);
  CHECK(body["error"].is_string());
}

TEST_CASE("a webhook receiver that is down never fails the job", "[webhooks][jobs]") {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  RunningMock mock(config);
  const ApiClient api(mock.url());
  REQUIRE(api.post("/__admin/settings", {{"webhookBackoffMs", 10}, {"webhookMaxAttempts", 2}})
              .status == 200);
  REQUIRE(api.post("/__admin/mappings", page_stub("hooks.test", "/a", "<h1>A</h1>")).status == 201);
  const std::string dead = "http://127.0.0.1:" +
                           std::to_string(webdata::mock::webhooks::testing::Receiver::closed_port()) +
                           "/hook";
  const auto started = api.post("/v2/batch/scrape", {{"urls", {"http://hooks.test/a"}},
                                                     {"webhook", dead}});
  REQUIRE(started.status == 200);
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(20)));
  const auto status = api.get("/v2/batch/scrape/" + started.body["id"].get<std::string>());
  CHECK(status.body["status"] == "completed");
  CHECK(status.body["completed"] == 1);
  REQUIRE(mock.server().webhooks().drain("", std::chrono::seconds(20)));
  const auto log = api.get("/__admin/webhooks").body["deliveries"];
  REQUIRE_FALSE(log.empty());
  CHECK(log.back()["outcome"] == "failed");
  CHECK(log.back()["attempt"] == 2);
}

TEST_CASE("a bad webhook spec is refused", "[webhooks][jobs]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  CHECK(api.post("/v2/crawl", {{"url", "http://a.test/"}, {"webhook", {{"url", "ftp://x"}}}})
            .status == 400);
  CHECK(api.post("/v2/batch/scrape", {{"urls", {"http://a.test/"}},
                                      {"webhook", {{"url", "http://x.test/"},
                                                   {"events", {"exploded"}}}}})
            .status == 400);
}
