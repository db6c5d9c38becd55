// v1 deep research and llms.txt over real HTTP: start, the job shown step by step on the mock's
// clock (the admin clock skips ahead), the final answers built from the virtual web's pages,
// team isolation, credits and bad requests.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

#include "api_client.hpp"
#include "eventually.hpp"
#include "mock_fixture.hpp"
#include "schema_check.hpp"

using webdata::testing::ApiClient;
using webdata::testing::RunningMock;
using json = nlohmann::json;
using surface_test::check_schema;

namespace {

/// Polls `path` until it leaves `processing`, checking each answer against `schema`.
json wait_for(const ApiClient& api, const std::string& path, const std::string& schema) {
  json body;
  const bool ended = webdata::testing::eventually([&] {
    const auto r = api.get(path);
    REQUIRE(r.status == 200);
    check_schema(schema, r.body);
    body = r.body;
    return body["status"] != "processing";
  });
  if (!ended) FAIL("the job did not finish");
  return body;
}

}  // namespace

TEST_CASE("v1 deep research: activities, sources and a final analysis", "[v1-jobs]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const auto started = api.post("/v1/deep-research", {{"query", "trail kettle"},
                                                      {"maxDepth", 3},
                                                      {"maxUrls", 4},
                                                      {"formats", {"markdown", "json"}}});
  REQUIRE(started.status == 200);
  check_schema("v1/deep-research.response", started.body);
  const std::string id = started.body["id"];
  const auto first = api.get("/v1/deep-research/" + id);
  REQUIRE(first.status == 200);
  CHECK(first.body["status"] == "processing");
  CHECK(first.body["data"]["finalAnalysis"] == "");
  const json done = wait_for(api, "/v1/deep-research/" + id, "v1/deep-research-status.response");
  CHECK(done["status"] == "completed");
  CHECK(done["maxDepth"] == 3);
  CHECK(done["currentDepth"].get<int>() >= 1);
  const auto& sources = done["data"]["sources"];
  REQUIRE(!sources.empty());
  CHECK(sources.size() <= 4);
  CHECK(done["activities"].size() >= 3);
  const std::string analysis = done["data"]["finalAnalysis"];
  CHECK(analysis.find(sources[0]["url"].get<std::string>()) != std::string::npos);
  CHECK(done["data"].contains("json"));
  CHECK(api.get("/v1/deep-research/00000000-0000-4000-8000-000000000000").status == 404);
}

TEST_CASE("v1 deep research and llms.txt jobs belong to their team", "[v1-jobs]") {
  webdata::mock::Config config = RunningMock::quiet_config();
  webdata::mock::TeamConfig team_a;
  team_a.id = "team-a";
  team_a.keys = {"key-a"};
  webdata::mock::TeamConfig team_b;
  team_b.id = "team-b";
  team_b.keys = {"key-b"};
  config.teams = {team_a, team_b};
  RunningMock mock(config);
  ApiClient a(mock.url(), "key-a");
  ApiClient b(mock.url(), "key-b");
  const auto research = a.post("/v1/deep-research", {{"query", "kettle"}, {"maxDepth", 1}});
  REQUIRE(research.status == 200);
  const std::string research_id = research.body["id"];
  CHECK(b.get("/v1/deep-research/" + research_id).status == 404);
  CHECK(a.get("/v1/deep-research/" + research_id).status == 200);
  const auto llms = a.post("/v1/llmstxt", {{"url", "http://pages-3.synthetic.test/"}});
  REQUIRE(llms.status == 200);
  const std::string llms_id = llms.body["id"];
  CHECK(b.get("/v1/llmstxt/" + llms_id).status == 404);
  CHECK(a.get("/v1/llmstxt/" + llms_id).status == 200);
}

TEST_CASE("v1 deep research: the admin clock skips to the end, bad bodies are 400", "[v1-jobs]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const auto started = api.post("/v1/deep-research", {{"topic", "kettle"}, {"maxDepth", 1}});
  REQUIRE(started.status == 200);
  REQUIRE(api.post("/__admin/clock/advance", {{"milliseconds", 60000}}).status == 200);
  const auto r = api.get("/v1/deep-research/" + started.body["id"].get<std::string>());
  CHECK(r.body["status"] == "completed");
  CHECK(api.post("/v1/deep-research", {{"maxDepth", 3}}).status == 400);
  CHECK(api.post("/v1/deep-research", {{"query", "q"}, {"maxDepth", 11}}).status == 400);
  CHECK(api.post("/v1/deep-research", {{"query", "q"}, {"bogus", 1}}).status == 400);
}

TEST_CASE("v1 llms.txt: a site's pages as llms.txt and llms-full.txt", "[v1-jobs]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const auto started =
      api.post("/v1/llmstxt",
               {{"url", "http://pages-5.synthetic.test/"}, {"maxUrls", 3}, {"showFullText", true}});
  REQUIRE(started.status == 200);
  check_schema("v1/llmstxt.response", started.body);
  const std::string id = started.body["id"];
  const json done = wait_for(api, "/v1/llmstxt/" + id, "v1/llmstxt-status.response");
  CHECK(done["status"] == "completed");
  const std::string text = done["data"]["llmstxt"];
  CHECK(text.rfind("# http://pages-5.synthetic.test/ llms.txt", 0) == 0);
  CHECK(text.find("- [") != std::string::npos);
  CHECK(done["data"]["llmsfulltxt"].get<std::string>().size() > text.size() / 2);
  CHECK(api.get("/v1/llmstxt/00000000-0000-4000-8000-000000000000").status == 404);
  CHECK(api.post("/v1/llmstxt", {{"maxUrls", 3}}).status == 400);
  CHECK(api.post("/v1/llmstxt", {{"url", "not a url"}}).status == 400);
  // Without showFullText only llms.txt comes back.
  const auto plain = api.post("/v1/llmstxt", {{"url", "http://pages-5.synthetic.test/"}});
  REQUIRE(plain.status == 200);
  const json short_done = wait_for(api, "/v1/llmstxt/" + plain.body["id"].get<std::string>(),
                                   "v1/llmstxt-status.response");
  CHECK(!short_done["data"].contains("llmsfulltxt"));
}
