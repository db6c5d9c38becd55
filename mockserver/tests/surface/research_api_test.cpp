// Research papers, the GitHub slice, developer search, feedback and support ask over real HTTP:
// deterministic ranking over the bundled corpus, strict query and body checks, 404s, team
// isolation, credits, the admin list of feedback and answers from a job's real state.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

#include "api_client.hpp"
#include "mock_fixture.hpp"
#include "schema_check.hpp"
#include "stub_mapping.hpp"

using webdata::testing::ApiClient;
using webdata::testing::page_stub;
using webdata::testing::RunningMock;
using json = nlohmann::json;
using surface_test::check_schema;

namespace {

webdata::mock::Config research_teams() {
  auto config = RunningMock::quiet_config();
  config.teams = {{"team-a", {"key-a", "test-key"}}, {"team-b", {"key-b"}}};
  return config;
}

std::int64_t credits_left(ApiClient& api) {
  return api.get("/v2/team/credit-usage").body["data"]["remainingCredits"].get<std::int64_t>();
}

}  // namespace

TEST_CASE("research: paper search ranks the corpus deterministically, filters and bills",
          "[research]") {
  RunningMock mock;
  ApiClient api(mock.url());
  const std::int64_t before = credits_left(api);
  const auto r = api.get("/v2/search/research/papers?query=graph%20neural%20network%20molecules&k=3");
  REQUIRE(r.status == 200);
  check_schema("v2/research-papers.response", r.body);
  REQUIRE(r.body["results"].size() == 3);
  CHECK(r.body["results"][0]["paperId"] == "1004");
  CHECK(api.get("/v2/search/research/papers?query=graph%20neural%20network%20molecules&k=3").body ==
        r.body);
  CHECK(credits_left(api) == before - 2);
  const auto filtered =
      api.get("/v2/search/research/papers?query=graph&categories=q-bio.BM&authors=okafor");
  REQUIRE(filtered.status == 200);
  REQUIRE(filtered.body["results"].size() == 1);
  CHECK(filtered.body["results"][0]["primaryId"] == "arxiv:2310.00707");
  const auto dated = api.get("/v2/search/research/papers?query=graph&from=2023-07-01");
  REQUIRE(dated.body["results"].size() == 1);
  CHECK(dated.body["results"][0]["paperId"] == "1007");
}

TEST_CASE("research: inspect, read with a question, related papers, 404 and bad queries",
          "[research]") {
  RunningMock mock;
  ApiClient api(mock.url());
  const auto meta = api.get("/v2/search/research/papers/arxiv:2101.00101");
  REQUIRE(meta.status == 200);
  check_schema("v2/research-paper.response", meta.body);
  CHECK(meta.body["paper"]["paperId"] == "1001");
  CHECK_FALSE(meta.body.contains("passages"));
  CHECK(api.get("/v2/search/research/papers/2101.00101").body == meta.body);
  const auto read = api.get("/v2/search/research/papers/1001?query=which%20dataset&k=1");
  REQUIRE(read.status == 200);
  check_schema("v2/research-paper.response", read.body);
  REQUIRE(read.body["passages"].size() == 1);
  CHECK(read.body["passages"][0]["text"].get<std::string>().find("QM9") != std::string::npos);
  const auto similar = api.get("/v2/search/research/papers/1001/similar?intent=molecule&k=1");
  REQUIRE(similar.status == 200);
  check_schema("v2/research-similar.response", similar.body);
  CHECK(similar.body["truncated"] == true);
  CHECK(similar.body["results"][0]["signals"]["seedOverlap"] == 1);
  const auto citers =
      api.get("/v2/search/research/papers/1005/similar?intent=anything&mode=citers");
  REQUIRE(citers.body["results"].size() == 1);
  CHECK(citers.body["results"][0]["paperId"] == "1006");
  CHECK(api.get("/v2/search/research/papers/nope").status == 404);
  CHECK(api.get("/v2/search/research/papers/nope/similar?intent=x").status == 404);
  const auto no_query = api.get("/v2/search/research/papers?k=3");
  REQUIRE(no_query.status == 400);
  CHECK(no_query.body["details"][0]["path"] == json::array({"query"}));
  CHECK(api.get("/v2/search/research/papers?query=x&k=zero").status == 400);
  CHECK(api.get("/v2/search/research/papers?query=x&unknown=1").status == 400);
  CHECK(api.get("/v2/search/research/papers/1001/similar").status == 400);
  CHECK(ApiClient(mock.url(), "").get("/v2/search/research/papers?query=x").status == 401);
}

TEST_CASE("research: GitHub slice and developer search with filters", "[research]") {
  RunningMock mock;
  ApiClient api(mock.url());
  const auto gh = api.get("/v2/search/research/github?query=retry%20backoff&k=2");
  REQUIRE(gh.status == 200);
  check_schema("v2/research-github.response", gh.body);
  CHECK(gh.body["replacement"] == "/v2/search/developer");
  CHECK(gh.body["results"][0]["repo"] == "acme/flowpipe");
  const auto dev = api.post("/v2/search/developer", {{"query", "webhooks"}, {"k", 5}});
  REQUIRE(dev.status == 200);
  check_schema("v2/developer-search.response", dev.body);
  REQUIRE_FALSE(dev.body["results"].empty());
  const auto repos = api.post("/v2/search/developer",
                              {{"query", "backoff"}, {"repos", {"acme/flowpipe", "x/y"}},
                               {"types", {"pull_request"}}, {"passages", 2}});
  REQUIRE(repos.status == 200);
  check_schema("v2/developer-search.response", repos.body);
  REQUIRE(repos.body["results"].size() == 1);
  CHECK(repos.body["results"][0]["id"] == "pull_request:acme/flowpipe#415");
  CHECK(repos.body["repos"][1]["indexed"] == false);
  const auto stars = api.post("/v2/search/developer", {{"query", "molgraph"}, {"min_stars", 100}});
  for (const auto& result : stars.body["results"]) {
    CHECK(result["url"].get<std::string>().find("fork") == std::string::npos);
  }
  // The CLI's form: the same options as query parameters.
  const auto as_get = api.get(
      "/v2/search/developer?query=backoff&repos=acme/flowpipe&repos=x/y&types=pull_request&passages=2");
  REQUIRE(as_get.status == 200);
  CHECK(as_get.body == repos.body);
  CHECK(api.get("/v2/search/developer?k=3").status == 400);
  const auto bad = api.post("/v2/search/developer", {{"query", "x"}, {"types", {"video"}}});
  REQUIRE(bad.status == 400);
  CHECK(bad.body["details"].is_array());
}

TEST_CASE("feedback: stored per team, repeated feedback is not stored twice, admin lists it",
          "[feedback]") {
  RunningMock mock(research_teams());
  ApiClient a(mock.url(), "key-a");
  ApiClient b(mock.url(), "key-b");
  ApiClient admin(mock.url());
  REQUIRE(admin.post("/__admin/mappings", page_stub("fb.test", "/", "<html><title>F</title><main>"
                                                                    "<p>Hello</p></main></html>"))
              .status == 201);
  const auto scraped = a.post("/v2/scrape", {{"url", "http://fb.test/"}});
  REQUIRE(scraped.status == 200);
  const std::string id = scraped.body["data"]["metadata"]["scrapeId"];
  const json body = {{"endpoint", "scrape"}, {"jobId", id}, {"rating", "bad"}, {"note", "n"}};
  const auto first = a.post("/v2/feedback", body);
  REQUIRE(first.status == 200);
  check_schema("v2/feedback.response", first.body);
  const auto again = a.post("/v2/feedback", body);
  CHECK(again.body["feedbackId"] == first.body["feedbackId"]);
  CHECK(again.body["alreadySubmitted"] == true);
  CHECK(b.post("/v2/feedback", body).status == 404);  // another team's scrape
  CHECK(a.post("/v2/feedback", {{"endpoint", "crawl"}, {"jobId", id}, {"rating", "bad"}}).status ==
        400);
  // A search's feedback names the id of one of the team's searches.
  const auto searched = b.post("/v2/search", {{"query", "hello"}});
  REQUIRE(searched.status == 200);
  const std::string search_id = searched.body["id"];
  const json good = {{"rating", "good"}, {"valuableSources", {{{"url", "https://a.test"}}}}};
  const auto not_issued = b.post("/v2/search/" + id + "/feedback", good);  // a scrape's id
  CHECK(not_issued.status == 404);
  CHECK(not_issued.body["feedbackErrorCode"] == "SEARCH_NOT_FOUND");
  CHECK(a.post("/v2/search/" + search_id + "/feedback", good).status == 404);  // b's search
  CHECK(b.post("/v2/search/not-an-id/feedback", good).status == 404);
  // Each rating needs its evidence: good a valuable source, partial a source or missing
  // content, bad missing content or a query suggestion.
  for (const json& lacking : {json{{"rating", "good"}},
                              json{{"rating", "good"}, {"missingContent", {{{"topic", "t"}}}}},
                              json{{"rating", "partial"}, {"querySuggestions", "q"}},
                              json{{"rating", "bad"}, {"valuableSources", {{{"url", "https://a.test"}}}}}}) {
    const auto refused = b.post("/v2/search/" + search_id + "/feedback", lacking);
    CHECK(refused.status == 400);
    CHECK(refused.body["feedbackErrorCode"] == "INVALID_BODY");
    check_schema("common/error", refused.body);
  }
  CHECK(b.post("/v2/search/" + search_id + "/feedback",
               {{"rating", "bad"}, {"querySuggestions", "try 'kettle'"}})
            .status == 200);
  const auto again_search = b.post("/v2/search/" + search_id + "/feedback", good);
  REQUIRE(again_search.status == 200);
  CHECK(again_search.body["alreadySubmitted"] == true);
  // A scrape's feedback with a good rating needs no source.
  CHECK(a.post("/v2/feedback", {{"endpoint", "scrape"}, {"jobId", id}, {"rating", "good"}}).status ==
        200);
  const auto listed = admin.get("/__admin/feedback");
  REQUIRE(listed.status == 200);
  REQUIRE(listed.body["feedback"].size() == 2);
  CHECK(listed.body["feedback"][0]["teamId"] == "team-a");
  CHECK(listed.body["feedback"][0]["feedback"]["note"] == "n");
  CHECK(listed.body["feedback"][1]["endpoint"] == "search");
}

TEST_CASE("support ask: answers from the job's real state, 404 for another team's job",
          "[support]") {
  RunningMock mock(research_teams());
  ApiClient a(mock.url(), "key-a");
  ApiClient b(mock.url(), "key-b");
  ApiClient admin(mock.url());
  REQUIRE(admin.post("/__admin/mappings", page_stub("ask.test", "/ok", "<html><main>ok</main></html>"))
              .status == 201);
  REQUIRE(admin.post("/__admin/mappings", page_stub("ask.test", "/gone", "missing", 500)).status ==
          201);
  const auto started =
      a.post("/v2/batch/scrape", {{"urls", {"http://ask.test/ok", "http://ask.test/gone"}}});
  REQUIRE(started.status == 200);
  const std::string id = started.body["id"];
  const json done = a.wait_job("/v2/batch/scrape/" + id, std::chrono::seconds(12));
  REQUIRE(done["status"] == "completed");
  const auto answer = a.post("/v2/support/ask", {{"question", "why did this run fail?"}, {"jobId", id}});
  REQUIRE(answer.status == 200);
  check_schema("v2/support-ask.response", answer.body);
  CHECK(answer.body["jobType"] == "batch_scrape");
  CHECK(answer.body["status"] == "completed");
  const auto errors = a.get("/v2/batch/scrape/" + id + "/errors").body["errors"];
  const std::string text = answer.body["answer"];
  for (const auto& error : errors) {
    CHECK(text.find(error["url"].get<std::string>()) != std::string::npos);
  }
  CHECK(b.post("/v2/support/ask", {{"question", "q"}, {"jobId", id}}).status == 404);
  CHECK(a.post("/v2/support/ask", {{"jobId", id}}).status == 400);
  CHECK(a.post("/v2/support/ask", {{"question", "how do I crawl?"}}).status == 200);
}
