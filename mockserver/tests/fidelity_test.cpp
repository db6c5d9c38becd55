// Where the mock follows what deployments of the real service do (docs/mockserver/fidelity.md):
// each behaviour over real HTTP against the running mock.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <thread>

#include "api_client.hpp"
#include "mock_fixture.hpp"
#include "stub_mapping.hpp"

using webdata::testing::ApiClient;
using webdata::testing::ApiReply;
using webdata::testing::page_stub;
using webdata::testing::RunningMock;
using json = nlohmann::json;

namespace {

const char* kDeskPage = R"(<!DOCTYPE html>
<html lang="en"><head><title>Walnut Desk</title></head>
<body><main>
  <h1>Walnut Desk</h1>
  <p>The desk is made of solid walnut. It has two drawers.</p>
  <p>Delivery takes five working days. Write to sales@shop.test or call +1 555-010-2030.</p>
  <a class="more" href="/care" data-kind="guide">Care guide</a>
  <a class="more" href="/terms" data-kind="legal">Terms</a>
</main></body></html>)";

webdata::mock::Config fidelity_config() {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  return config;
}

struct Fixture {
  RunningMock mock{fidelity_config()};
  ApiClient api{mock.url()};
  Fixture() {
    REQUIRE(api.post("/__admin/mappings", page_stub("shop.test", "/desk", kDeskPage)).status == 201);
  }

  /// Polls a job until it leaves `scraping` (10 s at most).
  json wait_done(const std::string& path) {
    const json body = api.wait_job(path, std::chrono::seconds(10));
    INFO(body.dump());
    REQUIRE((body.is_object() && body.value("status", "") != "scraping"));
    return body;
  }
};

/// The one `custom` issue of a refused request, checked for its message and path.
void check_rule(const ApiReply& reply, const std::string& message, const json& path) {
  INFO(reply.text);
  REQUIRE(reply.status == 400);
  CHECK(reply.body["success"] == false);
  CHECK(reply.body["code"] == "BAD_REQUEST");
  REQUIRE(reply.body["details"].is_array());
  REQUIRE(reply.body["details"].size() >= 1);
  const json& issue = reply.body["details"][0];
  CHECK(issue["code"] == "custom");
  CHECK(issue["message"] == message);
  CHECK(issue["path"] == path);
  CHECK(reply.body["error"] == "Bad Request");
  CHECK(reply.body["hint"].get<std::string>().find(message) != std::string::npos);
}

}  // namespace

TEST_CASE_METHOD(Fixture, "a body not sent as application/json is refused", "[fidelity]") {
  const std::string body = R"({"url":"http://shop.test/desk"})";
  for (const char* type : {"text/plain", "application/x-www-form-urlencoded"}) {
    const auto reply = api.post_text("/v2/scrape", body, {{"Content-Type", type}});
    INFO(type << ": " << reply.text);
    CHECK(reply.status == 400);
    CHECK(reply.body["code"] == "BAD_REQUEST");
    CHECK(reply.body["details"][0]["code"] == "custom");
    CHECK(reply.body["error"] == "Bad Request");
    CHECK(reply.body["hint"].get<std::string>().find("application/json") != std::string::npos);
  }
  // Parameters of the media type are fine, and so is the case of its name.
  CHECK(api.post_text("/v2/scrape", body, {{"Content-Type", "Application/JSON; charset=utf-8"}})
            .status == 200);
  // Authentication still comes first.
  CHECK(api.send("POST", "/v2/scrape", body, {{"Content-Type", "text/plain"}}, false).status ==
        401);
}

TEST_CASE_METHOD(Fixture, "cross-field rules of scrape options", "[fidelity][validation]") {
  const std::string url = "http://shop.test/desk";
  // waitFor at most half of timeout (v1 defaults timeout to 30 s; v2 sets none).
  check_rule(api.post("/v1/scrape", {{"url", url}, {"waitFor", 20000}}),
             "waitFor must not exceed half of timeout", {"waitFor"});
  check_rule(api.post("/v2/scrape", {{"url", url}, {"waitFor", 6000}, {"timeout", 10000}}),
             "waitFor must not exceed half of timeout", {"waitFor"});
  CHECK(api.post("/v2/scrape", {{"url", url}, {"waitFor", 5000}, {"timeout", 10000}}).status ==
        200);
  // Total wait: waitFor plus wait actions (a selector wait counts one second) up to 60 s.
  check_rule(api.post("/v2/scrape", {{"url", url},
                                     {"timeout", 120000},
                                     {"waitFor", 30000},
                                     {"actions", {{{"type", "wait"}, {"milliseconds", 30000}},
                                                  {{"type", "wait"}, {"selector", "h1"}}}}}),
             "Total wait time (waitFor + wait actions) cannot exceed 60 seconds", {"actions"});
  // Durations near the integer limits are refused, not summed into an overflow.
  const auto huge = api.post_text(
      "/v2/scrape",
      R"({"url":"http://shop.test/desk","timeout":1000,"waitFor":18446744073709551615,)"
      R"("actions":[{"type":"wait","milliseconds":9223372036854775807},)"
      R"({"type":"wait","milliseconds":9223372036854775807}]})");
  CHECK(huge.status == 400);
  // A wait action has exactly one of milliseconds and selector.
  check_rule(api.post("/v2/scrape",
                      {{"url", url},
                       {"actions", {{{"type", "wait"}, {"milliseconds", 10}, {"selector", "h1"}}}}}),
             "Either 'milliseconds' or 'selector' must be provided, but not both.",
             {"actions", 0});
  // One screenshot format.
  check_rule(api.post("/v1/scrape", {{"url", url}, {"formats", {"screenshot", "screenshot@fullPage"}}}),
             "You may only specify either screenshot or screenshot@fullPage", {"formats"});
  check_rule(api.post("/v2/scrape", {{"url", url},
                                     {"formats", {"screenshot", {{"type", "screenshot"},
                                                                 {"fullPage", true}}}}}),
             "You may only specify one screenshot format", {"formats"});
  // changeTracking needs markdown.
  check_rule(api.post("/v2/scrape", {{"url", url}, {"formats", {"changeTracking"}}}),
             "The changeTracking format requires the markdown format to be specified as well",
             {"formats"});
  // v1: json / extract formats and their options come together (the service reports it at the
  // options object: the body's root).
  const std::string pair_message =
      "When 'extract' or 'json' format is specified, corresponding options must be provided, "
      "and vice versa";
  check_rule(api.post("/v1/scrape", {{"url", url}, {"formats", {"json"}}}), pair_message,
             json::array());
  check_rule(api.post("/v1/scrape", {{"url", url}, {"jsonOptions", {{"prompt", "price"}}}}),
             pair_message, json::array());
  check_rule(api.post("/v1/scrape", {{"url", url}, {"formats", {"extract"}}}), pair_message,
             json::array());
  // The same rules hold inside crawl and search scrapeOptions, and on batch scrape.
  check_rule(api.post("/v2/crawl", {{"url", url},
                                    {"scrapeOptions", {{"formats", {"changeTracking"}}}}}),
             "The changeTracking format requires the markdown format to be specified as well",
             {"scrapeOptions", "formats"});
  check_rule(api.post("/v1/search", {{"query", "desk"},
                                     {"scrapeOptions", {{"formats", {"json"}}}}}),
             pair_message, {"scrapeOptions"});
  check_rule(api.post("/v2/batch/scrape", {{"urls", {url}}, {"waitFor", 8000}, {"timeout", 10000}}),
             "waitFor must not exceed half of timeout", {"waitFor"});
}

TEST_CASE_METHOD(Fixture, "what was strict stays strict", "[fidelity][validation]") {
  const auto unknown = api.post("/v2/scrape", {{"url", "http://shop.test/desk"}, {"bogus", 1}});
  REQUIRE(unknown.status == 400);
  CHECK(unknown.body["details"][0]["code"] == "unrecognized_keys");
  const auto wrong = api.post("/v2/scrape", {{"url", "http://shop.test/desk"}, {"lockdown", "yes"}});
  REQUIRE(wrong.status == 400);
  CHECK(wrong.body["details"][0]["path"] == json({"lockdown"}));
  const auto bad_format =
      api.post("/v2/scrape", {{"url", "http://shop.test/desk"},
                              {"formats", {{{"type", "question"}}}}});  // no question
  CHECK(bad_format.status == 400);
  CHECK(api.post("/v2/agent", {{"prompt", "desk"}, {"model", "gpt-9"}}).status == 400);
}

TEST_CASE_METHOD(Fixture, "cancel answers only the status", "[fidelity][jobs]") {
  auto config = fidelity_config();
  config.page_pacing_ms = 200;
  RunningMock slow(config);
  const ApiClient client(slow.url());
  const auto started =
      client.post("/v2/crawl", {{"url", "http://pages-50.synthetic.test/"}, {"limit", 50}});
  REQUIRE(started.status == 200);
  const auto cancelled = client.del("/v2/crawl/" + started.body["id"].get<std::string>());
  REQUIRE(cancelled.status == 200);
  CHECK(cancelled.body == json{{"status", "cancelled"}});
}

TEST_CASE_METHOD(Fixture, "failed pages leave total", "[fidelity][jobs]") {
  const auto started = api.post(
      "/v2/batch/scrape", {{"urls", {"http://shop.test/desk", "http://nowhere.invalid/a",
                                     "http://pages-3.synthetic.test/", "http://nowhere.invalid/b"}}});
  REQUIRE(started.status == 200);
  const std::string path = "/v2/batch/scrape/" + started.body["id"].get<std::string>();
  const json done = wait_done(path);
  CHECK(done["status"] == "completed");
  CHECK(done["total"] == 2);
  CHECK(done["completed"] == 2);
  CHECK(done["data"].size() == 2);
  CHECK(api.get(path + "/errors").body["errors"].size() == 2);
}

TEST_CASE_METHOD(Fixture, "a URL without a scheme gets http://", "[fidelity][validation]") {
  const auto scraped = api.post("/v2/scrape", {{"url", "shop.test/desk"}});
  REQUIRE(scraped.status == 200);
  CHECK(scraped.body["data"]["metadata"]["sourceURL"] == "http://shop.test/desk");
  const auto v1 = api.post("/v1/scrape", {{"url", "shop.test/desk"}});
  CHECK(v1.status == 200);
  const auto batch = api.post("/v2/batch/scrape", {{"urls", {"shop.test/desk"}}});
  REQUIRE(batch.status == 200);
  const json done = wait_done("/v2/batch/scrape/" + batch.body["id"].get<std::string>());
  CHECK(done["completed"] == 1);
  const auto crawl = api.post("/v2/crawl", {{"url", "shop.test/desk"}, {"limit", 1}});
  CHECK(crawl.status == 200);
  // Still not a URL once the scheme is there: refused with the field named.
  const auto bad = api.post("/v2/scrape", {{"url", "not a url"}});
  REQUIRE(bad.status == 400);
  CHECK(bad.body["details"][0]["path"] == json({"url"}));
  // A scheme other than http(s) is kept, and refused.
  CHECK(api.post("/v2/scrape", {{"url", "ftp://shop.test/desk"}}).status == 400);
}

TEST_CASE_METHOD(Fixture, "CORS: any origin, and preflight", "[fidelity][http]") {
  const auto active = api.get("/v2/crawl/active", {{"Origin", "http://localhost:5173"}});
  CHECK(active.status == 200);
  CHECK(active.header("Access-Control-Allow-Origin") == std::optional<std::string>("*"));
  const auto refused = api.get("/v2/crawl/active", {{"Authorization", "Bearer nope"}});
  CHECK(refused.status == 401);
  CHECK(refused.header("Access-Control-Allow-Origin") == std::optional<std::string>("*"));
  const auto preflight =
      api.send("OPTIONS", "/v2/scrape", "",
               {{"Origin", "http://localhost:5173"},
                {"Access-Control-Request-Method", "POST"},
                {"Access-Control-Request-Headers", "authorization,content-type"}},
               false);
  CHECK(preflight.status == 204);
  CHECK(preflight.header("Access-Control-Allow-Origin") == std::optional<std::string>("*"));
  const std::string methods = preflight.header("Access-Control-Allow-Methods").value_or("");
  CHECK(methods.find("POST") != std::string::npos);
  CHECK(methods.find("DELETE") != std::string::npos);
  CHECK(preflight.header("Access-Control-Allow-Headers") ==
        std::optional<std::string>("authorization,content-type"));
}

TEST_CASE_METHOD(Fixture, "a crawl whose start URL cannot be fetched fails", "[fidelity][jobs]") {
  const auto started = api.post("/v2/crawl", {{"url", "http://nowhere.invalid/"}});
  REQUIRE(started.status == 200);
  const std::string path = "/v2/crawl/" + started.body["id"].get<std::string>();
  const json status = wait_done(path);
  CHECK(status["success"] == false);
  CHECK(status["status"] == "failed");
  CHECK(status["total"] == 0);
  CHECK(status["error"].get<std::string>().find("start URL") != std::string::npos);
  const auto errors = api.get(path + "/errors");
  REQUIRE(errors.body["errors"].size() == 1);
  CHECK(errors.body["errors"][0]["url"] == "http://nowhere.invalid/");
}

TEST_CASE_METHOD(Fixture, "v1 extract answers in extract, proxy names per version",
                 "[fidelity][scrape]") {
  const auto v1 = api.post("/v1/scrape", {{"url", "http://shop.test/desk"},
                                          {"formats", {"extract"}},
                                          {"extract", {{"prompt", "the delivery time"}}}});
  REQUIRE(v1.status == 200);
  CHECK(v1.body["data"].contains("extract"));
  CHECK_FALSE(v1.body["data"].contains("llm_extraction"));

  const auto v1_enhanced = api.post("/v1/scrape", {{"url", "http://shop.test/desk"},
                                                   {"proxy", "enhanced"}});
  REQUIRE(v1_enhanced.status == 400);
  CHECK(v1_enhanced.body["details"][0]["path"] == json({"proxy"}));
  const auto v1_stealth =
      api.post("/v1/scrape", {{"url", "http://shop.test/desk"}, {"proxy", "stealth"}});
  REQUIRE(v1_stealth.status == 200);
  CHECK(v1_stealth.body["data"]["metadata"]["proxyUsed"] == "enhanced");
  for (const char* proxy : {"stealth", "enhanced"}) {
    const auto v2 = api.post("/v2/scrape", {{"url", "http://shop.test/desk"}, {"proxy", proxy}});
    INFO(proxy);
    CHECK(v2.status == 200);
  }
}

TEST_CASE_METHOD(Fixture, "expiresAt is written to the second", "[fidelity][jobs]") {
  const auto started = api.post("/v2/batch/scrape", {{"urls", {"http://shop.test/desk"}}});
  REQUIRE(started.status == 200);
  const json done = wait_done("/v2/batch/scrape/" + started.body["id"].get<std::string>());
  const std::string expires = done["expiresAt"];
  REQUIRE(expires.size() == 24);
  CHECK(expires.substr(19) == ".000Z");
}

TEST_CASE("the active list answers as ongoing too, with the path filters", "[fidelity][jobs]") {
  auto config = fidelity_config();
  config.page_pacing_ms = 200;
  RunningMock mock(config);
  const ApiClient api(mock.url());
  const auto crawl = api.post("/v2/crawl", {{"url", "http://pages-50.synthetic.test/"}});
  REQUIRE(crawl.status == 200);
  for (const char* path : {"/v2/crawl/ongoing", "/v1/crawl/ongoing", "/v2/crawl/active"}) {
    const auto reply = api.get(path);
    INFO(path << ": " << reply.text);
    REQUIRE(reply.status == 200);
    REQUIRE(reply.body["crawls"].size() == 1);
    const json& entry = reply.body["crawls"][0];
    CHECK(entry["id"] == crawl.body["id"]);
    CHECK(entry["options"]["includePaths"] == json::array());
    CHECK(entry["options"]["excludePaths"] == json::array());
  }
  api.del("/v2/crawl/" + crawl.body["id"].get<std::string>());
}

TEST_CASE_METHOD(Fixture, "newer request fields are accepted and behave", "[fidelity][scrape]") {
  const std::string url = "http://shop.test/desk";
  // Lockdown: cache only. A miss is a 404 with the service's code; after a scrape, a hit.
  const auto miss = api.post("/v2/scrape", {{"url", url}, {"lockdown", true}});
  REQUIRE(miss.status == 404);
  CHECK(miss.body["code"] == "SCRAPE_LOCKDOWN_CACHE_MISS");
  REQUIRE(api.post("/v2/scrape", {{"url", url}}).status == 200);
  const auto hit = api.post("/v2/scrape", {{"url", url}, {"lockdown", true}});
  REQUIRE(hit.status == 200);
  CHECK(hit.body["data"]["metadata"]["cacheState"] == "hit");

  // redactPII: e-mail addresses and phone numbers replaced in the text formats.
  const auto redacted = api.post("/v2/scrape", {{"url", url}, {"redactPII", true}, {"maxAge", 0}});
  REQUIRE(redacted.status == 200);
  const std::string markdown = redacted.body["data"]["markdown"];
  CHECK(markdown.find("sales@shop.test") == std::string::npos);
  CHECK(markdown.find("<EMAIL>") != std::string::npos);
  CHECK(markdown.find("<PHONE>") != std::string::npos);
  const auto masked = api.post(
      "/v2/scrape", {{"url", url}, {"redactPII", {{"replaceStyle", "mask"}, {"entities", {"EMAIL"}}}}});
  REQUIRE(masked.status == 200);
  const std::string masked_md = masked.body["data"]["markdown"];
  CHECK(masked_md.find("***************") != std::string::npos);
  CHECK(masked_md.find("555-010-2030") != std::string::npos);

  // Accepted options without an effect the mock can show.
  const auto quiet = api.post(
      "/v2/scrape", {{"url", url},
                     {"profile", {{"name", "shop"}, {"saveChanges", false}}},
                     {"minAge", 1000},
                     {"onlyCleanContent", true},
                     {"parsers", {"pdf", {{"type", "pdf"}, {"mode", "ocr"}, {"maxPages", 2}},
                                  {{"type", "image"}}}}});
  CHECK(quiet.status == 200);

  // Formats that ask something of the page.
  const auto asked = api.post(
      "/v2/scrape",
      {{"url", url},
       {"formats",
        {"markdown",
         {{"type", "attributes"}, {"selectors", {{{"selector", "a.more"}, {"attribute", "data-kind"}}}}},
         {{"type", "question"}, {"question", "How long does delivery take?"}},
         {{"type", "highlights"}, {"query", "walnut drawers"}},
         "audio"}}});
  REQUIRE(asked.status == 200);
  const json& data = asked.body["data"];
  CHECK(data["attributes"] == json::array({{{"selector", "a.more"},
                                            {"attribute", "data-kind"},
                                            {"values", {"guide", "legal"}}}}));
  CHECK(data["answer"] == "Delivery takes five working days.");
  CHECK(data["highlights"].get<std::string>().find("solid walnut") != std::string::npos);
  CHECK(data["warning"].get<std::string>().find("audio") != std::string::npos);
  const auto query = api.post("/v2/scrape", {{"url", url},
                                             {"formats", {{{"type", "query"},
                                                           {"prompt", "delivery days"}}}}});
  REQUIRE(query.status == 200);
  CHECK(query.body["data"]["answer"] == "Delivery takes five working days.");

  const auto raw = api.post("/v2/scrape", {{"url", url}, {"formats", {"rawBase64"}}});
  REQUIRE(raw.status == 200);
  CHECK(raw.body["data"]["rawBase64"].is_string());
  check_rule(api.post("/v2/scrape", {{"url", url}, {"formats", {"rawBase64", "markdown"}}}),
             "The rawBase64 format must be the only format", {"formats"});

  // Search highlights; agent model, effort and strictConstrainToURLs.
  CHECK(api.post("/v2/search", {{"query", "desk"}, {"highlights", true}}).status == 200);
  const auto agent = api.post("/v2/agent", {{"prompt", "delivery time"},
                                            {"urls", {url}},
                                            {"model", "spark-1-mini"},
                                            {"effort", "low"},
                                            {"strictConstrainToURLs", true}});
  REQUIRE(agent.status == 200);
  const auto agent_status = api.get("/v2/agent/" + agent.body["id"].get<std::string>());
  REQUIRE(agent_status.status == 200);
  CHECK(agent_status.body["model"] == "spark-1-mini");
  CHECK(agent_status.body["expiresAt"].get<std::string>().substr(19) == ".000Z");
}

TEST_CASE_METHOD(Fixture, "an API stub's JSONPath filter on the body object matches",
                 "[fidelity][stubs]") {
  const json mapping = {
      {"request",
       {{"method", "POST"},
        {"urlPath", "/v2/scrape"},
        {"bodyPatterns", {{{"matchesJsonPath", "$[?(@.url =~ /.*stubbed\\.test.*/)]"}}}}}},
      {"response", {{"status", 200}, {"jsonBody", {{"success", true}, {"data", {{"markdown", "stub"}}}}}}}};
  REQUIRE(api.post("/__admin/mappings", mapping).status == 201);
  const auto stubbed = api.post("/v2/scrape", {{"url", "http://stubbed.test/page"}});
  CHECK(stubbed.body["data"]["markdown"] == "stub");
  const auto real = api.post("/v2/scrape", {{"url", "http://shop.test/desk"}});
  CHECK(real.body["data"]["markdown"] != "stub");
}

TEST_CASE_METHOD(Fixture, "deterministicJson answers in json like the json format",
                 "[fidelity][scrape]") {
  const std::string url = "http://shop.test/desk";
  const json schema = {{"type", "object"},
                       {"properties", {{"title", {{"type", "string"}}},
                                       {"drawers", {{"type", "integer"}}}}}};
  const auto by_model = api.post(
      "/v2/scrape", {{"url", url}, {"formats", {{{"type", "json"}, {"schema", schema}}}}});
  REQUIRE(by_model.status == 200);
  const auto deterministic = api.post(
      "/v2/scrape",
      {{"url", url}, {"formats", {{{"type", "deterministicJson"}, {"schema", schema}}}}});
  INFO(deterministic.text);
  REQUIRE(deterministic.status == 200);
  const json& data = deterministic.body["data"];
  REQUIRE(data.contains("json"));
  CHECK(data["json"] == by_model.body["data"]["json"]);
  CHECK(data["json"]["title"].is_string());
  CHECK_FALSE(data.contains("markdown"));
  // No model runs: a page's credit only, where the json format costs 4 more.
  CHECK(data["metadata"]["creditsUsed"] == 1);
  CHECK(by_model.body["data"]["metadata"]["creditsUsed"] == 5);
  // The plain string form, and a prompt without a schema.
  const auto plain = api.post("/v2/scrape", {{"url", url}, {"formats", {"deterministicJson"}}});
  REQUIRE(plain.status == 200);
  CHECK(plain.body["data"]["json"].is_object());
  // Strict as the json entry: an unknown key, and v1 (which never knew the format), are refused.
  CHECK(api.post("/v2/scrape", {{"url", url},
                                {"formats", {{{"type", "deterministicJson"}, {"model", "x"}}}}})
            .status == 400);
  CHECK(api.post("/v1/scrape", {{"url", url}, {"formats", {"deterministicJson"}}}).status == 400);
}

TEST_CASE_METHOD(Fixture, "threatProtection, auditMetadata and safeMode are accepted, typed",
                 "[fidelity][scrape]") {
  const std::string url = "http://shop.test/desk";
  const json newer = {{"threatProtection",
                       {{"mode", "manual-only"},
                        {"riskScoreThreshold", 70},
                        {"blacklist", {"*.bad.test"}},
                        {"whitelist", {"shop.test"}},
                        {"blockedTlds", {"zip"}},
                        {"failurePolicy", "open"}}},
                      {"auditMetadata", {{"username", "alice"}}},
                      {"safeMode", true}};
  json scrape = newer;
  scrape["url"] = url;
  const auto scraped = api.post("/v2/scrape", scrape);
  INFO(scraped.text);
  REQUIRE(scraped.status == 200);
  CHECK(scraped.body["data"]["markdown"].get<std::string>().find("walnut") != std::string::npos);
  json batch = newer;
  batch["urls"] = {url};
  CHECK(api.post("/v2/batch/scrape", batch).status == 200);
  CHECK(api.post("/v2/crawl", {{"url", url}, {"limit", 1}, {"scrapeOptions", newer}}).status ==
        200);
  // Types stay checked.
  const std::vector<std::pair<json, std::string>> wrong = {
      {{{"threatProtection", {{"mode", "paranoid"}}}}, "threatProtection"},
      {{{"threatProtection", {{"riskScoreThreshold", 101}}}}, "threatProtection"},
      {{{"threatProtection", {{"unknown", true}}}}, "threatProtection"},
      {{{"auditMetadata", json::object()}}, "auditMetadata"},
      {{{"auditMetadata", {{"username", 7}}}}, "auditMetadata"},
      {{{"safeMode", "yes"}}, "safeMode"}};
  for (const auto& [fields, name] : wrong) {
    json body = fields;
    body["url"] = url;
    const auto refused = api.post("/v2/scrape", body);
    INFO(body.dump() << " -> " << refused.text);
    REQUIRE(refused.status == 400);
    CHECK(refused.body["details"][0]["path"][0] == name);
  }
  // v1 never knew them.
  CHECK(api.post("/v1/scrape", {{"url", url}, {"safeMode", true}}).status == 400);
}

TEST_CASE("appendToId adds URLs to an existing batch of the team", "[fidelity][jobs]") {
  auto config = fidelity_config();
  config.page_pacing_ms = 100;
  RunningMock mock(config);
  const ApiClient api(mock.url());
  REQUIRE(api.post("/__admin/mappings", page_stub("shop.test", "/desk", kDeskPage)).status ==
          201);
  auto wait_done = [&](const std::string& path) {
    const json body = api.wait_job(path, std::chrono::seconds(20));
    INFO(body.dump());
    REQUIRE(body.value("status", "") != "scraping");
    return body;
  };

  // Appended to a running batch: one job, every page in it.
  const auto started = api.post(
      "/v2/batch/scrape",
      {{"urls", {"http://pages-9.synthetic.test/", "http://pages-9.synthetic.test/p1",
                 "http://pages-9.synthetic.test/p2"}},
       {"maxConcurrency", 1}});
  REQUIRE(started.status == 200);
  const std::string id = started.body["id"];
  const std::string path = "/v2/batch/scrape/" + id;
  const auto appended =
      api.post("/v2/batch/scrape", {{"urls", {"http://shop.test/desk", "bad url"}},
                                    {"appendToId", id},
                                    {"formats", {"html"}}});
  INFO(appended.text);
  REQUIRE(appended.status == 200);
  CHECK(appended.body["id"] == id);
  CHECK(appended.body["url"].get<std::string>().find(path) != std::string::npos);
  CHECK(appended.body["invalidURLs"] == json::array({"bad url"}));
  json done = wait_done(path);
  CHECK(done["status"] == "completed");
  CHECK(done["total"] == 4);
  CHECK(done["completed"] == 4);
  REQUIRE(done["data"].size() == 4);
  // The appended page was scraped with the appending request's options.
  bool found = false;
  for (const auto& document : done["data"]) {
    if (document["metadata"]["sourceURL"] == "http://shop.test/desk") {
      found = true;
      CHECK(document.contains("html"));
      CHECK_FALSE(document.contains("markdown"));
    }
  }
  CHECK(found);

  // Appended to a completed batch: it runs again and ends with the new pages.
  const auto again = api.post(
      "/v2/batch/scrape", {{"urls", {"http://pages-9.synthetic.test/p3"}}, {"appendToId", id}});
  REQUIRE(again.status == 200);
  done = wait_done(path);
  CHECK(done["status"] == "completed");
  CHECK(done["total"] == 5);
  CHECK(done["completed"] == 5);

  // Unknown or malformed ids; another team's job is not found either.
  const auto unknown = api.post("/v2/batch/scrape",
                                {{"urls", {"http://shop.test/desk"}},
                                 {"appendToId", "0b6e2a1c-6a49-4d8e-9a57-3d1f0e7c2b11"}});
  CHECK(unknown.status == 404);
  CHECK(unknown.body["error"] == "Job not found");
  const auto malformed =
      api.post("/v2/batch/scrape", {{"urls", {"http://shop.test/desk"}}, {"appendToId", "42"}});
  REQUIRE(malformed.status == 400);
  CHECK(malformed.body["details"][0]["path"] == json({"appendToId"}));
  // A v1 request names no v2 batch (their options differ); a crawl id is not a batch.
  CHECK(api.post("/v1/batch/scrape", {{"urls", {"http://shop.test/desk"}}, {"appendToId", id}})
            .status == 404);
  const auto crawl = api.post("/v2/crawl", {{"url", "http://shop.test/desk"}, {"limit", 1}});
  REQUIRE(crawl.status == 200);
  CHECK(api.post("/v2/batch/scrape",
                 {{"urls", {"http://shop.test/desk"}}, {"appendToId", crawl.body["id"]}})
            .status == 404);

  // A cancelled batch takes no more pages.
  const auto slow = api.post(
      "/v2/batch/scrape",
      {{"urls", {"http://pages-9.synthetic.test/p4", "http://pages-9.synthetic.test/p5",
                 "http://pages-9.synthetic.test/p1/p1"}},
       {"maxConcurrency", 1}});
  REQUIRE(slow.status == 200);
  const std::string slow_id = slow.body["id"];
  REQUIRE(api.del("/v2/batch/scrape/" + slow_id).status == 200);
  const auto late = api.post("/v2/batch/scrape",
                             {{"urls", {"http://shop.test/desk"}}, {"appendToId", slow_id}});
  CHECK(late.status == 409);
  CHECK(api.get("/v2/batch/scrape/" + slow_id).body["status"] == "cancelled");
}

TEST_CASE_METHOD(Fixture, "a v2 status warns about robots-blocked pages once ended",
                 "[fidelity][jobs]") {
  const std::string home = R"(<html><body><a href="/private/x">x</a><a href="/open">o</a>
    </body></html>)";
  for (const json& stub :
       {page_stub("robots.test", "/", home),
        page_stub("robots.test", "/open", "<html><body><p>Open to crawlers.</p></body></html>"),
        page_stub("robots.test", "/private/x", "<html><body><p>Private.</p></body></html>"),
        page_stub("robots.test", "/robots.txt", "User-agent: *\nDisallow: /private/\n", 200,
                  "text/plain")}) {
    REQUIRE(api.post("/__admin/mappings", stub).status == 201);
  }
  const std::string warning =
      "One or more pages were unable to be crawled because the robots.txt file prevented this. "
      "Please use the /scrape endpoint instead.";
  for (const std::string version : {"v2", "v1"}) {
    const auto started = api.post("/" + version + "/crawl", {{"url", "http://robots.test/"}});
    REQUIRE(started.status == 200);
    const std::string path = "/" + version + "/crawl/" + started.body["id"].get<std::string>();
    const json done = wait_done(path);
    INFO(version << ": " << done.dump().substr(0, 400));
    CHECK(done["status"] == "completed");
    CHECK(done["total"] == 2);
    CHECK(api.get(path + "/errors").body["robotsBlocked"] ==
          json::array({"http://robots.test/private/x"}));
    if (version == "v2") {
      CHECK(done["warning"] == warning);
    } else {
      CHECK_FALSE(done.contains("warning"));  // the newer service's v2 status only
    }
  }
  // Without blocked pages, no warning.
  const auto plain = api.post("/v2/crawl", {{"url", "http://shop.test/desk"}, {"limit", 1}});
  REQUIRE(plain.status == 200);
  CHECK_FALSE(wait_done("/v2/crawl/" + plain.body["id"].get<std::string>()).contains("warning"));
}
