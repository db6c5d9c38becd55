// Research paper search, developer search, feedback and support ask (docs/reference/research.md):
// the shapes of today's service, each skipped with a reason on a deployment without the route.
#include "support.hpp"

using namespace webdata::conformance;

TEST_CASE("research: paper search and an unknown paper",
          "[research]"
          "[RESEARCH-PAPERS][ENV-CONTENT-TYPE][ENV-SCHEMA]") {
  CHECKS_RULES(&rules::kResearchPapers);
  REQUIRE_CAPABILITY("research");
  RULE(rules::kResearchPapers);
  const auto res = get("/v2/search/research/papers?query=neural%20networks&k=2");
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA("v2/research-papers.response", res.body_json);
  const json results = res.body_json.value("results", json::array());
  CHECK(results.size() <= 2);
  const auto unknown = get("/v2/search/research/papers/no-such-paper-" + unique_token());
  INFO(unknown.describe());
  CHECK(unknown.status == 404);
}

TEST_CASE("developer search: results with passages at most k",
          "[research]"
          "[DEVELOPER-SEARCH][ENV-CONTENT-TYPE][ENV-SCHEMA]") {
  CHECKS_RULES(&rules::kDeveloperSearch);
  REQUIRE_CAPABILITY("developer-search");
  RULE(rules::kDeveloperSearch);
  const auto res = post("/v2/search/developer", {{"query", "webhooks"}, {"k", 2}});
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA("v2/developer-search.response", res.body_json);
  CHECK(res.body_json.value("results", json::array()).size() <= 2);
}

TEST_CASE("feedback: on the team's scrape and a bad rating refused",
          "[research]"
          "[FEEDBACK][ENV-CONTENT-TYPE][ENV-SCHEMA]") {
  CHECKS_RULES(&rules::kFeedback);
  REQUIRE_CAPABILITY("feedback");
  RULE(rules::kFeedback);
  const auto scraped = post("/v2/scrape", {{"url", site_url("/docs/a.html")}});
  INFO(scraped.describe());
  REQUIRE(scraped.status == 200);
  const std::string id =
      scraped.body_json.value("data", json::object()).value("metadata", json::object())
          .value("scrapeId", "");
  REQUIRE_FALSE(id.empty());
  const auto res = post("/v2/feedback", {{"endpoint", "scrape"}, {"jobId", id}, {"rating", "good"}});
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA("v2/feedback.response", res.body_json);
  const auto bad = post("/v2/feedback", {{"endpoint", "scrape"}, {"jobId", id}, {"rating", "great"}});
  INFO(bad.describe());
  CHECK(bad.status == 400);
  CHECK(bad.body_json.value("details", json()).is_array());
}

TEST_CASE("support ask: about the team's batch scrape and an unknown job",
          "[research]"
          "[SUPPORT-ASK][ENV-CONTENT-TYPE][ENV-SCHEMA]") {
  CHECKS_RULES(&rules::kSupportAsk);
  REQUIRE_CAPABILITY("support-ask");
  RULE(rules::kSupportAsk);
  const auto started = post("/v2/batch/scrape", {{"urls", {site_url("/docs/a.html")}}});
  INFO(started.describe());
  REQUIRE(started.status == 200);
  const std::string id = started.body_json.value("id", "");
  wait_job("/v2/batch/scrape", id);
  const auto res = post("/v2/support/ask", {{"question", "why did this run fail?"}, {"jobId", id}});
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA("v2/support-ask.response", res.body_json);
  const auto unknown =
      post("/v2/support/ask", {{"question", "why?"}, {"jobId", "no-such-job-" + unique_token()}});
  INFO(unknown.describe());
  CHECK(unknown.status == 404);
}
