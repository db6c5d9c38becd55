// Team usage, queue status, concurrency check (docs/reference/usage.md) and crawl params preview
// (crawl-params-preview.md). Each route a deployment lacks skips with the precheck's reason; a
// route that is there but fails (500) fails its own rule.

#include "support.hpp"

using namespace webdata::conformance;

namespace {

void check_usage(const std::string& path, const std::string& schema, const char* remaining) {
  const auto res = get(path);
  INFO(path << ": " << res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA(schema, res.body_json);
  CHECK(res.body_json.value("success", false));
  const json data = res.body_json.value("data", json());
  REQUIRE(data.is_object());
  REQUIRE(data.contains(remaining));
  CHECK(data.at(remaining).is_number());
}

void check_history(const std::string& path, const std::string& schema, const char* used,
                   bool by_key) {
  const auto res = get(path);
  INFO(path << ": " << res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA(schema, res.body_json);
  CHECK(res.body_json.value("success", false));
  const json periods = res.body_json.value("periods", json());
  REQUIRE(periods.is_array());
  for (const auto& p : periods) {
    INFO(p.dump());
    CHECK(p.contains("startDate"));
    CHECK(p.contains("endDate"));
    REQUIRE(p.contains(used));
    CHECK(p.at(used).is_number());
    CHECK(p.at(used).get<double>() >= 0);
    if (!by_key) CHECK_FALSE(p.contains("apiKey"));
  }
}

}  // namespace

namespace {

/// Credit and token usage are one pattern: current figures under `remaining`, history entries
/// counting `used`, each with its own capability and rule.
struct UsageKind {
  const char* path;  // "credit-usage" or "token-usage"
  const Rule* current_rule;
  const char* remaining;
  const char* used;
};

void check_usage_kind(const UsageKind& kind) {
  const std::string path = std::string("/v2/team/") + kind.path;
  const std::string schema = std::string("v2/") + kind.path;
  {
    RULE(*kind.current_rule);
    check_usage(path, schema + ".response", kind.remaining);
  }
  // Builds older than the historical routes answer an HTML 404 (capability usage-history).
  if (!part_needs("usage-history", {&rules::kUsageHistory})) return;
  RULE(rules::kUsageHistory);
  check_history(path + "/historical", schema + "-historical.response", kind.used, false);
  check_history(path + "/historical?byApiKey=true", schema + "-historical.response", kind.used,
                true);
}

}  // namespace

TEST_CASE("credit usage: current and historical",
          "[team]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][TEAM-CREDIT-USAGE][TEAM-USAGE-HISTORY]") {
  CHECKS_RULES(&rules::kCreditUsage, &rules::kUsageHistory);
  REQUIRE_CAPABILITY("credit-usage");
  check_usage_kind({"credit-usage", &rules::kCreditUsage, "remainingCredits", "creditsUsed"});
}

TEST_CASE("token usage: current and historical",
          "[team]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][TEAM-TOKEN-USAGE][TEAM-USAGE-HISTORY]") {
  CHECKS_RULES(&rules::kTokenUsage, &rules::kUsageHistory);
  REQUIRE_CAPABILITY("token-usage");
  check_usage_kind({"token-usage", &rules::kTokenUsage, "remainingTokens", "tokensUsed"});
}

TEST_CASE("queue status: counts of the team's jobs",
          "[team]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][TEAM-QUEUE]") {
  CHECKS_RULES(&rules::kQueueStatus);
  REQUIRE_CAPABILITY("queue-status");
  RULE(rules::kQueueStatus);
  const auto res = get("/v2/team/queue-status");
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA("v2/queue-status.response", res.body_json);
  const json& b = res.body_json;
  CHECK(b.value("success", false));
  for (const char* key :
       {"jobsInQueue", "activeJobsInQueue", "waitingJobsInQueue", "maxConcurrency"}) {
    INFO(key);
    REQUIRE(b.contains(key));
    REQUIRE(b.at(key).is_number_integer());
    CHECK(b.at(key).get<long long>() >= 0);
  }
  CHECK(b.at("jobsInQueue").get<long long>() ==
        b.at("activeJobsInQueue").get<long long>() + b.at("waitingJobsInQueue").get<long long>());
}

TEST_CASE("concurrency check: current and maximum",
          "[team]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][TEAM-CONCURRENCY]") {
  CHECKS_RULES(&rules::kConcurrencyCheck);
  REQUIRE_CAPABILITY("concurrency-check");
  RULE(rules::kConcurrencyCheck);
  const auto res = get("/v2/concurrency-check");
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA("v2/concurrency-check.response", res.body_json);
  CHECK(res.body_json.value("success", false));
  for (const char* key : {"concurrency", "maxConcurrency"}) {
    INFO(key);
    REQUIRE(res.body_json.contains(key));
    REQUIRE(res.body_json.at(key).is_number_integer());
    CHECK(res.body_json.at(key).get<long long>() >= 0);
  }
}

TEST_CASE("crawl params preview: options a crawl accepts",
          "[crawl]"
          "[CRAWL-PREVIEW][ENV-CONTENT-TYPE][ENV-SCHEMA]") {
  CHECKS_RULES(&rules::kCrawlPreview);
  REQUIRE_CAPABILITY("crawl-preview");
  // The preview reads the prompt with a language model.
  REQUIRE_CAPABILITY("model");
  RULE(rules::kCrawlPreview);
  const auto res =
      post("/v2/crawl/params-preview",
           {{"url", site_url("/")}, {"prompt", "only the docs pages, at most 5 pages"}});
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA("v2/crawl-params-preview.response", res.body_json);
  CHECK(res.body_json.value("success", false));
  json data = res.body_json.value("data", json());
  REQUIRE(data.is_object());
  // The preview is a crawl request: the url is the one asked about, and the options validate.
  if (!data.contains("url")) data["url"] = site_url("/");
  CHECK(site_path(data.value("url", "")) == "/");
  CHECK_SCHEMA("v2/crawl.request", data);
}
