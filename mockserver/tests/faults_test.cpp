// Faults around the mock: target pages that hang, reset, send garbage or redirect forever (live
// fetching of a local misbehaving server), and webhook receivers that answer 500 or too slowly.
// Receivers that are down: webhooks_api_test.cpp. Restart mid-job: jobs_api_test.cpp.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "api_client.hpp"
#include "misbehaving_server.hpp"
#include "mock_fixture.hpp"
#include "webhook_receiver.hpp"
#include "stub_mapping.hpp"

using webdata::testing::ApiClient;
using webdata::testing::MisbehavingServer;
using webdata::testing::RunningMock;
using json = nlohmann::json;
using webdata::testing::page_stub;
using Clock = std::chrono::steady_clock;
using Receiver = webdata::mock::webhooks::testing::Receiver;

namespace {

webdata::mock::Config live_config() {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  config.live_fetch = true;
  config.allow_private_targets = true;  // the misbehaving site is on 127.0.0.1
  return config;
}

}  // namespace

TEST_CASE("a target that misbehaves fails the scrape with the right code, in time",
          "[faults][live]") {
  MisbehavingServer site;
  RunningMock mock(live_config());
  const ApiClient api(mock.url());
  struct Row {
    const char* path;
    int status;
    const char* code;
  };
  const Row rows[] = {
      {"/hang", 408, "SCRAPE_TIMEOUT"},          {"/drip", 408, "SCRAPE_TIMEOUT"},
      {"/reset", 500, "SCRAPE_SITE_ERROR"},      {"/garbage", 500, "SCRAPE_SITE_ERROR"},
      {"/empty", 500, "SCRAPE_SITE_ERROR"},      {"/loop/0", 500, "SCRAPE_SITE_ERROR"},
  };
  for (const auto& row : rows) {
    INFO("target " << row.path);
    const auto start = Clock::now();
    const auto r = api.post("/v2/scrape", {{"url", site.url(row.path)}, {"timeout", 2000}});
    const auto took = Clock::now() - start;
    CHECK(r.status == row.status);
    CHECK(r.body.value("success", true) == false);
    CHECK(r.body.value("code", "") == row.code);
    CHECK_FALSE(r.body.value("error", "").empty());
    // The 2 s scrape timeout bounds every case; the margin is for a loaded CI machine.
    CHECK(took < std::chrono::seconds(10));
  }
  const auto loop = api.post("/v2/scrape", {{"url", site.url("/loop/0")}});
  CHECK(loop.body.value("error", "").find("redirects") != std::string::npos);
  CHECK(api.get("/health").status == 200);
}

TEST_CASE("failing pages of a batch are errors of the job, which still completes in time",
          "[faults][live][jobs]") {
  MisbehavingServer site;
  RunningMock mock(live_config());
  const ApiClient api(mock.url());
  const auto started = api.post(
      "/v2/batch/scrape", {{"urls", {site.url("/hang"), site.url("/reset"), site.url("/garbage"),
                                     site.url("/loop/0"), site.url("/secret")}},
                           {"timeout", 2000}});
  REQUIRE(started.status == 200);
  const std::string id = started.body["id"];
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(30)));
  const auto status = api.get("/v2/batch/scrape/" + id);
  CHECK(status.body["status"] == "completed");
  CHECK(status.body["completed"] == 1);
  const auto errors = api.get("/v2/batch/scrape/" + id + "/errors");
  REQUIRE(errors.body["errors"].is_array());
  CHECK(errors.body["errors"].size() == 4);
  for (const auto& e : errors.body["errors"]) {
    const std::string code = e.value("code", "");
    CHECK(code.rfind("SCRAPE_", 0) == 0);
  }
}

TEST_CASE("a receiver answering 500 is retried and logged, the job is unaffected",
          "[faults][webhooks]") {
  Receiver receiver;
  receiver.set_handler([](const Receiver::Request&) {
    Receiver::Reply reply;
    reply.status = 500;
    return reply;
  });
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  RunningMock mock(config);
  const ApiClient api(mock.url());
  REQUIRE(api.post("/__admin/settings", {{"webhookBackoffMs", 10}, {"webhookMaxAttempts", 3}})
              .status == 200);
  REQUIRE(api.post("/__admin/mappings", page_stub("faults.test", "/a", "<h1>A</h1>")).status == 201);
  const auto started = api.post("/v2/batch/scrape", {{"urls", {"http://faults.test/a"}},
                                                     {"webhook", receiver.url()}});
  REQUIRE(started.status == 200);
  const std::string id = started.body["id"];
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(20)));
  CHECK(api.get("/v2/batch/scrape/" + id).body["status"] == "completed");
  REQUIRE(mock.server().webhooks().drain(id, std::chrono::seconds(30)));
  const auto log = api.get("/__admin/webhooks").body["deliveries"];
  // started, page, completed: three attempts each, every one answered 500, each one logged.
  CHECK(receiver.requests().size() == 9);
  CHECK(log.size() == 9);
  int gave_up = 0;
  for (const auto& entry : log) {
    CHECK(entry["status"] == 500);
    if (entry["outcome"] == "failed") ++gave_up;
  }
  CHECK(gave_up == 3);
  // Events stay in order even while retrying: started before page before completed.
  const auto requests = receiver.requests();
  REQUIRE(requests.size() == 9);
  CHECK(json::parse(requests.front().body)["type"] == "batch_scrape.started");
  CHECK(json::parse(requests.back().body)["type"] == "batch_scrape.completed");
}

TEST_CASE("a receiver slower than the webhook timeout is a failed attempt, the job is unaffected",
          "[faults][webhooks]") {
  Receiver receiver;
  receiver.set_handler([](const Receiver::Request&) {
    Receiver::Reply reply;
    reply.delay = std::chrono::milliseconds(3000);
    return reply;
  });
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  RunningMock mock(config);
  const ApiClient api(mock.url());
  REQUIRE(api.post("/__admin/settings", {{"webhookBackoffMs", 10},
                                          {"webhookMaxAttempts", 2},
                                          {"webhookTimeoutMs", 300}})
              .status == 200);
  REQUIRE(api.post("/__admin/mappings", page_stub("faults.test", "/a", "<h1>A</h1>")).status == 201);
  const auto start = Clock::now();
  const auto started = api.post("/v2/batch/scrape", {{"urls", {"http://faults.test/a"}},
                                                     {"webhook", receiver.url()}});
  REQUIRE(started.status == 200);
  const std::string id = started.body["id"];
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(20)));
  // The job does not wait for its webhooks (3 events x 2 attempts x 300 ms would be ~2 s).
  CHECK(api.get("/v2/batch/scrape/" + id).body["status"] == "completed");
  REQUIRE(mock.server().webhooks().drain(id, std::chrono::seconds(30)));
  const auto took = Clock::now() - start;
  CHECK(took < std::chrono::seconds(20));
  const auto log = api.get("/__admin/webhooks").body["deliveries"];
  REQUIRE(log.size() == 6);
  for (const auto& entry : log) {
    CHECK(entry["status"].is_null());
    CHECK(entry["error"].is_string());
  }
  CHECK(log.back()["outcome"] == "failed");
}

namespace {

webdata::mock::Config with_fault(const std::string& fault) {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  if (!fault.empty()) config.inject_faults = {fault};
  return config;
}

// Starts a crawl and a batch scrape whose pages take 3 s each: their first status comes before
// any page is done. Returns their status paths.
std::vector<std::string> start_slow_jobs(const ApiClient& api) {
  const auto crawl =
      api.post("/v2/crawl", {{"url", "https://pages-3.delay-3000.firstnext.synthetic.test/"}});
  const auto batch = api.post("/v2/batch/scrape",
                              {{"urls", {"https://delay-3000.b1.synthetic.test/",
                                         "https://delay-3000.b2.synthetic.test/"}}});
  REQUIRE(crawl.status == 200);
  REQUIRE(batch.status == 200);
  return {"/v2/crawl/" + crawl.body["id"].get<std::string>(),
          "/v2/batch/scrape/" + batch.body["id"].get<std::string>()};
}

}  // namespace

TEST_CASE("first-status-without-next: total 0 and no next before the first page, then next "
          "only when total > skip + returned",
          "[faults][jobs]") {
  {
    // Without the fault, a running job's status has `next` from the first instant.
    RunningMock plain(with_fault(""));
    const ApiClient api(plain.url());
    for (const auto& path : start_slow_jobs(api)) {
      const json first = api.get(path).body;
      INFO(path << ": " << first.dump());
      REQUIRE(first["status"] == "scraping");
      CHECK(first.contains("next"));
    }
  }
  RunningMock mock(with_fault("first-status-without-next"));
  const ApiClient api(mock.url());
  const auto paths = start_slow_jobs(api);
  for (const auto& path : paths) {
    const json first = api.get(path).body;
    INFO(path << ": " << first.dump());
    REQUIRE(first["status"] == "scraping");
    CHECK(first["total"] == 0);
    CHECK(first["completed"] == 0);
    CHECK_FALSE(first.contains("next"));
    CHECK(first["data"] == json::array());
  }
  REQUIRE(mock.finish_jobs());
  for (const auto& path : paths) {
    const json done = api.get(path).body;
    INFO(path << ": " << done.dump());
    REQUIRE(done["status"] == "completed");
    const std::size_t total = done["total"];
    REQUIRE(total >= 2);
    CHECK(done["data"].size() == total);
    CHECK_FALSE(done.contains("next"));  // total == 0 + total returned
    const json first_one = api.get(path + "?limit=1").body;
    REQUIRE(first_one.contains("next"));  // total > 0 + 1
    CHECK(first_one["next"].get<std::string>().find("skip=1&limit=1") != std::string::npos);
    CHECK_FALSE(api.get(path + "?skip=1").body.contains("next"));  // total == 1 + (total - 1)
  }
}

TEST_CASE("extract-error-object: a failed extract job answers \"error\": {}", "[faults]") {
  RunningMock mock(with_fault("extract-error-object"));
  const ApiClient api(mock.url());
  const auto started =
      api.post("/v2/extract", {{"urls", {"http://no-such-host.invalid/"}}, {"prompt", "anything"}});
  REQUIRE(started.status == 200);
  REQUIRE(mock.server().extracts().wait_idle(std::chrono::seconds(30)));
  const auto failed = api.get("/v2/extract/" + started.body["id"].get<std::string>());
  INFO(failed.body.dump());
  CHECK(failed.status == 200);
  CHECK(failed.body["status"] == "failed");
  CHECK(failed.body["success"] == false);
  CHECK(failed.body["error"] == json::object());
}
