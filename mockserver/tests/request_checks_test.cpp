// The service's request checks, in its own words (issue 31): page URL rules, the strict JSON
// reader, Zod-shaped `details` under the service's `error` (the mock's own text in `hint`),
// format unions, action rules, webhook metadata, crawl limit and delay, the credit check before
// the body, the agent's limits, and the active crawls list with every default. The texts are
// those the recorded deployment answered (tests/data/real/self-hosted-2025-08.json).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include <webdata/contract/schemas.hpp>

#include "api_client.hpp"
#include "mock_fixture.hpp"

using webdata::testing::ApiClient;
using webdata::testing::ApiReply;
using webdata::testing::RunningMock;
using json = nlohmann::json;

namespace {

constexpr const char* kTld = "URL must have a valid top-level domain or be a valid path";

/// A 400 BAD_REQUEST whose first issue is `code` with `message` at `path`.
void expect_issue(const ApiReply& r, const std::string& code, const std::string& message,
                  const json& path, const std::string& error = "Bad Request") {
  INFO(r.text);
  REQUIRE(r.status == 400);
  CHECK(r.body["success"] == false);
  CHECK(r.body["code"] == "BAD_REQUEST");
  CHECK(r.body["error"] == error);
  REQUIRE(r.body["details"].is_array());
  REQUIRE_FALSE(r.body["details"].empty());
  const json& issue = r.body["details"][0];
  CHECK(issue["code"] == code);
  CHECK(issue["message"] == message);
  CHECK(issue["path"] == path);
  // The mock's own text of the same issue, with its path (an unknown key's names the key).
  const std::string hint = r.body["hint"];
  CHECK(hint.find(code == "unrecognized_keys" ? issue["keys"][0].get<std::string>() : message) !=
        std::string::npos);
}

/// Every `type` the v2 format entry schema accepts (strings and objects).
std::set<std::string> v2_format_types() {
  const auto& schemas = webdata::contract::SchemaSet::embedded();
  const json& doc = schemas.document("common/format-entry.v2");
  std::set<std::string> out;
  for (const auto& name : doc["anyOf"][0]["enum"]) out.insert(name.get<std::string>());
  for (const auto& [name, definition] : doc["definitions"].items()) {
    for (const auto& type : definition["properties"]["type"]["enum"]) out.insert(type.get<std::string>());
  }
  return out;
}

webdata::mock::Config fast_config() {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  return config;
}

}  // namespace

TEST_CASE("a URL without a top-level domain is refused where page URLs are taken",
          "[validation][urls]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  for (const std::string bad : {"notaurl", "https://nodot/page"}) {
    INFO(bad);
    for (const char* path : {"/v1/scrape", "/v2/scrape", "/v1/crawl", "/v2/crawl", "/v1/map",
                             "/v2/map"}) {
      INFO(path);
      expect_issue(api.post(path, {{"url", bad}}), "custom", kTld, {"url"});
    }
    for (const char* path : {"/v1/batch/scrape", "/v2/batch/scrape", "/v2/extract"}) {
      INFO(path);
      expect_issue(api.post(path, {{"urls", {"http://docs.example.test/", bad}},
                                   {"ignoreInvalidURLs", false}}),
                   "custom", kTld, {"urls", 1});
    }
  }
  expect_issue(api.post("/v2/scrape", {{"url", "ftp://docs.example.test/file"}}), "invalid_string",
               "URL uses unsupported protocol", {"url"});
  // Preview answers with the messages in its error.
  expect_issue(api.post("/v2/crawl/params-preview", {{"url", "notaurl"}, {"prompt", "docs"}}),
               "custom", kTld, {"url"}, std::string("Invalid request parameters: ") + kTld);
}

TEST_CASE("page URLs the mock's users point it at pass the URL rules", "[validation][urls]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  // Without a scheme `http://` is assumed; IP addresses and localhost are taken (nothing answers
  // there in the virtual web, so the scrape itself fails: it is not refused as input).
  CHECK(api.post("/v2/scrape", {{"url", "docs.example.test/"}}).status == 200);
  for (const char* url : {"http://127.0.0.1:9/", "http://localhost:9/x", "http://[::1]:9/",
                          "http://10.1.2.3/", "http://127.1:9/", "http://2130706433:9/"}) {
    INFO(url);
    const auto r = api.post("/v2/scrape", {{"url", url}});
    CHECK(r.status != 400);
    CHECK(r.body["success"] == false);
  }
  // ignoreInvalidURLs (v2's default, as the specification says) lists what the rules refuse, as
  // sent; v1 refuses them unless asked.
  for (const json& body : {json{{"urls", {"http://docs.example.test/", "notaurl"}}},
                           json{{"urls", {"http://docs.example.test/", "notaurl"}},
                                {"ignoreInvalidURLs", true}}}) {
    const auto listed = api.post("/v2/batch/scrape", body);
    REQUIRE(listed.status == 200);
    CHECK(listed.body["invalidURLs"] == json::array({"notaurl"}));
  }
  expect_issue(api.post("/v1/batch/scrape", {{"urls", {"http://docs.example.test/", "notaurl"}}}),
               "custom", kTld, {"urls", 1});
  const auto clean = api.post("/v2/batch/scrape", {{"urls", {"http://docs.example.test/"}}});
  REQUIRE(clean.status == 200);
  CHECK(clean.body["invalidURLs"] == json::array());
}

TEST_CASE("a body that is not an object or an array is malformed JSON", "[validation][json]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const ApiClient anonymous(mock.url(), "");
  for (const std::string body : {"\"abc\"", "42", "true", "null", " \"x\" "}) {
    INFO(body);
    for (const ApiClient* client : {&api, &anonymous}) {  // before authentication too
      const auto r = client->post_text("/v2/scrape", body);
      CHECK(r.status == 400);
      CHECK(r.body["code"] == "BAD_REQUEST_INVALID_JSON");
      CHECK(r.body["error"] == "Bad request, malformed JSON");
    }
  }
  // An array is JSON; it is then not the object the schema wants.
  expect_issue(api.post_text("/v2/scrape", "[]"), "invalid_type", "Expected object, received array",
               json::array());
}

TEST_CASE("refusals are the service's: Bad Request, Zod issues, its strict key messages",
          "[validation]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const json page = {{"url", "http://docs.example.test/"}};
  json unknown = page;
  unknown["notARealOption"] = 1;
  for (const char* version : {"v1", "v2"}) {
    INFO(version);
    const auto r = api.post(std::string("/") + version + "/scrape", unknown);
    expect_issue(r, "unrecognized_keys",
                 std::string("Unrecognized key in body -- please review the ") + version +
                     " API documentation for request body changes",
                 json::array());
    CHECK(r.body["details"][0]["keys"] == json::array({"notARealOption"}));
  }
  // Nested strict objects keep Zod's own words.
  json nested = page;
  nested["formats"] = {{{"type", "json"}, {"foo", 1}}};
  expect_issue(api.post("/v2/scrape", nested), "unrecognized_keys",
               "Unrecognized key(s) in object: 'foo'", {"formats", 0});
  // Bounds as Zod's positive(): greater than 0.
  json zero = page;
  zero["timeout"] = 0;
  const auto timeout = api.post("/v2/scrape", zero);
  expect_issue(timeout, "too_small", "Number must be greater than 0", {"timeout"});
  CHECK(timeout.body["details"][0]["inclusive"] == false);
  CHECK(timeout.body["details"][0]["exact"] == false);
  // v2 search says it in its own words.
  expect_issue(api.post("/v2/search", {{"query", "q"}, {"limit", 0}}), "too_small",
               "Number must be greater than 0", {"limit"}, "Invalid request body");
}

TEST_CASE("formats of no known type: a v2 union, a v1 enum in the service's order",
          "[validation][formats]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const json bogus = {{"url", "http://docs.example.test/"}, {"formats", {"bogus"}}};
  const auto v2 = api.post("/v2/scrape", bogus);
  expect_issue(v2, "invalid_union", "Invalid input", {"formats", 0});
  const json& errors = v2.body["details"][0]["unionErrors"];
  std::set<std::string> expected;
  for (const auto& error : errors) {
    REQUIRE(error["issues"].size() == 1);
    CHECK(error["name"] == "ZodError");
    const json& issue = error["issues"][0];
    CHECK(issue["code"] == "invalid_literal");
    CHECK(issue["received"] == "bogus");
    CHECK(issue["path"] == json({"formats", 0, "type"}));
    CHECK(issue["message"] ==
          "Invalid literal value, expected \"" + issue["expected"].get<std::string>() + "\"");
    expected.insert(issue["expected"].get<std::string>());
  }
  CHECK(expected == v2_format_types());  // every type the schema takes, none other
  CHECK(errors[0]["issues"][0]["expected"] == "markdown");

  const auto v1 = api.post("/v1/scrape", bogus);
  expect_issue(v1, "invalid_enum_value",
               "Invalid enum value. Expected 'markdown' | 'html' | 'rawHtml' | 'links' | "
               "'screenshot' | 'screenshot@fullPage' | 'extract' | 'json' | 'summary' | "
               "'changeTracking', received 'bogus'",
               {"formats", 0});
}

TEST_CASE("actions: a wait names one of milliseconds and selector, at most 50 actions",
          "[validation][actions]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const std::string either = "Either 'milliseconds' or 'selector' must be provided, but not both.";
  for (const json& wait : {json{{"type", "wait"}},
                           json{{"type", "wait"}, {"milliseconds", 10}, {"selector", "#a"}}}) {
    INFO(wait.dump());
    expect_issue(api.post("/v2/scrape", {{"url", "http://docs.example.test/"},
                                         {"actions", {{{"type", "click"}, {"selector", "a"}}, wait}}}),
                 "custom", either, {"actions", 1});
    expect_issue(api.post("/v1/crawl", {{"url", "http://docs.example.test/"},
                                        {"scrapeOptions", {{"actions", {wait}}}}}),
                 "custom", either, {"scrapeOptions", "actions", 0});
  }
  json many = json::array();
  for (int i = 0; i < 51; ++i) many.push_back({{"type", "scroll"}});
  expect_issue(api.post("/v2/scrape", {{"url", "http://docs.example.test/"}, {"actions", many}}),
               "custom", "Number of actions cannot exceed 50", {"actions"});
  many.erase(many.begin());
  CHECK(api.post("/v2/scrape", {{"url", "http://docs.example.test/"}, {"actions", many}}).status ==
        200);
}

TEST_CASE("webhook metadata holds strings", "[validation][webhooks]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const json hook = {{"url", "http://hooks.example.test/h"}, {"metadata", {{"a", 1}}}};
  for (const char* path : {"/v1/crawl", "/v2/crawl"}) {
    INFO(path);
    expect_issue(api.post(path, {{"url", "http://docs.example.test/"}, {"webhook", hook}}),
                 "invalid_type", "Expected string, received number", {"webhook", "metadata", "a"});
  }
  expect_issue(api.post("/v2/batch/scrape", {{"urls", {"http://docs.example.test/"}}, {"webhook", hook}}),
               "invalid_type", "Expected string, received number", {"webhook", "metadata", "a"});
  const json fine = {{"url", "http://hooks.example.test/h"}, {"metadata", {{"a", "1"}}}};
  CHECK(api.post("/v2/crawl", {{"url", "http://docs.example.test/"}, {"webhook", fine}}).status == 200);
}

TEST_CASE("crawl delay must be over 0 seconds, a fractional limit is taken",
          "[validation][crawl]") {
  RunningMock mock(fast_config());
  const ApiClient api(mock.url());
  for (const char* path : {"/v1/crawl", "/v2/crawl"}) {
    INFO(path);
    const auto r = api.post(path, {{"url", "http://docs.example.test/"}, {"delay", 0}});
    expect_issue(r, "too_small", "Number must be greater than 0", {"delay"});
    CHECK(r.body["details"][0]["minimum"] == 0);
    CHECK(r.body["details"][0]["inclusive"] == false);
  }
  // 2.5 admits three pages, as the service counts them (queued while fewer than the limit).
  const auto started = api.post("/v2/crawl", {{"url", "http://pages-50.synthetic.test/"},
                                              {"limit", 2.5},
                                              {"scrapeOptions", {{"formats", {"links"}}}}});
  REQUIRE(started.status == 200);
  const json done = api.wait_job("/v2/crawl/" + started.body["id"].get<std::string>());
  CHECK(done["status"] == "completed");
  CHECK(done["completed"] == 3);
}

TEST_CASE("a team without credits gets 402 before its body is read", "[validation][credits]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  REQUIRE(api.post("/__admin/settings/credits", {{"team", "team-1"}, {"credits", 0}}).status == 200);
  const json bad = {{"url", "notaurl"}, {"bogus", 1}};
  for (const char* path : {"/v1/scrape", "/v2/scrape", "/v2/crawl", "/v2/batch/scrape",
                           "/v2/map", "/v2/search", "/v2/extract"}) {
    INFO(path);
    const auto r = api.post(path, bad);
    CHECK(r.status == 402);
    CHECK(r.body["error"].get<std::string>().find("credit") != std::string::npos);
  }
  // Malformed JSON is still reported first (it is read before authentication).
  CHECK(api.post_text("/v2/scrape", "{").status == 400);
}

TEST_CASE("agent: a prompt of at most 10,000 characters, a schema the validator reads",
          "[validation][agent]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const auto long_prompt = api.post("/v2/agent", {{"prompt", std::string(10001, 'a')}});
  expect_issue(long_prompt, "too_big", "String must contain at most 10000 character(s)",
               {"prompt"});
  CHECK(long_prompt.body["details"][0]["maximum"] == 10000);
  CHECK(api.post("/v2/agent", {{"prompt", std::string(10000, 'a')}}).status == 200);

  const auto schema = api.post("/v2/agent", {{"prompt", "prices"}, {"schema", {{"type", 5}}}});
  INFO(schema.text);
  REQUIRE(schema.status == 400);
  CHECK(schema.body["details"][0]["code"] == "custom");
  CHECK(schema.body["details"][0]["path"] == json({"schema"}));
  CHECK(schema.body["details"][0]["message"].get<std::string>().rfind("Invalid JSON schema: ", 0) ==
        0);
  CHECK(api.post("/v2/agent", {{"prompt", "prices"},
                               {"schema", {{"type", "object"},
                                           {"properties", {{"price", {{"type", "number"}}}}}}}})
            .status == 200);
}

TEST_CASE("active crawls list their scrape options with every default of their version",
          "[jobs][active]") {
  auto config = fast_config();
  config.page_pacing_ms = 200;
  RunningMock mock(config);
  const ApiClient api(mock.url());
  std::map<std::string, std::string> ids;
  for (const char* version : {"v1", "v2"}) {
    const auto started = api.post(std::string("/") + version + "/crawl",
                                  {{"url", "http://pages-50.synthetic.test/"}});
    REQUIRE(started.status == 200);
    ids[started.body["id"]] = version;
  }
  const auto active = api.get("/v2/crawl/active");
  REQUIRE(active.status == 200);
  std::size_t seen = 0;
  for (const auto& entry : active.body["crawls"]) {
    const auto it = ids.find(entry["id"]);
    if (it == ids.end()) continue;
    ++seen;
    const bool v1 = it->second == "v1";
    INFO(entry.dump());
    const json& options = entry["options"];
    CHECK(options["limit"] == 10000);
    CHECK(options["includePaths"] == json::array());
    CHECK(options["excludePaths"] == json::array());
    const json& scrape = options["scrapeOptions"];
    CHECK(scrape["formats"] == json::array({"markdown"}));
    CHECK(scrape["onlyMainContent"] == true);
    CHECK(scrape["maxAge"] == (v1 ? 0 : 172800000));
    CHECK(scrape["proxy"] == (v1 ? "basic" : "auto"));
    CHECK(scrape["skipTlsVerification"] == !v1);
    CHECK(scrape["timeout"] == 30000);
    CHECK((v1 ? scrape["parsePDF"] == true : scrape["parsers"] == json::array({"pdf"})));
  }
  CHECK(seen == 2);
  for (const auto& [id, version] : ids) api.del("/" + version + "/crawl/" + id);
}
