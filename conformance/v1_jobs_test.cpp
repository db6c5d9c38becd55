// The v1-only jobs (docs/reference/v1-jobs.md): deep research and llms.txt, each started and
// followed to its end, every answer against its schema. Both need a language model on the
// service: without one (capability `model`) their rules are skipped with the deployment's words,
// and only the schemas of their answers are judged.

#include "support.hpp"

using namespace webdata::conformance;

namespace {

// A research or a generation may make no visible progress for a while (a model at work).
WaitBounds v1_job_bounds() {
  WaitBounds b;
  b.idle = 180s;
  b.overall = 10min;
  return b;
}

/// Starts a v1 job: its id, or "" when the start is not {success:true, id} (judged by `rule`).
std::string start_v1_job(const Rule& rule, const std::string& path, const json& body,
                         const std::string& schema) {
  const auto started = post(path, body);
  INFO(started.describe());
  RULE(rule);
  CHECK_JSON_ANSWER(started);
  REQUIRE(started.status == 200);
  CHECK_SCHEMA(schema, started.body_json);
  CHECK(started.body_json.value("success", false));
  const std::string id = started.body_json.value("id", "");
  REQUIRE_FALSE(id.empty());
  return id;
}

}  // namespace

TEST_CASE("v1 deep research: started and polled to its end with its analysis and sources",
          "[v1-jobs][v1]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][V1-DEEP-RESEARCH]") {
  CHECKS_RULES(&rules::kV1DeepResearch);
  REQUIRE_CAPABILITY("deep-research");
  if (!part_needs("model", {&rules::kV1DeepResearch})) return;
  const std::string id =
      start_v1_job(rules::kV1DeepResearch, "/v1/deep-research",
                   {{"query", "web data extraction API"}, {"maxDepth", 1}, {"maxUrls", 3}},
                   "v1/deep-research.response");
  std::vector<std::string> seen;
  const json last = wait_job("/v1/deep-research", id, &seen, v1_job_bounds(), [](const json& b) {
    RULE(rules::kV1DeepResearch);
    CHECK_SCHEMA("v1/deep-research-status.response", b);
  });
  INFO("last status: " << last.dump().substr(0, 2000));
  RULE(rules::kV1DeepResearch);
  for (const auto& s : seen) CHECK((s == "processing" || s == "completed" || s == "failed"));
  REQUIRE(last.value("status", "") == "completed");
  const json data = last.value("data", json::object());
  CHECK_FALSE(data.value("finalAnalysis", "").empty());
  REQUIRE(last.contains("sources"));
  CHECK(last.at("sources").is_array());
}

TEST_CASE("v1 llms.txt: started and polled to its end with the site's llms.txt",
          "[v1-jobs][v1]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][V1-LLMSTXT]") {
  CHECKS_RULES(&rules::kV1LlmsTxt);
  REQUIRE_CAPABILITY("llmstxt");
  if (!part_needs("model", {&rules::kV1LlmsTxt})) return;
  const std::string id =
      start_v1_job(rules::kV1LlmsTxt, "/v1/llmstxt",
                   {{"url", site_url("/")}, {"maxUrls", 3}, {"showFullText", true}},
                   "v1/llmstxt.response");
  const json last = wait_job("/v1/llmstxt", id, nullptr, v1_job_bounds(), [](const json& b) {
    RULE(rules::kV1LlmsTxt);
    CHECK_SCHEMA("v1/llmstxt-status.response", b);
  });
  INFO("last status: " << last.dump().substr(0, 2000));
  RULE(rules::kV1LlmsTxt);
  REQUIRE(last.value("status", "") == "completed");
  const json data = last.value("data", json::object());
  CHECK_FALSE(data.value("llmstxt", "").empty());
}
