// Search (docs/reference/search.md) and agent (agent.md). Both need providers a deployment may
// lack: without them the cases are skipped with the precheck's reason, never passed.

#include "support.hpp"

using namespace webdata::conformance;

TEST_CASE("v2 search: the shape with the limit per source and only the requested sources",
          "[search]"
          "[CREDITS-FIELDS][ENV-CONTENT-TYPE][ENV-SCHEMA][SEARCH-LIMIT][SEARCH-SHAPE]"
          "[SEARCH-SOURCES]") {
  CHECKS_RULES(&rules::kSearchShape, &rules::kSearchSources, &rules::kSearchLimit);
  REQUIRE_CAPABILITY("search");
  const auto res = post("/v2/search", {{"query", "conformance testing"}, {"limit", 3}});
  INFO(res.describe());
  {
    RULE(rules::kSearchShape);
    CHECK_JSON_ANSWER(res);
    REQUIRE(res.status == 200);
    CHECK_SCHEMA("v2/search.response", res.body_json);
    CHECK(res.body_json.value("success", false));
    REQUIRE(res.body_json.contains("data"));
    CHECK(res.body_json.at("data").contains("web"));
    RULE(rules::kCredits);
    REQUIRE(res.body_json.contains("creditsUsed"));
    CHECK(res.body_json.at("creditsUsed").is_number_integer());
    CHECK(res.body_json.value("creditsUsed", -1) >= 0);
  }
  {
    RULE(rules::kSearchSources);
    CHECK_FALSE(res.body_json.at("data").contains("images"));
    CHECK_FALSE(res.body_json.at("data").contains("news"));
  }
  RULE(rules::kSearchLimit);
  CHECK(res.body_json.at("data").value("web", json::array()).size() <= 3);

  const auto both =
      post("/v2/search", {{"query", "conformance"}, {"limit", 2}, {"sources", {"web", "news"}}});
  INFO(both.describe());
  {
    RULE(rules::kSearchShape);
    REQUIRE(both.status == 200);
    CHECK_SCHEMA("v2/search.response", both.body_json);
  }
  const json data = both.body_json.value("data", json::object());
  {
    RULE(rules::kSearchSources);
    CHECK(data.contains("web"));
    CHECK(data.contains("news"));
    CHECK_FALSE(data.contains("images"));
  }
  RULE(rules::kSearchLimit);
  CHECK(data.value("web", json::array()).size() <= 2);
  CHECK(data.value("news", json::array()).size() <= 2);
}

TEST_CASE("search limit outside 1..100 is refused",
          "[search][validation]"
          "[SEARCH-LIMIT]") {
  RULE(rules::kSearchLimit);
  REQUIRE_CAPABILITY("search");
  for (const int limit : {0, 101}) {
    for (const char* path : {"/v2/search", "/v1/search"}) {
      const auto res = post(path, {{"query", "conformance"}, {"limit", limit}});
      INFO(path << " limit " << limit << ": " << res.describe());
      CHECK(res.status >= 400);
      CHECK(res.body_json.value("success", true) == false);
      CHECK(res.body_json.value("error", json()).is_string());
    }
  }
}

TEST_CASE("v1 search: data is an array of web items",
          "[search][v1]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SEARCH-V1]") {
  RULE(rules::kSearchV1);
  REQUIRE_CAPABILITY("search");
  const auto res = post("/v1/search", {{"query", "conformance"}, {"limit", 2}});
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA("v1/search.response", res.body_json);
  REQUIRE(res.body_json.value("data", json()).is_array());
  CHECK(res.body_json.at("data").size() <= 2);
}

TEST_CASE("SDK: search",
          "[search][sdk]"
          "[SEARCH-LIMIT]") {
  RULE(rules::kSearchLimit);
  REQUIRE_CAPABILITY("search");
  webdata::SearchRequest req;
  req.query = "conformance";
  req.limit = 2;
  const auto found = sdk().search(req);
  INFO((found.ok() ? std::string() : found.error().describe()));
  REQUIRE(found.ok());
  REQUIRE(found->web.has_value());
  CHECK(found->web->size() <= 2);
  for (const auto& item : *found->web) CHECK_FALSE(item.url.empty());
}

TEST_CASE("agent: the answer holds a result and its sources",
          "[agent]"
          "[AGENT-SHAPE][ENV-CONTENT-TYPE][ENV-SCHEMA]") {
  RULE(rules::kAgentShape);
  REQUIRE_CAPABILITY("agent");
  // The precheck asked already (agent runs cost a deployment real model calls): judge its answer.
  const ApiResponse& res = agent_probe_answer();
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  json answer = res.body_json;
  if (!answer.contains("data") && answer.contains("id")) {
    answer = wait_job("/v2/agent", answer.value("id", ""), nullptr, WaitBounds{},
                      [](const json& poll) { CHECK_SCHEMA("v2/agent-status.response", poll); });
    INFO("last status: " << answer.dump().substr(0, 400));
    REQUIRE(answer.value("status", "") == "completed");
  } else {
    CHECK_SCHEMA("v2/agent.response", answer);
  }
  CHECK(answer.value("success", false));
  REQUIRE(answer.contains("data"));
  CHECK(answer.at("data").contains("result"));
  CHECK(answer.at("data").value("sources", json()).is_array());

  webdata::AgentRequest req;
  req.prompt = "What is the heading of " + site_url("/docs/b.html") + "?";
  webdata::PollingPolicy policy;
  policy.interval = 500ms;
  policy.max_wait = target().scaled(WaitBounds{}.idle);
  const auto sdk_answer = sdk().agent(req, policy);
  INFO((sdk_answer.ok() ? std::string() : sdk_answer.error().describe()));
  REQUIRE(sdk_answer.ok());
  CHECK(sdk_answer->status == webdata::JobState::completed());
}
