// Search (spec 4.3, 2.9, 8; WD 5) and agent (spec 4.9; WD 6). Both need providers a deployment
// may lack: without them the cases are skipped with the reason, never passed.

#include "support.hpp"

using namespace webdata::conformance;

TEST_CASE("v2 search: shape, limit per source, only requested sources", "[search]") {
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
  REQUIRE(both.status == 200);
  CHECK_SCHEMA("v2/search.response", both.body_json);
  const json data = both.body_json.value("data", json::object());
  {
    RULE(rules::kSearchSources);
    CHECK(data.contains("web"));
    CHECK(data.contains("news"));
    CHECK_FALSE(data.contains("images"));
  }
  CHECK(data.value("web", json::array()).size() <= 2);
  CHECK(data.value("news", json::array()).size() <= 2);
}

TEST_CASE("search limit outside 1..100 is refused", "[search][validation]") {
  REQUIRE_CAPABILITY("search");
  RULE(rules::kSearchLimit);
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

TEST_CASE("v1 search: data is an array of web items", "[search][v1]") {
  REQUIRE_CAPABILITY("search");
  RULE(rules::kSearchV1);
  const auto res = post("/v1/search", {{"query", "conformance"}, {"limit", 2}});
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA("v1/search.response", res.body_json);
  REQUIRE(res.body_json.value("data", json()).is_array());
  CHECK(res.body_json.at("data").size() <= 2);
}

TEST_CASE("SDK: search", "[search][sdk]") {
  REQUIRE_CAPABILITY("search");
  RULE(rules::kSearchLimit);
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

TEST_CASE("agent: {success, data:{result, sources}}", "[agent]") {
  REQUIRE_CAPABILITY("agent");
  RULE(rules::kAgentShape);
  const auto res =
      post("/v2/agent", {{"prompt", "What is the heading of " + site_url("/docs/a.html") + "?"}});
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  json answer = res.body_json;
  if (!answer.contains("data") && answer.contains("id")) {
    const auto deadline = std::chrono::steady_clock::now() + target().scaled(60s);
    const std::string id = answer.value("id", "");
    while (std::chrono::steady_clock::now() < deadline) {
      const auto poll = get("/v2/agent/" + id);
      answer = poll.body_json;
      CHECK_SCHEMA("v2/agent-status.response", answer);
      const std::string status = answer.value("status", "");
      if (status == "completed" || status == "failed") break;
      std::this_thread::sleep_for(500ms);
    }
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
  policy.max_wait = target().scaled(60s);
  const auto sdk_answer = sdk().agent(req, policy);
  INFO((sdk_answer.ok() ? std::string() : sdk_answer.error().describe()));
  REQUIRE(sdk_answer.ok());
  CHECK(sdk_answer->status == webdata::JobState::completed());
}
