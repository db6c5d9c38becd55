// --imitate self-hosted-2025-08: the recorded deployment's conditions switched on together
// (docs/mockserver.md#imitating-a-deployment). The replay of the recorded exchanges
// (mockserver/tests/replay/) checks the profile against the recording; these cases check what
// the recording shows only in part, over real HTTP.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <tuple>

#include "api_client.hpp"
#include "eventually.hpp"
#include "mock_fixture.hpp"
#include "stub_mapping.hpp"

using webdata::mock::parse_args;
using webdata::testing::ApiClient;
using webdata::testing::page_stub;
using webdata::testing::RunningMock;
using json = nlohmann::json;

namespace {

constexpr const char* kProfile = "self-hosted-2025-08";

webdata::mock::Config imitating_config() {
  auto parsed = parse_args(
      {"--imitate", kProfile, "--port", "0", "--quiet", "--admin", "--page-pacing", "0"});
  REQUIRE(parsed.config);
  return *parsed.config;
}

struct ImitatingMock {
  RunningMock mock{imitating_config()};
  ApiClient api{mock.url(), ""};  // authentication is off: no key at all
  ApiClient admin{mock.url()};

  ImitatingMock() {
    const std::string page =
        "<html lang='en'><head><title>Desk</title></head><body><main>"
        "<h1>Desk</h1><p>Solid walnut.</p></main></body></html>";
    REQUIRE(admin.post("/__admin/mappings", page_stub("shop.test", "/desk", page)).status == 201);
  }
};

/// Polls an extract job until it is no longer processing (10 s at most).
json wait_extract(const ApiClient& api, const std::string& path) {
  json body;
  webdata::testing::eventually([&] {
    body = api.get(path).body;
    return body.value("status", "") != "processing";
  });
  return body;  // still processing after the wait: the caller's check says so
}

std::string express_page(const std::string& method, const std::string& path) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<title>Error</title>\n</head>\n<body>\n<pre>Cannot " +
         method + " " + path + "</pre>\n</body>\n</html>\n";
}

}  // namespace

TEST_CASE("the --imitate flag switches a profile's conditions on together", "[imitate][config]") {
  const auto parsed = parse_args({"--imitate", kProfile});
  REQUIRE(parsed.config);
  CHECK(parsed.config->imitate == kProfile);
  const auto conditions = webdata::mock::profile_conditions(kProfile);
  REQUIRE_FALSE(conditions.empty());
  for (const auto& condition : conditions) {
    INFO(condition);
    CHECK(parsed.config->has_fault(condition));
  }
  CHECK(parsed.config->to_json().at("imitate") == kProfile);
  // --help names the profile and its conditions; an unknown profile is refused.
  const std::string help = parse_args({"--help"}).message;
  CHECK(help.find(std::string("--imitate PROFILE")) != std::string::npos);
  CHECK(help.find(kProfile) != std::string::npos);
  const auto unknown = parse_args({"--imitate", "cloud-1999"});
  CHECK_FALSE(unknown.config);
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.message.find("unknown profile 'cloud-1999'") != std::string::npos);
  CHECK(parse_args({"--imitate"}).exit_code == 2);
}

TEST_CASE_METHOD(ImitatingMock, "routes newer than the build answer Express's HTML 404",
                 "[imitate][http]") {
  struct Row {
    const char* method;
    const char* path;
  };
  for (const Row& row :
       {Row{"POST", "/v2/agent"}, Row{"GET", "/v2/team/queue-status"}, Row{"POST", "/v2/xyz"},
        Row{"GET", "/v2/scrape"}, Row{"GET", "/v2/team/credit-usage/historical"},
        Row{"POST", "/v1/crawl/params-preview"}}) {
    INFO(row.method << " " << row.path);
    const auto r =
        api.send(row.method, row.path, row.method == std::string("POST") ? "{}" : "", {}, false);
    CHECK(r.status == 404);
    CHECK(r.header("Content-Type") == std::optional<std::string>("text/html; charset=utf-8"));
    CHECK(r.text == express_page(row.method, row.path));
  }
  // What the build had still answers, and the mock's own health route too.
  CHECK(api.get("/v2/team/credit-usage").status == 200);
  CHECK(api.get("/health").status == 200);
}

TEST_CASE_METHOD(ImitatingMock, "without a database: 500 UNKNOWN_ERROR with an exception id",
                 "[imitate][http]") {
  const std::regex text(
      "An unexpected error occurred\\. Please contact help@firecrawl\\.com for "
      "help\\. Your exception ID is [0-9a-f]{32}");
  const auto check = [&](const webdata::testing::ApiReply& r) {
    INFO(r.text);
    CHECK(r.status == 500);
    CHECK(r.body["success"] == false);
    CHECK(r.body["code"] == "UNKNOWN_ERROR");
    CHECK(std::regex_match(r.body["error"].get<std::string>(), text));
  };
  check(api.get("/v2/concurrency-check"));
  check(api.get("/v1/scrape/0b5c4a53-1e3c-4d47-9d4c-2f2a1c3e4b5d"));
  check(api.post("/v2/crawl", {{"url", "http://shop.test/desk"}},
                 {{"x-idempotency-key", "7f0c2a35-2b1e-4c8e-9a3d-5e6f7a8b9c0d"}}));
}

TEST_CASE_METHOD(ImitatingMock, "without a browser or a model key", "[imitate][scrape]") {
  const std::string url = "http://shop.test/desk";
  const auto actions = api.post("/v2/scrape", {{"url", url}, {"actions", {{{"type", "scroll"}}}}});
  CHECK(actions.status == 500);
  CHECK(actions.body["code"] == "SCRAPE_ALL_ENGINES_FAILED");
  CHECK(api.post("/v1/scrape", {{"url", url}, {"formats", {"screenshot"}}}).status == 500);
  const auto shot = api.post("/v2/scrape", {{"url", url}, {"formats", {"screenshot"}}});
  REQUIRE(shot.status == 200);
  CHECK_FALSE(shot.body["data"].contains("screenshot"));
  CHECK(shot.body["data"]["warning"].get<std::string>().find("screenshot") != std::string::npos);
  // The json format is left out, not refused; extract fails, and so does the preview.
  const auto json_format = api.post("/v2/scrape", {{"url", url}, {"formats", {"json"}}});
  REQUIRE(json_format.status == 200);
  CHECK_FALSE(json_format.body["data"].contains("json"));
  const auto v1_extract = api.post("/v1/extract", {{"urls", {url}}, {"prompt", "the wood"}});
  CHECK(v1_extract.status == 500);
  CHECK(v1_extract.body == json({{"success", false}, {"error", "Internal server error"}}));
  const auto v2_extract = api.post("/v2/extract", {{"urls", {url}}, {"prompt", "the wood"}});
  REQUIRE(v2_extract.status == 200);
  const json failed = wait_extract(api, "/v2/extract/" + v2_extract.body["id"].get<std::string>());
  CHECK(failed["status"] == "failed");
  CHECK(failed["success"] == false);
  CHECK_FALSE(failed.contains("creditsUsed"));
  const auto preview = api.post("/v2/crawl/params-preview", {{"url", url}, {"prompt", "desks"}});
  CHECK(preview.status == 400);
  CHECK(preview.body["error"] ==
        "Failed to process natural language prompt. Please try rephrasing.");
}

TEST_CASE_METHOD(ImitatingMock, "without a result cache every scrape fetches", "[imitate][scrape]") {
  // The page answers "first", then "second": a cached answer would repeat "first".
  for (const auto& [state, next, text] :
       {std::tuple<const char*, const char*, const char*>{"Started", "fetched", "first"},
        {"fetched", "fetched", "second"}}) {
    json stub = page_stub("shop.test", "/news", std::string("<main><p>") + text + "</p></main>");
    stub["scenarioName"] = "news";
    stub["requiredScenarioState"] = state;
    stub["newScenarioState"] = next;
    REQUIRE(admin.post("/__admin/mappings", stub).status == 201);
  }
  const auto first = api.post("/v2/scrape", {{"url", "http://shop.test/news"}});
  const auto second = api.post("/v2/scrape", {{"url", "http://shop.test/news"}});
  REQUIRE(first.status == 200);
  REQUIRE(second.status == 200);
  CHECK(first.body["data"]["markdown"] == "first");
  CHECK(second.body["data"]["markdown"] == "second");
  CHECK_FALSE(second.body["data"]["metadata"].contains("cacheState"));
  CHECK_FALSE(second.body["data"]["metadata"].contains("cachedAt"));
}

TEST_CASE_METHOD(ImitatingMock, "validation and answers as the build gave them",
                 "[imitate][validation]") {
  // A body not sent as JSON is no body: the missing url, with the top-level-domain message.
  const auto text = api.send("POST", "/v2/scrape", R"({"url":"http://shop.test/desk"})",
                             {{"Content-Type", "text/plain"}}, false);
  REQUIRE(text.status == 400);
  CHECK(text.body["details"][0] ==
        json({{"code", "custom"},
              {"message", "URL must have a valid top-level domain or be a valid path"},
              {"path", {"url"}}}));
  // Search refusals: v1 a 500 with the issues as text, v2 without a code.
  const auto v1 = api.post("/v1/search", {{"query", "desk"}, {"limit", 0}});
  CHECK(v1.status == 500);
  CHECK_FALSE(v1.body.contains("details"));
  CHECK(json::parse(v1.body["error"].get<std::string>())[0]["path"] == json({"limit"}));
  const auto v2 = api.post("/v2/search", {{"query", "desk"}, {"limit", 0}});
  CHECK(v2.status == 400);
  CHECK(v2.body["error"] == "Invalid request body");
  CHECK_FALSE(v2.body.contains("code"));
  CHECK(v2.body["details"].is_array());
  // No fields newer than the build.
  const auto usage = api.get("/v1/team/credit-usage");
  CHECK(usage.body["data"].size() == 1);
  CHECK(usage.body["data"].contains("remaining_credits"));
  const auto search = api.post("/v1/search", {{"query", "desk"}});
  CHECK(search.body ==
        json({{"success", true}, {"data", json::array()}, {"warning", "No search results found"}}));
  // A cancel of an unknown job answers the bare error.
  const auto cancel = api.del("/v2/crawl/00000000-0000-4000-8000-000000000000");
  CHECK(cancel.status == 404);
  CHECK(cancel.body == json({{"error", "Job not found"}}));
}

TEST_CASE_METHOD(ImitatingMock, "a v2 batch checks its URLs unless the body says to ignore them",
                 "[imitate][validation][batch]") {
  // Without the flag the build refused an invalid URL, in zod's words and without the mock's hint.
  const auto refused = api.post("/v2/batch/scrape", {{"urls", {"notaurl"}}});
  REQUIRE(refused.status == 400);
  CHECK(refused.body["details"][0]["message"] ==
        "URL must have a valid top-level domain or be a valid path");
  CHECK_FALSE(refused.body.contains("hint"));
  // Valid URLs: started, with the (empty) list of invalid ones the build always gave.
  const auto started = api.post("/v2/batch/scrape", {{"urls", {"http://shop.test/desk"}}});
  REQUIRE(started.status == 200);
  CHECK(started.body["invalidURLs"] == json::array());
  // The flag said false: no list, as the build answered.
  const auto strict = api.post("/v2/batch/scrape",
                               {{"urls", {"http://shop.test/desk"}}, {"ignoreInvalidURLs", false}});
  REQUIRE(strict.status == 200);
  CHECK_FALSE(strict.body.contains("invalidURLs"));
  // The flag said true: the invalid URL is listed and the job runs.
  const auto ignoring = api.post("/v2/batch/scrape",
                                 {{"urls", {"notaurl"}}, {"ignoreInvalidURLs", true}});
  REQUIRE(ignoring.status == 200);
  CHECK(ignoring.body["invalidURLs"] == json({"notaurl"}));
}

TEST_CASE_METHOD(ImitatingMock, "a batch of no URLs starts and completes at once", "[imitate][batch]") {
  for (const std::string v : {"v1", "v2"}) {
    const auto started = api.post("/" + v + "/batch/scrape", {{"urls", json::array()}});
    REQUIRE(started.status == 200);
    const auto status = api.get("/" + v + "/batch/scrape/" + started.body["id"].get<std::string>());
    CHECK(status.body["status"] == "completed");
    CHECK(status.body["total"] == 0);
    CHECK(status.body["data"] == json::array());
  }
}

TEST_CASE_METHOD(ImitatingMock, "formats newer than the build are unknown to it",
                 "[imitate][validation]") {
  // Its union of format types ended at screenshot: images is refused in the union's words,
  // listing the build's eight members only, anywhere scrape options are read.
  const auto images = api.post("/v2/scrape", {{"url", "http://shop.test/desk"}, {"formats", {"images"}}});
  REQUIRE(images.status == 400);
  CHECK(images.body["code"] == "BAD_REQUEST");
  CHECK(images.body["error"] == "Bad Request");
  CHECK_FALSE(images.body.contains("hint"));
  const json& issue = images.body["details"][0];
  CHECK(issue["code"] == "invalid_union");
  CHECK(issue["path"] == json({"formats", 0}));
  REQUIRE(issue["unionErrors"].size() == 8);
  CHECK(issue["unionErrors"][7]["issues"][0]["expected"] == "screenshot");
  CHECK(issue["unionErrors"][0]["issues"][0]["received"] == "images");
  const auto crawl = api.post("/v2/crawl", {{"url", "http://shop.test/desk"},
                                            {"scrapeOptions", {{"formats", {{{"type", "branding"}}}}}}});
  REQUIRE(crawl.status == 400);
  CHECK(crawl.body["details"][0]["path"] == json({"scrapeOptions", "formats", 0}));
  // The build's own formats still work.
  const auto links = api.post("/v2/scrape", {{"url", "http://shop.test/desk"}, {"formats", {"links"}}});
  CHECK(links.status == 200);
}

TEST_CASE_METHOD(ImitatingMock, "without a PDF engine a PDF scrape fails with no data",
                 "[imitate][scrape]") {
  const std::string pdf = "http://news.example.test/reports/annual-energy-report-2026.pdf";
  for (const std::string v : {"v1", "v2"}) {
    const auto res = api.post("/" + v + "/scrape", {{"url", pdf}});
    CHECK(res.status == 500);
    CHECK(res.body["success"] == false);
    CHECK(res.body["code"] == "SCRAPE_ALL_ENGINES_FAILED");
    CHECK_FALSE(res.body.contains("data"));
  }
  // A web page is still scraped.
  CHECK(api.post("/v2/scrape", {{"url", "http://shop.test/desk"}}).status == 200);
}
