// Team usage over real HTTP: credit and token usage (current and historical, by key), queue
// status and concurrency, all read from what the mock really charged and runs.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <string>
#include <thread>

#include "api_client.hpp"
#include "core/time.hpp"
#include "eventually.hpp"
#include "mock_fixture.hpp"
#include "schema_check.hpp"
#include "webdata/contract/schemas.hpp"

using webdata::testing::ApiClient;
using webdata::testing::RunningMock;
using json = nlohmann::json;
using surface_test::check_schema;

namespace {

webdata::mock::Config two_key_config() {
  auto config = RunningMock::quiet_config();
  webdata::mock::TeamConfig team;
  team.id = "team-usage";
  team.keys = {"fc-alpha-key-0001", "fc-beta-key-0002"};
  team.credits = 500;
  team.tokens = 7000;
  team.concurrency = 2;
  config.teams = {team};
  return config;
}

json scrape(const ApiClient& api, const std::string& url) {
  const auto r = api.post("/v2/scrape", {{"url", url}});
  REQUIRE(r.status == 200);
  return r.body;
}

}  // namespace

TEST_CASE("credit usage reports the balance, the plan and the billing period", "[team]") {
  RunningMock mock(two_key_config());
  ApiClient api(mock.url(), "fc-alpha-key-0001");
  auto r = api.get("/v2/team/credit-usage");
  REQUIRE(r.status == 200);
  check_schema("v2/credit-usage.response", r.body);
  CHECK(r.body["data"]["remainingCredits"] == 500);
  CHECK(r.body["data"]["planCredits"] == 500);

  scrape(api, "https://pages-5.synthetic.test/");
  scrape(api, "https://pages-5.synthetic.test/p1");
  r = api.get("/v2/team/credit-usage");
  CHECK(r.body["data"]["remainingCredits"] == 498);
  const auto start = webdata::mock::parse_iso8601(r.body["data"]["billingPeriodStart"].get<std::string>());
  const auto end = webdata::mock::parse_iso8601(r.body["data"]["billingPeriodEnd"].get<std::string>());
  REQUIRE(start);
  REQUIRE(end);
  const auto now = std::chrono::system_clock::now();
  CHECK(*start <= now);
  CHECK(now < *end);
  CHECK(*end - *start >= std::chrono::hours(24 * 28));

  r = api.get("/v1/team/credit-usage");
  REQUIRE(r.status == 200);
  check_schema("v1/credit-usage.response", r.body);
  CHECK(r.body["data"]["remaining_credits"] == 498);
  CHECK(r.body["data"]["plan_credits"] == 500);
}

TEST_CASE("credit usage history splits by API key, jobs included, and by month", "[team]") {
  RunningMock mock(two_key_config());
  ApiClient alpha(mock.url(), "fc-alpha-key-0001");
  ApiClient beta(mock.url(), "fc-beta-key-0002");
  scrape(alpha, "https://pages-5.synthetic.test/");
  // A batch started with the beta key: its pages are scraped on the engine's threads later,
  // and are still the beta key's use.
  const auto batch = beta.post("/v2/batch/scrape", {{"urls", {"https://pages-5.synthetic.test/p1",
                                                               "https://pages-5.synthetic.test/p2"}}});
  REQUIRE(batch.status == 200);
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(20)));

  auto r = alpha.get("/v2/team/credit-usage/historical");
  REQUIRE(r.status == 200);
  check_schema("v2/credit-usage-historical.response", r.body);
  REQUIRE(r.body["periods"].size() == 1);
  CHECK(r.body["periods"][0]["creditsUsed"] == 3);
  CHECK_FALSE(r.body["periods"][0].contains("apiKey"));

  r = alpha.get("/v2/team/credit-usage/historical?byApiKey=true");
  REQUIRE(r.status == 200);
  check_schema("v2/credit-usage-historical.response", r.body);
  REQUIRE(r.body["periods"].size() == 2);
  std::map<std::string, int> by_key;
  for (const auto& p : r.body["periods"]) by_key[p["apiKey"]] = p["creditsUsed"];
  CHECK(by_key["fc-a*********0001"] == 1);
  CHECK(by_key["fc-b********0002"] == 2);

  // A month later the first period is history and the new one starts at zero.
  REQUIRE(alpha.post("/__admin/clock/advance", {{"milliseconds", 40LL * 24 * 3600 * 1000}}).status ==
          200);
  r = alpha.get("/v1/team/credit-usage/historical");
  REQUIRE(r.status == 200);
  check_schema("v1/credit-usage-historical.response", r.body);
  REQUIRE(r.body["periods"].size() >= 2);
  CHECK(r.body["periods"][0]["creditsUsed"] == 3);
  CHECK(r.body["periods"].back()["creditsUsed"] == 0);
  CHECK(r.body["periods"][0]["endDate"] == r.body["periods"][1]["startDate"]);

  r = alpha.get("/v2/team/credit-usage/historical?byApiKey=maybe");
  REQUIRE(r.status == 400);
  CHECK(r.body["details"][0]["path"] == json::array({"byApiKey"}));
}

TEST_CASE("token usage starts at the plan's allowance", "[team]") {
  RunningMock mock(two_key_config());
  ApiClient api(mock.url(), "fc-alpha-key-0001");
  auto r = api.get("/v2/team/token-usage");
  REQUIRE(r.status == 200);
  check_schema("v2/token-usage.response", r.body);
  CHECK(r.body["data"]["remainingTokens"] == 7000);
  CHECK(r.body["data"]["planTokens"] == 7000);
  r = api.get("/v1/team/token-usage");
  check_schema("v1/token-usage.response", r.body);
  CHECK(r.body["data"]["remaining_tokens"] == 7000);
  r = api.get("/v2/team/token-usage/historical?byApiKey=true");
  REQUIRE(r.status == 200);
  check_schema("v2/token-usage-historical.response", r.body);
  CHECK(r.body["periods"].back()["tokensUsed"] == 0);
}

TEST_CASE("queue status and concurrency follow the team's running job", "[team]") {
  auto config = two_key_config();
  config.page_pacing_ms = 150;  // slow enough to look at the job while it runs
  RunningMock mock(config);
  ApiClient api(mock.url(), "fc-alpha-key-0001");

  auto r = api.get("/v2/team/queue-status");
  REQUIRE(r.status == 200);
  check_schema("v2/queue-status.response", r.body);
  CHECK(r.body["jobsInQueue"] == 0);
  CHECK(r.body["maxConcurrency"] == 2);
  CHECK(r.body["mostRecentSuccess"].is_null());

  std::vector<std::string> urls;
  for (int i = 1; i <= 12; ++i) urls.push_back("https://pages-30.synthetic.test/p" + std::to_string(i));
  const auto batch = api.post("/v2/batch/scrape", {{"urls", urls}, {"maxConcurrency", 1}});
  REQUIRE(batch.status == 200);
  bool saw_waiting = false;
  bool saw_success = false;  // a page done, so that mostRecentSuccess is set below
  // Read while the batch runs, until both have been seen: pages waiting, then one done.
  webdata::testing::eventually([&] {
    r = api.get("/v2/team/queue-status");
    check_schema("v2/queue-status.response", r.body);
    saw_waiting = saw_waiting || r.body["waitingJobsInQueue"].get<int>() > 0;
    saw_success = r.body["mostRecentSuccess"].is_string();
    CHECK(r.body["jobsInQueue"] ==
          r.body["activeJobsInQueue"].get<int>() + r.body["waitingJobsInQueue"].get<int>());
    const auto c = api.get("/v2/concurrency-check");
    check_schema("v2/concurrency-check.response", c.body);
    CHECK(c.body["concurrency"].get<int>() <= c.body["maxConcurrency"].get<int>());
    return saw_waiting && saw_success;
  });
  CHECK(saw_waiting);
  REQUIRE(api.del("/v2/batch/scrape/" + batch.body["id"].get<std::string>()).status == 200);
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(20)));
  r = api.get("/v1/team/queue-status");
  check_schema("v1/queue-status.response", r.body);
  CHECK(r.body["jobsInQueue"] == 0);
  CHECK(r.body["mostRecentSuccess"].is_string());
  const auto c = api.get("/v1/concurrency-check");
  REQUIRE(c.status == 200);
  check_schema("v1/concurrency-check.response", c.body);
  CHECK(c.body["concurrency"] == 0);
  CHECK(c.body["maxConcurrency"] == 2);
}

TEST_CASE("team endpoints need a key", "[team]") {
  RunningMock mock(two_key_config());
  ApiClient api(mock.url(), "wrong-key");
  CHECK(api.get("/v2/team/credit-usage").status == 401);
  CHECK(api.get("/v2/team/queue-status").status == 401);
  CHECK(api.get("/v2/concurrency-check").status == 401);
}
