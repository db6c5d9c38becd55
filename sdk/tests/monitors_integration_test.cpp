// The SDK's monitor calls over real HTTP against a webdata-mock process: create, list, get,
// update, run, a check's pages, checks, delete and the errors.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "eventually.hpp"
#include "sdk_mock.hpp"
#include "webdata/webdata.hpp"

using webdata::testing::MockAndClient;
using namespace std::chrono_literals;

namespace {

/// A request for a monitor `name` of `urls` (one target); its schedule is the caller's.
webdata::CreateMonitorRequest monitor_request(const std::string& name,
                                              std::vector<std::string> urls) {
  webdata::CreateMonitorRequest request;
  request.name = name;
  webdata::MonitorTarget target;
  target.urls = std::move(urls);
  request.targets = {target};
  return request;
}

}  // namespace

TEST_CASE_METHOD(MockAndClient, "Client monitors: create, list, get, update, run, checks, delete",
                 "[integration][monitors]") {
  auto request = monitor_request(
      "Synthetic", {"https://pages-3.synthetic.test/", "https://pages-3.synthetic.test/p1"});
  request.schedule.text = "every 2 hours";
  auto created = client.create_monitor(request);
  REQUIRE(created.ok());
  CHECK(created->schedule.cron == "0 */2 * * *");
  CHECK(created->status == "active");
  REQUIRE(created->targets.size() == 1);
  CHECK(created->targets[0].id == "target-1");
  CHECK(created->diagnostics.empty());
  const std::string id = created->id;

  auto listed = client.list_monitors({10, 0});
  REQUIRE(listed.ok());
  REQUIRE(listed->size() == 1);
  CHECK((*listed)[0].id == id);

  webdata::UpdateMonitorRequest pause;
  pause.status = "paused";
  auto paused = client.update_monitor(id, pause);
  REQUIRE(paused.ok());
  CHECK(paused->status == "paused");
  CHECK_FALSE(paused->next_run_at.has_value());

  auto queued = client.run_monitor(id);
  REQUIRE(queued.ok());
  CHECK(queued->trigger == "manual");
  webdata::PollingPolicy policy;
  policy.interval = 50ms;
  policy.max_wait = 20s;
  auto waited = client.wait_monitor_check(id, queued->id, policy);
  REQUIRE(waited.ok());
  const webdata::MonitorCheck& check = *waited;
  CHECK(check.status == "completed");
  CHECK(check.summary.total_pages == 2);
  CHECK(check.summary.added == 2);
  REQUIRE(check.pages.size() == 2);
  CHECK(check.pages[0].status == "new");
  CHECK(check.pages[0].current_scrape_id.has_value());
  CHECK(check.diagnostics.empty());

  webdata::MonitorCheckOptions one;
  one.limit = 1;
  auto first = client.monitor_check(id, queued->id, one);
  REQUIRE(first.ok());
  CHECK(first->pages.size() == 1);
  CHECK(first->next.has_value());

  auto checks = client.monitor_checks(id);
  REQUIRE(checks.ok());
  REQUIRE(checks->size() == 1);
  CHECK((*checks)[0].actual_credits == 2);

  auto deleted = client.delete_monitor(id);
  REQUIRE(deleted.ok());
  CHECK(*deleted);
  auto gone = client.get_monitor(id);
  REQUIRE_FALSE(gone.ok());
  CHECK(gone.error().http_status == 404);
}

TEST_CASE_METHOD(MockAndClient, "Client monitors: a bad schedule is a 400 with details",
                 "[integration][monitors]") {
  auto request = monitor_request("Bad", {"https://pages-3.synthetic.test/"});
  request.schedule.cron = "0 25 * * *";
  auto refused = client.create_monitor(request);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().http_status == 400);
  CHECK_FALSE(client.run_monitor("no-such-monitor").ok());
}
