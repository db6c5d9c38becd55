// Monitors (docs/reference/monitors.md): a monitor of a page of the runner's test site created,
// read, listed, changed, checked now (twice: the page is new, then the same) and deleted; a bad
// cron expression refused. Deployments without monitors skip with the precheck's reason.

#include <thread>

#include "support.hpp"

using namespace webdata::conformance;

namespace {

/// The check's detail once it has ended (neither queued nor running), or the last answer.
json finished_check(const std::string& monitor, const std::string& check) {
  json detail;
  const auto until = std::chrono::steady_clock::now() + 120s;
  while (std::chrono::steady_clock::now() < until) {
    const auto res = get("/v2/monitor/" + monitor + "/checks/" + check);
    INFO(res.describe());
    REQUIRE(res.status == 200);
    detail = res.body_json.value("data", json());
    const std::string status = detail.value("status", "");
    if (status != "queued" && status != "running") break;
    std::this_thread::sleep_for(500ms);
  }
  CHECK_SCHEMA("v2/monitor-check-detail.response", json({{"success", true}, {"data", detail}}));
  return detail;
}

json run_check(const std::string& monitor) {
  const auto run = post("/v2/monitor/" + monitor + "/run", json::object());
  INFO(run.describe());
  CHECK_JSON_ANSWER(run);
  REQUIRE(run.status == 200);
  CHECK_SCHEMA("v2/monitor-check.response", run.body_json);
  return finished_check(monitor, run.body_json.at("data").value("id", ""));
}

}  // namespace

TEST_CASE("monitors: created and read and listed and changed and checked now and deleted",
          "[monitors]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][MONITOR-CHECK][MONITOR-CRUD]") {
  CHECKS_RULES(&rules::kMonitorCrud, &rules::kMonitorCheck);
  REQUIRE_CAPABILITY("monitors");
  RULE(rules::kMonitorCrud);
  const std::string page = site_url("/docs/a.html");
  const auto created = post("/v2/monitor", {{"name", "conformance " + unique_token()},
                                            {"schedule", {{"cron", "0 0 1 1 *"}}},
                                            {"targets", {{{"type", "scrape"}, {"urls", {page}}}}}});
  INFO(created.describe());
  CHECK_JSON_ANSWER(created);
  REQUIRE(created.status == 200);
  CHECK_SCHEMA("v2/monitor.response", created.body_json);
  const std::string id = created.body_json.at("data").value("id", "");
  REQUIRE_FALSE(id.empty());
  const auto read = get("/v2/monitor/" + id);
  CHECK(read.status == 200);
  CHECK_SCHEMA("v2/monitor.response", read.body_json);
  const auto listed = get("/v2/monitor?limit=100");
  CHECK(listed.status == 200);
  CHECK_SCHEMA("v2/monitor-list.response", listed.body_json);
  Call patch;
  patch.method = "PATCH";
  patch.path = "/v2/monitor/" + id;
  patch.body = json{{"status", "paused"}};
  const auto paused = call(patch);
  CHECK(paused.status == 200);
  CHECK(paused.body_json.value("data", json::object()).value("status", "") == "paused");

  RULE(rules::kMonitorCheck);
  const json first = run_check(id);
  CHECK(first.value("status", "") == "completed");
  REQUIRE(first.value("pages", json::array()).size() == 1);
  CHECK(first.at("pages").at(0).value("status", "") == "new");
  const json second = run_check(id);
  REQUIRE(second.value("pages", json::array()).size() == 1);
  CHECK(second.at("pages").at(0).value("status", "") == "same");

  RULE(rules::kMonitorCrud);
  CHECK(del("/v2/monitor/" + id).status == 200);
  CHECK(get("/v2/monitor/" + id).status == 404);
}

TEST_CASE("monitors: a bad cron expression answers 400 with details",
          "[monitors]"
          "[ENV-CONTENT-TYPE][MONITOR-INVALID]") {
  CHECKS_RULES(&rules::kMonitorInvalid);
  REQUIRE_CAPABILITY("monitors");
  RULE(rules::kMonitorInvalid);
  const auto res = post("/v2/monitor", {{"name", "conformance bad cron"},
                                        {"schedule", {{"cron", "61 * * * *"}}},
                                        {"targets", {{{"type", "scrape"}, {"urls", {site_url("/")}}}}}});
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 400);
  CHECK_FALSE(res.body_json.value("success", true));
  CHECK(res.body_json.dump().find("schedule") != std::string::npos);
}
