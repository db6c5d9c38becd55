// The agent as a job (docs/reference/agent.md#agent-jobs): where POST /v2/agent answers with a
// job id, the job is polled to its end and cancelled. A deployment that answers at once, or has
// no agent, skips these cases with the precheck's reason (capability `agent-job`).

#include "support.hpp"

using namespace webdata::conformance;

namespace {

bool is_end(const std::string& status) {
  return status == "completed" || status == "failed" || status == "cancelled";
}

}  // namespace

TEST_CASE("agent job: polled to its end with every status matching the schema",
          "[agent][agent-job]"
          "[AGENT-JOB][ENV-SCHEMA]") {
  RULE(rules::kAgentJob);
  REQUIRE_CAPABILITY("agent-job");
  // The precheck's job (agent runs cost a deployment real model calls): follow it, not a new one.
  const ApiResponse& started = agent_probe_answer();
  INFO(started.describe());
  CHECK_SCHEMA("v2/agent.response", started.body_json);
  CHECK(started.body_json.value("success", false));
  const std::string id = started.body_json.value("id", "");
  REQUIRE_FALSE(id.empty());

  std::vector<std::string> seen;
  const json last = wait_job("/v2/agent", id, &seen, WaitBounds{}, [](const json& poll) {
    CHECK_SCHEMA("v2/agent-status.response", poll);
    const std::string status = poll.value("status", "");
    // `data` comes with the end, never while the agent works.
    if (status == "processing") CHECK_FALSE(poll.contains("data"));
  });
  INFO("statuses seen: " << seen.size() << "; last: " << last.dump().substr(0, 600));
  const std::string status = last.value("status", "");
  REQUIRE((status == "completed" || status == "failed"));
  CHECK(last.value("success", false));
  CHECK(last.value("expiresAt", json()).is_string());
  if (status == "completed") {
    REQUIRE(last.contains("data"));
    const json& data = last.at("data");
    if (data.is_object() && data.contains("result")) {
      CHECK(data.value("sources", json::array()).is_array());
    }
  } else {
    CHECK(last.value("error", json()).is_string());
  }

  // The finished job can still be read, and an id the deployment never gave answers 404.
  const auto again = get("/v2/agent/" + id);
  INFO(again.describe());
  CHECK(again.status == 200);
  CHECK(again.body_json.value("status", "") == status);
  const auto unknown = get("/v2/agent/00000000-0000-4000-8000-000000000000");
  INFO(unknown.describe());
  CHECK(unknown.status == 404);
  CHECK(unknown.body_json.value("success", true) == false);
}

TEST_CASE("agent job: cancel",
          "[agent][agent-job]"
          "[AGENT-CANCEL][ENV-CONTENT-TYPE][ENV-SCHEMA]") {
  RULE(rules::kAgentCancel);
  REQUIRE_CAPABILITY("agent-job");
  // A small question with a low credit cap: the cancel should catch it running, and a run that
  // ends first costs little.
  const auto started = post(
      "/v2/agent",
      {{"prompt", "What is the heading of " + site_url("/docs/b.html") + "?"}, {"maxCredits", 5}});
  INFO(started.describe());
  REQUIRE(started.status == 200);
  const std::string id = started.body_json.value("id", "");
  REQUIRE_FALSE(id.empty());

  const auto cancel = del("/v2/agent/" + id);
  INFO(cancel.describe());
  CHECK_JSON_ANSWER(cancel);
  REQUIRE(cancel.status == 200);
  CHECK_SCHEMA("v2/agent-cancel.response", cancel.body_json);
  const bool cancelled = cancel.body_json.value("success", false);

  const json last = wait_job("/v2/agent", id, nullptr, WaitBounds{}, [](const json& poll) {
    CHECK_SCHEMA("v2/agent-status.response", poll);
  });
  INFO("last status: " << last.dump().substr(0, 600));
  const std::string status = last.value("status", "");
  REQUIRE(is_end(status));
  if (cancelled) {
    // Cancelled means it ends cancelled, with no result.
    CHECK(status == "cancelled");
    CHECK_FALSE(last.contains("data"));
  } else {
    // `success: false`: the job had already ended on its own.
    CHECK(status != "cancelled");
  }

  const auto unknown = del("/v2/agent/00000000-0000-4000-8000-000000000000");
  INFO(unknown.describe());
  CHECK(unknown.status == 404);
}
