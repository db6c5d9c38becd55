// The agent's newer routes (docs/reference/agent.md#listing-runs, #trace, #threads): the team's
// list of runs, a run's trace and its thread. They read the precheck's run (agent runs cost a
// deployment real model calls); a deployment without a route skips its rule with the precheck's
// reason (capabilities `agent-list`, `agent-trace`, `agent-threads`).

#include <cstdio>
#include <ctime>
#include <optional>

#include "support.hpp"

using namespace webdata::conformance;

namespace {

const char* const kUnknownId = "00000000-0000-4000-8000-000000000000";

/// Unix milliseconds of an ISO 8601 UTC time "YYYY-MM-DDTHH:MM:SS[.mmm]Z".
std::optional<long long> parse_iso_ms(const std::string& text) {
  std::tm tm{};
  int ms = 0;
  char zone = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%3d%c", &tm.tm_year, &tm.tm_mon,
                  &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms, &zone) != 8 &&
      std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &zone) != 7) {
    return std::nullopt;
  }
  if (zone != 'Z') return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<long long>(timegm(&tm)) * 1000 + ms;
}

std::string probe_id() {
  return agent_probe_answer().body_json.value("id", "");
}

}  // namespace

TEST_CASE("agent list: the team's runs newest first and paged by before",
          "[agent][agent-list]"
          "[AGENT-LIST][ENV-SCHEMA]") {
  RULE(rules::kAgentList);
  REQUIRE_CAPABILITY("agent-list");
  const std::string id = probe_id();
  REQUIRE_FALSE(id.empty());
  const auto list = get("/v2/agent");
  INFO(list.describe());
  REQUIRE(list.status == 200);
  CHECK_SCHEMA("v2/agent-list.response", list.body_json);
  const json agents = list.body_json.value("agents", json::array());
  // Newest first: ISO 8601 UTC times of one format sort as text.
  for (std::size_t i = 1; i < agents.size(); ++i) {
    CHECK(agents[i - 1].value("createdAt", "") >= agents[i].value("createdAt", ""));
  }
  json mine;
  for (const auto& item : agents) {
    if (item.value("id", "") == id) mine = item;
  }
  // The precheck's run is recent, so it is on the first page unless the team ran many since.
  if (mine.is_null()) {
    WARN("the precheck's run is not on the first page; the paging check is skipped");
    return;
  }
  const auto created = parse_iso_ms(mine.value("createdAt", ""));
  REQUIRE(created.has_value());
  const auto older = get("/v2/agent?before=" + std::to_string(*created));
  INFO(older.describe());
  REQUIRE(older.status == 200);
  CHECK_SCHEMA("v2/agent-list.response", older.body_json);
  for (const auto& item : older.body_json.value("agents", json::array())) {
    CHECK(item.value("id", "") != id);
    const auto at = parse_iso_ms(item.value("createdAt", ""));
    if (at) CHECK(*at < *created);
  }
}

TEST_CASE("agent trace: the run's events with run.started first and 404 for an unknown id",
          "[agent][agent-trace]"
          "[AGENT-TRACE][ENV-SCHEMA]") {
  RULE(rules::kAgentTrace);
  REQUIRE_CAPABILITY("agent-trace");
  const std::string id = probe_id();
  REQUIRE_FALSE(id.empty());
  const auto trace = get("/v2/agent/" + id + "/trace");
  INFO(trace.describe());
  REQUIRE(trace.status == 200);
  CHECK_SCHEMA("v2/agent-trace.response", trace.body_json);
  const json events = trace.body_json.value("events", json::array());
  REQUIRE_FALSE(events.empty());
  CHECK(events.front().value("type", "") == "run.started");
  for (const auto& event : events) CHECK(event.value("runId", "") == id);
  const auto unknown = get(std::string("/v2/agent/") + kUnknownId + "/trace");
  INFO(unknown.describe());
  CHECK(unknown.status == 404);
  CHECK(unknown.body_json.value("success", true) == false);
}

TEST_CASE("agent thread: the run is a turn of its thread and an unknown thread is 404",
          "[agent][agent-threads]"
          "[AGENT-THREAD][ENV-SCHEMA]") {
  RULE(rules::kAgentThread);
  REQUIRE_CAPABILITY("agent-threads");
  const json& started = agent_probe_answer().body_json;
  const std::string id = started.value("id", "");
  const std::string thread_id = started.value("threadId", "");
  REQUIRE_FALSE(thread_id.empty());
  const auto thread = get("/v2/agent/threads/" + thread_id);
  INFO(thread.describe());
  REQUIRE(thread.status == 200);
  CHECK_SCHEMA("v2/agent-thread.response", thread.body_json);
  const json body = thread.body_json.value("thread", json::object());
  CHECK(body.value("id", "") == thread_id);
  bool found = false;
  for (const auto& run : body.value("runs", json::array())) {
    if (run.value("id", "") != id) continue;
    found = true;
    if (started.contains("threadTurn")) CHECK(run.value("turn", json()) == started["threadTurn"]);
  }
  CHECK(found);
  const auto unknown = get(std::string("/v2/agent/threads/") + kUnknownId);
  INFO(unknown.describe());
  CHECK(unknown.status == 404);
  CHECK(unknown.body_json.value("success", true) == false);
}
