// POST /v2/crawl/params-preview over real HTTP: the options a prompt implies, and that they are
// options POST /v2/crawl accepts.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "api_client.hpp"
#include "mock_fixture.hpp"
#include "webdata/contract/schemas.hpp"

using webdata::testing::ApiClient;
using webdata::testing::RunningMock;
using json = nlohmann::json;

TEST_CASE("crawl params preview reads sections, counts and switches from the prompt",
          "[crawl-preview]") {
  RunningMock mock;
  ApiClient api(mock.url());
  const auto r = api.post("/v2/crawl/params-preview",
                          {{"url", "https://example.com"},
                           {"prompt", "Only the blog and the docs, not /docs/legacy, at most 50 "
                                      "pages, 2 levels deep, skip the sitemap, include subdomains"}});
  REQUIRE(r.status == 200);
  CHECK(webdata::contract::SchemaSet::embedded()
            .validate("v2/crawl-params-preview.response", r.body)
            .empty());
  const json& data = r.body["data"];
  CHECK(data["url"] == "https://example.com");
  CHECK(data["includePaths"] == json::array({"^/blog(/.*)?$", "^/docs(/.*)?$"}));
  CHECK(data["excludePaths"] == json::array({"^/docs/legacy(/.*)?$"}));
  CHECK(data["limit"] == 50);
  CHECK(data["maxDiscoveryDepth"] == 2);
  CHECK(data["sitemap"] == "skip");
  CHECK(data["allowSubdomains"] == true);
  CHECK_FALSE(r.body.contains("warning"));

  // The preview is a valid crawl request as it stands.
  json crawl = data;
  const auto started = api.post("/v2/crawl", crawl);
  CHECK(started.status == 200);
}

TEST_CASE("crawl params preview is deterministic and warns when nothing was implied",
          "[crawl-preview]") {
  RunningMock mock;
  ApiClient api(mock.url());
  const json request = {{"url", "https://example.com/"}, {"prompt", "whatever you like"}};
  const auto a = api.post("/v2/crawl/params-preview", request);
  const auto b = api.post("/v2/crawl/params-preview", request);
  REQUIRE(a.status == 200);
  CHECK(a.body == b.body);
  CHECK(a.body["data"] == json{{"url", "https://example.com/"}});
  CHECK(a.body["warning"].is_string());
}

TEST_CASE("crawl params preview refuses bad input with details, and GET /v2/crawl/{id} still works",
          "[crawl-preview]") {
  RunningMock mock;
  ApiClient api(mock.url());
  auto r = api.post("/v2/crawl/params-preview", {{"url", "https://example.com"}});
  REQUIRE(r.status == 400);
  CHECK(r.body["details"][0]["path"] == json::array({"prompt"}));
  r = api.post("/v2/crawl/params-preview", {{"url", "nope"}, {"prompt", "blog"}});
  REQUIRE(r.status == 400);
  CHECK(r.body["details"][0]["path"] == json::array({"url"}));
  CHECK(api.get("/v2/crawl/00000000-0000-4000-8000-000000000000").status == 404);
  CHECK(api.get("/v2/crawl/params-preview").status == 404);  // GET: an unknown crawl id
}
